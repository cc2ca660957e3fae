/** `/runai status NAME`: state, the guide's meaning and next step, pods and times. */
import { describeKubeError } from '../../cluster/kinds.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { workloadId } from '../../model.js';
import type { WorkloadQuery } from '../parse-command.js';
import { statusMessage } from '../../messages/replies.js';
import { findVisibleWorkload, withPods, type Asker } from './context.js';

export async function statusReply(asker: Asker, query: WorkloadQuery): Promise<SlackMessage> {
  const lookup = await findVisibleWorkload(asker, query);
  if ('reply' in lookup) return lookup.reply;
  const { deps } = asker;
  let workload = lookup.found.workload;
  let podProblem: string | undefined;
  try {
    workload = await withPods(deps, lookup.found);
  } catch (err) {
    podProblem = describeKubeError(err);
  }
  return statusMessage({
    workload,
    now: deps.now(),
    stateSince: (await deps.store.getWorkload(workloadId(workload)))?.stateSince,
    uiUrl: deps.config.runai.uiUrl,
    podProblem,
  });
}
