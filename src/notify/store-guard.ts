/**
 * The outbox's store guard (a circuit breaker): a store read or write that fails is logged,
 * counted and backed off, never thrown, and while it lasts nothing is sent. What Slack accepted
 * but the store could not record is kept here and written back before anything else is sent, so
 * the process never sends it again while it lives. Only a write that works ends a problem: with
 * SQLITE_FULL or SQLITE_READONLY reads still succeed.
 */
import type { Logger } from 'pino';

const MAX_STORE_BACKOFF_MS = 60_000;

export interface StoreProblem {
  op: string;
  /** A write failed (SQLITE_FULL, SQLITE_READONLY, …), not only a read. */
  write: boolean;
  message: string;
  code?: string;
  at: string;
  path: string;
}

export interface StoreGuardOptions {
  /** Where the store lives (no password), for the log and /readyz. */
  location: string;
  log: Logger;
  now(): Date;
  onStoreError?(op: string, err: unknown): void;
  /**
   * An error that is an answer, not a failure (a stale fencing token): rethrown to the caller,
   * never counted as a store problem.
   */
  passThrough?(err: unknown): boolean;
}

export class StoreGuard {
  /** Facts Slack accepted whose store write failed, by key: written before anything else is sent. */
  private readonly unrecorded = new Map<string, { op: string; write: () => Promise<void> }>();
  private storeProblem?: StoreProblem;
  private failures = 0;
  private retryAt = 0;

  constructor(private readonly options: StoreGuardOptions) {}

  healthy(): boolean {
    return !this.storeProblem;
  }

  problem(): StoreProblem | undefined {
    return this.storeProblem;
  }

  /** Healthy, or due to probe again with nothing Slack accepted still unwritten. */
  ready(): boolean {
    return !this.storeProblem || (!this.unrecorded.size && this.options.now().getTime() >= this.retryAt);
  }

  /** A fact Slack accepted: written now, else kept and written back before the next send. */
  async record(key: string, op: string, write: () => Promise<void>): Promise<void> {
    if (!(await this.write(op, write))) this.unrecorded.set(key, { op, write });
  }

  /** Writes the facts kept in memory; false while the store still refuses (or is backing off). */
  async recordUnrecorded(): Promise<boolean> {
    if (!this.storeProblem) return true;
    if (this.options.now().getTime() < this.retryAt) return false;
    for (const [key, fact] of this.unrecorded) {
      let written: boolean;
      try {
        written = await this.write(fact.op, fact.write);
      } catch (err) {
        // Refused as an answer (passThrough): the fact is no longer ours to write.
        this.options.log.warn({ key, op: fact.op, err: (err as Error)?.message ?? String(err) }, 'a kept fact was refused by the store; not written');
        written = true;
      }
      if (!written) return false;
      this.unrecorded.delete(key);
    }
    // With nothing left to write back, the next store call is the probe.
    return true;
  }

  /** A store write; a failure is logged, counted and backed off, never thrown (except passThrough). */
  async write(op: string, call: () => Promise<void>): Promise<boolean> {
    return (await this.call(op, async () => (await call(), true), true)) ?? false;
  }

  /** A store call; undefined when it failed (logged, counted, backed off). */
  async call<T>(op: string, call: () => Promise<T>, writes = true): Promise<T | undefined> {
    try {
      const value = await call();
      // (A failed write is always followed by another: the item it was about is still due, or its fact is kept here.)
      if (this.storeProblem && (writes || !this.storeProblem.write) && this.unrecorded.size <= 1) {
        // (The fact being written back may be the last one kept in memory.)
        this.options.log.info({ op, store: this.options.location, was: this.storeProblem.code }, 'the store accepts writes again');
        this.storeProblem = undefined;
        this.failures = 0;
      }
      return value;
    } catch (err) {
      if (this.options.passThrough?.(err)) throw err;
      const e = err as { message?: string; code?: string };
      this.failures += 1;
      const wait = Math.min(MAX_STORE_BACKOFF_MS, 500 * 2 ** Math.min(this.failures - 1, 10));
      const now = this.options.now();
      this.retryAt = now.getTime() + wait;
      this.storeProblem = { op, write: writes, message: e?.message ?? String(err), code: e?.code, at: now.toISOString(), path: this.options.location };
      this.options.log.error({ op, code: e?.code, err: e?.message, store: this.options.location, retryInMs: wait }, 'store call failed; nothing is sent until it works again');
      this.options.onStoreError?.(op, err);
      return undefined;
    }
  }
}
