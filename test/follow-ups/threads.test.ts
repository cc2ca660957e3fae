/**
 * Follow-ups through the real bot (Bolt, client-node, SQLite) against the simulated Slack and
 * Kubernetes API server: what happens after an alert is told under it — replies in its thread
 * (thread_ts, never reply_broadcast), its first line edited to where things stand, a
 * resubmission held against the attempt before it, "failed again" as a new DM linking the
 * thread — after a restart too, and nothing at all for a muted workload.
 */
import { join } from 'node:path';
import { mutedRecipient } from '../../src/keys.js';
import { muteScope } from '../../src/notify/mutes.js';
import type { PostedMessage } from '../../src/sim/slack.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { allOutbox } from '../helpers/store.js';
import { HOSTILE_LINE, leakIn, SECRETS, slackProblem, strings } from '../text/corpus.js';
import { ns, pod, workloadCr, type WorkloadSpec } from '../helpers/workloads.js';

const APP_ERROR_LOG = [
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 12, in <module>',
  "ModuleNotFoundError: No module named 'transformers'",
].join('\n');

const config = {
  owners: { emailDomain: 'example.org' },
  cluster: { mode: 'watch' },
};

describe('follow-ups in the alert\'s thread', () => {
  const sims = useSimulators((kube) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const dm = (user = ALICE.id): PostedMessage[] => slack.workspace.conversation(user);
  const topLevel = (user = ALICE.id) => dm(user).filter((m) => !m.thread_ts);
  const replies = (root: PostedMessage, user = ALICE.id) => dm(user).filter((m) => m.thread_ts === root.ts);
  const shown = (m: PostedMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
  const header = (m: PostedMessage) => (m.blocks?.[0] as { type?: string; text?: { text?: string } } | undefined)?.text?.text;

  function submit(spec: Partial<WorkloadSpec> & { name: string }) {
    // `python -u`: the log-saving tip (a DM of its own) has nothing to say about these.
    kube.apply(workloadCr({ project: 'vision', owner: 'alice', arguments: '-u train.py', ...spec }));
    kube.apply(pod({ workload: spec.name, project: 'vision' }));
  }
  function fail(name: string, log = APP_ERROR_LOG) {
    kube.appendLog(ns('vision'), `${name}-0-0`, name, log);
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
  }
  function remove(name: string) {
    kube.delete({ kind: 'TrainingWorkload', namespace: ns('vision'), name });
    kube.delete({ kind: 'Pod', namespace: ns('vision'), name: `${name}-0-0` });
  }
  const neverBroadcast = () => expect(slack.callsTo('chat.postMessage').filter((c) => c.body.reply_broadcast !== undefined)).toEqual([]);

  it('threads a resubmission under the failure with what changed, edits the root, and escalates "failed again" as a new DM linking the thread', async () => {
    submit({ name: 'resnet', image: 'registry.example.org/ml/train:2.1' });
    bot = await sims.startBot(config);
    fail('resnet');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    expect(header(root)).not.toContain('\u2192');

    // The owner cleans up and resubmits under the same name with one change.
    remove('resnet');
    await eventually(() => replies(root).length === 1, 'the deleted reply');
    submit({ name: 'resnet', image: 'registry.example.org/ml/train:2.2' });
    await eventually(() => replies(root).length === 2, 'the resubmitted reply');
    await bot.settle();
    const [deleted, resubmitted] = replies(root);
    expect(shown(deleted)).toContain('Deleted');
    expect(shown(resubmitted)).toContain('Resubmitted');
    expect(shown(resubmitted)).toContain('1 change:');
    expect(shown(resubmitted)).toContain('image tag `2.1` \u2192 `2.2`');
    expect(shown(resubmitted)).toContain('One intentional change, as the guide asks.');
    // The previous value is kept in the thread, as the guide asks.
    expect(shown(resubmitted)).toContain('registry.example.org/ml/train:2.1');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('Failed \u2192 resubmitted, running'), 'the root edited');
    expect(slack.workspace.find(root.channel, root.ts)!.edited).toBe(true);

    // The resubmission fails too: a new top-level DM (a reply may not notify) that links the thread.
    fail('resnet');
    const again = await eventually(() => topLevel()[1], 'the failed-again DM');
    const permalink = `https://simulated.slack.com/archives/${root.channel}/p${root.ts.replace('.', '')}`;
    expect(shown(again)).toContain('Failed again');
    expect(shown(again)).toContain(`<${permalink}|the earlier alert's thread>`);
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('Failed \u2192 resubmitted, failed again'), 'the root says failed again');
    await bot.settle();
    expect(topLevel()).toHaveLength(2);
    neverBroadcast();
  });

  it('tells a stopped workload running again in its thread, and survives a restart: the new process threads under the same root', async () => {
    const dir = tempDir();
    kube.apply(workloadCr({ kind: 'InteractiveWorkload', name: 'notebook', project: 'vision', owner: 'bob', arguments: '-u train.py' }));
    const withBob = { ...config, owners: { ...config.owners, map: { bob: BOB.email } } };
    bot = await sims.startBot(withBob, { dir });
    kube.setPhase('InteractiveWorkload', ns('vision'), 'notebook', 'Stopped');
    const root = await eventually(() => topLevel(BOB.id)[0], 'the Stopped DM');
    await bot.settle();

    // A new process on the same store: where the alert went is in the store, not in memory.
    bot = await sims.startBot(withBob, { dir });
    kube.setPhase('InteractiveWorkload', ns('vision'), 'notebook', 'Running');
    const [running] = await eventually(() => replies(root, BOB.id).length > 0 && replies(root, BOB.id), 'the running-again reply');
    expect(shown(running)).toContain('is *Running* again');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!) === 'notebook: Stopped \u2192 running again', 'the root edited');
    await bot.settle();
    expect(topLevel(BOB.id)).toHaveLength(1);
    neverBroadcast();
  });

  it('threads a resubmission after the bot moved from cluster: to clusters: under the alert told before the move (the first cluster listed takes the thread)', async () => {
    const dir = tempDir();
    submit({ name: 'resnet', image: 'registry.example.org/ml/train:2.1' });
    bot = await sims.startBot(config, { dir });
    fail('resnet');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    await bot.settle();

    // The same store, now with clusters: naming the cluster it watched.
    const named = { ...config, clusters: [{ name: 'gpu-east', kubeconfig: kube.writeKubeconfig(join(dir, 'east')) }] };
    bot = await sims.startBot(named, { dir });
    remove('resnet');
    await eventually(() => replies(root).length === 1, 'the deleted reply, in the thread from before the move');
    submit({ name: 'resnet', image: 'registry.example.org/ml/train:2.2' });
    await eventually(() => replies(root).length === 2, 'the resubmitted reply');
    await bot.settle();
    const [deleted, resubmitted] = replies(root);
    expect(shown(deleted)).toContain('Deleted');
    expect(shown(resubmitted)).toContain('image tag `2.1` \u2192 `2.2`');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('Failed \u2192 resubmitted, running'), 'the root edited');
    expect(topLevel()).toHaveLength(1);
    // What the thread said is kept under the named cluster's keys.
    const said = [...(await bot.store.ledgerKeys('fu'))];
    expect(said.length).toBeGreaterThanOrEqual(2);
    for (const key of said) expect(key).toMatch(/^fu(-root)?:(wl:)?gpu-east\//);
    neverBroadcast();
  });

  /** alice's resnet failed, was deleted and resubmitted (seen running): two replies under the failure's thread. */
  async function resubmittedAndRunning(): Promise<PostedMessage> {
    submit({ name: 'resnet' });
    // No burst window: the stop comes long after the failure, so its own DM would not fold into the failure's.
    bot = await sims.startBot({ ...config, alerts: { burstWindow: '0s' } });
    fail('resnet');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    remove('resnet');
    submit({ name: 'resnet', image: 'registry.example.org/ml/train:2.2' });
    await eventually(() => replies(root).length === 2, 'the deleted and resubmitted replies');
    await bot.settle();
    return root;
  }
  const stop = (phaseMessage?: string) =>
    kube.patch({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' }, (obj) => {
      obj.status = { ...(obj.status as object), phase: 'Stopped', ...(phaseMessage ? { phaseMessage } : {}) };
    });

  it('tells a resubmission stopped by its owner once, in the thread: one reply, no top-level Stopped DM besides', async () => {
    const root = await resubmittedAndRunning();
    stop();
    await eventually(() => replies(root).length === 3, 'the stopped reply');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('stopped'), 'the root edited');
    await bot.settle();
    expect(shown(replies(root)[2])).toContain('Stopped');
    // One message for the stop: the reply. The only top-level DM is still the failure.
    expect(topLevel()).toHaveLength(1);
    expect(await allOutbox(bot.store)).toEqual([]);
    neverBroadcast();
  });

  it('escalates a resubmission preempted by the scheduler as a new DM linking the thread, with no reply besides', async () => {
    const root = await resubmittedAndRunning();
    stop('Pod runai-vision/resnet-0-0 was preempted by higher priority workload runai-nlp/bert');
    const escalated = await eventually(() => topLevel()[1], 'the stopped DM');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('stopped'), 'the root edited');
    await bot.settle();
    const permalink = `https://simulated.slack.com/archives/${root.channel}/p${root.ts.replace('.', '')}`;
    expect(shown(escalated)).toContain('*Stopped* by the system (preempted)');
    expect(shown(escalated)).toContain(`<${permalink}|the earlier alert's thread>`);
    // Two top-level DMs in all (the failure, this one), and the thread has no stopped reply.
    expect(topLevel()).toHaveLength(2);
    expect(replies(root)).toHaveLength(2);
    expect(await allOutbox(bot.store)).toEqual([]);
    neverBroadcast();
  });

  it('tells an unchanged resubmission after an application error that it will most likely fail the same way', async () => {
    submit({ name: 'bert' });
    bot = await sims.startBot(config);
    fail('bert');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    remove('bert');
    submit({ name: 'bert' });
    const said = await eventually(() => replies(root).find((m) => shown(m).includes('Resubmitted')), 'the resubmitted reply');
    expect(shown(said)).toContain('Nothing changed');
    expect(shown(said)).toContain('it will most likely fail the same way');
  });

  it('says nothing more about a muted workload: no reply, no edit of its alert', async () => {
    submit({ name: 'quiet' });
    bot = await sims.startBot(config);
    fail('quiet');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    await bot.settle();
    await bot.store.mute(ALICE.id, muteScope.workload(ns('vision'), 'quiet'), undefined);
    remove('quiet');
    submit({ name: 'quiet', image: 'registry.example.org/ml/train:9.9' });
    // Settled: the follow-ups were decided and handled (recorded as not sent), not merely not yet sent.
    await eventually(async () => (await bot.store.ledgerKeys('fu:')).size >= 2, 'the follow-ups handled');
    await bot.settle();
    expect(replies(root)).toEqual([]);
    const handled = await Promise.all([...(await bot.store.ledgerKeys('fu')).values()].map((key) => bot.store.ledgerEntry(key)));
    expect(handled.map((e) => e?.recipient)).toEqual(handled.map(() => mutedRecipient(ALICE.id)));
    expect(slack.workspace.find(root.channel, root.ts)!.edited).toBe(false);
    expect(slack.callsTo('chat.update')).toEqual([]);
  });

  it('coalesces the root\'s edits: two events while Slack is not being called leave one queued edit, sent as one chat.update with the latest line', async () => {
    submit({ name: 'vit' });
    bot = await sims.startBot(config);
    fail('vit');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    await bot.settle();
    await bot.outbox.stop();
    kube.apply(pod({ workload: 'vit', project: 'vision' }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'vit', 'Running');
    await eventually(async () => (await allOutbox(bot.store)).some((i) => i.key.endsWith('1-running')), 'the running reply queued');
    kube.apply(pod({ workload: 'vit', project: 'vision', exitCode: 0 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'vit', 'Succeeded');
    await eventually(async () => (await allOutbox(bot.store)).some((i) => i.key.endsWith('2-completed')), 'the completed reply queued');
    const edits = (await allOutbox(bot.store)).filter((i) => i.key.startsWith('fu-root:'));
    expect(edits.map((i) => i.payload.text.split('.')[0])).toEqual(['Failed \u2192 completed']);
    bot.outbox.start();
    await eventually(() => replies(root).length === 2, 'both replies');
    await bot.settle();
    expect(slack.callsTo('chat.update').filter((c) => c.body.ts === root.ts)).toHaveLength(1);
    expect(header(slack.workspace.find(root.channel, root.ts)!)).toBe('vit: Failed \u2192 completed');
    expect(replies(root).map((m) => shown(m).includes('Running') && !shown(m).includes('Completed') ? 'running' : 'completed')).toEqual(['running', 'completed']);
  });

  it('escalates the same workload failing again after it ran again: a new DM, the ledger\'s one alert per state notwithstanding', async () => {
    submit({ name: 'gpt' });
    bot = await sims.startBot(config);
    fail('gpt');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    kube.apply(pod({ workload: 'gpt', project: 'vision' }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'gpt', 'Running');
    await eventually(() => replies(root).length === 1, 'the running-again reply');
    fail('gpt');
    const again = await eventually(() => topLevel()[1], 'the failed-again DM');
    expect(shown(again)).toContain('Failed again');
    expect(shown(again)).toContain('/archives/');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('Failed \u2192 failed again'), 'the root says failed again');
    await bot.settle();
    expect(topLevel()).toHaveLength(2);
    neverBroadcast();
  });

  it('shows a hostile resubmission inert and bounded in the thread Slack accepted: no token from its arguments, no live mention or link, a megabyte cut', async () => {
    submit({ name: 'evil', arguments: '-u train.py --lr=1e-4' });
    bot = await sims.startBot(config);
    fail('evil');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    remove('evil');
    const secrets = SECRETS.filter((x) => !x.text.includes('\n') && !/['"`|;&$\\]/.test(x.text)).map((x) => x.text).join(' ');
    const markup = HOSTILE_LINE.replace(/[`'"|;&$\\]/g, '');
    submit({ name: 'evil', arguments: `-u train.py --lr=3e-4 ${secrets} ${markup} ${'--pad=x '.repeat(130_000)}` });
    const said = await eventually(() => replies(root).find((m) => shown(m).includes('Resubmitted')), 'the resubmitted reply', 15_000);
    const call = slack.callsTo('chat.postMessage').find((c) => (c.response as { ts?: string }).ts === said.ts)!;
    // The corpus reached the reply (the diff names the changed flag), cut, redacted and escaped.
    expect(shown(said)).toContain('--lr');
    expect(JSON.stringify(call.body).length).toBeLessThan(40_000);
    expect(leakIn(JSON.stringify(call.body))).toBeUndefined();
    const problems = strings(call.body).map(([path, value]) => [path, slackProblem(value, path.endsWith('.plain'))]).filter(([, problem]) => problem);
    expect(problems).toEqual([]);
    // Nor is any of it in the bot's own log.
    expect(leakIn(bot.captured.text())).toBeUndefined();
  });

  it('drops the follow-ups of an alert that is gone from Slack (thread_not_found, message_not_found), never posting them at the top level', async () => {
    submit({ name: 'gone' });
    bot = await sims.startBot(config);
    fail('gone');
    const root = await eventually(() => topLevel()[0], 'the failure DM');
    await bot.settle();
    slack.workspace.remove(slack.workspace.find(root.channel, root.ts)!);
    kube.apply(pod({ workload: 'gone', project: 'vision' }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'gone', 'Running');
    const refused = () => slack.calls.filter((c) => ['thread_not_found', 'message_not_found'].includes((c.response as { error?: string }).error ?? ''));
    await eventually(() => refused().length === 2, 'the reply and the edit refused');
    await eventually(async () => (await allOutbox(bot.store)).every((i) => !i.key.startsWith('fu')), 'both dropped, not retried');
    expect(refused().map((c) => c.method).sort()).toEqual(['chat.postMessage', 'chat.update']);
    expect(dm()).toEqual([]);
  });
});
