/**
 * A refused destination reroutes or waits, never vanishes (issue 22). The real bot against a
 * Slack simulator that refuses posts where the bot is not a member (not_in_channel, as real
 * Slack does with chat:write alone): an ownerless failure whose only channel refuses waits and
 * is delivered once the bot is invited; one whose project channel refuses goes to the fallback,
 * saying why; /readyz, the metrics and one operators' notice name the channel.
 */
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import type { SlackSimulator } from '../fakes/slack.js';
import { eventually, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { allOutbox } from '../helpers/store.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const text = (call: { body: Record<string, unknown> }) => `${call.body.text}\n${JSON.stringify(call.body.blocks)}`;

async function readyz(bot: TestBot): Promise<{ checks: Record<string, { ok: boolean; detail?: string }> }> {
  return (await fetch(`http://127.0.0.1:${bot.port}/readyz`)).json() as never;
}

describe('a channel that refuses the bot', () => {
  const sims = useSimulators((kube, slack) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
    slack.addChannel('C0FALLBACK', 'runai-alerts');
    slack.addChannel('C0VISION', 'vision-alerts');
    slack.addChannel('C0OPS', 'runai-ops');
    slack.inviteBot('C0OPS');
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  beforeEach(() => ({ kube, slack } = sims));

  function fail(name: string): void {
    kube.appendLog(ns('vision'), `${name}-0-0`, name, 'ModuleNotFoundError: No module named \'timm\'');
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
  }

  it('an ownerless failure whose only channel refuses waits, is named in /readyz and the metrics, and goes out once the bot is invited', async () => {
    kube.apply(workloadCr({ name: 'orphan', project: 'vision', owner: 'mallory' }));
    kube.apply(workloadCr({ name: 'orphan-2', project: 'vision', owner: 'mallory' }));
    // No operators' channel: the fallback is the plan's only destination.
    const bot = await sims.startBot({ slack: { fallbackChannel: 'C0FALLBACK' }, owners: { emailDomain: 'example.org' }, cluster: { mode: 'watch' }, alerts: { burstWindow: '0s' } });
    fail('orphan');
    await eventually(() => slack.callsTo('chat.postMessage').some((c) => c.body.channel === 'C0FALLBACK'), 'the refused post');
    await eventually(async () => (await readyz(bot)).checks.slack.detail?.includes('C0FALLBACK (not_in_channel'), '/readyz naming the channel');
    expect((await readyz(bot)).checks.slack.ok).toBe(true);
    const metrics = await (await fetch(`http://127.0.0.1:${bot.port}/metrics`)).text();
    expect(metrics).toMatch(/runai_bot_refused_channels\{channel="C0FALLBACK",error="not_in_channel"\} 1/);
    // Still owed: queued, waiting, not dropped.
    const [waiting] = await eventually(async () => {
      const items = await allOutbox(bot.store);
      return items[0]?.lastError?.includes('not_in_channel') && items;
    }, 'the alert waiting');
    expect(waiting).toMatchObject({ kind: 'failed', attempts: 1 });
    fail('orphan-2');
    await eventually(async () => (await allOutbox(bot.store)).length === 2 && true, 'the second alert queued');
    await bot.settle();
    expect(slack.messagesTo('C0FALLBACK')).toHaveLength(0);

    slack.inviteBot('C0FALLBACK');
    // The items wait out a short backoff (a minute at most): hurried here as a reconnect would.
    await bot.store.expediteOutbox(new Date());
    await eventually(() => slack.messagesTo('C0FALLBACK').length === 2, 'both alerts delivered after the invite', 15_000);
    for (const post of slack.messagesTo('C0FALLBACK')) expect(text(post)).toContain('Workload of *mallory*');
    await eventually(async () => (await readyz(bot)).checks.slack.detail === undefined, '/readyz clear again');
    expect(await allOutbox(bot.store)).toEqual([]);
  });

  it('a project channel that refuses: the alert goes to the fallback, saying why it is there and what fixes it; the operators hear once a day', async () => {
    slack.inviteBot('C0FALLBACK');
    kube.apply(workloadCr({ name: 'orphan', project: 'vision', owner: 'mallory' }));
    kube.apply(workloadCr({ name: 'orphan-2', project: 'vision', owner: 'mallory' }));
    const bot = await sims.startBot({
      slack: { fallbackChannel: 'C0FALLBACK', opsChannel: 'C0OPS' },
      projects: { vision: { channel: 'C0VISION' } },
      owners: { emailDomain: 'example.org' },
      cluster: { mode: 'watch' },
      alerts: { burstWindow: '0s' },
    });
    fail('orphan');
    const [post] = await eventually(() => slack.messagesTo('C0FALLBACK').length > 0 && slack.messagesTo('C0FALLBACK'), 'the rerouted post');
    expect(text(post)).toContain('Posted here because I am not in <#C0VISION> (Slack said not_in_channel)');
    expect(text(post)).toContain('Workload of *mallory*');
    expect(text(post)).toContain("No module named 'timm'");
    expect(slack.messagesTo('C0VISION')).toHaveLength(0);
    const [notice] = await eventually(() => slack.messagesTo('C0OPS').length > 0 && slack.messagesTo('C0OPS'), 'the operators\' notice');
    expect(text(notice)).toContain('<#C0VISION>');
    expect(text(notice)).toContain('/invite');

    // A second alert the same day: rerouted too (the refusal is remembered: Slack is not asked again), no second notice.
    const refusedCalls = slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0VISION').length;
    fail('orphan-2');
    await eventually(() => slack.messagesTo('C0FALLBACK').length === 2, 'the second rerouted post');
    await bot.settle();
    expect(slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0VISION')).toHaveLength(refusedCalls);
    expect(slack.messagesTo('C0OPS')).toHaveLength(1);
    expect(await allOutbox(bot.store)).toEqual([]);
  });
});
