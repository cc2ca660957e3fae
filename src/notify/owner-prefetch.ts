/**
 * Resolves workload owners to Slack users ahead of their failures. When a node dies, hundreds
 * of owners must hear at once; if each first had to be looked up (users.lookupByEmail, Tier 3,
 * about 50 a minute for the whole workspace), the last would hear minutes later. So every owner
 * the reconciler sees is queued here once, looked up in the background at a steady pace well
 * inside that tier, and kept in the store's Slack-user cache (owners.ts: 24 h when found, 1 h
 * when not), which the failure path reads. Owners still present are looked up again before
 * their answer lapses.
 *
 * Bounded by owners, not workloads: a relist of 100,000 workloads queues each distinct owner
 * once, and at most `maxQueued` of them (more are queued when seen again). `seen()` is a map
 * lookup, so the relist and readiness never wait for it. Only the leader runs it (a duty in
 * ops/leadership.ts): replicas share the store, and two would spend the tier twice.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { OwnerDirectory } from './owners.js';
import { SlackSendError } from './outbox.js';

export interface OwnerPrefetcherOptions {
  owners: Pick<OwnerDirectory, 'refreshDueAt' | 'refresh' | 'lookupPauseMs'>;
  /** Owners of the workloads the cluster shows now: only they are refreshed before their answer lapses. */
  presentOwners(): Set<string>;
  log: Logger;
  now(): Date;
  /** Lookups a minute at most. Default 30: Tier 3 is about 50, and send-time lookups of owners never seen need the rest. */
  perMinute?: number;
  /** Owners waiting at most. Default 10,000. */
  maxQueued?: number;
  /** How often owners due for a refresh are looked for. Default one minute. */
  sweepMs?: number;
  /** After a lookup failed for a reason other than a rate limit (outage, token), when to try that owner again. Default one minute. */
  retryMs?: number;
}

const DEFAULT_PER_MINUTE = 30;
const DEFAULT_MAX_QUEUED = 10_000;
/** Store reads between two turns of the event loop while cached owners are checked. */
const READS_PER_TURN = 100;

export class OwnerPrefetcher {
  /** Owners waiting to be checked (and looked up when due), oldest first. */
  private readonly queue = new Set<string>();
  /** Owners checked: when their answer is due for a lookup again (ms; Infinity: never). */
  private readonly dueAt = new Map<string, number>();
  private running = false;
  private loop?: Promise<void>;
  private sweepTimer?: NodeJS.Timeout;
  private wake?: () => void;
  /** The owner taken off the queue and being checked (and looked up, when due) now. */
  private checking?: string;
  private nextLookupAt = 0;
  private lookups = 0;
  private overflowed = 0;

  constructor(private readonly options: OwnerPrefetcherOptions) {}

  /** A workload of `owner` is in the cluster. Cheap: called for every workload of a relist. */
  seen(owner: string | undefined): void {
    if (!owner || this.queue.has(owner)) return;
    const due = this.dueAt.get(owner);
    if (due !== undefined && due > this.options.now().getTime()) return;
    if (this.queue.size >= (this.options.maxQueued ?? DEFAULT_MAX_QUEUED)) {
      // Not remembered either: the next sighting after the queue has room queues it.
      if (this.overflowed++ === 0) this.options.log.warn({ maxQueued: this.queue.size }, 'too many owners waiting to be resolved; the rest are queued when seen again');
      return;
    }
    this.queue.add(owner);
    this.wake?.();
  }

  /** The failure path used this owner's answer past its TTL: look them up again soon, whatever was planned. */
  stale(owner: string): void {
    this.dueAt.delete(owner);
    this.seen(owner);
  }

  /** Owners waiting to be resolved (tests, benchmarks); the one being checked is no longer waiting. */
  get waiting(): number {
    return this.queue.size;
  }

  /**
   * No owner waiting nor being checked: every owner seen so far has its answer in the store (or
   * waits out a failure's retry). `waiting` is 0 already while the last lookup is in flight.
   */
  get settled(): boolean {
    return this.queue.size === 0 && this.checking === undefined;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run().catch((err: unknown) => this.options.log.error({ err: (err as Error)?.message ?? String(err) }, 'resolving owners ahead of failures stopped'));
    this.sweepTimer = setInterval(() => this.sweep(), this.options.sweepMs ?? 60_000);
    this.sweepTimer.unref();
  }

  /** Stops looking up; what is queued stays queued for the next start (a replica that leads again). */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.sweepTimer);
    this.wake?.();
    await this.loop;
  }

  /** Queues the owners still present whose answer is due; forgets those whose workloads are gone. */
  sweep(): void {
    const now = this.options.now().getTime();
    const due: string[] = [];
    for (const [owner, at] of this.dueAt) if (at <= now) due.push(owner);
    if (!due.length) return;
    const present = this.options.presentOwners();
    for (const owner of due) {
      this.dueAt.delete(owner);
      if (present.has(owner)) this.seen(owner);
    }
  }

  private async run(): Promise<void> {
    let reads = 0;
    while (this.running) {
      const owner = this.queue.values().next().value as string | undefined;
      if (owner === undefined) {
        if (this.lookups) this.options.log.info({ lookups: this.lookups }, 'owners seen so far are resolved to Slack users');
        this.lookups = 0;
        await this.sleep(Infinity);
        continue;
      }
      this.queue.delete(owner);
      this.checking = owner;
      try {
        if (++reads % READS_PER_TURN === 0) await nextTurn();
        await this.check(owner);
      } finally {
        this.checking = undefined;
      }
    }
  }

  /** Looks the owner up if their answer is due, at the pace and after any pause; else notes when it will be. */
  private async check(owner: string): Promise<void> {
    const due = await this.options.owners.refreshDueAt(owner).catch((err: unknown) => this.failed(owner, err));
    if (due === 'failed') return;
    if (due === undefined || due > this.options.now().getTime()) {
      this.dueAt.set(owner, due ?? Infinity);
      return;
    }
    await this.turn();
    if (!this.running) {
      this.queue.add(owner);
      return;
    }
    // Looked up at send time while this one waited its turn: nothing left to ask.
    const still = await this.options.owners.refreshDueAt(owner).catch((err: unknown) => this.failed(owner, err));
    if (still === 'failed') return;
    if (still === undefined || still > this.options.now().getTime()) {
      this.dueAt.set(owner, still ?? Infinity);
      return;
    }
    this.nextLookupAt = performance.now() + 60_000 / (this.options.perMinute ?? DEFAULT_PER_MINUTE);
    this.lookups++;
    const next = await this.options.owners.refresh(owner).catch((err: unknown) => this.failed(owner, err));
    if (next !== 'failed') this.dueAt.set(owner, next ?? Infinity);
  }

  /** Waits for the next lookup slot: the steady pace, and any pause Slack asked for (429). */
  private async turn(): Promise<void> {
    for (;;) {
      // The pace is in real time (Slack's tier is); the pause is the directory's, on the bot's clock.
      const wait = Math.max(this.nextLookupAt - performance.now(), this.options.owners.lookupPauseMs());
      if (wait <= 0 || !this.running) return;
      await this.sleep(wait);
    }
  }

  /**
   * A rate limit puts the owner back in the queue (the directory's pause holds every lookup
   * until Retry-After); any other failure tries again after `retryMs`, if still seen.
   */
  private failed(owner: string, err: unknown): 'failed' {
    if (err instanceof SlackSendError && err.slackError === 'ratelimited') {
      this.queue.add(owner);
      return 'failed';
    }
    this.dueAt.set(owner, this.options.now().getTime() + (this.options.retryMs ?? 60_000));
    this.options.log.warn({ owner, err: (err as Error)?.message ?? String(err) }, 'cannot resolve a workload owner to a Slack user yet; will try again');
    return 'failed';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
      timer?.unref();
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wake === done) self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }
}
