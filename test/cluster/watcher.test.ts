/**
 * The reflector against the simulated API server with the real client-node: paginated list,
 * watch from the list's resourceVersion, resume after a clean close, relist after 410 Gone,
 * deletions missed while disconnected, namespaced scope, periodic relists that race nothing,
 * resyncs that list nothing, and the watchdog that cuts a silent watch.
 */
import { loadKubeConfig } from '../../src/app.js';
import { discoverWorkloadKinds, type WorkloadKindRef } from '../../src/cluster/kinds.js';
import { silenceLimitMs, WorkloadWatcher, type WatchTimings, type WorkloadEventHandler } from '../../src/cluster/watcher.js';
import { startFakeKube, type FakeKube, type FakeKubeOptions } from '../../src/sim/kube-apiserver.js';
import { eventually, tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { countTurns } from '../helpers/turns.js';
import { startTcpCut, type TcpCut } from '../helpers/tcp-cut.js';

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

/**
 * Holds what the reconciler's cache holds (a phase per uid; a complete list replaces its kind's
 * share) and every change made to it, in order, to tell whether anything ever went back.
 */
class CacheRecorder implements WorkloadEventHandler {
  readonly byUid = new Map<string, { plural: string; name: string; phase?: string }>();
  readonly history: string[] = [];
  lists = 0;
  resyncs = 0;
  upsert(raw: any, kind: WorkloadKindRef): void {
    const name = `${raw.metadata.namespace}/${raw.metadata.name}`;
    this.byUid.set(raw.metadata.uid, { plural: kind.plural, name, phase: raw.status?.phase });
    this.history.push(`${name} ${raw.status?.phase}`);
  }
  remove(raw: any): void {
    this.byUid.delete(raw.metadata.uid);
    this.history.push(`${raw.metadata.namespace}/${raw.metadata.name} gone`);
  }
  listed(kind: WorkloadKindRef, _scope: string, uids: Set<string>): void {
    this.lists++;
    for (const [uid, held] of this.byUid) {
      if (held.plural !== kind.plural || uids.has(uid)) continue;
      this.byUid.delete(uid);
      this.history.push(`${held.name} gone`);
    }
  }
  resync(): void {
    this.resyncs++;
  }
  phaseOf(name: string): string | undefined {
    for (const held of this.byUid.values()) if (held.name === name) return held.phase;
    return undefined;
  }
  /** What happened to one workload, in order. */
  of(name: string): string[] {
    return this.history.filter((h) => h.startsWith(`${name} `)).map((h) => h.slice(name.length + 1));
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

  async function start(handler: WorkloadEventHandler, options: Partial<ConstructorParameters<typeof WorkloadWatcher>[0]> = {}) {
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

  it('relists on schedule with the watch paused: nothing goes back, nothing created meanwhile is swept, and the watch resumes from the list', async () => {
    const rec = new CacheRecorder();
    await start(rec, { relistMs: 1500 });
    const path = '/apis/run.ai/v2alpha1/trainingworkloads';
    // The next first page of the training list is answered 800 ms after its snapshot.
    let snapshot: { rv: string; at: number } | undefined;
    let answered: () => void;
    const listStarted = new Promise<void>((resolve) => (answered = resolve));
    kube.slowListsBy(800, (r) => {
      if (snapshot || r.path !== path || r.query.watch === 'true' || r.query.continue) return false;
      snapshot = { rv: kube.resourceVersion, at: kube.requests.length - 1 };
      answered();
      return true;
    });
    await listStarted;
    const listsBefore = rec.lists;
    // Meanwhile: one fails, one is created, one is deleted.
    kube.setPhase('TrainingWorkload', ns('a'), 'job-1', 'Failed');
    kube.apply(workloadCr({ name: 'job-new', project: 'a', owner: 'alice' }));
    kube.delete({ kind: 'TrainingWorkload', namespace: ns('a'), name: 'job-2' });
    await eventually(() => rec.lists > listsBefore && rec.phaseOf(`${ns('a')}/job-1`) === 'Failed' && rec.phaseOf(`${ns('a')}/job-new`) === 'Running' && rec.phaseOf(`${ns('a')}/job-2`) === undefined, 'the relist and the changes made during it');
    expect(rec.of(`${ns('a')}/job-1`).join(' → ')).toMatch(/^(Running → )+Failed$/);
    expect(rec.of(`${ns('a')}/job-new`)).toEqual(['Running']);
    expect(rec.of(`${ns('a')}/job-2`).join(' → ')).toMatch(/^(Running → )+gone$/);
    // After the slow list's pages, the next training request is the watch, from the list's snapshot.
    const after = kube.requests.slice(snapshot!.at + 1).filter((r) => r.path === path);
    const resumed = after.findIndex((r) => r.query.watch === 'true');
    expect(after.slice(0, resumed).every((r) => r.query.continue)).toBe(true);
    expect(after[resumed].query.resourceVersion).toBe(snapshot!.rv);
  });

  it('resyncs by replaying the cache, with no request to the server; without relistMs it never lists again', async () => {
    const rec = new CacheRecorder();
    const w = await start(rec, { resyncMs: 200 });
    const listed = kube.requests.length;
    await eventually(() => rec.resyncs >= 3, 'three resyncs');
    expect(kube.requests.slice(listed).filter((r) => r.query.watch !== 'true')).toEqual([]);
    expect(w.stats).toMatchObject({ relists: 0 });
    expect(w.stats.resyncs).toBeGreaterThanOrEqual(3);
  });
});

describe('the watchdog of a silent watch', () => {
  let kube: FakeKube;
  let link: TcpCut;
  let watcher: WorkloadWatcher | undefined;

  afterEach(async () => {
    watcher?.stop();
    watcher = undefined;
    await link.close();
    await kube.close();
  });

  /** A watcher reaching the server through a relay, with watch timings short enough for a test. */
  async function start(server: FakeKubeOptions, timings: Partial<WatchTimings>, more: { relistMs?: number } = {}) {
    kube = await startFakeKube(server);
    kube.apply(workloadCr({ name: 'job-0', project: 'a', owner: 'alice' }));
    link = await startTcpCut(Number(new URL(kube.url).port));
    const dir = tempDir();
    const kubeConfig = loadKubeConfig(kube.writeKubeconfig(dir));
    kubeConfig.clusters[0] = { ...kubeConfig.clusters[0], server: link.url };
    const kinds = await discoverWorkloadKinds(kubeConfig);
    const captured = captureLog();
    const rec = new Recorder();
    watcher = new WorkloadWatcher({ kubeConfig, kinds, namespaces: [], mode: 'watch', pollIntervalMs: 5000, resyncMs: 3_600_000, handler: rec, log: captured.log, timings, ...more });
    await watcher.start();
    const bookmarked = () => captured.entries.filter((e) => e.msg === 'the server sends watch bookmarks: a watch silent for longer is cut').length;
    return { w: watcher, rec, kinds, bookmarked, captured };
  }

  it('cuts a watch that delivers nothing (no event, no bookmark) and watches again from where it was, without a list', async () => {
    const { w, rec, kinds, bookmarked } = await start({ bookmarkIntervalMs: 100 }, { watchTimeoutSeconds: [60, 61], timeoutGraceMs: 1000, bookmarkSilenceMs: 500 });
    await eventually(() => bookmarked() === kinds.length, 'a bookmark on every watch');
    const from = kube.requests.length;
    // Open connections carry nothing more; new ones get through. Without the watchdog the watch
    // would wait for its 60 s timeout, whose end the relay would not pass either.
    link.stallOpen();
    kube.setPhase('TrainingWorkload', ns('a'), 'job-0', 'Failed');
    await eventually(() => rec.phases.get(`${ns('a')}/job-0`) === 'Failed', 'the change, through a new watch', 10_000);
    expect(w.stats.watchStalls).toBe(kinds.length);
    expect(w.stats.relists).toBe(0);
    const again = kube.requests.slice(from);
    expect(again.filter((r) => r.query.watch !== 'true')).toEqual([]);
    expect(again.every((r) => Number(r.query.resourceVersion) > 0)).toBe(true);
  });

  it('cuts a watch stuck before its response headers too, closing its connection', async () => {
    const { w, rec, kinds, bookmarked } = await start({ bookmarkIntervalMs: 100 }, { watchTimeoutSeconds: [60, 61], timeoutGraceMs: 1000, bookmarkSilenceMs: 500 });
    await eventually(() => bookmarked() === kinds.length, 'a bookmark on every watch');
    // Every connection, open or new, carries nothing: each new watch waits for headers that never come.
    link.stall();
    await eventually(() => w.stats.watchStalls >= 2 * kinds.length, 'the open watches and their first replacements cut', 15_000);
    link.restore();
    kube.setPhase('TrainingWorkload', ns('a'), 'job-0', 'Failed');
    await eventually(() => rec.phases.get(`${ns('a')}/job-0`) === 'Failed', 'the change once the link is back', 15_000);
    // Nothing is left hanging on the relay: one connection per watch.
    await eventually(() => link.connections === kinds.length, 'the stalled connections closed');
  });

  it('gives up a list page that never comes and lists again, so a relist through a dead link does not pause the watch for good', async () => {
    const { w, rec } = await start({ bookmarkIntervalMs: 100 }, { watchTimeoutSeconds: [60, 61], timeoutGraceMs: 1000, bookmarkSilenceMs: 500, listPageTimeoutMs: 300 }, { relistMs: 500 });
    link.stall();
    await eventually(() => w.stats.lastError?.includes('did not answer within 300 ms while listing'), 'a list page given up', 10_000);
    link.restore();
    kube.setPhase('TrainingWorkload', ns('a'), 'job-0', 'Failed');
    await eventually(() => rec.phases.get(`${ns('a')}/job-0`) === 'Failed', 'the change once the link is back', 15_000);
    expect(w.stats.errors).toBeGreaterThanOrEqual(1);
  });

  it('never cuts a healthy quiet watch: one that hears bookmarks, and one from a server that sends none', async () => {
    for (const bookmarkIntervalMs of [100, 0]) {
      const { w, kinds } = await start({ bookmarkIntervalMs }, { watchTimeoutSeconds: [2, 3], timeoutGraceMs: 500, bookmarkSilenceMs: 400 });
      // Each watch lasts 2-3 s, many times the bookmark limit, until the server ends it on time.
      await eventually(() => kube.requests.filter((r) => r.query.watch === 'true').length >= 2 * kinds.length, 'each watch ended by the server and started again', 10_000);
      expect(w.stats.watchStalls).toBe(0);
      watcher!.stop();
      await link.close();
      await kube.close();
    }
    // afterEach closes the last ones again: harmless.
    kube = await startFakeKube();
    link = await startTcpCut(Number(new URL(kube.url).port));
  });
});

describe('silenceLimitMs', () => {
  const timings = { timeoutGraceMs: 30_000, bookmarkSilenceMs: 90_000 };
  it.each([
    ['no bookmark seen yet: the watch timeout plus grace', 300, false, 330_000],
    ['bookmarks seen: the bookmark limit', 300, true, 90_000],
    ['bookmarks seen, a watch timeout shorter than the bookmark limit: the timeout plus grace', 30, true, 60_000],
  ])('%s', (_what, timeoutSeconds, bookmarksSeen, expected) => {
    expect(silenceLimitMs(timeoutSeconds, bookmarksSeen, timings)).toBe(expected);
  });
});
