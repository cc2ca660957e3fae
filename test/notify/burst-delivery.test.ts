/**
 * "Never lose an alert", for bursts, through the real bot: a folded alert is told only when
 * Slack accepts a rewrite naming it, survives a crash in the burst window, goes out on its own
 * when the burst's first message never does, respects mutes, and an ownerless project's
 * alerts are grouped only with its own project's.
 */
import { muteScope } from '../../src/notify/mutes.js';
import { alertKey } from '../../src/keys.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator, type RecordedCall } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { allOutbox, sqliteOf } from '../helpers/store.js';

const config = {
  owners: { map: { alice: 'U0ALICE' } },
  projects: { alpha: { channel: 'C0ALPHA' }, beta: { channel: 'C0BETA' } },
  alerts: { burstWindow: '30s' },
};

describe('burst delivery', () => {
  let clock: Date;
  const sims = useSimulators((kube, slack) => {
    for (const project of ['vision', 'alpha', 'beta']) kube.addNamespace(ns(project), { 'runai/queue': project });
    slack.addChannel('C0ALPHA', 'alpha');
    slack.inviteBot('C0ALPHA');
    slack.addChannel('C0BETA', 'beta');
    slack.inviteBot('C0BETA');
    clock = new Date();
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  function running(names: string[], project = 'vision', owner: string | null = 'alice') {
    for (const name of names) {
      kube.apply(workloadCr({ name, project, owner: owner ?? undefined }));
      kube.apply(pod({ workload: name, project }));
    }
  }

  function fail(name: string, project = 'vision') {
    kube.appendLog(ns(project), `${name}-0-0`, name, `RuntimeError: ${name} broke`);
    kube.apply(pod({ workload: name, project, exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns(project), name, 'Failed');
  }

  const keyOf = (name: string) => {
    const w = bot.reconciler.workloads().find((x) => x.name === name);
    return w && alertKey(w.uid, 'Failed');
  };

  /** The alert is decided and on disk (queued, folded, or — before the fix — marked told at fold time). */
  const decided = (name: string) =>
    eventually(async () => {
      const key = keyOf(name);
      return key && ((await bot.store.wasSent(key)) || (await bot.store.isQueued(key))) && key;
    }, `the alert about ${name} to be decided`);

  const text = (c: RecordedCall) => `${c.body.text}\n${JSON.stringify(c.body.blocks)}`;
  const accepted = (method: string) => slack.callsTo(method).filter((c) => typeof c.response === 'object' && c.response.ok === true);

  it('delivers a folded alert after a crash in the burst window: the rewrite was on disk, not in a timer', async () => {
    const dir = tempDir();
    running(['w1', 'w2']);
    bot = await sims.startBot(config, { dir, now: () => clock });
    fail('w1');
    const [anchor] = await eventually(() => slack.messagesTo(ALICE.id).length === 1 && slack.messagesTo(ALICE.id), 'the first DM');
    fail('w2');
    const key2 = await decided('w2');

    // The process dies here: nothing more reaches the disk, and nothing is flushed.
    await bot.store.close();
    await bot.stop().catch(() => undefined);
    sims.bot = undefined;

    later(60_000);
    bot = await sims.startBot(config, { dir, now: () => clock });
    const update = await eventually(() => accepted('chat.update').find((c) => text(c).includes('w2')), 'the grouped rewrite naming w2');
    expect(update.body.ts).toBe((anchor.response as { ts: string }).ts);
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await bot.store.ledgerEntry(key2)).toMatchObject({ recipient: ALICE.id, ts: update.body.ts });
  });

  it('sends a folded alert on its own when the first message was still queued as the window closed and was then refused', async () => {
    running(['w1', 'w2']);
    bot = await sims.startBot(config, { now: () => clock });
    slack.down(true);
    fail('w1');
    const key1 = await decided('w1');
    // The first message has been tried and failed, so it is still queued, not in flight.
    await eventually(async () => ((await allOutbox(bot.store)).find((i) => i.key === key1)?.attempts ?? 0) > 0, 'a failed attempt at the first message');
    fail('w2');
    await decided('w2');
    later(60_000); // the window closes with the first message still queued
    slack.down(false);
    slack.failNext('chat.postMessage', 'not_in_channel');
    await bot.settle();
    const [alone] = await eventually(() => slack.messagesTo(ALICE.id).length > 0 && slack.messagesTo(ALICE.id), 'w2 on its own');
    expect(text(alone)).toContain('w2');
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await bot.store.ledgerEntry(keyOf('w2')!)).toMatchObject({ recipient: ALICE.id });
  });

  it('sends a folded alert on its own when the first message was muted and never posted', async () => {
    running(['w1', 'w2']);
    bot = await sims.startBot(config, { now: () => clock });
    slack.down(true);
    fail('w1');
    const key1 = await decided('w1');
    // The first message has been tried and failed, so it is still queued, not in flight.
    await eventually(async () => ((await allOutbox(bot.store)).find((i) => i.key === key1)?.attempts ?? 0) > 0, 'a failed attempt at the first message');
    fail('w2');
    await decided('w2');
    await bot.store.mute(ALICE.id, muteScope.workload(ns('vision'), 'w1'), undefined);
    slack.down(false);
    later(60_000);
    await bot.settle();
    const [alone] = await eventually(() => slack.messagesTo(ALICE.id).length > 0 && slack.messagesTo(ALICE.id), 'w2 on its own');
    expect(text(alone)).toContain('w2');
    expect(text(alone)).not.toContain('w1');
    expect(await bot.store.ledgerEntry(keyOf('w1')!)).toMatchObject({ recipient: `muted:${ALICE.id}` });
    expect(await bot.store.ledgerEntry(keyOf('w2')!)).toMatchObject({ recipient: ALICE.id });
  });

  it('sends the folded alerts on their own when Slack refuses to rewrite the first message (deleted meanwhile)', async () => {
    running(['w1', 'w2']);
    bot = await sims.startBot(config, { now: () => clock });
    fail('w1');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the first DM');
    fail('w2');
    await decided('w2');
    slack.failNext('chat.update', 'message_not_found');
    later(60_000);
    await bot.settle();
    const messages = await eventually(() => slack.messagesTo(ALICE.id).length === 2 && slack.messagesTo(ALICE.id), 'w2 on its own');
    expect(text(messages[1])).toContain('w2');
    expect(await bot.store.ledgerEntry(keyOf('w2')!)).toMatchObject({ recipient: ALICE.id, ts: (messages[1].response as { ts: string }).ts });
  });

  it('keeps an accepted rewrite in memory while the store cannot record it, and does not rewrite again meanwhile', async () => {
    running(['w1', 'w2']);
    bot = await sims.startBot(config, { now: () => clock });
    fail('w1');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the first DM');
    fail('w2');
    const key2 = await decided('w2');
    // A real SQLite error on the write that records the folded alert as told.
    sqliteOf(bot.store).exec("CREATE TRIGGER no_told BEFORE UPDATE ON burst_entries BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    for (let i = 0; i < 3; i++) {
      later(60_000);
      await bot.settle();
    }
    expect(accepted('chat.update').filter((c) => text(c).includes('w2'))).toHaveLength(1);
    expect(await bot.store.wasSent(key2)).toBe(false);
    expect(bot.outbox.storeHealthy()).toBe(false);
    expect(bot.outbox.lastStoreError()).toMatchObject({ op: 'completeBurstRewrite', path: bot.store.location });

    sqliteOf(bot.store).exec('DROP TRIGGER no_told');
    later(60_000);
    await bot.settle();
    expect(bot.outbox.storeHealthy()).toBe(true);
    expect(await bot.store.ledgerEntry(key2)).toMatchObject({ recipient: ALICE.id });
    expect(accepted('chat.update').filter((c) => text(c).includes('w2'))).toHaveLength(1);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('does not list a workload muted since it was folded, and lists the rest', async () => {
    running(['w1', 'w2', 'w3']);
    bot = await sims.startBot(config, { now: () => clock });
    fail('w1');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the first DM');
    fail('w2');
    await decided('w2');
    fail('w3');
    await decided('w3');
    await bot.store.mute(ALICE.id, muteScope.workload(ns('vision'), 'w2'), undefined);
    later(60_000);
    await bot.settle();
    const update = await eventually(() => accepted('chat.update').find((c) => text(c).includes('w3')), 'the rewrite naming w3');
    expect(text(update)).not.toContain('w2');
    expect(await bot.store.ledgerEntry(keyOf('w2')!)).toMatchObject({ recipient: `muted:${ALICE.id}` });
    expect(await bot.store.ledgerEntry(keyOf('w3')!)).toMatchObject({ recipient: ALICE.id, ts: update.body.ts });
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it("never groups ownerless failures of two projects: each project's channel hears about its own", async () => {
    running(['a1', 'a2'], 'alpha', null);
    running(['b1'], 'beta', null);
    bot = await sims.startBot(config, { now: () => clock });
    fail('a1', 'alpha');
    await eventually(() => slack.messagesTo('C0ALPHA').length === 1, "alpha's first post");
    fail('b1', 'beta');
    await decided('b1');
    fail('a2', 'alpha');
    await decided('a2');
    later(60_000);
    await bot.settle();
    const [beta] = await eventually(() => slack.messagesTo('C0BETA').length > 0 && slack.messagesTo('C0BETA'), "beta's post");
    expect(text(beta)).toContain('b1');
    const update = await eventually(() => accepted('chat.update').find((c) => text(c).includes('a2')), "alpha's grouped rewrite");
    expect(update.body.channel).toBe('C0ALPHA');
    expect(text(update)).toContain('a1');
    expect(text(update)).not.toContain('b1');
    expect(slack.messagesTo('C0ALPHA')).toHaveLength(1);
    expect(slack.messagesTo('C0BETA')).toHaveLength(1);
  });
});
