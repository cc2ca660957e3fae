/**
 * `/runai status NAME`: state, the guide's meaning and next step, pods and times. A name the
 * asker may see in several clusters gets the status of each (it reads nothing it should not).
 */
import { describeKubeError } from '../../cluster/kinds.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { workloadId } from '../../model.js';
import type { WorkloadQuery } from '../parse-command.js';
import { statusesMessage, statusMessage } from '../../messages/replies.js';
import { findVisibleWorkloads, pickOne, withCurrentPods, type Asker, type Found } from './context.js';

/** More than this many clusters' answers would not fit one reply's 50 blocks. */
const STATUSES_SHOWN = 5;

export async function statusReply(asker: Asker, query: WorkloadQuery): Promise<SlackMessage> {
  const seen = await findVisibleWorkloads(asker, query);
  if (new Set(seen.map((f) => f.workload.cluster)).size > 1) {
    return statusesMessage(await Promise.all(seen.slice(0, STATUSES_SHOWN).map((found) => statusOf(asker, found))));
  }
  const lookup = pickOne(query, seen, 'status');
  return 'reply' in lookup ? lookup.reply : statusOf(asker, lookup.found);
}

async function statusOf(asker: Asker, found: Found): Promise<SlackMessage> {
  const { deps } = asker;
  let workload = found.workload;
  let podProblem: string | undefined;
  try {
    workload = await withCurrentPods(deps, found);
  } catch (err) {
    podProblem = describeKubeError(err);
  }
  return statusMessage({
    workload,
    now: deps.now(),
    stateSince: (await deps.store.getWorkload(workloadId(workload)))?.stateSince,
    uiUrl: deps.uiUrlFor(found.workload.cluster),
    podProblem,
  });
}
