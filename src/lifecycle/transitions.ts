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
 */
export function decideChange(workload: Workload, previous: Remembered | undefined, now: Date, rules: ChangeRules): ChangeDecision {
  let stateSince: string;
  let transition: Transition | undefined;
  if (!previous) {
    // First sight (a new workload, or the first start): trust what the CR says about when.
    stateSince = workload.phaseChangedAt ?? workload.createdAt ?? now.toISOString();
  } else if (previous.state !== workload.state) {
    transition = { workload, from: previous.state, to: workload.state, at: now };
    stateSince = now.toISOString();
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
