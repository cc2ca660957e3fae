/**
 * One reconciler, several clusters: each cluster's watcher feeds it through forCluster(), and
 * every workload is keyed by workloadId(), so the same uid in two clusters is two workloads, a
 * list of one cluster forgets only that cluster's workloads, and each cluster decides from its
 * own first sync with its own catch-up window. A real SQLite store holds the memory.
 */
import { join } from 'node:path';
import type { LifecycleState } from '../../src/model.js';
import { WorkloadReconciler, type OwedAlert } from '../../src/notify/reconciler.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { workloadCr } from '../helpers/workloads.js';

const KIND = { group: 'run.ai', version: 'v2alpha1', plural: 'trainingworkloads', kind: 'TrainingWorkload' };
const HOUR = 3_600_000;

function raw(phase: string, uid = 'u1', name = 'resnet', changedHoursAgo = 0) {
  const cr = workloadCr({ name, project: 'vision', owner: 'alice', phase });
  const changed = new Date(Date.now() - changedHoursAgo * HOUR).toISOString();
  return {
    ...cr,
    metadata: { ...cr.metadata, uid, creationTimestamp: changed },
    status: { ...(cr.status as object), conditions: [{ type: phase, status: 'True', lastTransitionTime: changed }] },
  };
}

describe('the reconciler with several clusters', () => {
  let store: SqliteStore;
  let owed: OwedAlert[];
  let reconciler: WorkloadReconciler;

  beforeEach(() => {
    store = new SqliteStore(join(tempDir('reconciler-clusters-'), 'bot.db'));
    owed = [];
    reconciler = new WorkloadReconciler({
      store,
      log: captureLog().log,
      now: () => new Date(),
      normalize: () => ({ ownerKeys: [] }),
      alertStates: new Set<LifecycleState>(['Failed']),
      lookbackMs: 24 * HOUR,
      sink: { owed: (alert) => owed.push(alert) },
    });
  });
  afterEach(() => store.close());

  it('keeps the same uid in two clusters apart, in the cache, the store and the keys owed', async () => {
    const east = reconciler.forCluster('gpu-east', { normalize: () => ({ ownerKeys: [] }) });
    const west = reconciler.forCluster('gpu-west', { normalize: () => ({ ownerKeys: [] }) });
    east.upsert(raw('Running'), KIND);
    west.upsert(raw('Running'), KIND);
    await reconciler.markSynced('gpu-east');
    await reconciler.markSynced('gpu-west');
    east.upsert(raw('Failed'), KIND);
    west.upsert(raw('Failed'), KIND);
    await reconciler.idle();

    expect(reconciler.workloads().map((w) => w.cluster).sort()).toEqual(['gpu-east', 'gpu-west']);
    expect(reconciler.currentState('gpu-east/u1')).toBe('Failed');
    expect(reconciler.currentState('u1')).toBeUndefined();
    expect(owed.map((a) => a.key).sort()).toEqual(['wl:gpu-east/u1:Failed', 'wl:gpu-west/u1:Failed']);
    expect(await store.getWorkload('gpu-west/u1')).toMatchObject({ cluster: 'gpu-west', state: 'Failed' });
  });

  it("forgets, on a cluster's list, only that cluster's missing workloads, and deletes by that cluster's uid", async () => {
    const east = reconciler.forCluster('gpu-east', { normalize: () => ({ ownerKeys: [] }) });
    const west = reconciler.forCluster('gpu-west', { normalize: () => ({ ownerKeys: [] }) });
    east.upsert(raw('Running', 'e1', 'a'), KIND);
    west.upsert(raw('Running', 'w1', 'b'), KIND);
    west.upsert(raw('Running', 'w2', 'c'), KIND);
    // gpu-east's list has nothing of gpu-west's: they stay.
    east.listed(KIND, '*', new Set(['e1']));
    expect(reconciler.workloads().map((w) => w.uid).sort()).toEqual(['e1', 'w1', 'w2']);
    // A DELETED event in gpu-east for a uid only gpu-west has changes nothing.
    east.remove(raw('Running', 'w1', 'b'), KIND);
    expect(reconciler.workloads()).toHaveLength(3);
    west.listed(KIND, '*', new Set(['w2']));
    expect(reconciler.workloads().map((w) => `${w.cluster}/${w.uid}`).sort()).toEqual(['gpu-east/e1', 'gpu-west/w2']);
  });

  it('decides a cluster only from its own first sync, with its own catch-up window', async () => {
    const east = reconciler.forCluster('gpu-east', { normalize: () => ({ ownerKeys: [] }), lookbackMs: 1 * HOUR });
    const west = reconciler.forCluster('gpu-west', { normalize: () => ({ ownerKeys: [] }), lookbackMs: 48 * HOUR });
    // Both failed 5 hours ago, while the bot was down.
    east.upsert(raw('Failed', 'e1', 'a', 5), KIND);
    west.upsert(raw('Failed', 'w1', 'b', 5), KIND);
    await reconciler.markSynced('gpu-west');
    await reconciler.idle();
    expect(reconciler.isSynced('gpu-west')).toBe(true);
    expect(reconciler.isSynced('gpu-east')).toBe(false);
    // Only gpu-west is synced, and its 48 h window still owes the failure.
    expect(owed.map((a) => a.key)).toEqual(['wl:gpu-west/w1:Failed']);
    await reconciler.markSynced('gpu-east');
    await reconciler.idle();
    // gpu-east's 1 h window: five hours ago is old news.
    expect(owed.map((a) => a.key)).toEqual(['wl:gpu-west/w1:Failed']);
    expect((await store.getWorkload('gpu-east/e1'))?.state).toBe('Failed');
  });
});
