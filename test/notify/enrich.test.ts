/**
 * enrichWorkload against the simulated API server with the real client-node reader: the first
 * failing rank's log is read (`previous` for a restarted container), the events of the workload
 * and its failing pods are read with it, and a read that fails leaves the alert without that
 * part rather than without the alert.
 */
import { normalizeWorkload } from '../../src/cluster/normalize.js';
import { createClusterReader, type ClusterReader } from '../../src/cluster/reader.js';
import { enrichWorkload } from '../../src/notify/enrich.js';
import { kubeConfigFor, startFakeKube, type FakeKube } from '../fakes/kube-apiserver.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

describe('enrichWorkload', () => {
  let kube: FakeKube;
  let reader: ClusterReader;
  beforeEach(async () => {
    kube = await startFakeKube();
    reader = createClusterReader(kubeConfigFor(kube));
  });
  afterEach(() => kube.close());

  const logReads = () => kube.requests.filter((r) => r.path.endsWith('/log'));

  it('reads the log of the rank that failed first, and triages from it', async () => {
    const cr = kube.apply(workloadCr({ kind: 'DistributedWorkload', name: 'llama', project: 'llm', owner: 'alice', phase: 'Failed' }));
    kube.appendLog(ns('llm'), 'llama-worker-0', 'pytorch', 'RuntimeError: NCCL communicator was aborted on rank 0.');
    kube.appendLog(ns('llm'), 'llama-worker-1', 'pytorch', "FileNotFoundError: [Errno 2] No such file or directory: '/data/shard-17.parquet'");
    kube.apply(pod({ workload: 'llama', project: 'llm', name: 'llama-worker-0', container: 'pytorch', replicaType: 'worker', replicaIndex: 0, exitCode: 1, finishedAt: '2026-11-29T09:40:00Z' }));
    kube.apply(pod({ workload: 'llama', project: 'llm', name: 'llama-worker-1', container: 'pytorch', replicaType: 'worker', replicaIndex: 1, exitCode: 1, finishedAt: '2026-11-29T09:30:00Z' }));
    const enriched = await enrichWorkload(normalizeWorkload(cr), { reader, tailLines: 20 });
    expect(enriched.site).toMatchObject({ pod: 'llama-worker-1', container: 'pytorch', previous: false });
    expect(enriched.triage?.firstError?.line).toContain('shard-17.parquet');
    expect(enriched.workload.pods.map((p) => p.name).sort()).toEqual(['llama-worker-0', 'llama-worker-1']);
    // Events are read per object (the workload and its failing pods), never the whole namespace.
    const eventReads = kube.requests.filter((r) => r.path.endsWith('/events'));
    expect(eventReads.length).toBeGreaterThan(0);
    for (const r of eventReads) expect(r.query.fieldSelector).toMatch(/involvedObject\.name=/);
  });

  it("reads a restarted container's log under previous", async () => {
    const cr = kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice', phase: 'Failed' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 137, restarted: true, reason: 'OOMKilled' }));
    const enriched = await enrichWorkload(normalizeWorkload(cr), { reader, tailLines: 20 });
    expect(enriched.site).toMatchObject({ previous: true });
    expect(logReads().map((r) => r.query.previous)).toEqual(['true']);
  });

  it('says why there is no log when the pods are gone, and still triages from what is left', async () => {
    const cr = kube.apply(workloadCr({ name: 'gone', project: 'vision', owner: 'alice', phase: 'Failed' }));
    const enriched = await enrichWorkload(normalizeWorkload(cr), { reader, tailLines: 20 });
    expect(enriched.logProblem).toBe('the workload has no pods left to read logs from');
    expect(enriched.triage).toBeDefined();
    expect(logReads()).toHaveLength(0);
  });

  it('keeps the alert when the log read fails, saying which log could not be read', async () => {
    const cr = kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice', phase: 'Failed' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1 }));
    kube.failNext(1, 500, (r) => r.path.endsWith('/log'));
    const enriched = await enrichWorkload(normalizeWorkload(cr), { reader, tailLines: 20 });
    expect(enriched.logProblem).toMatch(/^could not read the log of resnet-0-0\/resnet/);
    expect(enriched.site).toMatchObject({ pod: 'resnet-0-0' });
  });
});
