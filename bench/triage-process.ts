/**
 * Triages one log file in a child process, so its memory high-water mark belongs to triage
 * alone. Prints one JSON line: bytes, milliseconds, the baseline RSS before reading, the
 * high-water mark after, and what triage found.
 */
import { createReadStream } from 'node:fs';
import { triageStream } from '../src/triage/index.js';
import { procMemory } from './bot-process.js';

export interface TriageProcessResult {
  bytes: number;
  ms: number;
  baselineRssBytes: number;
  hwmBytes: number;
  category: string;
  lineNumber?: number;
  line?: string;
}

async function main(path: string): Promise<void> {
  const baseline = procMemory();
  const started = performance.now();
  const result = await triageStream(createReadStream(path));
  const ms = performance.now() - started;
  const after = procMemory();
  const out: TriageProcessResult = {
    bytes: result.bytes,
    ms,
    baselineRssBytes: baseline.rss,
    hwmBytes: after.hwm,
    category: result.category,
    lineNumber: result.firstError?.lineNumber,
    line: result.firstError?.line,
  };
  console.log(JSON.stringify(out));
}

const path = process.argv[2];
if (path) {
  main(path).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
