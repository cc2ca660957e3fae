/**
 * `/runai status NAME`: state, the guide's meaning and next step, pods and times. A name the
 * asker may see in several clusters gets the status of each (it reads nothing it should not).
 */
import { describeKubeError } from '../../cluster/kinds.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { workloadId } from '../../model.js';
import type { WorkloadQuery } from '../parse-command.js';
import { statusesMessage, statusMessage } from '../../messages/replies.js';
import type { CheckpointReading } from '../../recovery/checkpoint.js';
import type { LogFinding } from '../../recovery/log-advice.js';
import { logFindingsOf } from '../../notify/log-findings.js';
import { checkpointReaderFor, findVisibleWorkloads, pickOne, withCurrentRawPods, type Asker, type Found } from './context.js';

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
  let logFindings: LogFinding[] = [];
  try {
    const read = await withCurrentRawPods(deps, found);
    workload = read.workload;
    logFindings = logFindingsOf(workload, read.rawPods);
  } catch (err) {
    podProblem = describeKubeError(err);
  }
  // Only a running workload is saving checkpoints now; its pods are read already (or could not be).
  let checkpoint: CheckpointReading | undefined;
  if (workload.state === 'Running') {
    checkpoint = podProblem ? { problem: `its pods could not be listed (${podProblem})` } : await checkpointReaderFor(deps).read(workload);
  }
  return statusMessage({
    checkpoint,
    logFindings,
    workload,
    now: deps.now(),
    stateSince: (await deps.store.getWorkload(workloadId(workload)))?.stateSince,
    uiUrl: deps.uiUrlFor(found.workload.cluster),
    podProblem,
  });
}
