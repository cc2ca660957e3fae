/**
 * Whether a Completed workload likely failed behind a pipe (recovery/masked.ts): its command
 * pipes the application through `tee` (or grep, …) without `pipefail`, and the tail of its log
 * holds a fatal error triage is sure of. The command is read first, from what the alert read
 * anyway; only a command with such a pipe costs one bounded log read (the last
 * MASKED_TAIL_LINES lines of the main container), so a cluster's thousands of ordinary
 * completions cost nothing. A read that fails leaves the ordinary Completed notice.
 */
import type { PodInfo, Workload } from '../model.js';
import type { ClusterReader } from '../cluster/reader.js';
import { factsOf, maskedExitFinding } from '../recovery/log-advice.js';
import { MASKED_TAIL_LINES, maskedFailure, type MaskedFailure } from '../recovery/masked.js';
import type { Submission } from '../recovery/submission.js';
import { triageText } from '../triage/index.js';
import { withTimeout } from '../lib/timeout.js';
import { rankLabel } from '../cluster/normalize.js';
import { submissionOfWorkload } from '../recovery/workload-submission.js';

/** A tail of MASKED_TAIL_LINES lines is rarely this long; a log of progress bars can be. */
export const MASKED_TAIL_BYTES = 256 * 1024;

/** The pod and container whose log tells how the run ended: the launcher or master (rank 0), else the first pod; its first app container. */
export function mainContainer(pods: readonly PodInfo[]): { pod: PodInfo; container: string } | undefined {
  const lead = pods.find((p) => ['master', 'launcher', 'chief'].includes((p.replicaType ?? '').toLowerCase())) ?? pods[0];
  const container = lead?.containers.find((c) => !c.init);
  return lead && container ? { pod: lead, container: container.name } : undefined;
}

/**
 * Whether the command the workload's CR names pipes the application's output without pipefail:
 * read before anything is enriched, so that a Completed notice nobody opted in to costs a pod
 * list and a log read only when a masked failure could be said instead. A CR that names no
 * command keeps it in a pod template (a PyTorchJob, an MPIJob, a bare Pod): the cached workload
 * cannot tell, so the pods are read (one list) and decide; the log is read only if they pipe.
 */
export function mayHideFailure(workload: Workload): boolean {
  if (workload.command === undefined && workload.arguments === undefined) return true;
  return !!maskedExitFinding(factsOf(submissionOfWorkload(workload, [])));
}

export async function checkMaskedFailure(
  workload: Workload,
  submission: Submission,
  reader: Pick<ClusterReader, 'readLog'>,
  timeoutMs = 10_000,
): Promise<MaskedFailure | undefined> {
  if (!maskedExitFinding(factsOf(submission))) return undefined;
  const main = mainContainer(workload.pods);
  if (!main) return undefined;
  const log = await withTimeout(
    (signal) => reader.readLog({ namespace: workload.namespace, pod: main.pod.name, container: main.container, tailLines: MASKED_TAIL_LINES, limitBytes: MASKED_TAIL_BYTES }, signal),
    timeoutMs,
    'reading the log',
  );
  return maskedFailure(submission, triageText(log, undefined, { pod: main.pod.name, container: main.container, rank: rankLabel(main.pod) }));
}
