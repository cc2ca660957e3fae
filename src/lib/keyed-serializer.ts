/**
 * Runs async jobs one at a time per key, in the order they were submitted; jobs for different
 * keys run concurrently. The store became asynchronous (PostgreSQL), so two events for one
 * workload could otherwise interleave their read-decide-write steps. Hand-rolled: the npm
 * mutex libraries lock one resource, and a promise chain per key is all this needs.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `job` after every job submitted before it for `key`; resolves or rejects as it does. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /**
   * Runs `job` once, after every job submitted before it for any of `keys`; jobs submitted
   * later for any of them wait for it. One job holding a slice of keys: a batched decision.
   */
  runAll<T>(keys: readonly string[], job: () => Promise<T>): Promise<T> {
    const previous = Promise.all(keys.map((key) => this.tails.get(key)));
    const result = previous.then(job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    for (const key of keys) this.tails.set(key, tail);
    void tail.then(() => {
      for (const key of keys) if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a job queued or running. */
  get size(): number {
    return this.tails.size;
  }

  /** Resolves once no job is queued or running (including jobs submitted meanwhile). */
  async idle(): Promise<void> {
    while (this.tails.size) await Promise.all(this.tails.values());
  }
}
