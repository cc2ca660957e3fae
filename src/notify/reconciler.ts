/**
 * The controller: keeps the bot's picture of every workload in step with the cluster (a cache
 * of what the watch shows, the store's memory of what was seen and told) and hands what each
 * owner is owed to the sink. A watch event only says "look at this workload again"; what the
 * change means is decided by the pure functions of lifecycle/transitions.ts, and the ledger
 * says what was already told, so a restart, a relist or a burst of duplicate events all
 * converge on the same answer: one message per (workload, state), ever.
 *
 * The store is asynchronous, so each decision (read memory, decide, write memory, ask the sink)
 * runs as a job serialised per workload uid: two events for one workload never decide at once.
 * A job reads the workload as the cache shows it when the job runs (level-triggered), and a
 * reconcile already waiting for a uid absorbs later events for it. The catch-up after the first
 * list decides a slice of workloads per job (held for all of its uids): one store read and one
 * write transaction per slice, where one commit per workload made 100,000 of them most of the
 * time to ready (bench/profiles/cpu-ready-100k-before.json).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { LifecycleState, Transition, Workload } from '../model.js';
import { MalformedWorkloadError, minimalCr, normalizeWithOrigin, objectRef, type NormalizeOptions, type WorkloadOrigin } from '../cluster/normalize.js';
import type { WorkloadKindRef } from '../cluster/kinds.js';
import type { WorkloadEventHandler } from '../cluster/watcher.js';
import type { LedgerStore, OutboxStore, StoredWorkload, WorkloadStore } from '../store/port.js';
import { KeyedSerializer } from '../lib/keyed-serializer.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';
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
  store: WorkloadStore & LedgerStore & OutboxStore;
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
  /** Decisions made at once (default 16): a relist of 10,000 workloads must not queue 10,000 store calls on a pool of 10. */
  maxConcurrentDecisions?: number;
}

/**
 * One workload as the cache keeps it: the normalised value and where its fields came from, not
 * the raw object (a busy cluster holds 100,000 of them). Enrichment and commands get a minimal
 * CR rebuilt from these, which normalises with the pods exactly as the raw object did.
 */
interface Cached {
  workload: Workload;
  origin: WorkloadOrigin;
  ownerKeys?: string[];
  /** The kind's plural, for telling which list a workload belongs to. */
  plural: string;
}

/** Workloads queued for their catch-up decision between two turns of the event loop. */
const CATCH_UP_SLICE = 200;

export class WorkloadReconciler implements WorkloadEventHandler {
  private readonly cache = new Map<string, Cached>();
  /**
   * One copy of each repeated string (namespace, project, owner, kind, image, …): JSON gives
   * every object its own copies, and 100,000 workloads share a few thousand distinct values.
   */
  private readonly strings = new Map<string, string>();
  private synced = false;
  /** Uids upserted inside batch(), decided together when it ends. */
  private batching: string[] | undefined;
  private readonly perWorkload = new KeyedSerializer();
  private readonly slots: ConcurrencyLimiter;
  /** Uids with a reconcile queued and not yet started: a new event for them adds nothing. */
  private readonly reconcileQueued = new Set<string>();

  constructor(private readonly options: ReconcilerOptions) {
    this.slots = new ConcurrencyLimiter(options.maxConcurrentDecisions ?? 16);
  }

  /** Workloads as last seen (read-only snapshots without pods). */
  workloads(): Workload[] {
    return [...this.cache.values()].map((c) => c.workload);
  }

  find(namespace: string, name: string): { workload: Workload; raw: unknown } | undefined {
    for (const c of this.cache.values()) if (c.workload.namespace === namespace && c.workload.name === name) return { workload: c.workload, raw: rawOf(c) };
    return undefined;
  }

  rawOf(uid: string): unknown {
    const cached = this.cache.get(uid);
    return cached && rawOf(cached);
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
    const { stuck } = this.options;
    if (!stuck || !this.synced) return;
    for (const { workload } of this.cache.values()) {
      if (workload.state !== 'Pending' && workload.state !== 'Initializing') continue;
      this.schedule(workload.uid, 'stuck check', () => this.checkStuckOne(workload.uid, stuck));
    }
  }

  /** Resolves once every decision queued so far (and any queued meanwhile) has been made (tests, shutdown). */
  idle(): Promise<void> {
    return this.perWorkload.idle();
  }

  private async checkStuckOne(uid: string, stuck: NonNullable<ReconcilerOptions['stuck']>): Promise<void> {
    const cached = this.cache.get(uid);
    if (!cached) return;
    const { workload } = cached;
    if (workload.state !== 'Pending' && workload.state !== 'Initializing') return;
    const { store, now } = this.options;
    const owed = decideStuck(workload, remembered(await store.getWorkload(uid)), now(), stuck);
    if (!owed || (await this.told(owed.key))) return;
    this.options.sink.owed({ key: owed.key, kind: 'stuck', workload, raw: rawOf(cached), since: owed.since });
  }

  /** Queues a decision for one workload after those already queued for it; a failure is logged. */
  private schedule(uid: string, what: string, job: () => Promise<void>): void {
    void this.perWorkload.run(uid, () => this.slots.run(job)).catch((err: unknown) =>
      this.options.log.error({ uid, err: (err as Error)?.message ?? String(err), code: (err as { code?: string })?.code }, `${what} failed; the next event or resync decides again`),
    );
  }

  upsert(raw: unknown, kind: WorkloadKindRef): void {
    let workload: Workload;
    let origin: WorkloadOrigin;
    const options = this.options.normalize(objectRef(raw).namespace ?? '');
    try {
      ({ workload, origin } = normalizeWithOrigin(raw, [], options));
    } catch (err) {
      if (!(err instanceof MalformedWorkloadError)) throw err;
      this.options.log.warn({ object: err.objectName, reason: err.message }, 'skipping malformed workload');
      this.options.onMalformed?.(err.objectName, err.message);
      return;
    }
    workload = this.interned(workload);
    this.cache.set(workload.uid, { workload, origin, ownerKeys: options.ownerKeys, plural: this.intern(kind.plural) });
    if (!this.synced) return;
    if (this.batching) this.batching.push(workload.uid);
    else this.queueReconcile(workload.uid);
  }

  /**
   * A slice of a list (the watcher's batch): its upserts are decided as one slice job, so a
   * relist of 100,000 after a 410 reads the store once per slice, not once per workload.
   */
  batch(work: () => void): void {
    const outer = this.batching;
    const uids: string[] = [];
    this.batching = uids;
    try {
      work();
    } finally {
      this.batching = outer;
      if (uids.length) this.queueSlice(uids);
    }
  }

  remove(raw: unknown): void {
    const { uid } = objectRef(raw);
    if (!uid) return;
    const cached = this.cache.get(uid);
    this.cache.delete(uid);
    if (cached && this.synced) this.queueDeletion(cached.workload);
  }

  listed(kind: WorkloadKindRef, scope: string, uids: Set<string>): void {
    // A DELETED event missed while disconnected: the object is simply absent from the list.
    for (const [uid, cached] of this.cache) {
      if (cached.plural !== kind.plural || (scope !== '*' && cached.workload.namespace !== scope) || uids.has(uid)) continue;
      this.cache.delete(uid);
      if (this.synced) this.queueDeletion(cached.workload);
    }
  }

  private intern(value: string): string;
  private intern(value: string | undefined): string | undefined;
  private intern(value: string | undefined): string | undefined {
    if (value === undefined) return undefined;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  private interned(w: Workload): Workload {
    return {
      ...w,
      kind: this.intern(w.kind),
      apiVersion: this.intern(w.apiVersion),
      namespace: this.intern(w.namespace),
      project: this.intern(w.project),
      owner: this.intern(w.owner),
      phase: this.intern(w.phase),
      image: this.intern(w.image),
      command: this.intern(w.command),
    };
  }

  /**
   * The first list is complete: from now on, decide. Reconciles everything once (catch-up),
   * queued in slices so that at 100,000 workloads the queueing itself does not hold the event
   * loop; resolves once every catch-up decision is queued (idle() waits for them to be made).
   */
  async markSynced(): Promise<void> {
    this.synced = true;
    await this.reconcileAll();
  }

  /** Queues a decision for every cached workload, a slice per job and per turn of the event loop. */
  async reconcileAll(): Promise<void> {
    if (!this.synced) return;
    const uids = [...this.cache.keys()];
    for (let start = 0; start < uids.length; start += CATCH_UP_SLICE) {
      this.queueSlice(uids.slice(start, start + CATCH_UP_SLICE));
      if (start + CATCH_UP_SLICE < uids.length) await nextTurn();
    }
  }

  /** One job for a slice of workloads, after every job queued before it for any of them. */
  private queueSlice(uids: string[]): void {
    // A reconcile already waiting for a uid decides it anyway (reading the cache when it runs).
    const fresh = uids.filter((uid) => !this.reconcileQueued.has(uid));
    if (fresh.length === 0) return;
    for (const uid of fresh) this.reconcileQueued.add(uid);
    void this.perWorkload
      .runAll(fresh, () =>
        this.slots.run(async () => {
          for (const uid of fresh) this.reconcileQueued.delete(uid);
          // Its own turn of the event loop: with SQLite every store call resolves at once, and
          // back-to-back slices would otherwise run as one long chain of microtasks.
          await nextTurn();
          await this.reconcileSlice(fresh);
        }),
      )
      .catch((err: unknown) =>
        this.options.log.error({ workloads: fresh.length, err: (err as Error)?.message ?? String(err), code: (err as { code?: string })?.code }, 'reconciling a slice of workloads failed; the next event or resync decides again'),
      );
  }

  private queueReconcile(uid: string): void {
    if (this.reconcileQueued.has(uid)) return;
    this.reconcileQueued.add(uid);
    this.schedule(uid, 'reconcile', () => {
      this.reconcileQueued.delete(uid);
      return this.reconcile(uid);
    });
  }

  private queueDeletion(workload: Workload): void {
    this.schedule(workload.uid, 'marking a workload deleted', () => this.markDeleted(workload));
  }

  private async reconcile(uid: string): Promise<void> {
    const cached = this.cache.get(uid);
    // Gone since the event: its deletion is queued behind this job and decides instead.
    if (!cached) return;
    const { workload } = cached;
    const { store, now } = this.options;
    const decision = decideChange(workload, remembered(await store.getWorkload(uid)), now(), this.options);
    await this.apply(workload, decision);
    const owed = decision.owed;
    if (owed && !(await this.told(owed.key))) {
      this.options.sink.owed({ key: owed.key, kind: 'state', workload, raw: rawOf(cached), since: owed.since, transition: decision.transition });
    }
  }

  /** reconcile() for a slice: the same decisions, with one store read and one write for all of them. */
  private async reconcileSlice(uids: readonly string[]): Promise<void> {
    // Gone since they were queued: a deletion queued behind this job decides instead.
    const present = uids.flatMap((uid) => this.cache.get(uid) ?? []);
    if (present.length === 0) return;
    const { store, now } = this.options;
    const stored = await store.getWorkloads(present.map((c) => c.workload.uid));
    const at = now();
    const decided = present.map((cached) => ({ cached, decision: decideChange(cached.workload, remembered(stored.get(cached.workload.uid)), at, this.options) }));
    for (const { decision } of decided) if (decision.transition) this.options.onTransition?.(decision.transition);
    const writes = decided.flatMap(({ cached, decision }) => (decision.remember ? [storedOf({ ...cached.workload, state: decision.remember.state }, decision.remember)] : []));
    if (writes.length) await store.putWorkloads(writes);
    for (const { cached, decision } of decided) {
      const owed = decision.owed;
      if (owed && !(await this.told(owed.key))) {
        this.options.sink.owed({ key: owed.key, kind: 'state', workload: cached.workload, raw: rawOf(cached), since: owed.since, transition: decision.transition });
      }
    }
  }

  private async markDeleted(workload: Workload): Promise<void> {
    const { store, now } = this.options;
    await this.apply(workload, decideDeletion(workload, remembered(await store.getWorkload(workload.uid)), now()));
  }

  private async apply(workload: Workload, decision: ChangeDecision): Promise<void> {
    if (decision.transition) this.options.onTransition?.(decision.transition);
    if (decision.remember) await remember(this.options.store, { ...workload, state: decision.remember.state }, decision.remember);
  }

  /** Said already, or queued to be said: the ledger and the outbox are the memory of it. */
  private async told(key: string): Promise<boolean> {
    return (await this.options.store.wasSent(key)) || (await this.options.store.isQueued(key));
  }
}

function remembered(stored: StoredWorkload | undefined): Remembered | undefined {
  return stored && { state: stored.state as LifecycleState, stateSince: stored.stateSince, owner: stored.owner, deletedAt: stored.deletedAt };
}

function remember(store: WorkloadStore, w: Workload, memory: Remembered): Promise<void> {
  return store.putWorkload(storedOf(w, memory));
}

function storedOf(w: Workload, memory: Remembered): StoredWorkload {
  return {
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
  };
}

/** What enrichment and commands read as the workload's CR: rebuilt, not kept (see Cached). */
function rawOf(cached: Cached): unknown {
  return minimalCr(cached.workload, cached.origin, cached.ownerKeys);
}
