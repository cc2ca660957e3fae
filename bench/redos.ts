/**
 * Linear time on untrusted text: pathological logs (long unterminated lines, repeated
 * token-like fragments, one 1 MB line, deep nesting) through every reader of workload text:
 * triage's stream scan, the archive's LineRedactor, and the Slack renderers (`/runai logs`,
 * the alert DM with the log and the command line). Prints the worst cost per MB and the
 * longest event-loop block while the logs are read as the bot reads them (chunks, with the
 * event loop turning between chunks; a renderer runs on the whole text at once, as it does).
 *
 * `node build/bench/redos.js [--quick | --bytes=N] [--verbose]` runs it alone; `npm run bench`
 * runs it with the rest.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { LineRedactor } from '../src/archive/redact-lines.js';
import type { Workload } from '../src/model.js';
import { buildWorkloadAlert } from '../src/messages/alert.js';
import { logsMessage } from '../src/messages/replies.js';
import { lastCheckpoint } from '../src/recovery/checkpoint.js';
import { diffSubmission } from '../src/recovery/diff.js';
import { logAdvice } from '../src/recovery/log-advice.js';
import { submissionOf } from '../src/recovery/submission.js';
import { triageStream } from '../src/triage/index.js';
import type { Report } from './figures.js';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

function repeat(fragment: string, bytes: number, newlineEvery = 0): string {
  const unit = newlineEvery ? `${fragment.repeat(newlineEvery)}\n` : fragment;
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** Lines made by `line` for 0, 1, 2…, about `bytes` in all: no two alike, so nothing may be remembered from one to the next. */
function numbered(line: (n: number) => string, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let n = 0; length < bytes; n++) {
    const l = line(n);
    parts.push(l);
    length += l.length;
  }
  return parts.join('').slice(0, bytes);
}

/** The inputs, each about `bytes` long. Names say what each one attacks. */
export function pathologicalInputs(bytes: number): Array<[string, string]> {
  const b64 = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkwYWJjZGVm';
  return [
    ['one line of a', repeat('a', bytes)],
    ['long word then space (\\S*$)', `${repeat('a', bytes - 1)} `],
    ['eyJ- x N', repeat('eyJ-', bytes)],
    ['xoxb- x N', repeat('xoxb-', bytes)],
    ['password= x N', repeat('password=', bytes)],
    ['password = x N, spaced', repeat('password = ', bytes)],
    ['a: x N', repeat('a:', bytes)],
    [':// x N', repeat('://', bytes)],
    ['a:// x N', repeat('a://b:', bytes)],
    ['a-a- x N (key names)', repeat('a-', bytes)],
    ['a.a. x N then =', `${repeat('a.', bytes - 2)}=x`],
    ['--a x N (flags)', repeat('--a ', bytes)],
    ['base64 run, one line', repeat(b64, bytes)],
    ['base64 runs of 39 + space', repeat(`${b64.slice(0, 39)} `, bytes)],
    ['base64 lines', repeat(b64, bytes, 2)],
    ['BEGIN PRIVATE KEY x N', repeat('-----BEGIN RSA PRIVATE KEY-----', bytes)],
    ['ESC[ x N', repeat('\x1b[', bytes)],
    ['ESC] x N (unterminated OSC)', repeat('\x1b]0;', bytes)],
    ['wandb + hex x N', `wandb ${repeat('0123456789abcdef', bytes - 6)}`],
    ['login -p x N', `docker login ${repeat(' -p', bytes - 13)}`],
    ['mysql -p x N', `mysql ${repeat(' -p', bytes - 6)}`],
    ['AKIA + 40-char runs', `AKIAIOSFODNN7EXAMPLE ${repeat('wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY12 ', bytes - 21)}`],
    ['Bearer x N', repeat('Bearer ', bytes)],
    ['authorization: x N', repeat('authorization: ', bytes)],
    ['"private_key": " unterminated', `"private_key": "${repeat('\\\\a', bytes - 16)}`],
    ['{"a": nesting', repeat('{"a": ', bytes)],
    ['[[[ nesting', repeat('[', bytes)],
    ['Traceback + error x N', repeat('Traceback (most recent call last):\nRuntimeError: x\n', bytes)],
    ['error words x N', repeat('error failed Exception ', bytes)],
    // A raise stands in for a cut traceback's exception line (first-error.ts standInForCutException).
    ['raise x N in a traceback', `Traceback (most recent call last):\n${repeat('    raise ValueError("x")\n', bytes - 35)}`],
    ['raise Error( x N, one line', repeat(' raise ValueError(', bytes)],
    ['raise with ") x N', ` raise ValueError(${repeat('")', bytes - 18)}a`],
    ['terminate then what() x N', repeat("terminate called after throwing an instance of 'E'\n  what():  x\n", bytes)],
    // The most lines per MB that each reach the classifier: every line is examined whole.
    ['err lines x N (4 bytes each)', repeat('err\n', bytes)],
    ['distinct Error: lines', numbered((n) => `Error: ${n}\n`, bytes)],
    ['zero-width x N', repeat('hf_\u200b', bytes)],
    ['-u x N', repeat(' -u a:', bytes)],
    ['sig= x N', repeat('&sig=', bytes)],
    ['progress bar redrawn x N', repeat('10%|#  | 1/10\r', bytes)],
    ['blank redraws x N', repeat(' \r', bytes)],
    // A box's borders come off a line (triage/line-prefix.ts): spaces before a border that never comes.
    ['box border then spaces x N', repeat(`| Status: ${' '.repeat(4000)}x\n`, bytes)],
    ['box border x N, one line', `| ${repeat('| ', bytes - 2)}`],
    // Shell syntax, for the command-line readers (src/recovery/shell.ts).
    ['$( x N (unclosed substitutions)', repeat('$(', bytes)],
    ['( x N (groups)', repeat('(', bytes)],
    ['" x N (quotes)', repeat('"\'', bytes)],
    ['<<E x N (heredocs)', repeat('x <<E\n', bytes)],
    ['|& x N (pipes)', repeat('a |& ', bytes)],
    ['bash -c python | tee x N', repeat('python t.py 2>&1 | tee -a /data/$RANK.log; ', bytes)],
  ];
}

function workload(command: string): Workload {
  return {
    uid: 'u', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'bench', namespace: 'runai-p', project: 'p',
    owner: 'alice', state: 'Failed', command: 'python', arguments: command, pods: [],
  };
}

async function* chunks(text: string): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += CHUNK) {
    yield bytes.subarray(i, i + CHUNK);
    await turn();
  }
}

/** Paths that read untrusted text; each takes the text and returns when done. */
const PATHS: Array<[string, (text: string) => Promise<unknown>]> = [
  ['triage stream', (text) => triageStream(chunks(text))],
  [
    'archive LineRedactor',
    async (text) => {
      const redactor = new LineRedactor();
      for await (const chunk of chunks(text)) redactor.push(chunk);
      redactor.end();
    },
  ],
  ['/runai logs reply', async (text) => logsMessage({ workload: workload('x'), pod: 'p', container: 'c', previous: false, text, tail: 1000, capped: false })],
  // As the notifier does it: the log triaged as it streams, then the DM built with the
  // triage and the same text as the workload's command line.
  ['alert DM (log and command)', async (text) => buildWorkloadAlert({ workload: workload(text), state: 'Failed', triage: await triageStream(chunks(text)) })],
];

/** A workload whose command line is the text, submitted with it as `bash -c` arguments. */
function submitted(text: string, tag: string) {
  return submissionOf({ kind: 'TrainingWorkload', spec: { image: { value: `img:${tag}` }, command: { value: 'bash' }, arguments: { value: `-c ${text}` } } });
}

/** The recovery readers of workload text: the command line (submission, advice, diff) and the log's tail (checkpoints). */
const RECOVERY_PATHS: Array<[string, (text: string) => Promise<unknown>]> = [
  ['submission + log advice', async (text) => logAdvice(submitted(text, '1'))],
  ['submission diff', async (text) => diffSubmission(submitted(text, '1'), submitted(`${text} x`, '2'))],
  ['checkpoint scan', async (text) => lastCheckpoint(text.split('\n'), new Date())],
];

export interface RedosFigures {
  worstMsPerMb: number;
  worst: string;
  maxBlockMs: number;
  p99BlockMs: number;
  rows: Array<{ input: string; path: string; ms: number }>;
}

export async function benchRedos(bytes: number, onRow?: (row: { input: string; path: string; ms: number }) => void, paths = PATHS): Promise<RedosFigures> {
  const rows: RedosFigures['rows'] = [];
  // Warm-up on small copies: a running bot compiled these paths long before a hostile log
  // arrives, and the first call of a path would otherwise count V8's compiling as scanning.
  for (const [, text] of pathologicalInputs(Math.min(bytes, 256 * 1024))) for (const [, run] of paths) for (let i = 0; i < 2; i++) await run(text);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  for (const [input, text] of pathologicalInputs(bytes)) {
    for (const [path, run] of paths) {
      // The least of three runs: on a shared machine other processes only ever add time.
      let ms = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await run(text);
        ms = Math.min(ms, performance.now() - started);
      }
      const row = { input, path, ms };
      rows.push(row);
      onRow?.(row);
      await turn();
    }
  }
  histogram.disable();
  const worstRow = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
  return {
    worstMsPerMb: worstRow.ms / (bytes / MB),
    worst: `${worstRow.input} through ${worstRow.path}`,
    maxBlockMs: histogram.max / 1e6,
    p99BlockMs: histogram.percentile(99) / 1e6,
    rows,
  };
}

export async function addRedosFigures(bytes: number, report: Report): Promise<void> {
  const r = await benchRedos(bytes);
  const inputs = r.rows.length / PATHS.length;
  report.add({
    name: 'triage_worst_case_ms_per_mb',
    value: r.worstMsPerMb,
    unit: 'ms/MB',
    target: { op: '<=', value: 100 },
    note: `worst of ${inputs} pathological ${(bytes / MB).toFixed(2)} MB inputs x ${PATHS.length} paths: ${r.worst}`,
  });
  report.add({
    name: 'redos_max_event_loop_block_ms',
    value: r.maxBlockMs,
    unit: 'ms',
    target: { op: '<=', value: 100 },
    note: `perf_hooks.monitorEventLoopDelay max while the inputs are read in 64 KB chunks and rendered (p99 ${r.p99BlockMs.toFixed(1)} ms; a busy shared machine adds descheduling to the max)`,
  });
  const recovery = await benchRedos(bytes, undefined, RECOVERY_PATHS);
  report.add({
    name: 'recovery_worst_case_ms_per_mb',
    value: recovery.worstMsPerMb,
    unit: 'ms/MB',
    target: { op: '<=', value: 100 },
    note: `worst of ${inputs} pathological inputs as a bash -c command line (submission, log advice, diff; cut at 16 KB) and as a log tail (checkpoint scan): ${recovery.worst}`,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const asked = process.argv.find((a) => a.startsWith('--bytes='));
  const bytes = asked ? Number(asked.slice('--bytes='.length)) : process.argv.includes('--quick') ? MB / 4 : MB;
  const verbose = process.argv.includes('--verbose');
  const r = await benchRedos(bytes, verbose ? (row) => process.stderr.write(`${row.ms.toFixed(1).padStart(9)} ms  ${row.path.padEnd(28)} ${row.input}\n`) : undefined);
  const { jsonLine } = await import('./figures.js');
  console.log(jsonLine({ name: 'triage_worst_case_ms_per_mb', value: r.worstMsPerMb, unit: 'ms/MB', target: { op: '<=', value: 100 } }));
  console.log(jsonLine({ name: 'redos_max_event_loop_block_ms', value: r.maxBlockMs, unit: 'ms', target: { op: '<=', value: 100 } }));
  const recovery = await benchRedos(bytes, verbose ? (row) => process.stderr.write(`${row.ms.toFixed(1).padStart(9)} ms  ${row.path.padEnd(28)} ${row.input}\n`) : undefined, RECOVERY_PATHS);
  console.log(jsonLine({ name: 'recovery_worst_case_ms_per_mb', value: recovery.worstMsPerMb, unit: 'ms/MB', target: { op: '<=', value: 100 } }));
  process.stderr.write(`recovery worst: ${recovery.worst}\n`);
  process.stderr.write(`worst: ${r.worst}; event-loop delay p99 ${r.p99BlockMs.toFixed(1)} ms\n`);
}
