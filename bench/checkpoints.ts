/**
 * The checkpoint lines of the owners' maintenance DM, as the bot reads them: N running
 * workloads, each a pod whose log holds 2,000 lines of training output with a Megatron-LM save
 * line in it, read through the real client-node reader against the simulated API server by one
 * CheckpointReader (notify/checkpoints.ts). Figures: the time to read them all, how many reads
 * were in flight at most (the reader's limit is 4), and how many named their checkpoint.
 *
 * `node build/bench/checkpoints.js [--quick]` runs it alone; `npm run bench` runs it with the rest.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClusterReader, type ClusterReader } from '../src/cluster/reader.js';
import type { Workload } from '../src/model.js';
import { CHECKPOINT_READS_AT_ONCE, CheckpointReader } from '../src/notify/checkpoints.js';
import { loadKubeConfig } from '../src/ops/open.js';
import { startFakeKube } from '../src/sim/kube-apiserver.js';
import type { Report } from './figures.js';

const LINES = 2000;

export interface CheckpointBench {
  workloads: number;
  ms: number;
  maxInFlight: number;
  found: number;
  bytesRead: number;
}

export async function benchCheckpoints(count: number): Promise<CheckpointBench> {
  const kube = await startFakeKube();
  try {
    kube.addNamespace('runai-bench', { 'runai/queue': 'bench' });
    const start = Date.now() - 3_600_000;
    const workloads: Workload[] = [];
    for (let i = 0; i < count; i++) {
      const name = `train-${i}`;
      kube.apply({
        apiVersion: 'v1', kind: 'Pod',
        metadata: { name: `${name}-0-0`, namespace: 'runai-bench', labels: { workloadName: name } },
        spec: { containers: [{ name }] },
        status: { phase: 'Running', containerStatuses: [{ name, ready: true, restartCount: 0, state: { running: { startedAt: new Date(start).toISOString() } } }] },
      } as never);
      const saveAt = 1200 + (i % 500);
      for (let line = 0; line < LINES; line += 100) {
        const text = Array.from({ length: 100 }, (_, k) => {
          const n = line + k;
          return n === saveAt
            ? `  successfully saved checkpoint from iteration ${n * 10} to /data/ckpt [ t 1/1, p 1/1 ]`
            : ` iteration ${String(n * 10).padStart(8)}/ 500000 | consumed samples: ${n * 2048} | elapsed time per iteration (ms): 812.4 | lm loss: 2.1${n % 10}E+00 |`;
        }).join('\n');
        kube.appendLog('runai-bench', `${name}-0-0`, name, `${text}\n`, { at: new Date(start + line * 1000) });
      }
      workloads.push({ uid: `u${i}`, kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name, namespace: 'runai-bench', project: 'bench', state: 'Running', pods: [] });
    }
    const real = createClusterReader(loadKubeConfig(kube.writeKubeconfig(mkdtempSync(join(tmpdir(), 'bench-ckpt-')))));
    let inFlight = 0;
    let maxInFlight = 0;
    let bytesRead = 0;
    // The real reader, with a count of the log reads open at once around it.
    const counted: ClusterReader = Object.assign(Object.create(real) as ClusterReader, {
      readLog: async (...args: Parameters<ClusterReader['readLog']>) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        try {
          const text = await real.readLog(...args);
          bytesRead += Buffer.byteLength(text);
          return text;
        } finally {
          inFlight--;
        }
      },
    });
    const checkpoints = new CheckpointReader({ readerFor: () => counted, now: () => new Date() });
    const began = performance.now();
    const readings = await checkpoints.readAll(workloads);
    const ms = performance.now() - began;
    const found = readings.filter((r) => 'sighting' in r && r.sighting.lastSaved?.progress?.unit === 'iteration').length;
    return { workloads: count, ms, maxInFlight, found, bytesRead };
  } finally {
    await kube.close();
  }
}

export async function addCheckpointFigures(count: number, report: Report): Promise<void> {
  const r = await benchCheckpoints(count);
  const note = `${r.workloads} running workloads, the last ${LINES} lines of each log with timestamps (${(r.bytesRead / 1e6).toFixed(1)} MB in all) through client-node`;
  report.add({ name: `checkpoint_reads_ms_${count}`, value: r.ms, unit: 'ms', note });
  report.add({ name: 'checkpoint_reads_in_flight_max', value: r.maxInFlight, unit: 'reads', target: { op: '<=', value: CHECKPOINT_READS_AT_ONCE }, note: 'log reads open at once while the DMs\' checkpoint lines are read' });
  report.add({ name: 'checkpoint_found', value: r.found, unit: 'workloads', target: { op: '=', value: count }, note: 'readings that named the Megatron-LM save line in the tail' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { Report: Figures } = await import('./figures.js');
  await addCheckpointFigures(process.argv.includes('--quick') ? 50 : 200, new Figures());
  process.exit(0);
}
