/**
 * `/runai why NAME`: the triage the alert would give (first relevant error and advice), or for
 * a workload still waiting, what the scheduler said about it.
 */
import type { KubeEvent } from '../../cluster/reader.js';
import { enrichWorkload } from '../../notify/enrich.js';
import { logFindingsOf } from '../../notify/log-findings.js';
import { schedulingReasons } from '../../notify/scheduling.js';
import type { SlackMessage } from '../../messages/blocks.js';
import type { WorkloadQuery } from '../parse-command.js';
import { whyMessage } from '../../messages/replies.js';
import { CLUSTER_TIMEOUT_MS, findVisibleWorkload, type Asker } from './context.js';

/** Event reasons that explain a wait (runai-reference §5: scheduler events on Pods and PodGroups). */
export const WAIT_REASONS: ReadonlySet<string> = new Set([
  'Unschedulable', 'NotReady', 'Evict', 'FailedScheduling', 'FailedBinding', 'StaleJob',
  // The kubelet, while the platform prepares the pod (Initializing).
  'FailedMount', 'FailedAttachVolume', 'Failed', 'BackOff', 'ErrImagePull', 'ImagePullBackOff', 'FailedCreatePodSandBox',
]);
/** Run:ai's scheduler, and its upstream name. */
export const SCHEDULERS: ReadonlySet<string> = new Set(['runai-scheduler', 'kai-scheduler', 'default-scheduler']);

export function waitReasons(events: KubeEvent[]): KubeEvent[] {
  return events.filter((e) => WAIT_REASONS.has(e.reason ?? '') || (SCHEDULERS.has(e.component ?? '') && e.type === 'Warning'));
}

export async function whyReply(asker: Asker, query: WorkloadQuery): Promise<SlackMessage> {
  const lookup = await findVisibleWorkload(asker, query, 'why');
  if ('reply' in lookup) return lookup.reply;
  const { deps } = asker;
  const base = lookup.found.workload;
  const reader = deps.readerFor(base.cluster);
  const enriched = await enrichWorkload(base, {
    reader,
    ownerKeys: deps.config.owners.keys,
    tailLines: deps.config.alerts.logTailLines,
    timeoutMs: CLUSTER_TIMEOUT_MS,
  });
  const workload = enriched.workload;
  const where = enriched.site && [enriched.site.rank, `pod ${enriched.site.pod}`, enriched.site.container && `container ${enriched.site.container}`].filter(Boolean).join(', ');
  const waiting = base.state === 'Pending' || base.state === 'Initializing';
  const podGroups = waiting ? await reader.podGroupsOf(base.namespace, base.name).catch(() => []) : [];
  const plainReasons = waiting ? schedulingReasons(enriched.events, podGroups, enriched.workload.pods) : [];
  const logFindings = logFindingsOf(workload, enriched.rawPods);
  return whyMessage({ workload, triage: enriched.triage, where, schedulerReasons: waitReasons(enriched.events), plainReasons, logProblem: enriched.logProblem, logFindings });
}
