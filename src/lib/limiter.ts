/**
 * At most `max` tasks at a time; the rest wait their turn in order. Used where a burst of work
 * (a thousand failures at once) must not become a thousand connections. p-limit hands a freed
 * slot straight to the next waiter, so no task slips in between.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export class ConcurrencyLimiter {
  private readonly limit: LimitFunction;

  constructor(max: number) {
    this.limit = pLimit(max);
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.limit(work);
  }

}
