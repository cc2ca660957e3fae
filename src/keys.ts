/**
 * Every key the bot writes to its ledger and outbox (and the burst destinations it groups
 * under), built and read back here and nowhere else. A key is a kind prefix and its parts:
 *
 *   wl:<id>:<State>            an alert: the workload reached a lifecycle state
 *   wl:<id>:stuck-<State>      a stuck warning: Pending or Initializing too long
 *   burst:<anchor key>         the rewrite of the burst anchored at that alert
 *   ops-burst:<ISO time>       the operators' summary of a burst that began then
 *   cleanup:<owner>:<day>      one owner's cleanup nudge on one UTC day (YYYY-MM-DD)
 *   tip:<finding>:<week>:<owner> one owner's log-saving tip of that finding kind in week n (UTC
 *                              weeks since the epoch; log-tips.ts also reads week n-1's for a rolling week)
 *   mw:<reminder>              a maintenance reminder (its key is maintenance/plan.ts's own)
 *   archive:problem:<kind>:<n> the log archive's problem of that kind in generation n
 *   archive:recovered:<n>      the log archive working again, ending generation n
 *   fu:<id>:<n>-<event>        the n-th follow-up in the thread of the alert about workload <id>
 *                              (a thread reply, or the "failed again" DM)
 *   fu-root:<alert key>        the pending edit of that alert's first line (one per root)
 *   refused:<channel>:<day>    the operators' notice that Slack refuses posts in a channel, once a UTC day
 *
 * <id> is workloadId() (model.ts): `<cluster>/<uid>` in a named cluster, the bare uid in the one
 * unnamed cluster of a config without `clusters:`. Neither a uid nor a cluster name (a DNS
 * label) holds `:` or `/`, so an id ends at the first `:` and names its cluster by its `/`.
 * An owner may hold `:` (its day is read from the end); a reminder key is opaque. The stores
 * never spell a key: they take the prefixes below (retention, adoption) and keyInCluster().
 */
import { LIFECYCLE_STATES, splitWorkloadId, workloadId, type LifecycleState } from './model.js';

export const KEY_PREFIX = {
  workload: 'wl:',
  burst: 'burst:',
  opsBurst: 'ops-burst:',
  cleanup: 'cleanup:',
  tip: 'tip:',
  maintenance: 'mw:',
  archiveProblem: 'archive:problem:',
  archiveRecovered: 'archive:recovered:',
  followUp: 'fu:',
  rootEdit: 'fu-root:',
  refusedChannel: 'refused:',
} as const;

const STUCK = 'stuck-';

export type Key =
  | { kind: 'alert'; workload: string; state: LifecycleState }
  | { kind: 'stuck'; workload: string; state: LifecycleState }
  | { kind: 'burst'; anchor: string }
  | { kind: 'ops-burst'; openedAt: string }
  | { kind: 'cleanup'; owner: string; day: string }
  | { kind: 'tip'; finding: string; week: number; owner: string }
  | { kind: 'maintenance'; reminder: string }
  | { kind: 'archive-problem'; problem: string; generation: number }
  | { kind: 'archive-recovered'; generation: number }
  | { kind: 'follow-up'; workload: string; seq: number; event: string }
  | { kind: 'root-edit'; root: string }
  | { kind: 'refused-channel'; channel: string; day: string };

export function alertKey(id: string, state: LifecycleState): string {
  return `${KEY_PREFIX.workload}${id}:${state}`;
}

export function stuckKey(id: string, state: LifecycleState): string {
  return `${KEY_PREFIX.workload}${id}:${STUCK}${state}`;
}

export function burstRewriteKey(anchorKey: string): string {
  return KEY_PREFIX.burst + anchorKey;
}

export function opsBurstKey(openedAt: Date): string {
  return KEY_PREFIX.opsBurst + openedAt.toISOString();
}

/** One owner's nudge on the UTC day of `now`. */
export function cleanupKey(owner: string, now: Date): string {
  return `${KEY_PREFIX.cleanup}${owner}:${now.toISOString().slice(0, 10)}`;
}

const WEEK_MS = 7 * 86_400_000;

/** The week a tip key counts in: whole weeks since the epoch (UTC). */
export function tipWeek(now: Date): number {
  return Math.floor(now.getTime() / WEEK_MS);
}

/** One owner's tip about one kind of finding (a name without `:`) in one week (tipWeek()). */
export function tipKey(owner: string, finding: string, week: number): string {
  return `${KEY_PREFIX.tip}${finding}:${week}:${owner}`;
}

export function maintenanceKey(reminder: string): string {
  return KEY_PREFIX.maintenance + reminder;
}

export function archiveProblemKey(problem: string, generation: number): string {
  return `${KEY_PREFIX.archiveProblem}${problem}:${generation}`;
}

export function archiveRecoveredKey(generation: number): string {
  return KEY_PREFIX.archiveRecovered + generation;
}

/**
 * The n-th follow-up (counted from 1 over the thread's events) in the thread of the alert about
 * `rootId` (workloadId() of the workload first alerted). Deterministic, so a follow-up decided
 * twice (a restart, a second replica) is queued once.
 */
export function followUpKey(rootId: string, seq: number, event: string): string {
  return `${KEY_PREFIX.followUp}${rootId}:${seq}-${event}`;
}

/**
 * The edit of an alert's first line. One key per root: a new edit replaces the one still queued
 * (coalesced: chat.update is Tier 3), and once one is sent the next is queued under it again.
 */
export function rootEditKey(alertKeyOfRoot: string): string {
  return KEY_PREFIX.rootEdit + alertKeyOfRoot;
}

/**
 * The thread a workload's later life is told in: its cluster, namespace and name. A
 * resubmission (same name, new uid, same cluster and project) is in the same chain. Neither a
 * cluster name, a namespace nor a workload name holds `/`.
 */
export function followUpChain(w: { cluster?: string; namespace: string; name: string }): string {
  return `${w.cluster ?? ''}/${w.namespace}/${w.name}`;
}

const FOLLOW_UP_TAIL = /^(\d+)-([a-z]+)$/;

/** The operators' notice about a channel refusing the bot's posts, on the UTC day of `now`. */
export function refusedChannelKey(channel: string, now: Date): string {
  return `${KEY_PREFIX.refusedChannel}${channel}:${now.toISOString().slice(0, 10)}`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const GENERATION = /^\d+$/;
const STATES: ReadonlySet<string> = new Set(LIFECYCLE_STATES);

/** A key read back into its kind and parts; undefined for a string no builder above makes. */
export function parseKey(key: string): Key | undefined {
  const rest = (prefix: string) => (key.startsWith(prefix) && key.length > prefix.length ? key.slice(prefix.length) : undefined);
  let tail: string | undefined;
  if ((tail = rest(KEY_PREFIX.workload)) !== undefined) return workloadKey(tail);
  if ((tail = rest(KEY_PREFIX.burst)) !== undefined) return { kind: 'burst', anchor: tail };
  if ((tail = rest(KEY_PREFIX.rootEdit)) !== undefined) return { kind: 'root-edit', root: tail };
  if ((tail = rest(KEY_PREFIX.followUp)) !== undefined) {
    const [workload, said] = splitAtLast(tail);
    const m = FOLLOW_UP_TAIL.exec(said);
    const { cluster, uid } = splitWorkloadId(workload);
    return m && workload && cluster !== '' && uid && !uid.includes('/') && !workload.includes(':') ? { kind: 'follow-up', workload, seq: Number(m[1]), event: m[2] } : undefined;
  }
  if ((tail = rest(KEY_PREFIX.opsBurst)) !== undefined) return { kind: 'ops-burst', openedAt: tail };
  if ((tail = rest(KEY_PREFIX.maintenance)) !== undefined) return { kind: 'maintenance', reminder: tail };
  if ((tail = rest(KEY_PREFIX.tip)) !== undefined) {
    // The owner is last and may hold `:`; the finding and the week do not.
    const match = /^([^:]+):(\d+):(.+)$/s.exec(tail);
    return match ? { kind: 'tip', finding: match[1], week: Number(match[2]), owner: match[3] } : undefined;
  }
  if ((tail = rest(KEY_PREFIX.cleanup)) !== undefined) {
    const [owner, day] = splitAtLast(tail);
    return owner && DAY.test(day) ? { kind: 'cleanup', owner, day } : undefined;
  }
  if ((tail = rest(KEY_PREFIX.archiveProblem)) !== undefined) {
    const [problem, generation] = splitAtLast(tail);
    return problem && GENERATION.test(generation) ? { kind: 'archive-problem', problem, generation: Number(generation) } : undefined;
  }
  if ((tail = rest(KEY_PREFIX.refusedChannel)) !== undefined) {
    const [channel, day] = splitAtLast(tail);
    return channel && !channel.includes(':') && DAY.test(day) ? { kind: 'refused-channel', channel, day } : undefined;
  }
  if ((tail = rest(KEY_PREFIX.archiveRecovered)) !== undefined) {
    return GENERATION.test(tail) ? { kind: 'archive-recovered', generation: Number(tail) } : undefined;
  }
  return undefined;
}

function workloadKey(tail: string): Key | undefined {
  const colon = tail.indexOf(':');
  if (colon <= 0) return undefined;
  const workload = tail.slice(0, colon);
  const { cluster, uid } = splitWorkloadId(workload);
  if (cluster === '' || !uid || uid.includes('/')) return undefined;
  const said = tail.slice(colon + 1);
  const stuck = said.startsWith(STUCK);
  const state = stuck ? said.slice(STUCK.length) : said;
  if (!STATES.has(state)) return undefined;
  return { kind: stuck ? 'stuck' : 'alert', workload, state: state as LifecycleState };
}

/** `text` cut at its last `:`: [before, after]; ['', text] without one. */
function splitAtLast(text: string): [string, string] {
  const colon = text.lastIndexOf(':');
  return colon === -1 ? ['', text] : [text.slice(0, colon), text.slice(colon + 1)];
}

/** The workload (its workloadId()) an alert, a stuck warning or their burst rewrite is about. */
export function workloadOfKey(key: string): string | undefined {
  const parsed = parseKey(key);
  if (parsed?.kind === 'follow-up') return parsed.workload;
  if (parsed?.kind === 'root-edit') return workloadOfKey(parsed.root);
  if (parsed?.kind === 'burst') {
    const anchor = parseKey(parsed.anchor);
    return anchor?.kind === 'alert' || anchor?.kind === 'stuck' ? anchor.workload : undefined;
  }
  return parsed?.kind === 'alert' || parsed?.kind === 'stuck' ? parsed.workload : undefined;
}

/**
 * The same key about the same workload once the unnamed cluster is named `cluster` (the
 * single-cluster store's adoption, store/adoption-plan.ts); undefined for a key about no workload, or
 * about one already in a named cluster.
 */
export function keyInCluster(key: string, cluster: string): string | undefined {
  const parsed = parseKey(key);
  if (parsed?.kind === 'burst' || parsed?.kind === 'root-edit') {
    const anchor = keyInCluster(parsed.kind === 'burst' ? parsed.anchor : parsed.root, cluster);
    return anchor === undefined ? undefined : parsed.kind === 'burst' ? burstRewriteKey(anchor) : rootEditKey(anchor);
  }
  if ((parsed?.kind !== 'alert' && parsed?.kind !== 'stuck' && parsed?.kind !== 'follow-up') || splitWorkloadId(parsed.workload).cluster !== undefined) return undefined;
  const id = workloadId({ cluster, uid: parsed.workload });
  if (parsed.kind === 'follow-up') return followUpKey(id, parsed.seq, parsed.event);
  return parsed.kind === 'alert' ? alertKey(id, parsed.state) : stuckKey(id, parsed.state);
}

/** Where the keys keyInCluster() renames start: the stores read those, and only those. */
export const WORKLOAD_KEY_PREFIXES = [KEY_PREFIX.workload, KEY_PREFIX.burst + KEY_PREFIX.workload, KEY_PREFIX.followUp, KEY_PREFIX.rootEdit + KEY_PREFIX.workload] as const;

/**
 * The same follow-up chain (followUpChain) once the unnamed cluster is named `cluster`;
 * undefined for a chain already in a named cluster.
 */
export function chainInCluster(chain: string, cluster: string): string | undefined {
  return chain.startsWith('/') ? cluster + chain : undefined;
}

/**
 * Ledger keys retention may prune once old (and not about a workload still seen): losing them
 * cannot cause a repeat, since what they record is past its lookback, its day or its week. Maintenance
 * and archive keys stay for ever: a reminder or a problem report must never go out twice.
 */
export const PRUNABLE_KEY_PREFIXES = [KEY_PREFIX.workload, KEY_PREFIX.burst, KEY_PREFIX.opsBurst, KEY_PREFIX.cleanup, KEY_PREFIX.tip, KEY_PREFIX.refusedChannel, KEY_PREFIX.followUp, KEY_PREFIX.rootEdit] as const;

/** Of old ledger keys under PRUNABLE_KEY_PREFIXES, those retention removes: all but a `live` workload's. */
export function prunableKeys(keys: readonly string[], live: ReadonlySet<string>): string[] {
  return keys.filter((key) => {
    const workload = workloadOfKey(key);
    return workload === undefined || !live.has(workload);
  });
}

/** Who is grouped under a burst: an owner's Slack user, or a channel for one project's ownerless alerts. */
export type BurstDestination = { kind: 'user'; user: string } | { kind: 'channel'; channel: string; project: string };

const USER_DESTINATION = 'user:';
const CHANNEL_DESTINATION = 'channel:';

export function burstDestinationKey(destination: BurstDestination): string {
  return destination.kind === 'user' ? USER_DESTINATION + destination.user : `${CHANNEL_DESTINATION}${destination.channel}:${destination.project}`;
}

/** A Slack channel id holds no `:`; a project name may. */
export function parseBurstDestination(key: string): BurstDestination | undefined {
  if (key.startsWith(USER_DESTINATION)) return key.length > USER_DESTINATION.length ? { kind: 'user', user: key.slice(USER_DESTINATION.length) } : undefined;
  if (!key.startsWith(CHANNEL_DESTINATION)) return undefined;
  const rest = key.slice(CHANNEL_DESTINATION.length);
  const colon = rest.indexOf(':');
  return colon > 0 ? { kind: 'channel', channel: rest.slice(0, colon), project: rest.slice(colon + 1) } : undefined;
}

/** The ledger's recipient for a message not sent because the person muted it (README, "Delivery guarantee"). */
/** The ledger's recipient for an alert told as a reply in the thread of `rootKey` rather than on its own. */
export function inThreadRecipient(rootKey: string): string {
  return `thread:${rootKey}`;
}

export function mutedRecipient(userId: string): string {
  return `muted:${userId}`;
}
