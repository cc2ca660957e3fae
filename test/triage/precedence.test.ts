import { decideCategory } from '../../src/triage/classify.js';
import { PRECEDENCE, TIER } from '../../src/triage/precedence.js';
import type { Classification } from '../../src/triage/signatures.js';
import type { Category, EvidenceItem, TriageHints } from '../../src/triage/types.js';

/**
 * The precedence between the layers of one failure, row by row: each case is one where the
 * row decides, and the rows below it alone would decide otherwise.
 */
const line = (category: Category, tier: number = TIER.recognised): Classification => ({ category, tier, summary: `line: ${category}` });
const item = (role: EvidenceItem['role'], category: Category, extra: Partial<EvidenceItem> = {}): EvidenceItem => ({ role, category, summary: `${role}: ${category}`, recognised: true, lineNumber: 9, ...extra });

interface Row {
  line: Classification | null;
  evidence?: EvidenceItem[];
  hints?: TriageHints;
  category: Category;
  decidedBy?: string;
}

const CASES: Record<string, Row[]> = {
  'termination fact': [
    { line: line('gpu-oom'), hints: { reason: 'Evicted' }, category: 'eviction', decidedBy: 'termination-reason' },
    { line: line('nccl'), evidence: [item('detail', 'cuda')], hints: { reason: 'OOMKilled' }, category: 'host-oom', decidedBy: 'termination-reason' },
  ],
  'shared memory exhausted': [
    { line: line('nccl'), evidence: [item('detail', 'gpu-oom'), item('chain', 'host-oom', { kind: 'shared-memory' })], category: 'host-oom' },
    { line: line('crash', TIER.secondary), evidence: [item('detail', 'host-oom', { kind: 'shared-memory' })], hints: { exitCode: 139 }, category: 'host-oom' },
  ],
  'out of memory': [
    { line: line('nccl'), evidence: [item('detail', 'gpu-oom'), item('detail', 'cuda')], category: 'gpu-oom' },
    { line: line('scheduling'), evidence: [item('chain', 'gpu-oom')], category: 'gpu-oom' },
    { line: line('cuda'), evidence: [item('chain', 'host-oom')], category: 'host-oom' },
    // Not over a kind that is not a reporter of others' errors.
    { line: line('config'), evidence: [item('detail', 'gpu-oom')], category: 'config' },
    // Only a recognised error: an unrecognised exception says nothing about memory.
    { line: line('nccl'), evidence: [item('chain', 'gpu-oom', { recognised: false })], category: 'nccl' },
  ],
  'CUDA error under NCCL': [
    { line: line('nccl'), evidence: [item('detail', 'cuda')], category: 'cuda' },
    { line: line('nccl', TIER.secondary), evidence: [item('chain', 'cuda')], category: 'cuda' },
    { line: line('crash'), evidence: [item('chain', 'cuda')], hints: { exitCode: 134 }, category: 'cuda' },
    { line: line('import'), evidence: [item('detail', 'cuda')], category: 'import' },
  ],
  'the cause of a status': [
    // The Hub's 401 is a missing repository unless its client's own exception chained with it says gated.
    { line: { ...line('data-path'), kind: 'status' }, evidence: [item('chain', 'permission')], category: 'permission' },
    { line: { ...line('data-path'), kind: 'status' }, evidence: [item('last-exception', 'permission')], category: 'permission' },
    { line: { ...line('data-path'), kind: 'status' }, category: 'data-path' },
    // Only over a status: a recognised line that is not one keeps its category.
    { line: line('data-path'), evidence: [item('chain', 'permission')], category: 'data-path' },
    // Only a recognised exception says which cause it was.
    { line: { ...line('data-path'), kind: 'status' }, evidence: [item('chain', 'permission', { recognised: false })], category: 'data-path' },
  ],
  'the usage error NCCL names': [
    // NCCL's invalid usage is a report; its last error naming two ranks on one GPU is the job's configuration.
    { line: { ...line('nccl'), kind: 'report' }, evidence: [item('detail', 'config')], category: 'config' },
    { line: { ...line('nccl'), kind: 'report' }, category: 'nccl' },
    // Only over a report: an NCCL error that names its layer keeps it, and only a recognised detail counts.
    { line: line('nccl'), evidence: [item('detail', 'config')], category: 'nccl' },
    { line: { ...line('nccl'), kind: 'report' }, evidence: [item('detail', 'config', { recognised: false })], category: 'nccl' },
  ],
  'the cause a crash states': [
    // A failed CHECK that quotes `No such file or directory`: the missing file, not the abort.
    { line: line('crash'), evidence: [item('detail', 'data-path')], category: 'data-path' },
    // NCCL named on a crash line (`terminate called … c10::DistBackendError`) is a report: the crash stands here.
    { line: line('crash'), evidence: [item('detail', 'nccl')], category: 'crash' },
    // Only over a crash: another line keeps its kind.
    { line: line('cuda'), evidence: [item('detail', 'permission')], category: 'cuda' },
  ],
  "what the runtime could not do on the node": [
    // The runtime's report names, on the next line of its wrapped message, a node state of no
    // category (a GPU it has no CDI spec for).
    { line: { ...line('config'), kind: 'report' }, evidence: [item('detail', 'other')], category: 'other' },
    // Only over a report: a line that states its own cause keeps it.
    { line: line('config'), evidence: [item('detail', 'other')], category: 'config' },
  ],
  'the error line': [
    { line: line('permission'), evidence: [item('chain', 'data-path')], category: 'permission' },
    { line: line('image-pull'), hints: { exitCode: 137, events: [{ reason: 'FailedScheduling' }] }, category: 'image-pull', decidedBy: 'log' },
  ],
  'a chained exception': [
    { line: line('other', TIER.exception), evidence: [item('chain', 'data-path')], hints: { exitCode: 137 }, category: 'data-path' },
    { line: line('other', TIER.exception), evidence: [item('last-exception', 'permission')], category: 'permission' },
    // A recognised line of no category (a Job's backoff limit) is a diagnosis of its own.
    { line: line('other'), evidence: [item('chain', 'data-path')], category: 'other' },
    // A line known only by its exception's class (hydra.errors…) is as weak as one of no known kind.
    { line: { ...line('config', TIER.exception), kind: 'class' }, evidence: [item('chain', 'data-path')], category: 'data-path' },
  ],
  'pod events': [
    { line: line('nccl', TIER.secondary), hints: { events: [{ reason: 'FailedScheduling' }], exitCode: 137 }, category: 'scheduling', decidedBy: 'event' },
    { line: null, hints: { events: [{ reason: 'Failed', message: 'Failed to pull image "x:1": manifest unknown' }] }, category: 'image-pull', decidedBy: 'event' },
    // Not over an exception of the log's own.
    { line: line('other', TIER.exception), hints: { events: [{ reason: 'FailedScheduling' }] }, category: 'other', decidedBy: 'log' },
  ],
  'exit code': [
    { line: line('other', TIER.exception), hints: { exitCode: 139 }, category: 'crash', decidedBy: 'exit-code' },
    { line: line('nccl', TIER.secondary), hints: { exitCode: 127 }, category: 'config', decidedBy: 'exit-code' },
    { line: null, hints: { signal: 9 }, category: 'host-oom', decidedBy: 'exit-code' },
    // 127 overrules only a secondary error, not an exception.
    { line: line('other', TIER.exception), hints: { exitCode: 127 }, category: 'other', decidedBy: 'log' },
  ],
  'a signal the log reports': [
    { line: line('other', TIER.exception), evidence: [item('cascade', 'host-oom', { recognised: false })], category: 'host-oom', decidedBy: 'log' },
    { line: line('other', TIER.exception), evidence: [item('cascade', 'crash', { recognised: false })], category: 'crash', decidedBy: 'log' },
    // The cluster's exit code says how the container ended: above the log's own report.
    { line: line('other', TIER.exception), evidence: [item('cascade', 'host-oom', { recognised: false })], hints: { exitCode: 139 }, category: 'crash', decidedBy: 'exit-code' },
    // A watchdog's or a launcher's echo names no signal; a recognised line is a diagnosis of its own.
    { line: line('other', TIER.exception), evidence: [item('cascade', 'nccl', { recognised: false })], category: 'other', decidedBy: 'log' },
    { line: line('import'), evidence: [item('cascade', 'host-oom', { recognised: false })], category: 'import', decidedBy: 'log' },
  ],
  'layer words': [
    // Only a line of category other, below a recognised error; every recognised row above outranks it.
    { line: line('other', TIER.exception), evidence: [item('log-words', 'cuda', { recognised: false })], category: 'cuda', decidedBy: 'log' },
    { line: line('other', TIER.mention), evidence: [item('log-words', 'cuda', { recognised: false })], hints: { exitCode: 137 }, category: 'host-oom', decidedBy: 'exit-code' },
    { line: line('other', TIER.exception), evidence: [item('log-words', 'cuda', { recognised: false }), item('cascade', 'crash', { recognised: false })], category: 'crash', decidedBy: 'log' },
    { line: line('other', TIER.exception), evidence: [item('log-words', 'cuda', { recognised: false }), item('chain', 'import')], category: 'import', decidedBy: 'log' },
    { line: line('other', TIER.mention), evidence: [item('log-words', 'cuda', { recognised: false })], hints: { events: [{ reason: 'FailedMount' }] }, category: 'volume-mount', decidedBy: 'event' },
    { line: line('other', TIER.exception), evidence: [item('log-words', 'cuda', { recognised: false })], hints: { reason: 'OOMKilled' }, category: 'host-oom', decidedBy: 'termination-reason' },
    { line: { ...line('import', TIER.exception), kind: 'class' }, evidence: [item('log-words', 'cuda', { recognised: false })], category: 'import', decidedBy: 'log' },
    { line: line('config'), evidence: [item('log-words', 'cuda', { recognised: false })], category: 'config', decidedBy: 'log' },
  ],
  'learnt words': [
    // The same place as the layer words, and below them: the vote's reading, cited words, goes first.
    { line: line('other', TIER.exception), evidence: [item('learnt-words', 'gpu-oom', { recognised: false })], category: 'gpu-oom', decidedBy: 'log' },
    { line: null, evidence: [item('learnt-words', 'gpu-oom', { recognised: false })], category: 'gpu-oom', decidedBy: 'log' },
    { line: line('other', TIER.exception), evidence: [item('learnt-words', 'gpu-oom', { recognised: false }), item('log-words', 'cuda', { recognised: false })], category: 'cuda', decidedBy: 'log' },
    { line: line('other', TIER.mention), evidence: [item('learnt-words', 'gpu-oom', { recognised: false })], hints: { exitCode: 137 }, category: 'host-oom', decidedBy: 'exit-code' },
    { line: line('other', TIER.exception), evidence: [item('learnt-words', 'gpu-oom', { recognised: false }), item('cascade', 'crash', { recognised: false })], category: 'crash', decidedBy: 'log' },
    { line: { ...line('import', TIER.exception), kind: 'class' }, evidence: [item('learnt-words', 'gpu-oom', { recognised: false })], category: 'import', decidedBy: 'log' },
    { line: line('config'), evidence: [item('learnt-words', 'gpu-oom', { recognised: false })], category: 'config', decidedBy: 'log' },
  ],
  'whatever the line says': [
    { line: line('nccl', TIER.secondary), category: 'nccl', decidedBy: 'log' },
    { line: line('other', TIER.mention), hints: { exitCode: 1 }, category: 'other', decidedBy: 'log' },
  ],
};

describe('the precedence between the layers of a failure', () => {
  it('has cases for every row, and only for rows it has', () => {
    expect(Object.keys(CASES)).toEqual(PRECEDENCE.map((r) => r.name));
  });

  it.each(Object.entries(CASES).flatMap(([name, rows]) => rows.map((r, i) => [`${name} #${i + 1}`, r] as const)))('%s', (_name, r) => {
    const d = decideCategory(r.line, r.evidence ?? [], r.hints ?? {});
    expect(d.category).toBe(r.category);
    if (r.decidedBy) expect(d.decidedBy).toBe(r.decidedBy);
    expect(d.evidence[0].category).toBe(r.category);
  });

  it('says other without a diagnosis only when nothing named a kind', () => {
    expect(decideCategory(line('other', TIER.exception), [], {})).toMatchObject({ category: 'other', recognised: false });
    expect(decideCategory(null, [], {})).toMatchObject({ category: 'other', recognised: false, decidedBy: 'none' });
    expect(decideCategory(line('other'), [], {})).toMatchObject({ category: 'other', recognised: true });
    expect(decideCategory(line('nccl', TIER.secondary), [], {})).toMatchObject({ category: 'nccl', recognised: true });
    expect(decideCategory(line('other', TIER.mention), [], {})).toMatchObject({ category: 'other', recognised: false });
  });

  it('takes the retry verdict of the evidence that decided', () => {
    expect(decideCategory(line('other', TIER.exception), [item('chain', 'image-pull', { transient: true })], {}).transient).toBe(true);
    expect(decideCategory(line('nccl', TIER.secondary), [], { reason: 'Preempted' }).transient).toBe(true);
  });
});
