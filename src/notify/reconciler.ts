/**
 * The controller: keeps the bot's picture of every workload in step with the cluster (a cache
 * of what the watch shows, the store's memory of what was seen and told) and hands what each
 * owner is owed to the sink. A watch event only says "look at this workload again"; what the
 * change means is decided by the pure functions of lifecycle/transitions.ts, and the ledger
 * says what was already told, so a restart, a relist or a burst of duplicate events all
 * converge on the same answer: one message per (workload, state), ever.
 *
 * The store is asynchronous, so each decision (read memory, decide, write memory, ask the sink)
 * runs as a job serialised per workload: two events for one workload never decide at once.
 * Workloads are keyed by workloadId() (`<cluster>/<uid>` in a named cluster): one reconciler
 * serves every cluster, each cluster's watcher feeding it through its own forCluster() handler.
 * A job reads the workload as the cache shows it when the job runs (level-triggered), and a
 * reconcile already waiting for a uid absorbs later events for it. The catch-up after the first
 * list decides a slice of workloads per job (held for all of its uids): one store read and one
 * write transaction per slice, where one commit per workload made 100,000 of them most of the
 * time to ready (bench/profiles/cpu-ready-100k-before.json).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { workloadId, type LifecycleState, type Transition, type Workload } from '../model.js';
import { MalformedWorkloadError, normalizeWorkload, objectRef, type NormalizeOptions } from '../cluster/normalize.js';
import type { WorkloadKindRef } from '../cluster/kinds.js';
import type { WorkloadEventHandler } from '../cluster/watcher.js';
import type { LedgerStore, OutboxStore, StoredWorkload, WorkloadStore } from '../store/port.js';
import { KeyedSerializer } from '../lib/keyed-serializer.js';
import { Requeue, type RequeueOptions } from '../lib/requeue.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';
import { WorkloadCache } from './workload-cache.js';
import { decideChange, decideDeletion, decideStuck, podsCouldDate, type ChangeDecision, type Remembered } from '../lifecycle/transitions.js';

/** A message an owner is owed: about a state reached, or about a state that lasts too long. */
export interface OwedAlert {
  key: string;
  kind: 'state' | 'stuck';
  /** As the reconciler normalised it (without pods: whoever reads them attaches them with withPods). */
  workload: Workload;
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
  store: Pick<WorkloadStore, 'getWorkload' | 'getWorkloads' | 'putWorkload' | 'putWorkloads'> & Pick<LedgerStore, 'wasSent'> & Pick<OutboxStore, 'isQueued'>;
  log: Logger;
  now(): Date;
  /** Options for normalising a workload of this namespace (its labels name the project). */
  normalize(namespace: string): NormalizeOptions;
  /** States that earn the owner a message on arrival. */
  alertStates: ReadonlySet<LifecycleState>;
  lookbackMs: number;
  sink: AlertSink;
  onTransition?(t: Transition): void;
  onMalformed?(ref: string, reason: string, cluster: string | undefined): void;
  /**
   * A workload with this owner is in the cluster (every list and watch event, before any
   * decision): its owner can be resolved to a Slack user before anything fails. Must be cheap.
   */
  onOwnerSeen?(owner: string): void;
  /**
   * A workload of a synced cluster was seen to start running (the watch showed it Running, the
   * cache did not): `raw` is its object as delivered, for a look at its command that costs no
   * API call. Not asked for the first list after a start: those were running before. Must be cheap.
   */
  onStarted?(workload: Workload, raw: unknown): void;
  /** Decisions that failed and are made again after a backoff (metrics); `n` of them at once. */
  onRequeued?(n?: number): void;
  /** The backoff of a failed decision (tests shorten or lengthen it). */
  requeue?: RequeueOptions;
  /** Thresholds for workloads that stay Pending or Initializing too long; none: no such warnings. */
  stuck?: { pendingAfterMs(project: string): number; initializingAfterMs: number };
  /** Where the workloads the watch shows are kept (default: a cache of its own). */
  cache?: WorkloadCache;
  /** Decisions made at once (default 16): a relist of 10,000 workloads must not queue 10,000 store calls on a pool of 10. */
  maxConcurrentDecisions?: number;
  /**
   * When the workload's containers ended, read from its pods (undefined: they do not say). Asked
   * only by the decisions made a slice at a time (the catch-up after start, a relist, a resync),
   * for a change the bot did not see happen, and only where the answer can decide the lookback
   * (podsCouldDate): a live watch event's change is happening now.
   */
  finishedAt?(workload: Workload): Promise<string | undefined>;
  /**
   * Follow-ups (notify/follow-ups.ts): told of every workload that changed state or appeared,
   * before its memory is written, so a crash in between decides it again. Rejects only when the
   * store does, which fails the decision like the memory write would.
   */
  followUps?: { observe(sights: readonly { workload: Workload; firstSeen: boolean }[]): Promise<void> };
}

/** Pod reads for finishedAt at once, within a slice of decisions. */
const MAX_CONCURRENT_POD_READS = 4;

/** Workloads queued for their catch-up decision between two turns of the event loop. */
const CATCH_UP_SLICE = 200;

/** What differs per cluster when deciding: how its objects are normalised, and its catch-up window. */
export interface ClusterRules {
  normalize(namespace: string): NormalizeOptions;
  lookbackMs?: number;
}

const UNNAMED = '';

export class WorkloadReconciler implements WorkloadEventHandler {
  /** What the cluster shows now, by workloadId(); given by the composition root, which lets readers share it. */
  private readonly cache: WorkloadCache;
  /** Clusters (by name, '' for the unnamed one) whose first list is complete: their workloads are decided. */
  private readonly synced = new Set<string>();
  private readonly rules = new Map<string, ClusterRules>();
  /** Workload ids upserted inside batch(), decided together when it ends. */
  private batching: string[] | undefined;
  private readonly perWorkload = new KeyedSerializer();
  private readonly slots: ConcurrencyLimiter;
  /** Uids with a reconcile queued and not yet started: a new event for them adds nothing. */
  private readonly reconcileQueued = new Set<string>();
  private readonly podReads = new ConcurrencyLimiter(MAX_CONCURRENT_POD_READS);
  private readonly requeue: Requeue;

  constructor(private readonly options: ReconcilerOptions) {
    this.slots = new ConcurrencyLimiter(options.maxConcurrentDecisions ?? 16);
    this.cache = options.cache ?? new WorkloadCache();
    this.requeue = new Requeue({ ...options.requeue, onGivenUp: (key) => options.log.error({ key }, 'too many failed decisions waiting; this one waits for the next resync') });
  }

  /** The owners of the workloads the cluster shows now. */
  ownersPresent(): Set<string> {
    return this.cache.ownersPresent();
  }

  /** Workloads as last seen (read-only snapshots without pods). */
  workloads(): Workload[] {
    return this.cache.workloads();
  }

  /** The state the cluster shows now, or undefined when the workload is gone; `id` is workloadId(). */
  currentState(id: string): LifecycleState | undefined {
    return this.cache.currentState(id);
  }

  /** Whether the first list of that cluster (undefined: the unnamed one) is complete. */
  isSynced(cluster?: string): boolean {
    return this.synced.has(cluster ?? UNNAMED);
  }

  /**
   * The event handler of one cluster's watcher: its objects are normalised with its rules and
   * carry its name, and its lists only ever forget its own workloads.
   */
  forCluster(cluster: string | undefined, rules: ClusterRules): WorkloadEventHandler {
    this.rules.set(cluster ?? UNNAMED, rules);
    return {
      upsert: (raw, kind) => this.upsertIn(cluster, rules, raw, kind),
      remove: (raw) => this.removeIn(cluster, raw),
      batch: (work) => this.batch(work),
      listed: (kind, scope, uids) => this.listedIn(cluster, kind, scope, uids),
      resync: () => this.resyncIn(cluster),
    };
  }

  /**
   * Owners of workloads Pending or Initializing for longer than the threshold are owed one
   * warning each. Time passes without events, so this runs on a timer.
   */
  checkStuck(): void {
    const { stuck } = this.options;
    if (!stuck || !this.synced.size) return;
    for (const [id, { workload }] of this.cache) {
      if (workload.state !== 'Pending' && workload.state !== 'Initializing') continue;
      if (!this.isSynced(workload.cluster)) continue;
      this.schedule(id, 'stuck check', () => this.checkStuckOne(id, stuck));
    }
  }

  /** Resolves once every decision queued so far (and any queued meanwhile) has been made (tests, shutdown). */
  idle(): Promise<void> {
    return this.perWorkload.idle();
  }

  private async checkStuckOne(id: string, stuck: NonNullable<ReconcilerOptions['stuck']>): Promise<void> {
    const cached = this.cache.get(id);
    if (!cached) return;
    const { workload } = cached;
    if (workload.state !== 'Pending' && workload.state !== 'Initializing') return;
    const { store, now } = this.options;
    const owed = decideStuck(workload, remembered(await store.getWorkload(id)), now(), stuck);
    if (!owed || (await this.told(owed.key))) return;
    this.options.sink.owed({ key: owed.key, kind: 'stuck', workload, since: owed.since });
  }

  /**
   * Queues a decision for one workload after those already queued for it. A failure (the store
   * refused a write, say) is logged and the decision made again after a backoff (`retry`, keyed
   * by what and whom): a Failed workload brings no further event, so nothing else would.
   */
  private schedule(id: string, what: string, job: () => Promise<void>, retry: () => void = () => this.schedule(id, what, job)): void {
    const key = `${what}|${id}`;
    void this.perWorkload
      .run(id, () => this.slots.run(job))
      .then(() => this.requeue.succeeded(key))
      .catch((err: unknown) => {
        const failures = this.requeue.failed(key, retry);
        this.options.onRequeued?.();
        this.options.log.error({ workload: id, err: (err as Error)?.message ?? String(err), code: (err as { code?: string })?.code, failures }, `${what} failed; decided again after a backoff`);
      });
  }

  /** Stops retrying failed decisions (shutdown). */
  stop(): void {
    this.requeue.stop();
  }

  /** The unnamed cluster's handler (a config without `clusters:`). */
  upsert(raw: unknown, kind: WorkloadKindRef): void {
    this.upsertIn(undefined, this.options, raw, kind);
  }

  remove(raw: unknown): void {
    this.removeIn(undefined, raw);
  }

  listed(kind: WorkloadKindRef, scope: string, uids: Set<string>): void {
    this.listedIn(undefined, kind, scope, uids);
  }

  resync(): Promise<void> {
    return this.resyncIn(undefined);
  }

  private upsertIn(cluster: string | undefined, rules: ClusterRules, raw: unknown, kind: WorkloadKindRef): void {
    let workload: Workload;
    try {
      workload = normalizeWorkload(raw, { ...rules.normalize(objectRef(raw).namespace ?? ''), cluster });
    } catch (err) {
      if (!(err instanceof MalformedWorkloadError)) throw err;
      this.options.log.warn({ object: err.objectName, reason: err.message }, 'skipping malformed workload');
      this.options.onMalformed?.(err.objectName, err.message, cluster);
      return;
    }
    const id = workloadId(workload);
    const before = this.cache.get(id)?.workload.state;
    workload = this.cache.set(id, workload, kind.plural);
    if (workload.owner) this.options.onOwnerSeen?.(workload.owner);
    if (!this.isSynced(cluster)) return;
    if (workload.state === 'Running' && before !== 'Running') this.options.onStarted?.(workload, raw);
    if (this.batching) this.batching.push(id);
    else this.queueReconcile(id);
  }

  /**
   * A slice of a list (the watcher's batch): its upserts are decided as one slice job, so a
   * relist of 100,000 after a 410 reads the store once per slice, not once per workload.
   */
  batch(work: () => void): void {
    const outer = this.batching;
    const ids: string[] = [];
    this.batching = ids;
    try {
      work();
    } finally {
      this.batching = outer;
      if (ids.length) this.queueSlice(ids);
    }
  }

  private removeIn(cluster: string | undefined, raw: unknown): void {
    const { uid } = objectRef(raw);
    if (!uid) return;
    const id = workloadId({ uid, cluster });
    const cached = this.cache.get(id);
    this.cache.delete(id);
    if (cached && this.isSynced(cluster)) this.queueDeletion(id, cached.workload);
  }

  private listedIn(cluster: string | undefined, kind: WorkloadKindRef, scope: string, uids: Set<string>): void {
    // A DELETED event missed while disconnected: the object is simply absent from the list.
    for (const [id, cached] of this.cache) {
      const w = cached.workload;
      if (w.cluster !== cluster || cached.plural !== kind.plural || (scope !== '*' && w.namespace !== scope) || uids.has(w.uid)) continue;
      this.cache.delete(id);
      if (this.isSynced(cluster)) this.queueDeletion(id, cached.workload);
    }
  }

  /**
   * The first list of a cluster (undefined: the unnamed one) is complete: from now on, decide
   * its workloads. Reconciles each of them once (catch-up), queued in slices so that at 100,000
   * workloads the queueing itself does not hold the event loop; resolves once every catch-up
   * decision is queued (idle() waits for them to be made).
   */
  async markSynced(cluster?: string): Promise<void> {
    this.synced.add(cluster ?? UNNAMED);
    await this.queueInSlices(this.idsIn(cluster));
  }

  /**
   * The watcher's resync: every cached workload of a synced cluster is decided again from what
   * the cache shows, with no request to the cluster. Level-triggered, so a decision that failed
   * (the store refused a write, say) is made again, and one already made changes nothing.
   */
  private async resyncIn(cluster: string | undefined): Promise<void> {
    if (this.isSynced(cluster)) await this.queueInSlices(this.idsIn(cluster));
  }

  private idsIn(cluster: string | undefined): string[] {
    return [...this.cache].filter(([, c]) => c.workload.cluster === cluster).map(([id]) => id);
  }

  /** Queues a decision for every cached workload of a synced cluster, a slice per job and per turn of the event loop. */
  async reconcileAll(): Promise<void> {
    await this.queueInSlices([...this.cache].filter(([, c]) => this.isSynced(c.workload.cluster)).map(([id]) => id));
  }

  private async queueInSlices(ids: string[]): Promise<void> {
    for (let start = 0; start < ids.length; start += CATCH_UP_SLICE) {
      this.queueSlice(ids.slice(start, start + CATCH_UP_SLICE));
      if (start + CATCH_UP_SLICE < ids.length) await nextTurn();
    }
  }

  /** One job for a slice of workloads, after every job queued before it for any of them. */
  private queueSlice(ids: string[]): void {
    // A reconcile already waiting for a uid decides it anyway (reading the cache when it runs).
    const fresh = ids.filter((id) => !this.reconcileQueued.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.reconcileQueued.add(id);
    void this.perWorkload
      .runAll(fresh, () =>
        this.slots.run(async () => {
          // Its own turn of the event loop: with SQLite every store call resolves at once, and
          // back-to-back slices would otherwise run as one long chain of microtasks. Events that
          // arrive meanwhile are absorbed: the slice reads the cache only after this turn.
          await nextTurn();
          for (const id of fresh) this.reconcileQueued.delete(id);
          await this.reconcileSlice(fresh);
        }),
      )
      .then(() => {
        for (const id of fresh) this.requeue.succeeded(`reconcile|${id}`);
      })
      .catch((err: unknown) => {
        // Each workload of the slice is decided again on its own, after its backoff.
        for (const id of fresh) this.requeue.failed(`reconcile|${id}`, () => this.queueReconcile(id));
        this.options.onRequeued?.(fresh.length);
        this.options.log.error({ workloads: fresh.length, err: (err as Error)?.message ?? String(err), code: (err as { code?: string })?.code }, 'reconciling a slice of workloads failed; each is decided again after a backoff');
      });
  }

  private queueReconcile(id: string): void {
    if (this.reconcileQueued.has(id)) return;
    this.reconcileQueued.add(id);
    this.schedule(
      id,
      'reconcile',
      () => {
        this.reconcileQueued.delete(id);
        return this.reconcile(id);
      },
      () => this.queueReconcile(id),
    );
  }

  private queueDeletion(id: string, workload: Workload): void {
    this.schedule(id, 'marking a workload deleted', () => this.markDeleted(id, workload));
  }

  private async reconcile(id: string): Promise<void> {
    const cached = this.cache.get(id);
    // Gone since the event: its deletion is queued behind this job and decides instead.
    if (!cached) return;
    const { workload } = cached;
    const { store, now } = this.options;
    const previous = remembered(await store.getWorkload(id));
    const decision = decideChange(workload, previous, now(), { alertStates: this.options.alertStates, lookbackMs: this.lookbackFor(workload) });
    if (decision.transition || !previous) await this.options.followUps?.observe([{ workload, firstSeen: !previous }]);
    await this.apply(workload, decision);
    const owed = decision.owed;
    if (owed && !(await this.told(owed.key))) {
      this.options.sink.owed({ key: owed.key, kind: 'state', workload, since: owed.since, transition: decision.transition });
    }
  }

  /** reconcile() for a slice: the same decisions, with one store read and one write for all of them. */
  private async reconcileSlice(ids: readonly string[]): Promise<void> {
    // Gone since they were queued: a deletion queued behind this job decides instead.
    const present = ids.flatMap((id) => this.cache.get(id) ?? []);
    if (present.length === 0) return;
    const { store, now } = this.options;
    const stored = await store.getWorkloads(present.map((c) => workloadId(c.workload)));
    const at = now();
    const decided = await Promise.all(present.map(async (cached) => {
      const previous = remembered(stored.get(workloadId(cached.workload)));
      const rules = { alertStates: this.options.alertStates, lookbackMs: this.lookbackFor(cached.workload) };
      const finishedAt = podsCouldDate(cached.workload, previous, at, rules) ? await this.finishedAt(cached.workload) : undefined;
      return { cached, previous, decision: decideChange(cached.workload, previous, at, rules, finishedAt) };
    }));
    const moved = decided.filter(({ previous, decision }) => decision.transition || !previous);
    if (moved.length) await this.options.followUps?.observe(moved.map(({ cached, previous }) => ({ workload: cached.workload, firstSeen: !previous })));
    for (const { decision } of decided) if (decision.transition) this.options.onTransition?.(decision.transition);
    const writes = decided.flatMap(({ cached, decision }) => (decision.remember ? [storedOf({ ...cached.workload, state: decision.remember.state }, decision.remember)] : []));
    if (writes.length) await store.putWorkloads(writes);
    for (const { cached, decision } of decided) {
      const owed = decision.owed;
      if (owed && !(await this.told(owed.key))) {
        this.options.sink.owed({ key: owed.key, kind: 'state', workload: cached.workload, since: owed.since, transition: decision.transition });
      }
    }
  }

  /** finishedAt from the pods; a read that fails leaves the change dated now (owed, rather than silenced). */
  private async finishedAt(workload: Workload): Promise<string | undefined> {
    const read = this.options.finishedAt;
    if (!read) return undefined;
    try {
      return await this.podReads.run(() => read(workload));
    } catch (err) {
      this.options.log.warn({ workload: workloadId(workload), err: (err as Error)?.message ?? String(err) }, 'cannot read when the pods ended; the change counts from now');
      return undefined;
    }
  }

  /** The catch-up window of the workload's cluster (`clusters[].lookbackHours`). */
  private lookbackFor(workload: Workload): number {
    return this.rules.get(workload.cluster ?? UNNAMED)?.lookbackMs ?? this.options.lookbackMs;
  }

  private async markDeleted(id: string, workload: Workload): Promise<void> {
    const { store, now } = this.options;
    const decision = decideDeletion(workload, remembered(await store.getWorkload(id)), now());
    if (decision.transition) await this.options.followUps?.observe([{ workload: decision.transition.workload, firstSeen: false }]);
    await this.apply(workload, decision);
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

function remember(store: Pick<WorkloadStore, 'putWorkload'>, w: Workload, memory: Remembered): Promise<void> {
  return store.putWorkload(storedOf(w, memory));
}

/** The row's uid is the workload's id (`<cluster>/<uid>` in a named cluster): one key space for every cluster. */
function storedOf(w: Workload, memory: Remembered): StoredWorkload {
  return {
    uid: workloadId(w),
    cluster: w.cluster,
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

