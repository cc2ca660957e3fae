/**
 * The log-saving findings (recovery/log-advice.ts) of a workload as the surfaces know it: its
 * command, arguments and image as the reconciler cached them, and its pods as just read, which
 * carry what the cached workload does not (environment names, volumes and mounts, the
 * container's own command when the workload gives none) — the same Submission an alert builds
 * (recovery/workload-submission.ts).
 */
import type { Workload } from '../model.js';
import { logAdvice, type LogFinding } from '../recovery/log-advice.js';
import { submissionOfWorkload } from '../recovery/workload-submission.js';

export function logFindingsOf(workload: Workload, rawPods: readonly unknown[]): LogFinding[] {
  // Without a pod its mounts and environment are unknown: "not on persistent storage" would be a guess.
  if (!rawPods.length) return [];
  return logAdvice(submissionOfWorkload(workload, rawPods));
}
