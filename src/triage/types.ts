/**
 * Values of the triage module: what a log scan is told (hints, source) and what it answers.
 * Every string in a TriageResult is already redacted; `snippet` is also escaped for a Slack
 * code block.
 */

export type Category =
  | 'gpu-oom'
  | 'host-oom'
  | 'cuda'
  | 'nccl'
  | 'import'
  | 'data-path'
  | 'permission'
  | 'config'
  | 'image-pull'
  | 'scheduling'
  | 'volume-mount'
  | 'crash'
  | 'eviction'
  | 'other';

/** Where a log came from. `rank` is a label such as "worker 1" or "rank 3". */
export interface LogSource {
  pod?: string;
  container?: string;
  rank?: string;
}

export interface TriageHints {
  exitCode?: number;
  /** The signal that ended the container, when the runtime reports one instead of an exit code. */
  signal?: number;
  /** Container termination reason (OOMKilled, Error, …) or pod reason (Evicted, NodeLost, …). */
  reason?: string;
  /** The pod's events, newest last. */
  events?: Array<{ reason?: string; message?: string; type?: string }>;
}

export interface FirstError {
  /** The line, redacted and cleaned of control characters. */
  line: string;
  /** 1-based number of the physical (newline-terminated) line in the log. */
  lineNumber: number;
  source?: LogSource;
  /** Redacted lines around the error, the error line included. */
  context: string[];
  /** Line number of context[0]. */
  contextStartLine: number;
  /**
   * True when no line was recognised and this is the line a guess from the log's words rests on
   * (learnt-words.ts): the line to read, not a diagnosis.
   */
  guessed?: boolean;
}

/** What decided the category: the log itself, or a hint when the log had no real error. */
export type Evidence = 'log' | 'termination-reason' | 'exit-code' | 'event' | 'none';

/** Where a piece of evidence about a failure was found. */
export type EvidenceRole =
  /** The first relevant line. */
  | 'line'
  /** A recognised error among the lines right after it, from the same writer (NCCL's `Last error:`). */
  | 'detail'
  /** An exception chained with it: Python's cause or context, Java's `Caused by:`. */
  | 'chain'
  /** The last exception of the log, the one that ended the run. */
  | 'last-exception'
  /** The log's first secondary error (a cascade), where another line was chosen: a launcher's report of a signal. */
  | 'cascade'
  /**
   * The log's first recognised CUDA error (or GPU out-of-memory), after an NCCL error chosen as the
   * line, from any writer and at any distance: NCCL logs the CUDA failure it hit on its own WARN
   * lines, which carry no rank prefix, and the Python exception reporting it comes later or earlier.
   */
  | 'cuda-after-nccl'
  /** The container's termination reason or the pod's reason. */
  | 'termination-reason'
  | 'exit-code'
  | 'pod-event'
  /** The layer the words of the log's error-looking lines name, when nothing was recognised (layer-words.ts). */
  | 'log-words'
  /** A guess from the words of those lines by a model learnt from labelled logs, when the layer words gave none (learnt-words.ts). */
  | 'learnt-words';

/**
 * A finer kind of evidence than its category, where the precedence (precedence.ts) needs one:
 * shared memory is host memory with a precedence of its own; a report is a line that says
 * another layer failed (the container runtime saying a hook failed) without being the cause.
 */
/**
 * A finer kind than the category: `shared-memory` (/dev/shm is host memory), `report` (a line that
 * only reports another layer's failure), `class` (an exception of no known kind whose class belongs
 * to a library that raises one kind of failure: only its class points at the layer), `status` (a
 * status a server answers for more than one cause: its category is the likelier one, and a
 * recognised exception chained with it says which it was).
 */
export type EvidenceKind = 'shared-memory' | 'report' | 'class' | 'status';

/** One thing that points at a category, and where it was seen. */
export interface EvidenceItem {
  role: EvidenceRole;
  category: Category;
  kind?: EvidenceKind;
  summary: string;
  /** A recognised error (a signature), not a mere exception, status or mention. */
  recognised: boolean;
  /** Overrides the category's retry verdict (a network flake is transient). */
  transient?: boolean;
  /** Line number in the log, for evidence from the log. */
  lineNumber?: number;
}

export interface TriageResult {
  firstError: FirstError | null;
  category: Category;
  /** Human label of the category, e.g. "GPU out of memory". */
  categoryLabel: string;
  /** True when a plain retry is sensible (eviction, preemption, scheduling, network flake). */
  transient: boolean;
  /** The guide's Safe recovery sentence, plus what must change for an application error. */
  advice: string;
  /** Redacted, Slack-escaped tail of the log, bounded to SNIPPET_MAX_CHARS. */
  snippet: string;
  /** What was recognised, e.g. "CUDA ran out of GPU memory". */
  summary: string;
  decidedBy: Evidence;
  /** What was weighed for the category, the deciding item first (precedence.ts says how). */
  evidence: EvidenceItem[];
  /**
   * False when nothing named a kind of failure: the category is `other` for want of a better
   * one, and the alert says so rather than dressing it up as a diagnosis.
   */
  recognised: boolean;
  /**
   * How sure the pick is, for choosing across the pods of one workload: 4 a definitive
   * termination reason, 3 a recognised error, 2 an unrecognised exception, 1 a secondary
   * error (cascade, watchdog), 0 a mere mention, -1 nothing.
   */
  strength: number;
  /** Redacted, cleaned (not Slack-escaped) last lines of the log. */
  tail: string[];
  /** Physical lines and bytes (or UTF-16 units for text input) read. */
  lineCount: number;
  bytes: number;
  /** The input contained NUL bytes: probably not a text log. */
  binary: boolean;
}
