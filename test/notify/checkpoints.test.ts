/**
 * CheckpointReader (notify/checkpoints.ts) through the real client-node reader against the
 * simulated API server: which container it reads, how it bounds the reads, and what a reading
 * says when there is nothing to read.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClusterReader, type ClusterReader } from '../../src/cluster/reader.js';
import type { Workload } from '../../src/model.js';
import { CHECKPOINT_LIMIT_BYTES, CHECKPOINT_READS_AT_ONCE, CheckpointReader } from '../../src/notify/checkpoints.js';
import { loadKubeConfig } from '../../src/ops/open.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { ns, pod } from '../helpers/workloads.js';
import { startTcpCut } from '../helpers/tcp-cut.js';
import { withPods } from '../../src/cluster/normalize.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const MIN = 60_000;

function workload(name: string): Workload {
  return { uid: `uid-${name}`, kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name, namespace: ns('llm'), project: 'llm', state: 'Running', pods: [] };
}

describe('CheckpointReader', () => {
  let kube: FakeKube;
  let real: ClusterReader;
  let inFlight = 0;
  let maxInFlight = 0;
  let counted: ClusterReader;

  beforeAll(async () => {
    kube = await startFakeKube();
    kube.addNamespace(ns('llm'), { 'runai/queue': 'llm' });
    real = createClusterReader(loadKubeConfig(kube.writeKubeconfig(mkdtempSync(join(tmpdir(), 'ckpt-')))));
    counted = Object.assign(Object.create(real) as ClusterReader, {
      readLog: async (...args: Parameters<ClusterReader['readLog']>) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        try {
          return await real.readLog(...args);
        } finally {
          inFlight--;
        }
      },
    });
  });

  afterAll(async () => {
    await kube.close();
  });

  const reader = () => new CheckpointReader({ readerFor: () => counted, now: () => NOW });

  it("reads the master's log of a distributed workload, where rank 0 prints its saves", async () => {
    kube.apply(pod({ workload: 'dist', project: 'llm', name: 'dist-worker-0', replicaType: 'Worker' }));
    kube.apply(pod({ workload: 'dist', project: 'llm', name: 'dist-master-0', replicaType: 'Master' }));
    kube.appendLog(ns('llm'), 'dist-worker-0', 'dist', 'worker step\n', { at: new Date(NOW.getTime() - MIN) });
    kube.appendLog(ns('llm'), 'dist-master-0', 'dist', '[Torch] Checkpoint global_step300 is ready now!\n', { at: new Date(NOW.getTime() - 15 * MIN) });
    const reading = await reader().read(workload('dist'));
    expect(reading).toMatchObject({ pod: 'dist-master-0', container: 'dist', sighting: { lastSaved: { framework: 'DeepSpeed', progress: { unit: 'global step', value: 300 } }, ageMs: 15 * MIN } });
  });

  it(`keeps at most ${CHECKPOINT_READS_AT_ONCE} log reads open at once`, async () => {
    const many = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    for (const name of many) {
      kube.apply(pod({ workload: name, project: 'llm' }));
      kube.appendLog(ns('llm'), `${name}-0-0`, name, 'epoch 1\n');
    }
    maxInFlight = 0;
    const checkpoints = reader();
    const readings = await checkpoints.readAll(many.map(workload));
    expect(readings).toHaveLength(12);
    expect(checkpoints.reads).toBe(12);
    expect(maxInFlight).toBe(CHECKPOINT_READS_AT_ONCE);
  });

  it('reads again with half the lines when the byte limit cut the tail (the server keeps its first bytes)', async () => {
    kube.apply(pod({ workload: 'wide', project: 'llm' }));
    const long = `${'x'.repeat(3000)}\n`.repeat(2000);
    kube.appendLog(ns('llm'), 'wide-0-0', 'wide', long, { at: new Date(NOW.getTime() - 60 * MIN) });
    kube.appendLog(ns('llm'), 'wide-0-0', 'wide', 'Saving model checkpoint to /out/checkpoint-900\n', { at: new Date(NOW.getTime() - 5 * MIN) });
    expect(long.length).toBeGreaterThan(CHECKPOINT_LIMIT_BYTES);
    const checkpoints = reader();
    const reading = await checkpoints.read(workload('wide'));
    expect(checkpoints.reads).toBe(2);
    // The cut read held ~1,384 of its 3 KB lines: half of those fit, and end with the save line.
    const reads = kube.requests.filter((r) => r.path.endsWith('/wide-0-0/log')).map((r) => Number(r.query.tailLines));
    expect(reads[0]).toBe(2000);
    expect(reads[1]).toBe(Math.floor(Math.ceil(CHECKPOINT_LIMIT_BYTES / (3000 + 31)) / 2));
    expect(reading).toMatchObject({ sighting: { lastSaved: { progress: { value: 900 } }, ageMs: 5 * MIN, linesRead: reads[1] } });
  });

  it('says why when there is nothing to read, and when the read fails, instead of throwing', async () => {
    expect(await reader().read(workload('ghost'))).toEqual({ problem: 'it has no pods to read a log from' });
    kube.apply(pod({ workload: 'flaky', project: 'llm' }));
    kube.failNext(1, 500, '/flaky-0-0/log');
    const failed = await reader().read(workload('flaky'));
    expect('problem' in failed && failed.problem).toMatch(/^its log could not be read \(/);
  });

  it('answers readAll within its deadline when the cluster stalls, and begins no read queued past it', async () => {
    const link = await startTcpCut(Number(new URL(kube.url).port));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'ckpt-stall-'));
      const path = kube.writeKubeconfig(dir);
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll(kube.url, link.url));
      const stalled = createClusterReader(loadKubeConfig(path));
      const names = Array.from({ length: 10 }, (_, i) => `stall-${i}`);
      // With their pods already (as /runai status passes them): only the log reads meet the stall.
      const workloads = names.map((name) => {
        const p = pod({ workload: name, project: 'llm' });
        kube.apply(p);
        return withPods(workload(name), [p]);
      });
      link.stall();
      const checkpoints = new CheckpointReader({ readerFor: () => stalled, now: () => NOW, timeoutMs: 60_000 });
      const readings = await checkpoints.readAll(workloads, 300);
      expect(readings).toEqual(names.map(() => ({ problem: 'its log was not read within 300 ms' })));
      // The four slots began their reads; the six behind them never began one.
      expect(checkpoints.reads).toBe(CHECKPOINT_READS_AT_ONCE);
      link.restore();
    } finally {
      await link.close();
    }
  });
});
