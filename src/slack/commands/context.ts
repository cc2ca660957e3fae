/**
 * What every answer needs: who is asking (their verified Slack user ID and the cluster
 * identities it maps to), who may see what, and the workload they name, found only among the
 * workloads they may see. A workload they may not see and one that does not exist get the
 * same answer.
 */
import type { WebClient } from '@slack/web-api';
import { splitWorkloadId, type Workload } from '../../model.js';
import { withPods } from '../../cluster/normalize.js';
import { WorkloadAccess, type AccessReason } from '../../notify/access.js';
import type { ListenerDeps } from '../listeners.js';
import { slackMembershipSource } from '../membership.js';
import type { SlackMessage } from '../../messages/blocks.js';
import type { WorkloadQuery } from '../parse-command.js';
import { ambiguousClusterMessage, ambiguousMessage, refusalMessage } from '../../messages/replies.js';
import { qualifiedName } from '../../messages/cluster.js';
import { withTimeout } from '../../lib/timeout.js';
import { CheckpointReader } from '../../notify/checkpoints.js';

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
// One checkpoint reader per running bot: its concurrency limit holds across everyone asking.
const checkpointsByDeps = new WeakMap<ListenerDeps, CheckpointReader>();

export function checkpointReaderFor(deps: ListenerDeps): CheckpointReader {
  let reader = checkpointsByDeps.get(deps);
  if (!reader) {
    reader = new CheckpointReader({ readerFor: (c) => deps.readerFor(c), ownerKeys: deps.config.owners.keys, now: deps.now, timeoutMs: CLUSTER_TIMEOUT_MS });
    checkpointsByDeps.set(deps, reader);
  }
  return reader;
}

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
  /** As the reconciler cached it (no pods: withCurrentPods reads them). */
  workload: Workload;
  reason: AccessReason;
}

export type Lookup = { found: Found } | { reply: SlackMessage };

async function visible(asker: Asker, candidates: Workload[]): Promise<Found[]> {
  const ids = await asker.identities();
  const out: Found[] = [];
  for (const workload of candidates) {
    const reason = await asker.access.reasonToSee(asker.userId, ids, workload);
    if (reason) out.push({ workload, reason });
  }
  return out;
}

function matches(query: WorkloadQuery, w: Workload, clusters: readonly string[]): boolean {
  if (w.name !== query.name) return false;
  if (query.project && w.project !== query.project && w.namespace !== query.project) return false;
  // With one cluster, naming it (the parser accepts only its configured name) narrows nothing.
  return !query.cluster || clusters.length < 2 || w.cluster === query.cluster;
}

/**
 * Every workload `query` names, in every cluster, among those the asker may see. Workloads
 * they may not see are left out before anything is said, so "which project?" or "which
 * cluster?" never names one they cannot see.
 */
export async function findVisibleWorkloads(asker: Asker, query: WorkloadQuery): Promise<Found[]> {
  const { reconciler, clusterNames } = asker.deps;
  const named = reconciler.workloads().filter((w) => matches(query, w, clusterNames));
  return visible(asker, named);
}

/**
 * The one workload `query` names among those the asker may see, for a command that acts on
 * one (`verb`: logs, why, mute). A name seen in several clusters gets the choices, as they can
 * be typed, and the question which; in several projects of one cluster, the projects.
 */
export async function findVisibleWorkload(asker: Asker, query: WorkloadQuery, verb = 'status'): Promise<Lookup> {
  return pickOne(query, await findVisibleWorkloads(asker, query), verb);
}

export function pickOne(query: WorkloadQuery, seen: Found[], verb: string): Lookup {
  if (!seen.length) return { reply: refusalMessage(qualifiedName({ name: query.name, cluster: query.cluster })) };
  if (seen.length === 1) return { found: seen[0] };
  if (new Set(seen.map((f) => f.workload.cluster)).size > 1) return { reply: ambiguousClusterMessage(verb, query.name, choicesOf(seen)) };
  return { reply: ambiguousMessage(query.name, [...new Set(seen.map((f) => f.workload.project))].sort()) };
}

/** `gpu-east/train-1`, or `gpu-east/vision/train-1` where one cluster has it in two projects. */
function choicesOf(seen: Found[]): string[] {
  const perCluster = new Map<string | undefined, number>();
  for (const f of seen) perCluster.set(f.workload.cluster, (perCluster.get(f.workload.cluster) ?? 0) + 1);
  const choices = seen.map(({ workload: w }) => {
    const path = (perCluster.get(w.cluster) ?? 0) > 1 ? `${w.project}/${w.name}` : w.name;
    return w.cluster ? `${w.cluster}/${path}` : path;
  });
  return [...new Set(choices)].sort();
}

/**
 * The workload a button names by identifiers; permission is checked again on every click.
 * `uid` is workloadId(): `cluster/uid`, or a bare uid (one cluster, or a button from before
 * clusters had names, which still finds its workload by uid in whichever cluster holds it).
 */
export async function findByRef(asker: Asker, ref: { ns?: string; name?: string; uid?: string }): Promise<Lookup> {
  const name = typeof ref.name === 'string' ? ref.name : '';
  const { cluster, uid } = splitWorkloadId(ref.uid);
  // A different uid is a new workload under the old name, not the one the message was about.
  const candidates = ref.ns && name
    ? asker.deps.reconciler
        .workloads()
        .filter((w) => w.namespace === ref.ns && w.name === name && (cluster === undefined || w.cluster === cluster) && (!uid || w.uid === uid))
    : [];
  const [found] = await visible(asker, candidates);
  return found ? { found } : { reply: refusalMessage(name || 'unknown') };
}

/** The workload with its pods read now, from its own cluster (the cache holds workloads without pods). */
export async function withCurrentPods(deps: ListenerDeps, found: Found): Promise<Workload> {
  return (await withCurrentRawPods(deps, found)).workload;
}

/** The same, and the pods as the cluster gave them (for what the normalised pods leave out). */
export async function withCurrentRawPods(deps: ListenerDeps, found: Found): Promise<{ workload: Workload; rawPods: unknown[] }> {
  const reader = deps.readerFor(found.workload.cluster);
  const rawPods = await withTimeout((signal) => reader.podsOf(found.workload, signal), CLUSTER_TIMEOUT_MS, 'listing the pods');
  return { workload: withPods(found.workload, rawPods, { ownerKeys: deps.config.owners.keys }), rawPods };
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
