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
