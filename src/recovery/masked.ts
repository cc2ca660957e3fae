/**
 * A workload that completed although its log ends in a fatal error, whose command pipes the
 * application through `tee` (or grep, …) without `pipefail`: Kubernetes saw the pipe's last
 * command succeed. That is *likely* masking, never certain: the error may have been caught and
 * the run finished well (NVIDIA/k8s-test-infra#560 first blamed `| tee` for a suite that
 * exited 0, then found the cause elsewhere), so the finding says "likely".
 */
import type { TriageResult } from '../triage/index.js';
import { factsOf, maskedExitFinding, type LogFinding } from './log-advice.js';
import type { Submission } from './submission.js';

/**
 * Triage's strength (types.ts) of an error worth the owner's attention: 2 an unrecognised
 * exception, 3 a recognised error, 4 a definitive termination reason. Below that (a secondary
 * error, a mere mention) the log does not show the run failed.
 */
export const MASKED_MIN_STRENGTH = 2;
/** The error must be among the log's last lines: one followed by much more output was survived. */
export const MASKED_TAIL_LINES = 100;

export interface MaskedFailure {
  /** The pipe that likely hid the failure (kind `masked-exit`). */
  finding: LogFinding;
  /** The error line, as triage redacted it (escape it where it is shown). */
  errorLine: string;
  lineNumber: number;
  categoryLabel: string;
}

/** A likely masked failure of a Completed workload, given the triage of its log's tail; undefined when there is none. */
export function maskedFailure(submission: Submission, tail: TriageResult): MaskedFailure | undefined {
  const error = tail.firstError;
  if (!error || tail.decidedBy !== 'log' || tail.strength < MASKED_MIN_STRENGTH) return undefined;
  if (tail.lineCount - error.lineNumber >= MASKED_TAIL_LINES) return undefined;
  const finding = maskedExitFinding(factsOf(submission));
  if (!finding) return undefined;
  return { finding, errorLine: error.line, lineNumber: error.lineNumber, categoryLabel: tail.categoryLabel };
}
