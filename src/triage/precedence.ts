import type { Category, EvidenceKind, EvidenceRole } from './types.js';

/**
 * Which evidence decides when the layers of one failure disagree. A failure is reported by
 * several layers at once: a CUDA error by NCCL's watchdog, an allocator's out-of-memory by a
 * model server's engine start-up, shared-memory exhaustion by NCCL or a bus error. The layer
 * that reports an error is rarely the one that has to change, so the rows below say which
 * kind of evidence outranks which category of the chosen line. The first row that applies
 * decides; the order is the precedence. Pure data: classify.ts walks it for a whole failure,
 * signatures.ts for the evidence within one line.
 */

/** How much a kind of line counts (the TriageResult `strength`). */
export const TIER = { recognised: 3, exception: 2, secondary: 1, mention: 0 } as const;

export interface PrecedenceRow {
  /** What the row is about, for the README and the tests. */
  name: string;
  /** Where the evidence may come from. */
  from: readonly EvidenceRole[];
  /** The categories of evidence the row takes; every category when absent. */
  categories?: readonly Category[];
  /** Only evidence of this kind. */
  kind?: EvidenceKind;
  /** The evidence must be a recognised error (a signature), not a mere exception or mention. */
  recognised?: boolean;
  /**
   * The categories of the chosen line that this evidence overrules ('any': whatever the line
   * says). A row applies only when the line's category is one of them.
   */
  over: readonly Category[] | 'any';
  /** Also overrules a line of any category that only reports another layer's failure (kind 'report'). */
  overReports?: boolean;
  /** Also overrules a line whose only evidence is its exception's class (kind 'class'), whatever layer that names. */
  overClassOnly?: boolean;
  /** Also overrules a line that is a status with more than one cause (kind 'status'). */
  overStatus?: boolean;
  /**
   * The chosen line must count less than this tier: 'recognised' for an exception of no known
   * kind or less, 'exception' for a line that is not even an exception. The exit code row has
   * a limit per code instead (EXIT_CODES in classify.ts).
   */
  lineBelow?: 'recognised' | 'exception' | 'per exit code';
  why: string;
}

/** Layers that report other layers' errors: a rank's NCCL abort, a native crash, an unknown exception. */
const REPORTERS: readonly Category[] = ['nccl', 'crash', 'other'];

/** Where a failure's own evidence comes from: the line, the lines after it, its chained exceptions. */
const FAILURE: readonly EvidenceRole[] = ['line', 'detail', 'chain'];

export const PRECEDENCE: readonly PrecedenceRow[] = [
  {
    name: 'termination fact',
    from: ['termination-reason'],
    over: 'any',
    why: 'Kubernetes recorded how the container or pod ended (OOMKilled, Evicted, Preempted, NodeLost, ErrImagePull…): a fact, whatever the log says',
  },
  {
    name: 'shared memory exhausted',
    from: FAILURE,
    kind: 'shared-memory',
    recognised: true,
    over: [...REPORTERS, 'cuda'],
    overReports: true,
    why: '/dev/shm is host memory: its exhaustion is host-oom even when NCCL, a DataLoader bus error or a CUDA call reports it',
  },
  {
    name: 'out of memory',
    from: [...FAILURE, 'cuda-after-nccl'],
    categories: ['gpu-oom', 'host-oom'],
    recognised: true,
    over: [...REPORTERS, 'cuda', 'scheduling'],
    overReports: true,
    why: "an allocator's out-of-memory is memory whoever wraps it: NCCL, a CUDA call, a model server's engine start-up, XLA, RMM",
  },
  {
    name: 'CUDA error under NCCL',
    from: [...FAILURE, 'cuda-after-nccl'],
    categories: ['cuda'],
    recognised: true,
    over: REPORTERS,
    overReports: true,
    why: 'a CUDA error reported through NCCL, its watchdog, an abort or the container runtime (its NVIDIA hook) is cuda: the kernel, the GPU or its driver failed, not the layer that reports it. Also across lines: a CUDA error the log records anywhere after an NCCL error line (NCCL\'s own `NCCL WARN Cuda failure` lines carry no rank prefix)',
  },
  {
    name: 'the cause of a status',
    from: ['chain', 'last-exception'],
    recognised: true,
    over: [],
    overStatus: true,
    why: "the line is a status a server answers for more than one cause (the Hugging Face Hub's 401: a missing repository, or a private or gated one asked for without a token); the client's own exception chained with it says which",
  },
  {
    name: 'the usage error NCCL names',
    from: ['detail'],
    categories: ['config'],
    recognised: true,
    over: [],
    overReports: true,
    why: "NCCL refused the call as invalid usage, and its `Last error:` line says what the job got wrong (two ranks on one GPU): the job's configuration, not the network between ranks",
  },
  {
    name: 'the cause a crash states',
    from: ['line', 'detail'],
    // Memory and CUDA take a crash line by the rows above; NCCL and an eviction's SIGTERM named
    // on a crash line are reports of another failure, so the line still gives place to its detail.
    categories: ['image-pull', 'scheduling', 'volume-mount', 'import', 'config', 'permission', 'data-path'],
    recognised: true,
    over: ['crash'],
    why: "a native abort that says why on its own line (a failed CHECK quoting `No such file or directory` or `Permission denied`) is that kind: the crash is how the program stopped, the cause is what to change",
  },
  {
    name: "what the runtime could not do on the node",
    from: ['line', 'detail'],
    categories: ['other'],
    recognised: true,
    over: [],
    overReports: true,
    why: "the container runtime's report (`OCI runtime create failed`) names on its own line, or on the next lines of its wrapped message, what it could not do on the node (a GPU it has no CDI spec for): that is the failure, and it is the node's set-up, which no change to the workload fixes",
  },
  {
    name: 'the error line',
    from: ['line'],
    recognised: true,
    over: 'any',
    why: 'the first relevant line names a known kind of error',
  },
  {
    name: 'a chained exception',
    from: ['chain', 'last-exception'],
    recognised: true,
    over: ['other'],
    overClassOnly: true,
    lineBelow: 'recognised',
    why: "the line is an exception of no known kind (or known only by its class's library); its cause, its wrapper or the run's last exception names one",
  },
  {
    name: 'pod events',
    from: ['pod-event'],
    over: 'any',
    lineBelow: 'exception',
    why: "events tell the pod's history (scheduling, pulls, mounts): they decide only when the log has no exception of its own",
  },
  {
    name: 'exit code',
    from: ['exit-code'],
    over: 'any',
    lineBelow: 'per exit code',
    why: 'an exit code that names a signal (137 SIGKILL, 139 SIGSEGV, 134 SIGABRT) overrules an exception of no known kind; 127, 126 and 143 only a secondary error',
  },
  {
    name: 'a signal the log reports',
    from: ['cascade'],
    categories: ['host-oom', 'crash'],
    over: ['other'],
    lineBelow: 'recognised',
    why: "the line is an exception of no known kind, and the log itself says a process died of a signal (torchrun's exitcode -9 or -11, mpirun's signal 9, the shell's Killed, C++'s terminate): what a 137, 139 or 134 exit code would say, so it counts as one",
  },
  {
    name: 'layer words',
    from: ['log-words'],
    over: ['other'],
    lineBelow: 'recognised',
    why: "nothing recognised decides and the line's category is other, but the log's error-looking lines clearly name one layer (cuda, cudnn, NCCL, gloo, shm, registry, Permission…: layer-words.ts): a weak reading, said to be one, rather than no reading",
  },
  {
    name: 'learnt words',
    from: ['learnt-words'],
    over: ['other'],
    lineBelow: 'recognised',
    why: "nothing recognised decides, the line's category is other and the layers' own words give no clear reading, but a model learnt from labelled failure logs reads the words of the log's last error-looking lines as one category with a posterior of at least 0.7 (learnt-words.ts): a guess, said to be one, rather than no reading",
  },
  {
    name: 'whatever the line says',
    from: ['line'],
    over: 'any',
    why: "a secondary error (a cascade), an unrecognised exception or a mention: the best the log has; an exception whose class belongs to a library of one kind of failure (hydra.errors, huggingface_hub.errors, botocore…: vocabulary.ts EXCEPTION_MODULES) is that library's layer, not other",
  },
];

/** What a row needs to know of a piece of evidence. */
export interface RowEvidence {
  category: Category;
  kind?: EvidenceKind;
  recognised: boolean;
}

/** Whether a row takes this evidence, ignoring where it came from and what the line says. */
export function rowTakes(row: PrecedenceRow, e: RowEvidence): boolean {
  if (row.recognised && !e.recognised) return false;
  if (row.kind !== undefined && e.kind !== row.kind) return false;
  return row.categories === undefined || row.categories.includes(e.category);
}

/** Whether a row may overrule a line of this category (and kind). */
export function rowOverrules(row: PrecedenceRow, lineCategory: Category, lineKind?: EvidenceKind): boolean {
  return row.over === 'any' || row.over.includes(lineCategory) || (row.overReports === true && lineKind === 'report') || (row.overClassOnly === true && lineKind === 'class') || (row.overStatus === true && lineKind === 'status');
}

/**
 * The rows that may overrule, from within the same line, what a line is first taken for: a
 * watchdog's timeout that quotes a CUDA error is that CUDA error, NCCL's warning about
 * /dev/shm is shared memory. The rows above the error line's own, in order.
 */
export const WITHIN_LINE_ROWS: readonly PrecedenceRow[] = PRECEDENCE.slice(0, PRECEDENCE.findIndex((r) => r.name === 'the error line')).filter((r) => r.from.includes('line'));

/**
 * Whether the first line gives its place to a detail line after it that decided the category:
 * a line that only says a process ended (a crash, an exception of no known kind) or that
 * another layer failed (a report) says less than the line that states why. An NCCL error keeps
 * its place: it names the failing layer (`unhandled cuda error`) and is where people look;
 * except to an out-of-memory after it, which says why the other end of the connection went
 * away (the kernel's OOM killer ending the process it was connected to).
 */
export function givesPlaceToDetail(line: { category: Category; kind?: EvidenceKind }, detail?: { category: Category }): boolean {
  if (line.category === 'nccl' && (detail?.category === 'host-oom' || detail?.category === 'gpu-oom')) return true;
  return line.category === 'crash' || line.category === 'other' || line.kind === 'report' || line.kind === 'class';
}
