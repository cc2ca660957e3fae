/**
 * The controller: keeps the bot's picture of every workload in step with the cluster and
 * decides, level-triggered, what each owner is owed. A watch event only says "look at this
 * workload again"; the decision compares what the cluster shows with what the ledger says was
 * already told, so a restart, a relist or a burst of duplicate events all converge on the
 * same answer: one message per (workload, state), ever.
 */
import type { Logger } from 'pino';
import type { LifecycleState, Transition, Workload } from '../model.js';
import { MalformedWorkloadError, normalizeWorkload, objectRef, type NormalizeOptions } from '../cluster/normalize.js';
import type { WorkloadKindRef } from '../cluster/kinds.js';
import type { WorkloadEventHandler } from '../cluster/watcher.js';
import type { Store } from '../store/sqlite.js';

/** A message an owner is owed: about a state reached, or about a state that lasts too long. */
export interface OwedAlert {
  key: string;
  kind: 'state' | 'stuck';
  workload: Workload;
  raw: unknown;
  /** When the workload entered its current state. */
  since: Date;
  transition?: Transition;
}

/** What the reconciler asks for when an owner is owed a message. */
export interface AlertSink {
  /** Called whenever the message is owed and not yet sent or queued; the sink de-duplicates work in flight. */
  owed(alert: OwedAlert): void;
}

export interface ReconcilerOptions {
  store: Store;
  log: Logger;
  now(): Date;
  /** Options for normalising a workload of this namespace (its labels name the project). */
  normalize(namespace: string): NormalizeOptions;
  /** States that earn the owner a message on arrival. */
  alertStates: ReadonlySet<LifecycleState>;
  lookbackMs: number;
  sink: AlertSink;
  onTransition?(t: Transition): void;
  onMalformed?(ref: string, reason: string): void;
  /** Thresholds for workloads that stay Pending or Initializing too long; none: no such warnings. */
  stuck?: { pendingAfterMs(project: string): number; initializingAfterMs: number };
}

interface Cached {
  raw: unknown;
  workload: Workload;
  scopeKey: string;
}

export function alertKey(uid: string, state: LifecycleState): string {
  return `wl:${uid}:${state}`;
}

export function stuckKey(uid: string, state: LifecycleState): string {
  return `wl:${uid}:stuck-${state}`;
}

export class WorkloadReconciler implements WorkloadEventHandler {
  private readonly cache = new Map<string, Cached>();
  private synced = false;

  constructor(private readonly options: ReconcilerOptions) {}

  /** Workloads as last seen (read-only snapshots without pods). */
  workloads(): Workload[] {
    return [...this.cache.values()].map((c) => c.workload);
  }

  find(namespace: string, name: string): { workload: Workload; raw: unknown } | undefined {
    for (const c of this.cache.values()) if (c.workload.namespace === namespace && c.workload.name === name) return c;
    return undefined;
  }

  rawOf(uid: string): unknown {
    return this.cache.get(uid)?.raw;
  }

  /** The state the cluster shows now, or undefined when the workload is gone. */
  currentState(uid: string): LifecycleState | undefined {
    return this.cache.get(uid)?.workload.state;
  }

  /**
   * Owners of workloads Pending or Initializing for longer than the threshold are owed one
   * warning each. Time passes without events, so this runs on a timer.
   */
  checkStuck(): void {
    const { stuck, store, now } = this.options;
    if (!stuck || !this.synced) return;
    for (const { workload, raw } of this.cache.values()) {
      if (workload.state !== 'Pending' && workload.state !== 'Initializing') continue;
      const key = stuckKey(workload.uid, workload.state);
      if (store.wasSent(key) || store.isQueued(key)) continue;
      const stored = store.getWorkload(workload.uid);
      if (!stored || stored.state !== workload.state) continue;
      const since = new Date(stored.stateSince);
      const threshold = workload.state === 'Pending' ? stuck.pendingAfterMs(workload.project) : stuck.initializingAfterMs;
      if (now().getTime() - since.getTime() < threshold) continue;
      this.options.sink.owed({ key, kind: 'stuck', workload, raw, since });
    }
  }

  upsert(raw: unknown, kind: WorkloadKindRef): void {
    let workload: Workload;
    try {
      workload = normalizeWorkload(raw, [], this.options.normalize(objectRef(raw).namespace ?? ''));
    } catch (err) {
      if (!(err instanceof MalformedWorkloadError)) throw err;
      this.options.log.warn({ object: err.objectName, reason: err.message }, 'skipping malformed workload');
      this.options.onMalformed?.(err.objectName, err.message);
      return;
    }
    const scopeKey = `${kind.plural}|${workload.namespace}`;
    this.cache.set(workload.uid, { raw: slim(raw), workload, scopeKey });
    if (this.synced) this.reconcile(workload);
  }

  remove(raw: unknown): void {
    const { uid } = objectRef(raw);
    if (!uid) return;
    const cached = this.cache.get(uid);
    this.cache.delete(uid);
    if (cached && this.synced) this.markDeleted(cached.workload);
  }

  listed(kind: WorkloadKindRef, scope: string, uids: Set<string>): void {
    // A DELETED event missed while disconnected: the object is simply absent from the list.
    for (const [uid, cached] of this.cache) {
      const [plural, namespace] = cached.scopeKey.split('|');
      if (plural !== kind.plural || (scope !== '*' && namespace !== scope) || uids.has(uid)) continue;
      this.cache.delete(uid);
      if (this.synced) this.markDeleted(cached.workload);
    }
  }

  /** The first list is complete: from now on, decide. Reconciles everything once (catch-up). */
  markSynced(): void {
    this.synced = true;
    for (const { workload } of this.cache.values()) this.reconcile(workload);
  }

  reconcileAll(): void {
    if (this.synced) for (const { workload } of this.cache.values()) this.reconcile(workload);
  }

  private reconcile(workload: Workload): void {
    const { store, now } = this.options;
    const previous = store.getWorkload(workload.uid);
    let transition: Transition | undefined;
    let stateSince: string;
    if (!previous) {
      stateSince = estimateStateSince(workload) ?? now().toISOString();
    } else if (previous.state !== workload.state) {
      transition = { workload, from: previous.state as LifecycleState, to: workload.state, at: now() };
      stateSince = now().toISOString();
      this.options.onTransition?.(transition);
    } else {
      stateSince = previous.stateSince;
    }
    if (!previous || transition || previous.owner !== workload.owner || previous.deletedAt) remember(store, workload, stateSince);
    if (!this.options.alertStates.has(workload.state)) return;
    const key = alertKey(workload.uid, workload.state);
    if (store.wasSent(key) || store.isQueued(key)) return;
    // Catch-up after downtime is bounded: old news is not worth a DM.
    if (now().getTime() - Date.parse(stateSince) > this.options.lookbackMs) return;
    this.options.sink.owed({ key, kind: 'state', workload, raw: this.cache.get(workload.uid)?.raw, since: new Date(stateSince), transition });
  }

  private markDeleted(workload: Workload): void {
    const { store, now } = this.options;
    const previous = store.getWorkload(workload.uid);
    if (previous?.deletedAt) return;
    const deleted: Workload = { ...workload, state: 'Deleted' };
    this.options.onTransition?.({ workload: deleted, from: workload.state, to: 'Deleted', at: now() });
    remember(store, deleted, now().toISOString(), now().toISOString());
  }
}

function remember(store: Store, w: Workload, stateSince: string, deletedAt?: string): void {
  store.putWorkload({
    uid: w.uid,
    namespace: w.namespace,
    name: w.name,
    project: w.project,
    owner: w.owner,
    kind: w.kind,
    state: w.state,
    stateSince,
    snapshot: JSON.stringify(w),
    deletedAt,
  });
}

/** When a workload we have never seen entered its state, from what the CR itself says. */
function estimateStateSince(w: Workload): string | undefined {
  return w.phaseChangedAt ?? w.createdAt;
}

/** Watch objects carry managedFields and more that the bot never reads; drop them to save memory. */
function slim(raw: unknown): unknown {
  const obj = raw as { metadata?: Record<string, unknown> };
  if (obj?.metadata && 'managedFields' in obj.metadata) {
    const { managedFields: _ignored, ...metadata } = obj.metadata;
    return { ...obj, metadata };
  }
  return raw;
}
