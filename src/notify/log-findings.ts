/**
 * The log-saving findings (recovery/log-advice.ts) of a workload as the surfaces know it: its
 * command, arguments and image as the reconciler cached them, and its pods as just read, which
 * carry what the cached workload does not (environment names, volumes and mounts, the
 * container's own command when the workload gives none).
 */
import type { Workload } from '../model.js';
import { logAdvice, type LogFinding } from '../recovery/log-advice.js';
import { submissionOf, type Submission } from '../recovery/submission.js';

export function logFindingsOf(workload: Workload, rawPods: readonly unknown[]): LogFinding[] {
  // Without a pod its mounts and environment are unknown: "not on persistent storage" would be a guess.
  if (!rawPods.length) return [];
  return logAdvice(submissionOfCached(workload, rawPods));
}

/** The Submission of a cached workload and its pods as just read (the masked-failure check's too). */
export function submissionOfCached(workload: Pick<Workload, 'kind' | 'command' | 'arguments' | 'image'>, rawPods: readonly unknown[]): Submission {
  const view = {
    kind: workload.kind,
    ...(workload.command !== undefined && { command: workload.command }),
    ...(workload.arguments !== undefined && { arguments: workload.arguments }),
    ...(workload.image !== undefined && { images: [workload.image] }),
  };
  return submissionOf(view, rawPods);
}
