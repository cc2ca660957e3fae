import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadKubeConfig } from '../../src/app.js';
import { LogArchiver } from '../../src/archive/archiver.js';
import { ArchiveProblemReporter } from '../../src/archive/problem-reporter.js';
import { createClusterReader, type ClusterReader } from '../../src/cluster/reader.js';
import { normalizeWorkload } from '../../src/cluster/normalize.js';
import type { Workload } from '../../src/model.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { startFakeKube, type FakeKube } from '../fakes/kube-apiserver.js';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { allOutbox } from '../helpers/store.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

describe('the log archiver the notifier calls', () => {
  let kube: FakeKube;
  let reader: ClusterReader;
  let store: SqliteStore;
  let dir: string;
  const captured = captureLog();
  const now = new Date('2026-11-29T10:00:00Z');

  beforeAll(async () => {
    kube = await startFakeKube();
    reader = createClusterReader(loadKubeConfig(kube.writeKubeconfig(tempDir('archiver-kube-'))));
  });
  afterAll(async () => {
    await kube.close();
  });
  beforeEach(() => {
    dir = tempDir('archiver-');
    store = new SqliteStore(join(dir, 'bot.db'));
  });
  afterEach(() => store.close());

  const archiver = (archiveDir = join(dir, 'logs')) =>
    new LogArchiver({
      readerFor: () => reader,
      dir: archiveDir,
      maxBytesPerContainer: 1_000_000,
      reporter: new ArchiveProblemReporter({ store, opsChannel: 'C0OPS', dir: archiveDir, log: captured.log, queued: () => undefined }),
      log: captured.log,
      now: () => now,
    });

  /** The workload as the watcher sees it: the CR alone, no pods. */
  function failed(name: string, phase = 'Failed'): Workload {
    const cr = kube.apply(workloadCr({ name, project: 'vision', owner: 'alice', phase }));
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.appendLog(ns('vision'), `${name}-0-0`, name, `${name}: CUDA out of memory\n`);
    return normalizeWorkload(cr);
  }

  const logRequests = () => kube.requests.filter((r) => r.path.endsWith('/log')).length;

  it("reads the pods of a failed workload itself and resolves with the directory its logs were saved to", async () => {
    const w = failed('resnet');
    const a = archiver();
    const path = await a.archive(w);
    expect(path).toBe(a.pathFor(w));
    expect(readFileSync(join(path!, 'resnet-0-0.resnet.log'), 'utf8')).toBe('resnet: CUDA out of memory\n');
  });

  it('archives a workload once however often it is asked while archiving', async () => {
    const w = failed('twice');
    const a = archiver();
    const before = logRequests();
    const [first, second] = await Promise.all([a.archive(w), a.archive({ ...w, state: 'Stopped' })]);
    expect(first).toBe(second);
    expect(logRequests() - before).toBe(1);
  });

  it('leaves Completed workloads alone', async () => {
    const w = failed('finished', 'Completed');
    const before = logRequests();
    await expect(archiver().archive(w)).resolves.toBeUndefined();
    expect(logRequests()).toBe(before);
    expect(existsSync(join(dir, 'logs'))).toBe(false);
  });

  it('resolves with nothing, and tells the operators, when the archive cannot be written', async () => {
    const w = failed('blocked');
    const notADirectory = join(dir, 'not-a-dir');
    writeFileSync(notADirectory, '');
    await expect(archiver(notADirectory).archive(w)).resolves.toBeUndefined();
    expect((await allOutbox(store)).map((i) => [i.key, i.target])).toEqual([['archive:problem:unwritable:0', { type: 'channel', channel: 'C0OPS' }]]);
  });
});
