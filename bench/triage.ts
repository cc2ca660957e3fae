/**
 * Triage of a big noisy log: throughput and peak memory of triageStream over a file (in a child
 * process), and grep -E with the triage prefilter's own anchors over the same file for scale.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PREFILTER } from '../src/triage/signatures.js';
import { tempDir } from './bot.js';
import { noiseLines, REAL_ERROR } from './noisy-log.js';
import type { TriageProcessResult } from './triage-process.js';

const TRIAGE_PROCESS = fileURLToPath(new URL('./triage-process.js', import.meta.url));
const BLOCK_LINES = 40_000;
const BLOCKS = 8;

/** Writes about `bytes` of noise, the real error, then 2,000 more lines of noise. Returns the error's line number. */
export function writeNoisyLog(path: string, bytes: number): { errorLine: number; bytes: number } {
  const blocks = Array.from({ length: BLOCKS }, (_, b) => Buffer.from(noiseLines(b * BLOCK_LINES, BLOCK_LINES)));
  const fd = openSync(path, 'w');
  let written = 0;
  let lines = 0;
  try {
    for (let b = 0; written < bytes; b++) {
      const block = blocks[b % BLOCKS];
      writeSync(fd, block);
      written += block.length;
      lines += BLOCK_LINES;
    }
    const tail = Buffer.from(REAL_ERROR + noiseLines(0, 2000));
    writeSync(fd, tail);
    written += tail.length;
  } finally {
    closeSync(fd);
  }
  // The exception line is the 8th line of REAL_ERROR.
  return { errorLine: lines + 8, bytes: written };
}

/** The prefilter's anchors as an ERE: what grep has to look for to do the same first pass. */
export function grepPattern(): string {
  return PREFILTER.source.replaceAll('(?:', '(');
}

export interface TriageFigures {
  bytes: number;
  triageMs: number;
  peakBytes: number;
  grepMs: number;
  found: boolean;
  category: string;
}

export function benchTriage(bytes: number): TriageFigures {
  const dir = tempDir('triage');
  const path = join(dir, 'noisy.log');
  try {
    const written = writeNoisyLog(path, bytes);
    // Read the file once so both readers start from the page cache.
    execFileSync('cat', [path], { stdio: ['ignore', 'ignore', 'inherit'] });
    const out = execFileSync(process.execPath, [TRIAGE_PROCESS, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const result = JSON.parse(out.trim().split('\n').pop()!) as TriageProcessResult;
    const grepStarted = performance.now();
    const grep = spawnSync('grep', ['-E', '-i', '-c', grepPattern(), path], { env: { ...process.env, LC_ALL: 'C' }, encoding: 'utf8' });
    const grepMs = performance.now() - grepStarted;
    if (grep.status !== 0 && grep.status !== 1) throw new Error(`grep failed: ${grep.stderr}`);
    return {
      bytes: written.bytes,
      triageMs: result.ms,
      peakBytes: result.hwmBytes - result.baselineRssBytes,
      grepMs,
      found: result.lineNumber === written.errorLine,
      category: result.category,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
