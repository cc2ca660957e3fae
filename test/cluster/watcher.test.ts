/**
 * The reflector against the simulated API server with the real client-node: paginated list,
 * watch from the list's resourceVersion, resume after a clean close, relist after 410 Gone,
 * deletions missed while disconnected, and namespaced scope.
 */
import { loadKubeConfig } from '../../src/app.js';
import { discoverWorkloadKinds, type WorkloadKindRef } from '../../src/cluster/kinds.js';
import { WorkloadWatcher, type WorkloadEventHandler } from '../../src/cluster/watcher.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { eventually, tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { countTurns } from '../helpers/turns.js';

class Recorder implements WorkloadEventHandler {
  phases = new Map<string, string>();
  removed: string[] = [];
  lists: Array<{ plural: string; scope: string; uids: Set<string> }> = [];
  upserts = 0;
  upsert(raw: any): void {
    this.upserts++;
    this.phases.set(`${raw.metadata.namespace}/${raw.metadata.name}`, raw.status?.phase);
  }
  remove(raw: any): void {
    this.removed.push(`${raw.metadata.namespace}/${raw.metadata.name}`);
  }
  listed(kind: WorkloadKindRef, scope: string, uids: Set<string>): void {
    this.lists.push({ plural: kind.plural, scope, uids });
  }
}

describe('WorkloadWatcher', () => {
  let kube: FakeKube;
  let watcher: WorkloadWatcher | undefined;

  beforeEach(async () => {
    kube = await startFakeKube();
    for (let i = 0; i < 5; i++) kube.apply(workloadCr({ name: `job-${i}`, project: i < 3 ? 'a' : 'b', owner: 'alice' }));
  });

  afterEach(async () => {
    watcher?.stop();
    await kube.close();
  });

  async function start(handler: Recorder, options: Partial<ConstructorParameters<typeof WorkloadWatcher>[0]> = {}) {
    const kubeConfig = loadKubeConfig(kube.writeKubeconfig(tempDir()));
    const kinds = await discoverWorkloadKinds(kubeConfig);
    watcher = new WorkloadWatcher({
      kubeConfig,
      kinds,
      namespaces: [],
      mode: 'watch',
      pollIntervalMs: 5000,
      resyncMs: 3_600_000,
      handler,
      log: captureLog().log,
      pageSize: 2,
      ...options,
    });
    await watcher.start();
    return watcher;
  }

  it('discovers the four Run:ai workload kinds at their preferred version', async () => {
    const kinds = await discoverWorkloadKinds(loadKubeConfig(kube.writeKubeconfig(tempDir())));
    expect(kinds.map((k) => `${k.plural}/${k.version}`).sort()).toEqual([
      'distributedworkloads/v2alpha1', 'inferenceworkloads/v2alpha1', 'interactiveworkloads/v2alpha1', 'trainingworkloads/v2alpha1',
    ]);
  });

  it('lists page by page, then sees changes through the watch', async () => {
    const rec = new Recorder();
    const w = await start(rec);
    expect(w.synced).toBe(true);
    expect(rec.phases.size).toBe(5);
    const trainingPages = kube.requests.filter((r) => r.path === '/apis/run.ai/v2alpha1/trainingworkloads' && r.query.watch !== 'true');
    expect(trainingPages.length).toBe(3); // 5 objects, 2 per page
    kube.setPhase('TrainingWorkload', ns('a'), 'job-1', 'Failed');
    await eventually(() => rec.phases.get(`${ns('a')}/job-1`) === 'Failed', 'the MODIFIED event');
    kube.delete({ kind: 'TrainingWorkload', namespace: ns('a'), name: 'job-2' });
    await eventually(() => rec.removed.includes(`${ns('a')}/job-2`), 'the DELETED event');
  });

  it('resumes after the server closes the watch, and relists after 410 Gone', async () => {
    const rec = new Recorder();
    const w = await start(rec);
    kube.dropWatches();
    kube.setPhase('TrainingWorkload', ns('a'), 'job-0', 'Stopped');
    await eventually(() => rec.phases.get(`${ns('a')}/job-0`) === 'Stopped', 'the change after a clean close');

    kube.dropWatches({ abrupt: true });
    kube.setPhase('TrainingWorkload', ns('b'), 'job-3', 'Failed');
    kube.delete({ kind: 'TrainingWorkload', namespace: ns('b'), name: 'job-4' });
    kube.compactHistory();
    await eventually(() => rec.phases.get(`${ns('b')}/job-3`) === 'Failed', 'the change after 410 and relist', 15_000);
    // The deletion happened while disconnected: the relist shows the object gone. (The other
    // kinds' watches meet the 410 too and relist in their own time: look at this kind's.)
    const last = rec.lists.filter((l) => l.plural === 'trainingworkloads').at(-1)!;
    expect([...last.uids].length).toBe(4);
    expect(w.stats.watchRestarts).toBeGreaterThanOrEqual(2);
    expect(w.stats.relists).toBeGreaterThanOrEqual(1);
  });

  it('watches only the configured namespaces', async () => {
    const rec = new Recorder();
    await start(rec, { namespaces: [ns('b')] });
    expect([...rec.phases.keys()].sort()).toEqual([`${ns('b')}/job-3`, `${ns('b')}/job-4`]);
    expect(kube.requests.every((r) => !r.path.startsWith('/apis/run.ai/v2alpha1/trainingworkloads'))).toBe(true);
  });

  it('polls instead of watching in poll mode', async () => {
    const rec = new Recorder();
    await start(rec, { mode: 'poll', pollIntervalMs: 300 });
    kube.setPhase('TrainingWorkload', ns('a'), 'job-1', 'Failed');
    await eventually(() => rec.phases.get(`${ns('a')}/job-1`) === 'Failed', 'the polled change');
    expect(kube.requests.some((r) => r.query.watch)).toBe(false);
  });

  it('keeps the resourceVersion a BOOKMARK carries, so a reconnect resumes there instead of relisting', async () => {
    const rec = new Recorder();
    const w = await start(rec);
    const listVersion = Number(kube.resourceVersion);
    // Changes to other kinds move the server's history on without an event on these watches.
    for (let i = 0; i < 3; i++) kube.apply(pod({ name: `other-${i}`, workload: 'none', project: 'a' }));
    const bookmarked = kube.resourceVersion;
    expect(Number(bookmarked)).toBeGreaterThan(listVersion);
    await eventually(() => kube.openWatches === 4, 'four watches open');
    kube.sendBookmarks();
    await eventually(() => w.resourceVersions().every((rv) => rv === bookmarked), 'the bookmarks read');
    kube.resetRequests();
    kube.dropWatches();
    await eventually(() => kube.requests.filter((r) => r.query.watch === 'true').length === 4, 'four watches again');
    const resumed = kube.requests.filter((r) => r.query.watch === 'true').map((r) => r.query.resourceVersion);
    expect(resumed).toEqual([bookmarked, bookmarked, bookmarked, bookmarked]);
    expect(kube.requests.filter((r) => r.query.watch !== 'true')).toEqual([]);
    expect(w.stats.relists).toBe(0);
  });

  it('lets the event loop turn every few objects while it lists', async () => {
    const loop = countTurns();
    const seen: number[] = [];
    const rec = new Recorder();
    const upsert = rec.upsert.bind(rec);
    rec.upsert = (raw: any) => {
      seen.push(loop.turns);
      upsert(raw);
    };
    try {
      await start(rec, { pageSize: 500, sliceSize: 2 });
    } finally {
      loop.stop();
    }
    const training = seen.slice(0, 5);
    // All five arrive in one page; handled in slices of two, the loop turns between slices.
    expect(training[1]).toBe(training[0]);
    expect(training[2]).toBeGreaterThan(training[1]);
    expect(training[4]).toBeGreaterThan(training[2]);
  });
});
