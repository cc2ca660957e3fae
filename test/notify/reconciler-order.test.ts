/**
 * The store is asynchronous (PostgreSQL answers later, sometimes out of order): two events for
 * one workload must not decide at the same time, or a slow read of the first could write its
 * stale state over the second's. A real SQLite store whose reads of the workload's memory are
 * delayed, the slowest first, stands in for a database that answers out of order.
 */
import type { LifecycleState, Transition } from '../../src/model.js';
import { WorkloadReconciler, type OwedAlert } from '../../src/notify/reconciler.js';
import type { Store } from '../../src/store/port.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { join } from 'node:path';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { workloadCr } from '../helpers/workloads.js';

const KIND = { group: 'run.ai', version: 'v2alpha1', plural: 'trainingworkloads', kind: 'TrainingWorkload' };

function raw(phase: string) {
  const cr = workloadCr({ name: 'resnet', project: 'vision', owner: 'alice', phase });
  return { ...cr, metadata: { ...cr.metadata, uid: 'u1', creationTimestamp: new Date().toISOString() } };
}

/** The real store, with each getWorkload answered after the next of `delaysMs` (then at once). */
function slowReads(store: SqliteStore, delaysMs: number[]): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'getWorkload') return typeof value === 'function' ? value.bind(target) : value;
      return async (uid: string) => {
        const ms = delaysMs.shift() ?? 0;
        if (ms) await new Promise((r) => setTimeout(r, ms));
        return target.getWorkload(uid);
      };
    },
  }) as Store;
}

describe('the reconciler with an asynchronous store', () => {
  it('decides one workload’s events one after another, so the latest state is what it remembers', async () => {
    const sqlite = new SqliteStore(join(tempDir('reconciler-'), 'bot.db'));
    const owed: OwedAlert[] = [];
    const transitions: Transition[] = [];
    const reconciler = new WorkloadReconciler({
      store: slowReads(sqlite, [80, 0, 0]),
      log: captureLog().log,
      now: () => new Date(),
      normalize: () => ({ ownerKeys: [] }),
      alertStates: new Set<LifecycleState>(['Failed']),
      lookbackMs: 86_400_000,
      sink: { owed: (alert) => owed.push(alert) },
      onTransition: (t) => transitions.push(t),
    });
    reconciler.markSynced();
    reconciler.upsert(raw('Running'), KIND);
    // The first decision is waiting on its (slow) read when the failure arrives.
    await new Promise((r) => setTimeout(r, 10));
    reconciler.upsert(raw('Failed'), KIND);
    await reconciler.idle();

    expect((await sqlite.getWorkload('u1'))?.state).toBe('Failed');
    expect(transitions.map((t) => `${t.from ?? 'none'}→${t.to}`)).toEqual(['Running→Failed']);
    expect(owed.map((a) => a.key)).toEqual(['wl:u1:Failed']);
    await sqlite.close();
  });
});

/** The real store, counting the workload writes and holding the first slice read for `holdMs`. */
function countingWrites(store: SqliteStore, holdMs = 0) {
  const calls = { putWorkload: 0, putWorkloads: [] as number[] };
  let held = false;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'putWorkload') return async (w: Parameters<SqliteStore['putWorkload']>[0]) => (calls.putWorkload++, target.putWorkload(w));
      if (prop === 'putWorkloads') return async (ws: Parameters<SqliteStore['putWorkloads']>[0]) => (calls.putWorkloads.push(ws.length), target.putWorkloads(ws));
      if (prop === 'getWorkloads') {
        return async (uids: string[]) => {
          if (!held && holdMs) {
            held = true;
            await new Promise((r) => setTimeout(r, holdMs));
          }
          return target.getWorkloads(uids);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store;
  return { store: wrapped, calls };
}

function numbered(i: number, phase: string) {
  const cr = workloadCr({ name: `job-${i}`, project: 'vision', owner: 'alice', phase });
  return { ...cr, metadata: { ...cr.metadata, uid: `u${i}`, creationTimestamp: new Date().toISOString() } };
}

describe('the catch-up after the first list', () => {
  function reconcilerOn(store: Store, owed: OwedAlert[], transitions: Transition[] = []) {
    return new WorkloadReconciler({
      store,
      log: captureLog().log,
      now: () => new Date(),
      normalize: () => ({ ownerKeys: [] }),
      alertStates: new Set<LifecycleState>(['Failed']),
      lookbackMs: 86_400_000,
      sink: { owed: (alert) => owed.push(alert) },
      onTransition: (t) => transitions.push(t),
    });
  }

  it('writes what it saw a slice at a time (one transaction per 200 workloads) and still owes each failure once', async () => {
    const sqlite = new SqliteStore(join(tempDir('reconciler-'), 'bot.db'));
    const { store, calls } = countingWrites(sqlite);
    const owed: OwedAlert[] = [];
    const reconciler = reconcilerOn(store, owed);
    for (let i = 0; i < 450; i++) reconciler.upsert(numbered(i, i % 100 === 0 ? 'Failed' : 'Running'), KIND);
    await reconciler.markSynced();
    await reconciler.idle();

    expect(calls.putWorkloads).toEqual([200, 200, 50]);
    expect(calls.putWorkload).toBe(0);
    expect((await sqlite.presentWorkloadUids()).length).toBe(450);
    expect((await sqlite.getWorkload('u100'))?.state).toBe('Failed');
    expect(owed.map((a) => a.key).sort()).toEqual(['wl:u0:Failed', 'wl:u100:Failed', 'wl:u200:Failed', 'wl:u300:Failed', 'wl:u400:Failed']);

    // Again (a resync): level-triggered, so the same five are owed while none is queued or sent.
    owed.length = 0;
    await reconciler.reconcileAll();
    await reconciler.idle();
    expect(owed.map((a) => a.key).sort()).toEqual(['wl:u0:Failed', 'wl:u100:Failed', 'wl:u200:Failed', 'wl:u300:Failed', 'wl:u400:Failed']);
    await sqlite.close();
  });

  it('decides a slice of a relist (the watcher\'s batch) as one job: one read and one write for all of it', async () => {
    const sqlite = new SqliteStore(join(tempDir('reconciler-'), 'bot.db'));
    const { store, calls } = countingWrites(sqlite);
    const owed: OwedAlert[] = [];
    const reconciler = reconcilerOn(store, owed);
    for (let i = 0; i < 150; i++) reconciler.upsert(numbered(i, 'Running'), KIND);
    await reconciler.markSynced();
    await reconciler.idle();
    calls.putWorkloads.length = 0;

    reconciler.batch(() => {
      for (let i = 0; i < 150; i++) reconciler.upsert(numbered(i, i === 7 ? 'Failed' : 'Running'), KIND);
    });
    await reconciler.idle();
    expect(calls.putWorkloads).toEqual([1]);
    expect(calls.putWorkload).toBe(0);
    expect((await sqlite.getWorkload('u7'))?.state).toBe('Failed');
    expect(owed.map((a) => a.key)).toEqual(['wl:u7:Failed']);
    await sqlite.close();
  });

  it('decides an event that arrives while its slice is being decided after the slice, not alongside it', async () => {
    const sqlite = new SqliteStore(join(tempDir('reconciler-'), 'bot.db'));
    const { store } = countingWrites(sqlite, 80);
    const owed: OwedAlert[] = [];
    const transitions: Transition[] = [];
    const reconciler = reconcilerOn(store, owed, transitions);
    for (let i = 0; i < 10; i++) reconciler.upsert(numbered(i, 'Running'), KIND);
    const synced = reconciler.markSynced();
    // The slice is waiting on its (held) read when workload 3 fails.
    await new Promise((r) => setTimeout(r, 20));
    reconciler.upsert(numbered(3, 'Failed'), KIND);
    await synced;
    await reconciler.idle();

    expect((await sqlite.getWorkload('u3'))?.state).toBe('Failed');
    expect(owed.map((a) => a.key)).toEqual(['wl:u3:Failed']);
    await sqlite.close();
  });
});


describe('the reconciler when the store is unreachable', () => {
  it('decides a failed decision again after a pause, with no further event (PostgreSQL restarting, a full disk)', async () => {
    const sqlite = new SqliteStore(join(tempDir('reconciler-down-'), 'bot.db'));
    let down = true;
    let refused = 0;
    // The real store, whose reads fail while it is "down" (as a PostgreSQL connection refused).
    const store = new Proxy(sqlite, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'getWorkload') return typeof value === 'function' ? value.bind(target) : value;
        return async (uid: string) => {
          if (down) {
            refused += 1;
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }
          return target.getWorkload(uid);
        };
      },
    }) as Store;
    const owed: OwedAlert[] = [];
    const captured = captureLog();
    const reconciler = new WorkloadReconciler({
      store,
      log: captured.log,
      now: () => new Date(),
      normalize: () => ({ ownerKeys: [] }),
      alertStates: new Set<LifecycleState>(['Failed']),
      lookbackMs: 86_400_000,
      sink: { owed: (alert) => owed.push(alert) },
    });
    reconciler.markSynced();
    reconciler.upsert(raw('Failed'), KIND);
    await reconciler.idle();
    expect(refused).toBe(1);
    expect(owed).toEqual([]);

    down = false;
    // No event arrives: the retry (after its backoff) decides it from the cache.
    for (let waited = 0; !owed.length && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    await reconciler.idle();
    expect(owed.map((a) => a.key)).toEqual(['wl:u1:Failed']);
    await sqlite.close();
  });
});
