/**
 * The controller: keeps the bot's picture of every workload in step with the cluster (a cache
 * of what the watch shows, the store's memory of what was seen and told) and hands what each
 * owner is owed to the sink. A watch event only says "look at this workload again"; what the
 * change means is decided by the pure functions of lifecycle/transitions.ts, and the ledger
 * says what was already told, so a restart, a relist or a burst of duplicate events all
 * converge on the same answer: one message per (workload, state), ever.
 */
import type { Logger } from 'pino';
import type { LifecycleState, Transition, Workload } from '../model.js';
import { MalformedWorkloadError, normalizeWorkload, objectRef, type NormalizeOptions } from '../cluster/normalize.js';
import type { WorkloadKindRef } from '../cluster/kinds.js';
import type { WorkloadEventHandler } from '../cluster/watcher.js';
import type { Store, StoredWorkload } from '../store/sqlite.js';
import { decideChange, decideDeletion, decideStuck, type ChangeDecision, type Remembered } from '../lifecycle/transitions.js';

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
      const owed = decideStuck(workload, remembered(store.getWorkload(workload.uid)), now(), stuck);
      if (!owed || this.told(owed.key)) continue;
      this.options.sink.owed({ key: owed.key, kind: 'stuck', workload, raw, since: owed.since });
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
    const decision = decideChange(workload, remembered(store.getWorkload(workload.uid)), now(), this.options);
    this.apply(workload, decision);
    const owed = decision.owed;
    if (owed && !this.told(owed.key)) {
      this.options.sink.owed({ key: owed.key, kind: 'state', workload, raw: this.cache.get(workload.uid)?.raw, since: owed.since, transition: decision.transition });
    }
  }

  private markDeleted(workload: Workload): void {
    const { store, now } = this.options;
    this.apply(workload, decideDeletion(workload, remembered(store.getWorkload(workload.uid)), now()));
  }

  private apply(workload: Workload, decision: ChangeDecision): void {
    if (decision.transition) this.options.onTransition?.(decision.transition);
    if (decision.remember) remember(this.options.store, { ...workload, state: decision.remember.state }, decision.remember);
  }

  /** Said already, or queued to be said: the ledger and the outbox are the memory of it. */
  private told(key: string): boolean {
    return this.options.store.wasSent(key) || this.options.store.isQueued(key);
  }
}

function remembered(stored: StoredWorkload | undefined): Remembered | undefined {
  return stored && { state: stored.state as LifecycleState, stateSince: stored.stateSince, owner: stored.owner, deletedAt: stored.deletedAt };
}

function remember(store: Store, w: Workload, memory: Remembered): void {
  store.putWorkload({
    uid: w.uid,
    namespace: w.namespace,
    name: w.name,
    project: w.project,
    owner: w.owner,
    kind: w.kind,
    state: memory.state,
    stateSince: memory.stateSince,
    snapshot: JSON.stringify(w),
    deletedAt: memory.deletedAt,
  });
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
