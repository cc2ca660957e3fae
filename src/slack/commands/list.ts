/**
 * `/runai list`: the asker's own workloads, by state, newest first. With a filter (`-p`,
 * `--cluster`, `--state`) it is for the people who look after others: every workload the asker
 * may see (as owner, project member or admin, the one access rule of notify/access.ts) that
 * passes the filter. Whether a project exists is never told apart from "none you may see".
 */
import type { LifecycleState, Workload } from '../../model.js';
import { accessReason, ownsWorkload } from '../../notify/access.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { filteredListMessage, listMessage } from '../../messages/replies.js';
import type { ListFilter, ListState } from '../parse-command.js';
import type { Asker } from './context.js';

/** What each `--state` word means: "pending" is every workload still waiting to run. */
export const LIST_STATE_MEANS: Readonly<Record<ListState, readonly LifecycleState[]>> = {
  failed: ['Failed'],
  pending: ['Pending', 'Initializing'],
  running: ['Running'],
};

/** Whether `w` passes the filter. With one cluster, naming it (the parser accepts only its name) narrows nothing. */
export function passesFilter(filter: ListFilter, w: Workload, clusters: readonly string[]): boolean {
  if (filter.project && w.project !== filter.project && w.namespace !== filter.project) return false;
  if (filter.cluster && clusters.length > 1 && w.cluster !== filter.cluster) return false;
  return !filter.state || LIST_STATE_MEANS[filter.state].includes(w.state);
}

export async function listReply(asker: Asker, filter?: ListFilter): Promise<SlackMessage> {
  const identities = await asker.identities();
  const { reconciler, clusterNames, now } = asker.deps;
  if (!filter) {
    const mine = reconciler.workloads().filter((w) => ownsWorkload(identities, w.owner));
    return listMessage(mine, now());
  }
  const candidates = reconciler.workloads().filter((w) => passesFilter(filter, w, clusterNames));
  return filteredListMessage(await visibleAmong(asker, identities, candidates), filter, now());
}

/** The candidates the asker may see; membership is asked once per project, not once per workload. */
async function visibleAmong(asker: Asker, identities: ReadonlySet<string>, candidates: Workload[]): Promise<Workload[]> {
  const admin = asker.access.isAdmin(asker.userId);
  const memberOf = new Map<string, Promise<boolean>>();
  const isMember = (project: string) => {
    let member = memberOf.get(project);
    if (!member) memberOf.set(project, (member = asker.access.isProjectMember(asker.userId, project)));
    return member;
  };
  const out: Workload[] = [];
  for (const w of candidates) {
    const owner = ownsWorkload(identities, w.owner);
    const projectMember = admin || owner ? false : await isMember(w.project);
    if (accessReason({ admin, identities, projectMember }, w)) out.push(w);
  }
  return out;
}
