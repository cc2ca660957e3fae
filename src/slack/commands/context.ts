/**
 * What every answer needs: who is asking (their verified Slack user ID and the cluster
 * identities it maps to), who may see what, and the workload they name, found only among the
 * workloads they may see. A workload they may not see and one that does not exist get the
 * same answer.
 */
import type { WebClient } from '@slack/web-api';
import type { Workload } from '../../model.js';
import { normalizeWorkload } from '../../cluster/normalize.js';
import { WorkloadAccess, type AccessReason } from '../../notify/access.js';
import type { ListenerDeps } from '../listeners.js';
import { slackMembershipSource } from '../membership.js';
import type { SlackMessage } from '../../messages/blocks.js';
import type { WorkloadQuery } from '../parse-command.js';
import { ambiguousMessage, refusalMessage } from '../../messages/replies.js';
import { withTimeout } from '../../lib/timeout.js';

/** Reads from the cluster on behalf of a person: bounded, so a slow cluster gets an answer. */
export const CLUSTER_TIMEOUT_MS = 10_000;

export interface Asker {
  deps: ListenerDeps;
  client: WebClient;
  userId: string;
  access: WorkloadAccess;
  /** The cluster identities of the asker (asked of Slack once per request). */
  identities(): Promise<ReadonlySet<string>>;
}

// One access policy (and membership cache) per running bot, shared by every surface.
const accessByDeps = new WeakMap<ListenerDeps, WorkloadAccess>();

function accessFor(deps: ListenerDeps, client: WebClient): WorkloadAccess {
  let access = accessByDeps.get(deps);
  if (!access) {
    access = new WorkloadAccess(deps.config, slackMembershipSource(client), deps.now, (what, err) =>
      deps.log.warn({ what, err: (err as Error).message }, 'cannot read project membership from Slack; treating as not a member'),
    );
    accessByDeps.set(deps, access);
  }
  return access;
}

export function askerFor(deps: ListenerDeps, client: WebClient, userId: string): Asker {
  let identities: Promise<ReadonlySet<string>> | undefined;
  return {
    deps,
    client,
    userId,
    access: accessFor(deps, client),
    identities: () => (identities ??= deps.owners.clusterIdentitiesOf(userId)),
  };
}

export interface Found {
  workload: Workload;
  raw: unknown;
  reason: AccessReason;
}

export type Lookup = { found: Found } | { reply: SlackMessage };

async function visible(asker: Asker, candidates: Array<{ workload: Workload; raw: unknown }>): Promise<Found[]> {
  const ids = await asker.identities();
  const out: Found[] = [];
  for (const c of candidates) {
    const reason = await asker.access.reasonToSee(asker.userId, ids, c.workload);
    if (reason) out.push({ ...c, reason });
  }
  return out;
}

/**
 * The workload `query` names among those the asker may see. Workloads they may not see are
 * left out before anything is said, so "which project?" never names a project they cannot see.
 */
export async function findVisibleWorkload(asker: Asker, query: WorkloadQuery): Promise<Lookup> {
  const { reconciler } = asker.deps;
  const named = reconciler
    .workloads()
    .filter((w) => w.name === query.name && (!query.project || w.project === query.project || w.namespace === query.project))
    .flatMap((w) => {
      const hit = reconciler.find(w.namespace, w.name);
      return hit ? [hit] : [];
    });
  const seen = await visible(asker, named);
  if (!seen.length) return { reply: refusalMessage(query.name) };
  if (seen.length > 1) return { reply: ambiguousMessage(query.name, [...new Set(seen.map((f) => f.workload.project))].sort()) };
  return { found: seen[0] };
}

/** The workload a button names by identifiers; permission is checked again on every click. */
export async function findByRef(asker: Asker, ref: { ns?: string; name?: string; uid?: string }): Promise<Lookup> {
  const name = typeof ref.name === 'string' ? ref.name : '';
  const hit = ref.ns && name ? asker.deps.reconciler.find(ref.ns, name) : undefined;
  // A different uid is a new workload under the old name, not the one the message was about.
  const candidates = hit && (!ref.uid || hit.workload.uid === ref.uid) ? [hit] : [];
  const [found] = await visible(asker, candidates);
  return found ? { found } : { reply: refusalMessage(name || 'unknown') };
}

/** The workload with its pods read now (the cache holds workloads without pods). */
export async function withPods(deps: ListenerDeps, found: Found): Promise<Workload> {
  const pods = await withTimeout((signal) => deps.reader.podsOf(found.workload.namespace, found.workload.name, signal), CLUSTER_TIMEOUT_MS, 'listing the pods');
  // Project, owner and state stay as the reconciler decided them; the pods come from now.
  return { ...found.workload, pods: normalizeWorkload(found.raw, pods, deps.normalize(found.workload.namespace)).pods };
}

/** Parses a button's value; anything malformed names no workload. */
export function parseRef(value: string | undefined): { ns?: string; name?: string; uid?: string; project?: string } {
  try {
    const parsed = JSON.parse(value ?? '') as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    const pick = (k: string) => (typeof (parsed as Record<string, unknown>)[k] === 'string' ? ((parsed as Record<string, unknown>)[k] as string) : undefined);
    return { ns: pick('ns'), name: pick('name'), uid: pick('uid'), project: pick('project') };
  } catch {
    return {};
  }
}
