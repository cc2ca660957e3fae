/**
 * What a change of a workload means: the one decision of the controller, as pure functions.
 * The reconciler reads what it remembers (the store) and what the cluster shows (the cache),
 * asks these functions, and applies the answer — it decides nothing itself. `now` is a
 * parameter, so every rule (catch-up lookback, stuck thresholds, deletions) is tested row by row.
 *
 * A decision never says "already told": that fact lives in the ledger and outbox. It says what
 * is owed if nobody has been told yet; the caller drops what the ledger already has.
 */
import { alertKey, stuckKey } from '../keys.js';
import { workloadId, type LifecycleState, type Transition, type Workload } from '../model.js';

/** What the bot remembers of a workload between events and across restarts. */
export interface Remembered {
  state: LifecycleState;
  /** When the workload entered `state` (ISO). */
  stateSince: string;
  owner?: string;
  /** Set once the workload was seen gone. */
  deletedAt?: string;
}

/** A message owed to the workload's owner, identified by its ledger key. */
export interface Owed {
  key: string;
  /** When the workload entered the state the message is about. */
  since: Date;
}

export interface ChangeDecision {
  /** Write this to memory; undefined: memory is already right. */
  remember?: Remembered;
  /** The workload moved to another state since it was last remembered. */
  transition?: Transition;
  /** Owed unless the ledger or outbox already has `owed.key`. */
  owed?: Owed;
}

export interface ChangeRules {
  /** States that earn the owner a message on arrival. */
  alertStates: ReadonlySet<LifecycleState>;
  /** A state entered longer ago than this is old news after downtime: nothing is owed. */
  lookbackMs: number;
}

export interface StuckRules {
  pendingAfterMs(project: string): number;
  initializingAfterMs: number;
}

/**
 * A workload as the cluster shows it now, against what was remembered. Level-triggered: the
 * same snapshot decided twice gives the same answer, so relists and restarts converge.
 *
 * When a state began is the cluster's word where it has one: the CR's own time for its phase
 * (`phaseChangedAt`), else `finishedAt`, when the failing containers ended (the caller reads the
 * pods for it, only where it can matter: see the reconciler's catch-up). So a failure that
 * happened while the bot was down is as old as it is, and one older than the lookback is
 * remembered (its state and since when) but owed to nobody. A time the cluster gives that cannot
 * be right — in the future, or before the remembered state began — is not trusted: the next one
 * is asked (the containers' after the CR's), else the change counts from now, since a wrong old
 * time would silence an alert and a late one only delays nothing. With no time at all, from now.
 */
export function decideChange(workload: Workload, previous: Remembered | undefined, now: Date, rules: ChangeRules, finishedAt?: string): ChangeDecision {
  let stateSince: string;
  let transition: Transition | undefined;
  if (!previous) {
    // First sight (a new workload, or the first start): trust what the CR says about when.
    stateSince = plausible(workload.phaseChangedAt ?? finishedAt ?? workload.createdAt, undefined, now) ?? now.toISOString();
  } else if (previous.state !== workload.state) {
    // A CR time that cannot be right gives way to the containers' (podsCouldDate reads the pods for exactly that case).
    stateSince = plausible(workload.phaseChangedAt, previous.stateSince, now) ?? plausible(finishedAt, previous.stateSince, now) ?? now.toISOString();
    transition = { workload, from: previous.state, to: workload.state, at: new Date(stateSince) };
  } else {
    stateSince = previous.stateSince;
  }
  const changed = !previous || !!transition || previous.owner !== workload.owner || !!previous.deletedAt;
  const remember = changed ? { state: workload.state, stateSince, owner: workload.owner } : undefined;

  let owed: Owed | undefined;
  const age = now.getTime() - Date.parse(stateSince);
  if (rules.alertStates.has(workload.state) && !(age > rules.lookbackMs)) {
    owed = { key: alertKey(workloadId(workload), workload.state), since: new Date(stateSince) };
  }
  return { remember, transition, owed };
}

/** `at` as an ISO time when it is a time no later than `now` and no earlier than `notBefore`; else undefined. */
function plausible(at: string | undefined, notBefore: string | undefined, now: Date): string | undefined {
  const t = Date.parse(at ?? '');
  if (Number.isNaN(t) || t > now.getTime()) return undefined;
  if (notBefore !== undefined && t < Date.parse(notBefore)) return undefined;
  return at;
}

/**
 * Whether reading the pods for `finishedAt` could change what decideChange owes: only for a
 * remembered workload that moved into an alert state, whose CR gives no time of its own, and
 * whose remembered state began longer ago than the lookback (a sane finishedAt is never earlier
 * than that, so otherwise the message is owed whatever the pods say).
 */
export function podsCouldDate(workload: Workload, previous: Remembered | undefined, now: Date, rules: ChangeRules): boolean {
  if (!previous || previous.state === workload.state || !rules.alertStates.has(workload.state)) return false;
  if (plausible(workload.phaseChangedAt, previous.stateSince, now)) return false;
  return now.getTime() - Date.parse(previous.stateSince) > rules.lookbackMs;
}

/**
 * The workload is gone from the cluster (a watch DELETED, or absent from a relist). Deleted
 * is remembered once, as a transition; it owes nobody a message.
 */
export function decideDeletion(workload: Workload, previous: Remembered | undefined, now: Date): ChangeDecision {
  if (previous?.deletedAt) return {};
  const at = now.toISOString();
  const deleted: Workload = { ...workload, state: 'Deleted' };
  return {
    remember: { state: 'Deleted', stateSince: at, owner: workload.owner, deletedAt: at },
    transition: { workload: deleted, from: workload.state, to: 'Deleted', at: now },
  };
}

/**
 * A workload Pending or Initializing for longer than its threshold owes its owner one
 * warning. Time passes without events, so this is asked on a timer. The threshold counts
 * from the remembered start of the state; a workload not yet remembered in this state has
 * no known start and is not judged.
 */
export function decideStuck(workload: Workload, previous: Remembered | undefined, now: Date, rules: StuckRules): Owed | undefined {
  const state = workload.state;
  if (state !== 'Pending' && state !== 'Initializing') return undefined;
  if (!previous || previous.state !== state) return undefined;
  const since = new Date(previous.stateSince);
  const threshold = state === 'Pending' ? rules.pendingAfterMs(workload.project) : rules.initializingAfterMs;
  if (now.getTime() - since.getTime() < threshold) return undefined;
  return { key: stuckKey(workloadId(workload), state), since };
}
