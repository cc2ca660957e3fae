/** `/runai list`: the asker's own workloads, by state, newest first. */
import { ownsWorkload } from '../../notify/access.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { listMessage } from '../../messages/replies.js';
import type { Asker } from './context.js';

export async function listReply(asker: Asker): Promise<SlackMessage> {
  const identities = await asker.identities();
  const mine = asker.deps.reconciler.workloads().filter((w) => ownsWorkload(identities, w.owner));
  return listMessage(mine, asker.deps.now());
}
