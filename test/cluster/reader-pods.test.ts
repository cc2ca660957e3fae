/**
 * The reader's podsOf against the simulated API server with the real client-node: a pod found
 * by label belongs to the workload only when its owner chain leads to the workload's uid, or,
 * where the chain cannot be read, when it was created at or after the workload.
 */
import { normalizeWorkload } from '../../src/cluster/normalize.js';
import { createClusterReader, type ClusterReader } from '../../src/cluster/reader.js';
import type { KubeObject } from '../../src/sim/kube-apiserver.js';
import { kubeConfigFor, startFakeKube, type FakeKube } from '../fakes/kube-apiserver.js';
import { controlledBy, ns, pod, runaiJob, workloadCr } from '../helpers/workloads.js';

const podNames = (pods: unknown[]) => pods.map((p) => (p as KubeObject).metadata.name).sort();

describe('podsOf: the workload\'s own pods', () => {
  let kube: FakeKube;
  let reader: ClusterReader;
  beforeEach(async () => {
    kube = await startFakeKube();
    reader = createClusterReader(kubeConfigFor(kube));
  });
  afterEach(() => kube.close());

  function createdAt(obj: KubeObject, at: string): KubeObject {
    return { ...obj, metadata: { ...obj.metadata, creationTimestamp: at } };
  }

  function submit(name: string, at: string): KubeObject {
    return kube.apply(createdAt(workloadCr({ name, project: 'vision', owner: 'alice' }), at));
  }

  /** Requests the read made, by kind: pod lists and owner GETs. */
  function requestsSince(before: number) {
    const made = kube.requests.slice(before);
    return { podLists: made.filter((r) => r.path.endsWith('/pods')).length, ownerGets: made.filter((r) => r.path.includes('/runaijobs/') || r.path.includes('/jobs/')).length };
  }

  it("keeps a workload's pods under its RunaiJob, reading that RunaiJob once for all of them", async () => {
    const cr = submit('train', '2026-11-29T10:00:00Z');
    const job = kube.apply(runaiJob(cr));
    for (const i of [0, 1, 2]) kube.apply(pod({ workload: 'train', project: 'vision', name: `train-0-${i}`, controller: job }));
    const before = kube.requests.length;
    expect(podNames(await reader.podsOf(normalizeWorkload(cr)))).toEqual(['train-0-0', 'train-0-1', 'train-0-2']);
    expect(requestsSince(before)).toEqual({ podLists: 1, ownerGets: 1 });
  });

  it("leaves out an earlier run's pods of a resubmitted workload of the same name, still terminating", async () => {
    const oldCr = submit('train', '2026-11-29T09:00:00Z');
    const oldJob = kube.apply(runaiJob(oldCr));
    kube.apply(createdAt(pod({ workload: 'train', project: 'vision', name: 'train-0-0', exitCode: 1, controller: oldJob }), '2026-11-29T09:00:02Z'));
    // Resubmitted: the old CR and RunaiJob are gone, its pod still terminating; the new run has its own.
    kube.delete(oldCr);
    kube.delete(oldJob);
    const cr = submit('train', '2026-11-29T10:00:00Z');
    const job = kube.apply(runaiJob(cr));
    kube.apply(pod({ workload: 'train', project: 'vision', name: 'train-0-1', exitCode: 1, controller: job }));
    expect(cr.metadata.uid).not.toBe(oldCr.metadata.uid);
    expect(podNames(await reader.podsOf(normalizeWorkload(cr)))).toEqual(['train-0-1']);
  });

  it("leaves out an earlier run's pod even when it was created after the new workload, by its chain", async () => {
    const cr = submit('train', '2026-11-29T10:00:00Z');
    const job = kube.apply(runaiJob(cr));
    // The old RunaiJob's name is now the new one's: the pod's own owner (another uid) is gone.
    const staleOwner = { ...job, metadata: { ...job.metadata, uid: 'uid-of-the-old-runaijob' } };
    kube.apply(pod({ workload: 'train', project: 'vision', name: 'train-0-0', controller: staleOwner }));
    kube.apply(pod({ workload: 'train', project: 'vision', name: 'train-0-1', controller: job }));
    expect(podNames(await reader.podsOf(normalizeWorkload(cr)))).toEqual(['train-0-1']);
  });

  it("does not take a Helm release's pod for the workload's: release=<name> under a Job no workload owns", async () => {
    const cr = submit('train', '2026-11-29T10:00:00Z');
    const hook = kube.apply({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'train-db-migrate', namespace: ns('vision'), labels: { release: 'train', heritage: 'Helm' } }, spec: {} } as KubeObject);
    kube.apply({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'train-db-migrate-x7k2p', namespace: ns('vision'), labels: { release: 'train', heritage: 'Helm' }, ownerReferences: controlledBy(hook) },
      spec: { containers: [{ name: 'migrate', image: 'postgres:16' }] },
      status: { phase: 'Failed' },
    } as KubeObject);
    expect(await reader.podsOf(normalizeWorkload(cr))).toEqual([]);
  });

  it('judges a pod whose chain cannot be read by its creation time', async () => {
    const cr = submit('train', '2026-11-29T10:00:00Z');
    // No RunaiJob object: its GET answers 404.
    const missing = { ...runaiJob(cr), metadata: { ...runaiJob(cr).metadata, uid: 'uid-never-stored' } };
    kube.apply(createdAt(pod({ workload: 'train', project: 'vision', name: 'train-0-0', controller: missing }), '2026-11-29T09:59:00Z'));
    kube.apply(createdAt(pod({ workload: 'train', project: 'vision', name: 'train-0-1', controller: missing }), '2026-11-29T10:00:00Z'));
    kube.apply(createdAt(pod({ workload: 'train', project: 'vision', name: 'train-0-2' }), '2026-11-29T10:00:01Z'));
    expect(podNames(await reader.podsOf(normalizeWorkload(cr)))).toEqual(['train-0-1', 'train-0-2']);
  });

  it('judges by creation time where the bot may not read the owners (an older ClusterRole)', async () => {
    const cr = submit('train', '2026-11-29T10:00:00Z');
    const job = kube.apply(runaiJob(cr));
    kube.deny({ verb: 'get', group: 'run.ai', resource: 'runaijobs' });
    kube.apply(createdAt(pod({ workload: 'train', project: 'vision', name: 'train-0-0', controller: job }), '2026-11-29T09:00:00Z'));
    kube.apply(pod({ workload: 'train', project: 'vision', name: 'train-0-1', controller: job }));
    expect(podNames(await reader.podsOf(normalizeWorkload(cr)))).toEqual(['train-0-1']);
  });

  it('follows a distributed workload through its PyTorchJob (the reference example)', async () => {
    const objects = kube.loadYamlFixtures(new URL('../fixtures/spec/runai-examples/04-distributedworkload-pytorch.yaml', import.meta.url).pathname);
    const cr = objects.find((o) => o.kind === 'DistributedWorkload')!;
    expect(podNames(await reader.podsOf(normalizeWorkload(cr)))).toEqual(['llama-ddp-master-0', 'llama-ddp-worker-0', 'llama-ddp-worker-1']);
  });
});
