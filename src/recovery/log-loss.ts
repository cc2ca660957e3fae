/**
 * When a failure DM says why its log may be short: the log could not be read at all (no pods
 * left, no container to read, the read failed) or held fewer than SHORT_LOG_LINES lines. Then a
 * command that buffers Python's output or writes its log where it goes with the pod is the
 * likely reason, and worth one line (messages/log-advice.ts logLossLine). Pure.
 */
export const SHORT_LOG_LINES = 20;

export interface LogEvidence {
  /** Why the log could not be read, when it could not. */
  problem?: string;
  /** Lines of the log triage read (undefined: no log was read). */
  lineCount?: number;
}

export function logShortOrLost(evidence: LogEvidence): boolean {
  return evidence.problem !== undefined || evidence.lineCount === undefined || evidence.lineCount < SHORT_LOG_LINES;
}
