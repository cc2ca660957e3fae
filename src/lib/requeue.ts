/**
 * Retries a failed piece of work per key, with backoff, as a rate-limited work queue does
 * (client-go's workqueue AddRateLimited): a decision that failed because the store refused a
 * write is made again in a few seconds, not at the next event (a Failed workload brings none)
 * or the next relist (30 minutes). Keyed and latest wins: a key failing again while its retry
 * waits replaces the work and keeps the earlier time, so a key is retried once however often it
 * failed. Bounded: past `maxKeys` waiting, the oldest is given up (logged by the caller through
 * `onGivenUp`; the periodic resync still decides it again).
 */
import { backoffDelay, type Backoff } from './backoff.js';

export interface RequeueOptions {
  backoff?: Backoff;
  maxKeys?: number;
  random?(): number;
  onGivenUp?(key: string): void;
}

/** A store that refuses writes is usually back within seconds (a full disk freed, a failover). */
export const REQUEUE_BACKOFF: Backoff = { initialMs: 250, maxMs: 5_000 };
const DEFAULT_MAX_KEYS = 100_000;

interface Waiting {
  work: () => void;
  timer?: NodeJS.Timeout;
}

export class Requeue {
  /** Failures in a row per key, until it succeeds. */
  private readonly failures = new Map<string, number>();
  private readonly waiting = new Map<string, Waiting>();
  private stopped = false;

  constructor(private readonly options: RequeueOptions = {}) {}

  /** The work for `key` failed: `retry` runs after the key's backoff (replacing a retry already waiting). */
  failed(key: string, retry: () => void): number {
    if (this.stopped) return 0;
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    const known = this.waiting.get(key);
    if (known) {
      known.work = retry;
      return failures;
    }
    const entry: Waiting = { work: retry };
    this.waiting.set(key, entry);
    const delay = backoffDelay(failures, (this.options.random ?? Math.random)(), this.options.backoff ?? REQUEUE_BACKOFF);
    entry.timer = setTimeout(() => {
      this.waiting.delete(key);
      entry.work();
    }, delay);
    entry.timer.unref();
    this.bound();
    return failures;
  }

  /** The work for `key` succeeded: its next failure starts from the shortest wait again. */
  succeeded(key: string): void {
    this.failures.delete(key);
  }

  /** Keys waiting for a retry (tests, metrics). */
  get size(): number {
    return this.waiting.size;
  }

  /** Cancels every retry waiting (shutdown). */
  stop(): void {
    this.stopped = true;
    for (const entry of this.waiting.values()) clearTimeout(entry.timer);
    this.waiting.clear();
    this.failures.clear();
  }

  private bound(): void {
    const max = this.options.maxKeys ?? DEFAULT_MAX_KEYS;
    while (this.waiting.size > max) {
      const [oldest, entry] = this.waiting.entries().next().value as [string, Waiting];
      clearTimeout(entry.timer);
      this.waiting.delete(oldest);
      this.failures.delete(oldest);
      this.options.onGivenUp?.(oldest);
    }
    // Failure counts of keys that neither wait nor succeeded again stay bounded too.
    if (this.failures.size > 2 * max) for (const key of this.failures.keys()) if (!this.waiting.has(key)) this.failures.delete(key);
  }
}
