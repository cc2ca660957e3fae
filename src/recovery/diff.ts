/**
 * What changed between a failed or stopped workload and its resubmission, field by field, as
 * the guide's "Safe recovery" asks the owner to track: image, command and arguments,
 * environment variable names, data sources and mounts, GPU and memory requests, node pool.
 * Pure; every value in a change comes from a Submission, so it is already cut and redacted.
 */
import { diffArrays } from 'diff';
import { scriptTokens } from './shell.js';
import type { GpuRequest, Mount, Submission } from './submission.js';

export type ChangeKind =
  | 'image-repository'
  | 'image-tag'
  | 'image-digest'
  | 'command'
  | 'argument-added'
  | 'argument-removed'
  | 'argument-changed'
  | 'arguments-rewritten'
  | 'env-added'
  | 'env-removed'
  | 'mount-added'
  | 'mount-removed'
  | 'mount-changed'
  | 'gpu-devices'
  | 'gpu-fraction'
  | 'gpu-memory'
  | 'gpu-mig'
  | 'memory'
  | 'node-pool'
  | 'working-dir';

export interface SubmissionChange {
  kind: ChangeKind;
  /** The flag, variable name or mount path the change is about. */
  subject?: string;
  before?: string;
  after?: string;
}

/**
 * The most single-token edits the argument diff looks for. Myers' algorithm costs
 * O((N + M) · D) for D edits, so a cap on D keeps the diff linear in the length of the
 * command lines; past it the arguments are reported as rewritten.
 */
export const MAX_ARGUMENT_EDITS = 64;
/** Longest value a change keeps (a long argument, a rewritten script). */
const MAX_VALUE_CHARS = 300;

const SHELLS = /^(?:ba|da|z|k|a)?sh$/;

function clip(text: string): string {
  return text.length <= MAX_VALUE_CHARS ? text : `${text.slice(0, MAX_VALUE_CHARS - 1)}…`;
}

/**
 * argv as a diff sees it: a shell's `-c` script split into its words and operators, so a
 * change inside a long `bash -c "…"` line is one word, not the whole line.
 */
export function commandTokens(argv: readonly string[]): string[] {
  const program = argv[0]?.slice(argv[0].lastIndexOf('/') + 1) ?? '';
  if (SHELLS.test(program)) {
    const c = argv.findIndex((a, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
    if (c > 0 && c + 1 < argv.length) return [...argv.slice(0, c + 1), ...scriptTokens(argv[c + 1]), ...argv.slice(c + 2)];
  }
  return [...argv];
}

const FLAG = /^(--?[A-Za-z][\w.-]{0,100})=(.*)$/s;

/** One argument replaced by another: named after its flag where there is one (`--lr: 1e-4 → 3e-4`). */
function changedArgument(before: string, after: string, previous: string | undefined): SubmissionChange {
  const b = FLAG.exec(before);
  const a = FLAG.exec(after);
  if (b && a && b[1] === a[1]) return { kind: 'argument-changed', subject: b[1], before: clip(b[2]), after: clip(a[2]) };
  if (previous && /^--?[A-Za-z]/.test(previous) && !previous.includes('=')) return { kind: 'argument-changed', subject: previous, before: clip(before), after: clip(after) };
  return { kind: 'argument-changed', before: clip(before), after: clip(after) };
}

/** The token-level diff of two argument lists (the program excluded). */
export function argumentChanges(before: readonly string[], after: readonly string[]): SubmissionChange[] {
  const parts = diffArrays([...before], [...after], { maxEditLength: MAX_ARGUMENT_EDITS });
  if (!parts) return [{ kind: 'arguments-rewritten', before: `${before.length} words`, after: `${after.length} words` }];
  const out: SubmissionChange[] = [];
  let previous: string | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part.added && !part.removed) {
      previous = part.value[part.value.length - 1];
      continue;
    }
    const removed = part.removed ? part.value : [];
    const next = parts[i + 1];
    const added = part.removed && next?.added ? next.value : part.added ? part.value : [];
    if (part.removed && next?.added) i++;
    // Replaced words are paired in order (named after their flag); what is left over was added or removed.
    const paired = Math.min(removed.length, added.length);
    for (let j = 0; j < paired; j++) out.push(changedArgument(removed[j], added[j], j === 0 ? previous : removed[j - 1]));
    if (removed.length > paired) out.push({ kind: 'argument-removed', before: clip(removed.slice(paired).join(' ')) });
    if (added.length > paired) out.push({ kind: 'argument-added', after: clip(added.slice(paired).join(' ')) });
    previous = (added.length ? added : removed)[(added.length ? added : removed).length - 1];
  }
  return out;
}

function imageChanges(before: Submission['image'], after: Submission['image']): SubmissionChange[] {
  if (!before && !after) return [];
  if (!before || !after || before.repository !== after.repository) return [{ kind: 'image-repository', before: before?.ref, after: after?.ref }];
  if (before.tag !== after.tag) return [{ kind: 'image-tag', subject: before.repository, before: before.tag ?? 'latest', after: after.tag ?? 'latest' }];
  if (before.digest !== after.digest) return [{ kind: 'image-digest', subject: before.repository, before: before.digest?.slice(0, 19), after: after.digest?.slice(0, 19) }];
  return [];
}

function describeMount(m: Mount): string {
  return `${m.source} ${m.name}${m.readOnly ? ' (read-only)' : ''}`;
}

function mountChanges(before: readonly Mount[], after: readonly Mount[]): SubmissionChange[] {
  const out: SubmissionChange[] = [];
  const old = new Map(before.map((m) => [m.path, m]));
  const now = new Map(after.map((m) => [m.path, m]));
  for (const [path, m] of old) {
    const n = now.get(path);
    if (!n) out.push({ kind: 'mount-removed', subject: path, before: describeMount(m) });
    else if (describeMount(m) !== describeMount(n)) out.push({ kind: 'mount-changed', subject: path, before: describeMount(m), after: describeMount(n) });
  }
  for (const [path, n] of now) if (!old.has(path)) out.push({ kind: 'mount-added', subject: path, after: describeMount(n) });
  return out;
}

function setChanges(before: readonly string[], after: readonly string[], added: ChangeKind, removed: ChangeKind): SubmissionChange[] {
  const old = new Set(before);
  const now = new Set(after);
  return [
    ...[...now].filter((n) => !old.has(n)).map((subject) => ({ kind: added, subject })),
    ...[...old].filter((n) => !now.has(n)).map((subject) => ({ kind: removed, subject })),
  ];
}

function valueChange(kind: ChangeKind, before: string | undefined, after: string | undefined): SubmissionChange[] {
  return before === after ? [] : [{ kind, before, after }];
}

const GPU_FIELDS: ReadonlyArray<[keyof GpuRequest, ChangeKind]> = [
  ['devices', 'gpu-devices'],
  ['fraction', 'gpu-fraction'],
  ['memory', 'gpu-memory'],
  ['mig', 'gpu-mig'],
];

/** Every change from `previous` to `next`, in the order the guide lists what to keep: image, command, the rest. */
export function diffSubmission(previous: Submission, next: Submission): SubmissionChange[] {
  const before = commandTokens(previous.argv);
  const after = commandTokens(next.argv);
  const program = before[0] === after[0] ? [] : [{ kind: 'command' as const, before: before[0], after: after[0] }];
  return [
    ...imageChanges(previous.image, next.image),
    ...program,
    ...argumentChanges(before.slice(1), after.slice(1)),
    ...setChanges(previous.env, next.env, 'env-added', 'env-removed'),
    ...mountChanges(previous.mounts, next.mounts),
    ...GPU_FIELDS.flatMap(([field, kind]) => valueChange(kind, previous.gpu[field], next.gpu[field])),
    ...valueChange('memory', previous.memory, next.memory),
    ...valueChange('node-pool', previous.nodePools.join(', ') || undefined, next.nodePools.join(', ') || undefined),
    ...valueChange('working-dir', previous.workingDir, next.workingDir),
  ];
}

/** How the earlier attempt ended, as far as the resubmission advice needs it. */
export interface EarlierOutcome {
  state: 'Failed' | 'Stopped';
  /** Triage's verdict on the failure: a plain retry makes sense; undefined when not known. */
  transient?: boolean;
}

export type ResubmissionVerdict = 'one-change' | 'several-changes' | 'unchanged-after-application-error' | 'unchanged-after-transient-failure' | 'unchanged-after-stop' | 'unchanged';

/** What the guide's Safe recovery says about this resubmission. */
export function resubmissionVerdict(changes: readonly SubmissionChange[], earlier: EarlierOutcome): ResubmissionVerdict {
  if (changes.length === 1) return 'one-change';
  if (changes.length > 1) return 'several-changes';
  if (earlier.state === 'Stopped') return 'unchanged-after-stop';
  if (earlier.transient === true) return 'unchanged-after-transient-failure';
  if (earlier.transient === false) return 'unchanged-after-application-error';
  return 'unchanged';
}
