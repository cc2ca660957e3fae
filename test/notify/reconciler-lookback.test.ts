/**
 * When the reconciler asks the pods when a missed failure happened: only in a list's decisions
 * (the catch-up after start), only for a change into an alert state whose CR gives no time, and
 * only where the answer decides the lookback. A live watch event's change is happening now.
 * The real SQLite store; the pod read is the reconciler's dependency, counted.
 */
import { join } from 'node:path';
import type { LifecycleState, Workload } from '../../src/model.js';
import { WorkloadReconciler, type OwedAlert } from '../../src/notify/reconciler.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { workloadCr } from '../helpers/workloads.js';

const HOUR = 3_600_000;
const KIND = { group: 'run.ai', version: 'v2alpha1', plural: 'trainingworkloads', kind: 'TrainingWorkload' };
const NOW = new Date('2026-11-29T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

function failedCr(name: string) {
  const cr = workloadCr({ name, project: 'vision', owner: 'alice', phase: 'Failed' });
  return { ...cr, metadata: { ...cr.metadata, uid: `uid-${name}`, creationTimestamp: ago(10 * 24 * HOUR) } };
}

describe('the reconciler dates a missed failure by its pods', () => {
  let store: SqliteStore;
  let owed: OwedAlert[];
  let asked: string[];
  let reconciler: WorkloadReconciler;

  beforeEach(async () => {
    store = new SqliteStore(join(tempDir('reconciler-lookback-'), 'bot.db'));
    owed = [];
    asked = [];
    reconciler = new WorkloadReconciler({
      store,
      log: captureLog().log,
      now: () => NOW,
      normalize: () => ({}),
      alertStates: new Set<LifecycleState>(['Failed']),
      lookbackMs: 24 * HOUR,
      sink: { owed: (alert) => owed.push(alert) },
      finishedAt: async (w: Workload) => {
        asked.push(w.name);
        return ago(72 * HOUR);
      },
    });
    for (const [name, since] of [['long-running', 96 * HOUR], ['just-started', HOUR]] as const) {
      await store.putWorkload({ uid: `uid-${name}`, namespace: 'runai-vision', name, project: 'vision', owner: 'alice', kind: 'TrainingWorkload', state: 'Running', stateSince: ago(since), snapshot: '{}' });
    }
  });
  afterEach(() => store.close());

  it('at the catch-up, asks the pods only of the failure whose remembered state began past the lookback', async () => {
    reconciler.upsert(failedCr('long-running'), KIND);
    reconciler.upsert(failedCr('just-started'), KIND);
    await reconciler.markSynced();
    await reconciler.idle();

    expect(asked).toEqual(['long-running']);
    expect(owed.map((a) => a.workload.name)).toEqual(['just-started']);
    expect(await store.getWorkload('uid-long-running')).toMatchObject({ state: 'Failed', stateSince: ago(72 * HOUR) });
  });

  it('never asks them for a live watch event: the change is dated now and owed', async () => {
    await reconciler.markSynced();
    reconciler.upsert(failedCr('long-running'), KIND);
    await reconciler.idle();

    expect(asked).toEqual([]);
    expect(owed.map((a) => a.workload.name)).toEqual(['long-running']);
    expect(await store.getWorkload('uid-long-running')).toMatchObject({ state: 'Failed', stateSince: NOW.toISOString() });
  });
});
