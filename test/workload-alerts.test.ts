/**
 * The foundation end to end: the real bot (Bolt in Socket Mode, client-node, SQLite) against the
 * simulated Kubernetes API server and Slack on 127.0.0.1.
 */
import { GUIDE } from '../src/lifecycle/states.js';
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from './fakes/slack.js';
import { eventually, tempDir, type TestBot } from './helpers/bot.js';
import { useSimulators } from './helpers/sims.js';
import { ns, pod, workloadCr } from './helpers/workloads.js';

const OOM_LOG = [
  'Epoch 1:  10%|█         | 100/1000 [00:10<01:30, 10.0it/s]\r',
  'Epoch 1:  20%|██        | 200/1000 [00:20<01:20, 10.0it/s]',
  '/usr/lib/python3/site-packages/torch/utils/data.py:5: UserWarning: This DataLoader will create 8 worker processes',
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 88, in <module>',
  '    loss = model(batch)',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.',
  'wandb: Waiting for W&B process to finish... (failed 1).',
].join('\n');

const baseConfig = {
  slack: { fallbackChannel: 'C0FALLBACK' },
  owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
  cluster: { mode: 'watch' },
};

function texts(slack: SlackSimulator, to: string): string[] {
  return slack.messagesTo(to).map((c) => `${c.body.text}\n${JSON.stringify(c.body.blocks)}`);
}

describe('workload alerts reach their owner', () => {
  const sims = useSimulators((kube, slack) => {
    slack.addChannel('C0FALLBACK', 'runai-alerts');
    slack.inviteBot('C0FALLBACK');
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
    kube.addNamespace(ns('llm'), { 'runai/queue': 'llm' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  function failTraining(name: string, project: string, log: string, exitCode = 1) {
    kube.appendLog(ns(project), `${name}-0-0`, name, log);
    kube.apply(pod({ workload: name, project, exitCode }));
    kube.setPhase('TrainingWorkload', ns(project), name, 'Failed');
  }

  it('sends exactly one DM naming the error line when a training workload goes Running → Failed', async () => {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision' }));
    bot = await sims.startBot(baseConfig);

    failTraining('resnet', 'vision', OOM_LOG);
    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the DM');
    expect(dm).toContain('torch.OutOfMemoryError: CUDA out of memory');
    expect(dm).toContain(GUIDE.Failed.nextAction);
    expect(dm).toContain('registry.example.org/ml/train:1.0');
    expect(dm).toContain('exit code 1');

    // More events about the same failure: still one message. The bot has seen the last of them
    // (its cache holds that resourceVersion) and decided everything queued since: no sleep.
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    const last = kube.patch({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' }, (o) => {
      (o.metadata.labels as Record<string, string>).touched = 'yes';
    });
    const version = (last.metadata as { resourceVersion?: string }).resourceVersion;
    await eventually(() => bot.reconciler.workloads().some((w) => w.name === 'resnet' && w.resourceVersion === version), 'the last event seen');
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(bot.captured.text()).not.toContain('CUDA out of memory'); // log text never goes to the bot's logs
  });

  it("sends one DM with the guide's Stopped advice when a workspace is stopped", async () => {
    kube.apply(workloadCr({ kind: 'InteractiveWorkload', name: 'notebook', project: 'vision', owner: 'bob' }));
    bot = await sims.startBot(baseConfig);
    kube.setPhase('InteractiveWorkload', ns('vision'), 'notebook', 'Stopped');
    const [dm] = await eventually(() => texts(slack, BOB.id).length > 0 && texts(slack, BOB.id), 'the Stopped DM');
    expect(dm).toContain('notebook was stopped');
    expect(dm).toContain(GUIDE.Stopped.nextAction);
    expect(dm).toContain(GUIDE.Stopped.meaning);
  });

  it("cites worker 1's error when worker 1 of a distributed workload fails first", async () => {
    kube.apply(workloadCr({ kind: 'DistributedWorkload', name: 'llama', project: 'llm', owner: 'alice@example.org' }));
    bot = await sims.startBot(baseConfig);
    const watchdog = '[rank0]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4812, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.\nRuntimeError: NCCL communicator was aborted on rank 0.';
    const ranks = [
      { type: 'master', index: 0, log: watchdog, finishedAt: '2026-11-29T09:40:00Z' },
      { type: 'worker', index: 0, log: watchdog.replace(/rank0|Rank 0|rank 0/g, 'rank1'), finishedAt: '2026-11-29T09:40:01Z' },
      {
        type: 'worker',
        index: 1,
        log: 'Loading shard 16\nTraceback (most recent call last):\n  File "finetune.py", line 40, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: \'/data/shards/shard-17.parquet\'',
        finishedAt: '2026-11-29T09:30:00Z',
      },
    ];
    for (const r of ranks) {
      const name = `llama-${r.type}-${r.index}`;
      kube.appendLog(ns('llm'), name, 'pytorch', r.log);
      kube.apply(pod({ workload: 'llama', project: 'llm', name, container: 'pytorch', replicaType: r.type, replicaIndex: r.index, exitCode: 1, finishedAt: r.finishedAt }));
    }
    kube.setPhase('DistributedWorkload', ns('llm'), 'llama', 'Failed');
    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the distributed DM');
    expect(dm).toContain('worker 1');
    expect(dm).toContain('shard-17.parquet');
    expect(dm).not.toContain('Watchdog caught collective operation timeout');
  });

  it('sends nothing twice after a restart, and catches up on a failure that happened while it was down', async () => {
    const dir = tempDir();
    // No burst window: the catch-up is its own DM (a burst spanning a restart is in test/notify/burst-delivery.test.ts).
    const config = { ...baseConfig, alerts: { burstWindow: '0s' } };
    kube.apply(workloadCr({ name: 'first', project: 'vision', owner: 'alice' }));
    kube.apply(workloadCr({ name: 'second', project: 'vision', owner: 'alice' }));
    bot = await sims.startBot(config, { dir });
    failTraining('first', 'vision', 'ValueError: bad learning rate schedule');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the first DM');
    await bot.stop();

    failTraining('second', 'vision', 'KeyError: missing column "label"');
    bot = await sims.startBot(config, { dir });
    await eventually(() => slack.messagesTo(ALICE.id).length >= 2, 'the catch-up DM');
    await new Promise((r) => setTimeout(r, 300));
    await bot.settle();
    const all = texts(slack, ALICE.id);
    expect(all).toHaveLength(2);
    expect(all[0]).toContain('ValueError: bad learning rate schedule');
    expect(all[1]).toContain('KeyError: missing column');
  });

  it('posts to the fallback channel, saying whose it is, when the owner has no Slack user', async () => {
    kube.apply(workloadCr({ name: 'orphan', project: 'vision', owner: 'mallory' }));
    bot = await sims.startBot(baseConfig);
    failTraining('orphan', 'vision', 'ModuleNotFoundError: No module named \'timm\'');
    const [post] = await eventually(() => texts(slack, 'C0FALLBACK').length > 0 && texts(slack, 'C0FALLBACK'), 'the fallback post');
    expect(post).toContain('Workload of *mallory*');
    expect(post).toContain("No module named 'timm'");
    expect(slack.callsTo('users.lookupByEmail').map((c) => c.body.email)).toContain('mallory@example.org');
  });

  it('skips a malformed workload object with a log line and still handles the others', async () => {
    kube.apply(workloadCr({ name: 'good', project: 'vision', owner: 'alice' }));
    bot = await sims.startBot(baseConfig);
    kube.apply({ ...workloadCr({ name: 'broken', project: 'vision', owner: 'alice' }), status: 'Failed' } as never);
    failTraining('good', 'vision', 'AssertionError: batch size must be divisible by world size');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the DM for the good workload');
    const skipped = await eventually(() => bot!.captured.entries.find((e) => e.msg === 'skipping malformed workload'), 'the malformed log line');
    expect(String(skipped.object)).toContain('broken');
    expect(String(skipped.reason)).toContain('status is not an object');
  });

  it('works the same in poll mode', async () => {
    kube.apply(workloadCr({ name: 'polled', project: 'vision', owner: 'alice' }));
    bot = await sims.startBot({ ...baseConfig, cluster: { mode: 'poll', pollIntervalSeconds: 5 } });
    failTraining('polled', 'vision', OOM_LOG);
    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the DM in poll mode', 12_000);
    expect(dm).toContain('torch.OutOfMemoryError');
    expect(kube.requests.some((r) => r.query?.watch === 'true')).toBe(false);
  });

  it("quotes the previous run's log when the failed container has restarted since", async () => {
    kube.apply(workloadCr({ kind: 'InteractiveWorkload', name: 'restarted', project: 'vision', owner: 'alice' }));
    bot = await sims.startBot(baseConfig);
    kube.appendLog(ns('vision'), 'restarted-0-0', 'restarted', 'PermissionError: [Errno 13] Permission denied: \'/data/out/model.pt\'\n', { previous: true });
    kube.appendLog(ns('vision'), 'restarted-0-0', 'restarted', 'starting again\nloading data\n');
    kube.apply(pod({ workload: 'restarted', project: 'vision', exitCode: 1, restarted: true }));
    kube.setPhase('InteractiveWorkload', ns('vision'), 'restarted', 'Failed');
    const [dm] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), 'the DM');
    expect(dm).toContain('Permission denied');
    expect(dm).toContain('previous run of the container');
    expect(kube.requests.some((r) => r.path.endsWith('/restarted-0-0/log') && r.query.previous === 'true')).toBe(true);
  });
});
