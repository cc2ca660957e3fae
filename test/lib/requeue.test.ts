/**
 * The keyed retry queue: one retry per key however often it failed (the latest work wins), a
 * growing wait per key until it succeeds, and a bound on how many keys wait.
 */
import { Requeue } from '../../src/lib/requeue.js';

/** Resolves when `n` retries have run, recording which. */
function ran(n: number): { done: Promise<string[]>; record(what: string): () => void } {
  const seen: string[] = [];
  let resolve!: (v: string[]) => void;
  const done = new Promise<string[]>((r) => (resolve = r));
  return {
    done,
    record: (what) => () => {
      seen.push(what);
      if (seen.length === n) resolve(seen);
    },
  };
}

describe('Requeue', () => {
  it('retries a key once, with the latest work, however often it failed meanwhile', async () => {
    const q = new Requeue({ backoff: { initialMs: 20, maxMs: 20 }, random: () => 1 });
    const runs = ran(2);
    q.failed('a', runs.record('a-first'));
    q.failed('a', runs.record('a-latest'));
    q.failed('b', runs.record('b'));
    expect(q.size).toBe(2);
    expect((await runs.done).sort()).toEqual(['a-latest', 'b']);
    expect(q.size).toBe(0);
  });

  it('counts failures in a row per key, and starts again after a success', () => {
    const q = new Requeue({ backoff: { initialMs: 10_000, maxMs: 60_000 } });
    expect(q.failed('a', () => undefined)).toBe(1);
    expect(q.failed('a', () => undefined)).toBe(2);
    expect(q.failed('b', () => undefined)).toBe(1);
    q.succeeded('a');
    expect(q.failed('a', () => undefined)).toBe(1);
    q.stop();
  });

  it('gives up the oldest key past its bound, and says which', () => {
    const given: string[] = [];
    const q = new Requeue({ backoff: { initialMs: 10_000, maxMs: 10_000 }, maxKeys: 2, onGivenUp: (k) => given.push(k) });
    for (const k of ['a', 'b', 'c']) q.failed(k, () => undefined);
    expect(given).toEqual(['a']);
    expect(q.size).toBe(2);
    q.stop();
    expect(q.size).toBe(0);
  });

  it('runs nothing once stopped', async () => {
    const q = new Requeue({ backoff: { initialMs: 10, maxMs: 10 } });
    let runs = 0;
    q.failed('a', () => runs++);
    q.stop();
    expect(q.failed('b', () => runs++)).toBe(0);
    // Settled by a later retry queue's own retry: the stopped one's would have run first.
    const later = new Requeue({ backoff: { initialMs: 30, maxMs: 30 }, random: () => 1 });
    await new Promise<void>((resolve) => later.failed('x', resolve));
    expect(runs).toBe(0);
  });
});
