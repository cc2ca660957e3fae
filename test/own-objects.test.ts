/**
 * An alert reads the workload's own objects: its own pods (a resubmitted workload of the same
 * name is not triaged from the earlier run's pods), and only the events about itself, its
 * failing pods and its PodGroup. The real bot against the simulated API server and Slack.
 */
import type { FakeKube, KubeObject, RecordedRequest } from '../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from './fakes/slack.js';
import { eventually, type TestBot } from './helpers/bot.js';
import { useSimulators } from './helpers/sims.js';
import { ns, pod, runaiJob, workloadCr } from './helpers/workloads.js';

const config = { owners: { emailDomain: 'example.org' }, alerts: { burstWindow: '0s', pendingAfter: '30m' } };

/** A busy namespace: the scheduler's events about 5,000 other pods, re-emitted as they wait. */
const NOISE_EVENTS = 5000;
/** More events about the failing pod itself than one read takes (the reader's limit is 100). */
const OWN_POD_EVENTS = 300;

const eventReads = (requests: RecordedRequest[]) => requests.filter((r) => r.path.endsWith('/events'));
const weigh = (reads: RecordedRequest[]) => ({ requests: reads.length, bytes: reads.reduce((sum, r) => sum + r.bytes, 0) });

function fillNamespace(kube: FakeKube, namespace: string): void {
  for (let i = 0; i < NOISE_EVENTS; i++) {
    kube.addEvent({
      involvedObject: { kind: 'Pod', name: `other-${i}-0-0`, namespace, uid: `uid-other-${i}` },
      type: 'Warning', reason: 'Unschedulable', source: { component: 'runai-scheduler' },
      message: "no nodes with enough resources were found: 6 node(s) didn't have enough resources: GPUs.",
    });
  }
}

/** The PodGroup the scheduler makes for a workload's RunaiJob, named as KAI names it (runai-reference §4). */
function podGroupFor(job: KubeObject, podName: string): KubeObject {
  return {
    apiVersion: 'scheduling.run.ai/v2alpha2', kind: 'PodGroup',
    metadata: { name: `pg-${podName.replace(/-[^-]+$/, '')}-${job.metadata.uid}`, namespace: job.metadata.namespace, labels: { workloadName: job.metadata.name } },
    spec: { minMember: 1, queue: 'vision' },
  } as KubeObject;
}

function texts(slack: SlackSimulator, to: string): string[] {
  return slack.messagesTo(to).map((c) => `${c.body.text}\n${JSON.stringify(c.body.blocks)}`);
}

describe('an alert reads what is its own', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  it("triages a resubmitted workload from its own pods, not the earlier run's still terminating", async () => {
    const oldCr = kube.apply(workloadCr({ name: 'train', project: 'vision', owner: 'alice' }));
    const oldJob = kube.apply(runaiJob(oldCr));
    kube.apply(pod({ workload: 'train', project: 'vision', name: 'train-0-0', exitCode: 1, finishedAt: '2026-11-29T09:10:00Z', controller: oldJob }));
    kube.appendLog(ns('vision'), 'train-0-0', 'train', "Traceback (most recent call last):\nModuleNotFoundError: No module named 'timm'\n");
    bot = await sims.startBot(config);

    // Resubmitted under the same name: the old CR and its RunaiJob are deleted, its pod is still terminating.
    kube.patch({ kind: 'Pod', namespace: ns('vision'), name: 'train-0-0' }, (p) => {
      p.metadata.deletionTimestamp = '2026-11-29T09:20:00Z';
    });
    kube.delete(oldCr);
    kube.delete(oldJob);
    const cr = kube.apply(workloadCr({ name: 'train', project: 'vision', owner: 'alice' }));
    expect(cr.metadata.uid).not.toBe(oldCr.metadata.uid);
    const job = kube.apply(runaiJob(cr));
    kube.apply(pod({ workload: 'train', project: 'vision', name: 'train-0-1', exitCode: 1, finishedAt: '2026-11-29T09:30:00Z', controller: job }));
    kube.appendLog(ns('vision'), 'train-0-1', 'train', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n');
    kube.setPhase('TrainingWorkload', ns('vision'), 'train', 'Failed');

    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the DM');
    expect(dm).toContain('CUDA out of memory');
    expect(dm).toContain('train-0-1');
    expect(dm).not.toContain('ModuleNotFoundError');
    expect(dm).not.toContain('train-0-0');
  });

  it("reads only the events of the workload, its failing pod and its PodGroup, bounded, in a namespace of 5,000 others", async () => {
    fillNamespace(kube, ns('vision'));
    const cr = kube.apply(workloadCr({ name: 'train', project: 'vision', owner: 'alice' }));
    const job = kube.apply(runaiJob(cr));
    const group = kube.apply(podGroupFor(job, 'train-0-0'));
    const failing = pod({ workload: 'train', project: 'vision', exitCode: 1, controller: job });
    failing.metadata.annotations = { ...failing.metadata.annotations, 'pod-group-name': group.metadata.name };
    kube.apply(failing);
    for (let i = 0; i < OWN_POD_EVENTS; i++) {
      kube.addEvent({ involvedObject: { kind: 'Pod', name: 'train-0-0', namespace: ns('vision') }, type: 'Normal', reason: 'Pulled', message: `Container image already present on machine (${i})` });
    }
    // The scheduler's reason is on the PodGroup: it preempted the workload.
    kube.addEvent({
      involvedObject: { kind: 'PodGroup', name: group.metadata.name, namespace: ns('vision') },
      type: 'Normal', reason: 'Evict', source: { component: 'runai-scheduler' },
      message: 'Pod runai-vision/train-0-0 was preempted by higher priority workload runai-vision/urgent',
    });
    bot = await sims.startBot(config);

    const before = kube.requests.length;
    kube.setPhase('TrainingWorkload', ns('vision'), 'train', 'Failed');
    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the DM');
    expect(dm).toContain('Eviction, preemption or node failure');

    // One bounded list per object of its own: the workload, its failing pod (uid too: not an older
    // pod of that name) and its PodGroup — 3 requests and a few tens of kB, where the namespace's
    // list was 1 request of 3.3 MB (5,301 events) before.
    const reads = eventReads(kube.requests.slice(before));
    const podUid = kube.get({ kind: 'Pod', namespace: ns('vision'), name: 'train-0-0' })!.metadata.uid;
    expect(reads.map((r) => r.query).sort((a, b) => a.fieldSelector.localeCompare(b.fieldSelector))).toEqual([
      { fieldSelector: `involvedObject.kind=Pod,involvedObject.name=train-0-0,involvedObject.uid=${podUid}`, limit: '100' },
      { fieldSelector: `involvedObject.kind=PodGroup,involvedObject.name=${group.metadata.name}`, limit: '100' },
      { fieldSelector: `involvedObject.kind=TrainingWorkload,involvedObject.name=train,involvedObject.uid=${cr.metadata.uid}`, limit: '100' },
    ]);
    const { requests, bytes } = weigh(reads);
    expect(requests).toBe(3);
    // The pod's 300 events are cut at the limit: about 100 events' worth, nothing of the 5,000 others'.
    expect(bytes).toBeLessThan(102 * 700);
  });

  it("finds a waiting workload's scheduler reason on its PodGroup among 5,000 other events", async () => {
    let clock = new Date();
    fillNamespace(kube, ns('vision'));
    const cr = kube.apply(workloadCr({ name: 'sdxl', project: 'vision', owner: 'alice', phase: 'Pending' }));
    const job = kube.apply(runaiJob(cr));
    const group = kube.apply(podGroupFor(job, 'sdxl-0-0'));
    const waiting = pod({ workload: 'sdxl', project: 'vision', controller: job });
    waiting.metadata.annotations = { ...waiting.metadata.annotations, 'pod-group-name': group.metadata.name };
    waiting.status = { phase: 'Pending' };
    kube.apply(waiting);
    kube.addEvent({
      involvedObject: { kind: 'PodGroup', name: group.metadata.name, namespace: ns('vision') },
      type: 'Normal', reason: 'Unschedulable', source: { component: 'runai-scheduler' },
      message: 'Non-preemptible workload is over quota. Workload requested 4 GPUs, but vision quota is 2 GPUs, while 0 GPUs are already allocated for non-preemptible pods.',
    });
    bot = await sims.startBot(config, { now: () => clock });

    clock = new Date(clock.getTime() + 35 * 60_000);
    const before = kube.requests.length;
    bot.checkStuck();
    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the Pending warning');
    expect(dm).toContain("The project's GPU quota is used up for non-preemptible work");

    const reads = eventReads(kube.requests.slice(before));
    expect(reads.map((r) => r.query.fieldSelector.split(',')[0]).sort()).toEqual(['involvedObject.kind=Pod', 'involvedObject.kind=PodGroup', 'involvedObject.kind=TrainingWorkload']);
    expect(weigh(reads).bytes).toBeLessThan(10_000);
  });
});
