/**
 * `/runai logs NAME` and the "Show more of the log" button: the last lines of the container
 * that failed first (as the alert chose it), or else of the main container, redacted.
 */
import type { PodInfo, Workload } from '../../model.js';
import { failureCandidates } from '../../notify/enrich.js';
import type { ListenerDeps } from '../listeners.js';
import type { SlackMessage } from '../../messages/blocks.js';
import type { WorkloadQuery } from '../parse-command.js';
import { logsMessage, noPodsMessage } from '../../messages/replies.js';
import { withTimeout } from '../../lib/timeout.js';
import { CLUSTER_TIMEOUT_MS, findVisibleWorkload, withCurrentPods, type Asker, type Found } from './context.js';

/** Enough for `--tail 1000` of long lines; the reply shows ~10k characters of it anyway. */
const LOG_LIMIT_BYTES = 1024 * 1024;
/** Replica types whose pod is the one to read first in a distributed workload. */
const LEAD_REPLICAS = new Set(['master', 'launcher', 'leader', 'chief']);

export async function logsReply(asker: Asker, query: WorkloadQuery, tail: number, capped: boolean): Promise<SlackMessage> {
  const lookup = await findVisibleWorkload(asker, query, 'logs');
  if ('reply' in lookup) return lookup.reply;
  return logsOf(asker.deps, lookup.found, tail, capped);
}

interface LogTarget {
  pod: PodInfo;
  container: string;
  previous: boolean;
  why: string;
}

/** The failed container (earliest failure first), else the lead pod's first app container. */
export function logTarget(workload: Workload): LogTarget | undefined {
  const [failed] = failureCandidates(workload.pods);
  if (failed) return { pod: failed.pod, container: failed.container.name, previous: failed.previous, why: 'the container that failed first' };
  const pod = workload.pods.find((p) => LEAD_REPLICAS.has(p.replicaType ?? '')) ?? workload.pods[0];
  const container = pod?.containers.find((c) => !c.init) ?? pod?.containers[0];
  return pod && container ? { pod, container: container.name, previous: false, why: 'the first container' } : undefined;
}

export async function logsOf(deps: ListenerDeps, found: Found, tail: number, capped: boolean): Promise<SlackMessage> {
  const workload = await withCurrentPods(deps, found);
  const target = logTarget(workload);
  if (!target) return noPodsMessage(workload);
  const text = await withTimeout(
    (signal) => deps.readerFor(workload.cluster).readLog({
      namespace: workload.namespace,
      pod: target.pod.name,
      container: target.container,
      previous: target.previous || undefined,
      tailLines: tail,
      limitBytes: LOG_LIMIT_BYTES,
    }, signal),
    CLUSTER_TIMEOUT_MS,
    'reading the log',
  );
  const others = workload.pods.length > 1 ? `The workload has ${workload.pods.length} pods; this is ${target.why}.` : undefined;
  return logsMessage({ workload, pod: target.pod.name, container: target.container, previous: target.previous, text, tail, capped, note: others });
}

