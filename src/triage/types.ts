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
}

/** What decided the category: the log itself, or a hint when the log had no real error. */
export type Evidence = 'log' | 'termination-reason' | 'exit-code' | 'event' | 'none';

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
