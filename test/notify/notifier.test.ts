/**
 * The notifier plans before it enriches (issue 22): the real bot (Bolt, client-node, SQLite)
 * against the simulated API server and Slack. What is planned to nobody costs no pod list, no
 * event or log read, no message and no ledger row (planned again after a restart, still at no
 * such cost, and not counted for the operators again); what is planned is queued with its plan;
 * a mute set after planning still stops it.
 */
import { muteScope } from '../../src/notify/mutes.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { allOutbox, sqliteOf } from '../helpers/store.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const config = {
  owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
  cluster: { mode: 'watch' },
  alerts: { burstWindow: '0s' },
};

/** Requests that enrichment makes (pods, events, logs) and what they select; the watch and lists of workloads are not. */
function enrichmentRequests(kube: FakeKube): string[] {
  return kube.requests
    .filter((r) => /\/(pods|events)(\/|$)|\/log$/.test(r.path))
    .map((r) => `${r.path} ${r.query.labelSelector ?? r.query.fieldSelector ?? ''}`.trim());
}

async function skipped(bot: TestBot): Promise<Record<string, number>> {
  const { values } = await bot.metrics.deliverySkipped.get();
  return Object.fromEntries(values.map((v) => [String(v.labels.reason), v.value]));
}

function ledgerRows(bot: TestBot): number {
  return (sqliteOf(bot.store).prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n;
}

describe('the notifier plans before it enriches', () => {
  const sims = useSimulators((kube) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  beforeEach(() => ({ kube, slack } = sims));

  it('20 workloads complete, no owner opted in: no pod, event or log read, no message, no ledger row, 20 skips counted', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `train-${i}`);
    for (const [i, name] of names.entries()) {
      kube.apply(workloadCr({ name, project: 'vision', owner: i % 2 ? 'alice' : 'bob' }));
      kube.apply(pod({ workload: name, project: 'vision' }));
    }
    const bot = await sims.startBot(config);
    await bot.settle();
    kube.resetRequests();

    for (const name of names) kube.setPhase('TrainingWorkload', ns('vision'), name, 'Completed');
    await eventually(async () => (await skipped(bot))['not-opted-in'] === 20 && true, '20 completions planned');
    await bot.settle();

    expect(enrichmentRequests(kube)).toEqual([]);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(ledgerRows(bot)).toBe(0);
    expect(await allOutbox(bot.store)).toEqual([]);
    expect(await skipped(bot)).toEqual({ 'not-opted-in': 20 });

    expect(await skipped(bot)).toEqual({ 'not-opted-in': 20 });
  });

  it('plans what it dropped again after a restart (remembered in memory only), and that costs no read of the cluster and no Slack call', async () => {
    const dir = tempDir();
    const names = Array.from({ length: 20 }, (_, i) => `train-${i}`);
    for (const [i, name] of names.entries()) {
      kube.apply(workloadCr({ name, project: 'vision', owner: i % 2 ? 'alice' : 'bob' }));
      kube.apply(pod({ workload: name, project: 'vision' }));
    }
    let bot = await sims.startBot(config, { dir });
    await bot.settle();
    for (const name of names) kube.setPhase('TrainingWorkload', ns('vision'), name, 'Completed');
    await eventually(async () => (await skipped(bot))['not-opted-in'] === 20 && true, '20 completions planned');
    await bot.settle();
    const slackCalls = slack.calls.length;

    // A new process on the same store, within the lookback: each is owed and planned to nobody again.
    kube.resetRequests();
    bot = await sims.startBot(config, { dir });
    await eventually(async () => (await skipped(bot))['not-opted-in'] === 20 && true, 'the 20 planned again');
    await bot.settle();
    expect(enrichmentRequests(kube)).toEqual([]);
    // The owners were looked up before the restart and are cached in the store: no lookup, no post.
    expect(slack.calls.slice(slackCalls).map((c) => c.method).filter((m) => m !== 'auth.test' && !m.startsWith('apps.'))).toEqual([]);
    expect(ledgerRows(bot)).toBe(0);
  });

  it('enriches and sends a Completed notice to the owner who opted in, and only to them', async () => {
    kube.apply(workloadCr({ name: 'a', project: 'vision', owner: 'alice' }));
    kube.apply(workloadCr({ name: 'b', project: 'vision', owner: 'bob' }));
    const bot = await sims.startBot(config);
    await bot.store.putSettings(ALICE.id, { completed: true });
    await bot.settle();
    kube.resetRequests();
    kube.setPhase('TrainingWorkload', ns('vision'), 'a', 'Completed');
    kube.setPhase('TrainingWorkload', ns('vision'), 'b', 'Completed');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'alice\'s Completed notice');
    await eventually(async () => (await skipped(bot))['not-opted-in'] === 1 && true, 'bob\'s skipped');
    await bot.settle();
    expect(slack.messagesTo(BOB.id)).toHaveLength(0);
    // One enrichment: alice's (its pods and events), none for bob's.
    const reads = enrichmentRequests(kube);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((r) => /=b(,|$)/.test(r))).toEqual([]);
    expect(reads.filter((r) => /=a(,|$)/.test(r))).toEqual(reads);
    expect(ledgerRows(bot)).toBe(1);
  });

  it('a muted failure is not enriched: no pod list, no log read', async () => {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    const bot = await sims.startBot(config);
    await bot.store.mute(ALICE.id, muteScope.project('vision'), undefined);
    await bot.settle();
    kube.resetRequests();
    kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', 'RuntimeError: boom');
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    await eventually(async () => (await skipped(bot))['muted-project'] === 1 && true, 'the muted failure planned');
    await bot.settle();
    expect(enrichmentRequests(kube)).toEqual([]);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
  });

  it('counts a muted failure into the operators\' burst summary once: not into a new burst again after a restart', async () => {
    const dir = tempDir();
    slack.addChannel('C0OPS', 'ops');
    slack.inviteBot('C0OPS');
    const withOps = { ...config, slack: { opsChannel: 'C0OPS' }, alerts: { burstWindow: '1s', opsBurstThreshold: 2 } };
    let offsetMs = 0;
    const now = () => new Date(Date.now() + offsetMs);
    for (const name of ['resnet', 'bert']) kube.apply(workloadCr({ name, project: 'vision', owner: 'alice' }));
    let bot = await sims.startBot(withOps, { dir, now });
    await bot.store.mute(ALICE.id, muteScope.project('vision'), undefined);
    await bot.settle();
    for (const name of ['resnet', 'bert']) {
      kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
      kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
    }
    await eventually(async () => (await skipped(bot))['muted-project'] === 2 && true, 'both muted failures planned');
    await eventually(async () => (await bot.settle(), slack.messagesTo('C0OPS').length === 1), 'the operators\' summary of the burst');

    // A restart ten minutes later, within the lookback: both are owed and planned to nobody again, but they are old news to the operators.
    offsetMs = 10 * 60_000;
    bot = await sims.startBot(withOps, { dir, now });
    await eventually(async () => (await skipped(bot))['muted-project'] === 2 && true, 'both planned again');
    await bot.settle();
    await bot.notifier.flushBursts();
    await bot.settle();
    expect(slack.messagesTo('C0OPS')).toHaveLength(1);
    expect(await allOutbox(bot.store)).toEqual([]);
  });

  /**
   * alice's workload fails inside her quiet hours (11:00–13:00 UTC, the clock at 12:00): planned
   * to her DM, enriched, queued with its plan and held until they end.
   */
  async function deferredFailure(now: () => Date) {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    const bot = await sims.startBot(config, { now });
    await bot.store.putSettings(ALICE.id, { quietHours: { from: '11:00', to: '13:00', timezone: 'UTC' } });
    await bot.settle();
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    const [queued] = await eventually(async () => {
      const items = await allOutbox(bot.store);
      return items.length === 1 && items[0].lastError === 'quiet hours' && items;
    }, 'the deferred alert');
    return { bot, queued };
  }

  it('a mute set after planning stops a message deferred by quiet hours', async () => {
    let clock = new Date('2026-12-01T12:00:00Z');
    const { bot, queued } = await deferredFailure(() => clock);
    expect(queued.target).toMatchObject({ type: 'owner', plan: { destinations: [{ channel: ALICE.id, via: 'dm' }] } });

    await bot.store.mute(ALICE.id, muteScope.project('vision'), undefined);
    clock = new Date('2026-12-01T13:01:00Z');
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(await bot.store.ledgerEntry(queued.key)).toMatchObject({ recipient: `muted:${ALICE.id}` });
    expect(await skipped(bot)).toEqual({ 'muted-project': 1 });
  });

  it('sends the deferred message once quiet hours end when nothing changed', async () => {
    let clock = new Date('2026-12-01T12:00:00Z');
    const { bot, queued } = await deferredFailure(() => clock);
    expect(queued.nextAttemptAt).toBe('2026-12-01T13:00:00.000Z');
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    clock = new Date('2026-12-01T13:01:00Z');
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });
});
