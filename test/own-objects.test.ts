/**
 * An alert reads the workload's own objects: its own pods (a resubmitted workload of the same
 * name is not triaged from the earlier run's pods), and only the events about itself, its
 * failing pods and its PodGroup. The real bot against the simulated API server and Slack.
 */
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from './fakes/slack.js';
import { eventually, type TestBot } from './helpers/bot.js';
import { useSimulators } from './helpers/sims.js';
import { ns, pod, runaiJob, workloadCr } from './helpers/workloads.js';

const config = { owners: { emailDomain: 'example.org' }, alerts: { burstWindow: '0s' } };

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
});
