/**
 * `runai-slack-bot triage-log FILE|- [--exit-code N] [--reason R] [--json]`: the triage the bot
 * does for a failed workload, on any log file a user hands it. Prints a summary, or with
 * --json one object, every string in it redacted. Exits 2 for a usage error, 1 when the file
 * cannot be read, 0 otherwise (whatever the log says).
 */
import { open } from 'node:fs/promises';
import type { Command } from 'commander';
import { triageStream, type TriageHints, type TriageResult } from '../triage/index.js';

const READ_CHUNK_BYTES = 64 * 1024;
const TAIL_LINES_SHOWN = 10;
export const EXIT = { ok: 0, unreadable: 1, usage: 2 } as const;

export interface TriageLogFlags {
  exitCode?: string;
  reason?: string;
  json?: boolean;
}

export interface TriageLogIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: AsyncIterable<Buffer | string>;
}

/**
 * Reads a file through two buffers used in turn: memory stays flat whatever the file's size,
 * and the next read runs while the consumer scans the chunk just read. A chunk is only valid
 * until the consumer asks for the next one (triageStream converts it at once).
 */
async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const handle = await open(path, 'r');
  const buffers = [Buffer.allocUnsafe(READ_CHUNK_BYTES), Buffer.allocUnsafe(READ_CHUNK_BYTES)];
  let current = 0;
  let pending = handle.read(buffers[current], 0, READ_CHUNK_BYTES, null);
  try {
    for (;;) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return;
      const next = 1 - current;
      pending = handle.read(buffers[next], 0, READ_CHUNK_BYTES, null);
      yield buffers[current].subarray(0, bytesRead);
      current = next;
    }
  } finally {
    // A consumer that stops early leaves one read in flight: let it end before closing.
    await pending.catch(() => undefined);
    await handle.close();
  }
}

/** Triage of a log file, streamed. */
export function triageLogFile(path: string, hints?: TriageHints): Promise<TriageResult> {
  return triageStream(fileChunks(path), hints);
}

function parseHints(flags: TriageLogFlags): TriageHints | string {
  const hints: TriageHints = {};
  if (flags.exitCode !== undefined) {
    if (!/^-?\d{1,3}$/.test(flags.exitCode.trim())) return `--exit-code: "${flags.exitCode}" is not an exit code (a number such as 137)`;
    hints.exitCode = Number(flags.exitCode);
  }
  if (flags.reason !== undefined) {
    if (flags.reason.trim() === '') return '--reason: give a reason such as OOMKilled or Evicted';
    hints.reason = flags.reason.trim();
  }
  return hints;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

export function formatSummary(name: string, r: TriageResult): string {
  const out: string[] = [];
  out.push(`${name}: ${plural(r.lineCount, 'line')}, ${plural(r.bytes, 'byte')}`);
  if (r.bytes === 0) out.push('The log is empty: there is no error line to show.');
  if (r.binary) out.push('Note: this looks like binary data (it contains NUL bytes); it was scanned as text anyway.');
  const kind = r.transient ? 'transient: a plain retry is sensible' : 'needs a change before a retry';
  out.push(`Category:    ${r.categoryLabel} (${kind})`);
  out.push(`What:        ${r.summary}`);
  if (r.decidedBy !== 'log' && r.decidedBy !== 'none') out.push(`Decided by:  the ${r.decidedBy.replace('-', ' ')}`);
  const e = r.firstError;
  if (e) {
    const where = e.source ? ` (${[e.source.pod, e.source.container, e.source.rank].filter(Boolean).join(', ')})` : '';
    // A guess's line is the one to read, not an error the triage recognised.
    out.push(`First error: line ${e.lineNumber}${where}${e.guessed ? ' (no line was recognised: the line the guess rests on)' : ''}`);
    const width = String(e.contextStartLine + e.context.length).length;
    e.context.forEach((line, i) => {
      const n = e.contextStartLine + i;
      out.push(`${n === e.lineNumber ? '>' : ' '} ${String(n).padStart(width)} | ${line}`);
    });
  } else if (r.bytes > 0) {
    out.push('First error: none found in the log.');
  }
  out.push(`Advice:      ${r.advice}`);
  if (r.tail.length > 0 && !e) {
    out.push('Last lines:');
    for (const line of r.tail.slice(-TAIL_LINES_SHOWN)) out.push(`  ${line}`);
  }
  return `${out.join('\n')}\n`;
}

/** The command's work, with its streams passed in; returns the exit code. */
export async function runTriageLog(file: string, flags: TriageLogFlags, io: TriageLogIo): Promise<number> {
  const hints = parseHints(flags);
  if (typeof hints === 'string') {
    io.stderr.write(`triage-log: ${hints}\n`);
    return EXIT.usage;
  }
  let result: TriageResult;
  try {
    result = file === '-' ? await triageStream(io.stdin, hints) : await triageLogFile(file, hints);
  } catch (err) {
    // Not `instanceof Error`: errors from fs may come from another realm (test VMs).
    const reason = typeof (err as { message?: unknown })?.message === 'string' ? (err as { message: string }).message : String(err);
    io.stderr.write(`triage-log: cannot read ${file === '-' ? 'standard input' : file}: ${reason}\n`);
    return EXIT.unreadable;
  }
  io.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : formatSummary(file === '-' ? 'stdin' : file, result));
  return EXIT.ok;
}

export function register(program: Command): void {
  program
    .command('triage-log')
    .description("find the first relevant error in a workload's log, classify it and say whether a retry is sensible")
    .argument('<file>', 'log file, or - for standard input')
    .option('--exit-code <n>', "the container's exit code (137: out of memory, 139: segfault)")
    .option('--reason <reason>', 'termination or pod reason, e.g. OOMKilled, Evicted, Preempted')
    .option('--json', 'print one JSON object instead of a summary')
    .exitOverride((err) => process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage))
    .action(async (file: string, flags: TriageLogFlags) => {
      process.exitCode = await runTriageLog(file, flags, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
    });
}
