/**
 * The rest of the lifecycle through the real bot: workloads stuck Pending or Initializing, and
 * bursts of failures folded into one message per owner plus one operators' summary.
 */
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from './fakes/slack.js';
import { eventually, type TestBot } from './helpers/bot.js';
import { useSimulators } from './helpers/sims.js';
import { ns, pod, workloadCr } from './helpers/workloads.js';
import { stuckKey } from '../src/keys.js';
import { workloadId } from '../src/model.js';

const QUOTA_MESSAGE =
  'Non-preemptible workload is over quota. Workload requested 4 GPUs, but genai quota is 2 GPUs, while 0 GPUs are already allocated for non-preemptible pods. Use a preemptible workload to go over quota.';

describe('stuck workloads and bursts', () => {
  let clock: Date;
  const sims = useSimulators((kube, slack) => {
    slack.addChannel('C0OPS', 'runai-ops');
    slack.inviteBot('C0OPS');
    kube.addNamespace(ns('genai'), { 'runai/queue': 'genai' });
    clock = new Date();
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const config = {
    owners: { emailDomain: 'example.org' },
    slack: { opsChannel: 'C0OPS' },
    // The 60 failures below fold into one message because they are admitted within one window:
    // that test stops the bot's clock while they are prepared, so a loaded machine cannot close it.
    alerts: { pendingAfter: '30m', initializingAfter: '15m', burstWindow: '6s' },
  };

  /** Stuck warnings only (the log-saving tip a start may earn is log-tips.test.ts's). */
  const stuckWarnings = (user: string) => slack.messagesTo(user).filter((c) => String(c.body.text).includes('has been Pending'));

  function later(minutes: number) {
    clock = new Date(clock.getTime() + minutes * 60_000);
  }
  function secondsLater(seconds: number) {
    clock = new Date(clock.getTime() + seconds * 1000);
  }

  it('warns once, with the quota reason, about a workload pending over quota, and not again while it waits', async () => {
    kube.apply(workloadCr({ name: 'sdxl', project: 'genai', owner: 'alice', phase: 'Pending' }));
    kube.apply({
      apiVersion: 'scheduling.run.ai/v2alpha2',
      kind: 'PodGroup',
      metadata: { name: 'pg-sdxl-0-abc', namespace: ns('genai'), labels: { workloadName: 'sdxl' } },
      spec: { minMember: 1, queue: 'genai' },
      status: { schedulingConditions: [{ type: 'UnschedulableOnNodePool', reason: 'Unschedulable', message: 'quota', reasons: [{ reason: 'NonPreemptibleOverQuota', message: QUOTA_MESSAGE }] }] },
    } as never);
    bot = await sims.startBot(config, { now: () => clock });

    later(10);
    bot.checkStuck();
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0); // not yet past the threshold

    later(25);
    bot.checkStuck();
    const [dm] = await eventually(() => slack.messagesTo(ALICE.id).length > 0 && slack.messagesTo(ALICE.id), 'the Pending warning');
    const text = JSON.stringify(dm.body);
    expect(text).toContain('has been Pending for');
    expect(text).toContain("The project's GPU quota is used up for non-preemptible work");
    expect(text).toContain('genai quota is 2 GPUs');
    expect(text).toContain('Check quota, resource preset, image, and data source.');

    // Checked again while still Pending: the ledger holds the warning, so it is not repeated.
    later(5);
    bot.checkStuck();
    await bot.settle();
    expect(stuckWarnings(ALICE.id)).toHaveLength(1);
  });

  it('says nothing when the workload starts running while its warning is being prepared', async () => {
    kube.apply(workloadCr({ name: 'sdxl', project: 'genai', owner: 'alice', phase: 'Pending' }));
    bot = await sims.startBot(config, { now: () => clock });
    const [sdxl] = await eventually(() => bot.reconciler.workloads().length === 1 && bot.reconciler.workloads(), 'sdxl seen');
    await bot.settle();
    // The warning's reads (its pods) are answered slowly: the start lands while it is prepared.
    kube.slowListsBy(1500, (r) => r.path.endsWith('/pods'));
    const podReads = () => kube.requests.filter((r) => r.path.endsWith('/pods')).length;
    const before = podReads();
    later(35);
    bot.checkStuck();
    await eventually(() => podReads() > before, 'the warning being prepared (its pods read)');
    kube.setPhase('TrainingWorkload', ns('genai'), 'sdxl', 'Running');
    await eventually(() => bot.reconciler.currentState(workloadId(sdxl)) === 'Running', 'the start seen');
    await bot.settle();
    expect(stuckWarnings(ALICE.id)).toHaveLength(0);
    expect(await bot.store.wasSent(stuckKey(workloadId(sdxl), 'Pending'))).toBe(false);
    expect(await bot.store.isQueued(stuckKey(workloadId(sdxl), 'Pending'))).toBe(false);
  });

  it('warns once about a workload stuck Initializing on an image it cannot pull', async () => {
    kube.apply(workloadCr({ name: 'vit', project: 'genai', owner: 'bob@other.org', phase: 'Initializing' }));
    const p = pod({ workload: 'vit', project: 'genai' });
    (p.status as any).phase = 'Pending';
    (p.status as any).containerStatuses[0].state = { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.example.org/ml/vit:does-not-exist"' } };
    kube.apply(p);
    bot = await sims.startBot(config, { now: () => clock });
    later(16);
    bot.checkStuck();
    const [dm] = await eventually(() => slack.messagesTo(BOB.id).length > 0 && slack.messagesTo(BOB.id), 'the Initializing warning');
    expect(JSON.stringify(dm.body)).toContain('The container image cannot be pulled');
    expect(JSON.stringify(dm.body)).toContain('vit:does-not-exist');
    later(30);
    bot.checkStuck();
    await bot.settle();
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });

  it('folds 60 failures of one owner into one grouped message and posts one operators\' summary', async () => {
    for (let i = 0; i < 60; i++) {
      kube.apply(workloadCr({ name: `sweep-${i}`, project: 'genai', owner: 'alice' }));
      kube.apply(pod({ workload: `sweep-${i}`, project: 'genai', node: 'gpu-17' }));
    }
    // The bot's clock moves only when the test moves it. On the wall clock the window was a race
    // with the machine: a loaded one took longer than the window to prepare 60 failures, the late
    // ones opened a burst of their own and the rewrite listing all 60 never came. Standing still,
    // every failure is admitted inside the one window however slowly it is prepared.
    bot = await sims.startBot(config, { now: () => clock });
    for (let i = 0; i < 60; i++) {
      kube.appendLog(ns('genai'), `sweep-${i}-0-0`, `sweep-${i}`, `RuntimeError: CUDA error: an illegal memory access was encountered (run ${i})`);
      const p = pod({ workload: `sweep-${i}`, project: 'genai', node: 'gpu-17', exitCode: 1 });
      kube.apply(p);
      kube.setPhase('TrainingWorkload', ns('genai'), `sweep-${i}`, 'Failed');
    }
    const failed = () => bot.reconciler.workloads().filter((w) => w.name.startsWith('sweep-') && w.state === 'Failed').length;
    await eventually(() => failed() === 60, 'all 60 failures seen', 45_000);
    // Every failure prepared (pods, events, a log each) and admitted; the first alert, due at once, sent.
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(String(slack.messagesTo(ALICE.id)[0].body.text)).not.toMatch(/^\d+ of your workloads/);
    // The grouped rewrite waits out its debounce (1.5 s of quiet); the summary, the window (6 s).
    expect(slack.callsTo('chat.update')).toHaveLength(0);
    secondsLater(2);
    await bot.settle();
    const updates = () => slack.callsTo('chat.update').filter((c) => String(c.body.text).startsWith('60 of your workloads'));
    expect(updates()).toHaveLength(1);
    expect(slack.callsTo('chat.update')).toHaveLength(1);
    const grouped = JSON.stringify(updates()[0].body.blocks);
    expect(grouped).toContain('and 45 more');
    expect(grouped).toContain('illegal memory access');
    expect(slack.messagesTo('C0OPS')).toHaveLength(0);
    secondsLater(5);
    await bot.settle();
    const [summary] = slack.messagesTo('C0OPS');
    expect(String(summary?.body.text)).toContain('node gpu-17 lost? 60 of 60 workloads of 1 owner');
    // Nothing more: every rewrite still pending is made due and sent, the window is closed.
    await bot.notifier.flushBursts();
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(updates()).toHaveLength(1);
    expect(slack.messagesTo('C0OPS')).toHaveLength(1);
  }, 90_000);
});
