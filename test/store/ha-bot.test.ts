/**
 * Two replicas of the real bot (ha.enabled) on one PostgreSQL schema, electing on a Lease in the
 * simulated Kubernetes API server, against one simulated Slack: both watch and queue, only the
 * leader sends; when the leader stops, the other takes the Lease and sends what is queued.
 * Without ha the one replica leads from the start. Skipped with a note when PostgreSQL is not
 * reachable (the single-replica case runs on SQLite regardless).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, startTestBot, tempDir, type TestBot } from '../helpers/bot.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../helpers/postgres.js';
import { useSimulators } from '../helpers/sims.js';
import { startTcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const LEASE_NS = 'runai-slack-bot';
const describePg = await describeWithPostgres('the two-replica (ha.enabled) tests');

async function gauge(bot: TestBot, name: string): Promise<number | undefined> {
  const metric = await bot.metrics.registry.getSingleMetric(name)?.get();
  return metric?.values[0]?.value;
}

async function sent(bot: TestBot): Promise<number> {
  const metric = await bot.metrics.messagesSent.get();
  return metric.values.reduce((sum, v) => sum + v.value, 0);
}

async function readyz(bot: TestBot): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${bot.port}/readyz`);
  return (await res.json()) as Record<string, unknown>;
}

describe('one replica without ha', () => {
  const sims = useSimulators();

  it('leads from the start: /readyz and runai_bot_leader say so', async () => {
    const bot = await sims.startBot({ owners: { emailDomain: 'example.org' } });
    expect(bot.leadership.leading).toBe(true);
    expect(await gauge(bot, 'runai_bot_leader')).toBe(1);
    expect(await readyz(bot)).toMatchObject({ leader: true });
  });
});

describePg('two replicas with ha.enabled on PostgreSQL', () => {
  const sims = useSimulators((kube) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
    kube.addNamespace(LEASE_NS);
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let schema: TestSchema;
  const bots: TestBot[] = [];

  beforeEach(async () => {
    ({ kube, slack } = sims);
    schema = await createTestSchema('hatest');
  });
  afterEach(async () => {
    await Promise.all(bots.splice(0).map((b) => b.stop()));
    await schema.drop();
  });

  function failTraining(name: string, log: string) {
    kube.appendLog(ns('vision'), `${name}-0-0`, name, log);
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
  }

  async function replica(podName: string, extra: Record<string, unknown> = {}, kubeConfig?: KubeConfig): Promise<TestBot> {
    const url = `${schema.url}?options=${encodeURIComponent(`-c search_path=${schema.schema}`)}`;
    const config = {
      ...extra,
      owners: { emailDomain: 'example.org' },
      alerts: { burstWindow: '0s', ...(extra.alerts as object | undefined) },
      store: { url },
      ha: { enabled: true, leaseNamespace: LEASE_NS, leaseDurationSeconds: 3 },
    };
    const bot = await startTestBot(kube, slack, config, { env: { POD_NAME: podName }, kubeConfig });
    bots.push(bot);
    return bot;
  }

  it('only the leader sends; when it stops, the other takes over and sends what is queued', async () => {
    kube.apply(workloadCr({ name: 'first', project: 'vision', owner: 'alice' }));
    kube.apply(workloadCr({ name: 'second', project: 'vision', owner: 'alice' }));
    const a = await replica('bot-a');
    const b = await replica('bot-b');
    // The first to start took the Lease; the second follows and says so, without being unready.
    expect(a.leadership.leading).toBe(true);
    expect(b.leadership.leading).toBe(false);
    expect(await gauge(a, 'runai_bot_leader')).toBe(1);
    expect(await gauge(b, 'runai_bot_leader')).toBe(0);
    await eventually(async () => (await readyz(b)).ready === true, 'the follower ready');
    expect(await readyz(b)).toMatchObject({ ready: true, leader: false });
    expect(await readyz(a)).toMatchObject({ leader: true });

    failTraining('first', 'ValueError: bad learning rate schedule');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the first DM');
    // Both replicas decided and queued it (one row: the outbox key); only the leader sent.
    await Promise.all([a.settle(), b.settle()]);
    expect(await sent(a)).toBe(1);
    expect(await sent(b)).toBe(0);
    // The follower's outbox stays off even when asked to send.
    await b.outbox.flush();
    expect(await sent(b)).toBe(0);

    await a.stop();
    bots.splice(bots.indexOf(a), 1);
    failTraining('second', 'KeyError: missing column "label"');
    await eventually(() => b.leadership.leading, 'the follower taking the Lease', 15_000);
    await eventually(() => slack.messagesTo(ALICE.id).length >= 2, 'the DM queued after the leader stopped', 15_000);
    await b.settle();
    expect(await sent(b)).toBe(1);
    expect(await gauge(b, 'runai_bot_leader')).toBe(1);
    const texts = slack.messagesTo(ALICE.id).map((c) => String(c.body.text) + JSON.stringify(c.body.blocks));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('ValueError: bad learning rate schedule');
    expect(texts[1]).toContain('KeyError: missing column');
    expect(b.captured.text()).toContain('leading: this replica now sends');
  });

  it('tells a log-saving tip once though both replicas see the start, and the new leader remembers it after a failover', async () => {
    const teed = 'bash -c "python -u train.py 2>&1 | tee -a /data/logs/train.log"';
    const a = await replica('bot-a');
    const b = await replica('bot-b');
    const start = async (name: string, replicas: TestBot[]) => {
      kube.apply(workloadCr({ name, project: 'vision', owner: 'alice', phase: 'Pending', command: teed, arguments: '' }));
      for (const r of replicas) await eventually(() => r.reconciler.workloads().some((w) => w.name === name), `${name} seen`);
      kube.setPhase('TrainingWorkload', ns('vision'), name, 'Running');
      for (const r of replicas) await eventually(() => r.reconciler.workloads().some((w) => w.name === name && w.state === 'Running'), `${name} running`);
      await Promise.all(replicas.map((r) => r.settle()));
    };
    // The tips decided, by kind: queued (outbox) or sent (ledger; recorded once Slack took it).
    const kinds = "split_part(key, ':', 2)";
    const decided = async () =>
      (await schema.sql(`SELECT ${kinds} AS kind FROM ledger WHERE key LIKE 'tip:%' UNION ALL SELECT ${kinds} FROM outbox WHERE key LIKE 'tip:%' ORDER BY 1`)).rows.map((r) => r.kind);
    const sentTips = async () => (await schema.sql(`SELECT ${kinds} AS kind FROM ledger WHERE key LIKE 'tip:%' ORDER BY 1`)).rows.map((r) => r.kind);
    await start('first', [a, b]);
    // Both replicas have decided the start (settled): one tip, of the first kind, is all it earns.
    expect(await decided()).toEqual(['masked-exit']);
    // The leader's outbox sends it in its own time (settle's flush may come before it is started).
    await eventually(async () => (await sentTips()).length > 0, 'the tip sent', 15_000);
    expect(await sentTips()).toEqual(['masked-exit']);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);

    await a.stop();
    bots.splice(bots.indexOf(a), 1);
    await eventually(() => b.leadership.leading, 'the follower taking the Lease', 15_000);
    // The masked exit was told; the next kind is, once; then nothing more this week.
    await start('second', [b]);
    await start('third', [b]);
    expect(await decided()).toEqual(['log-not-persistent', 'masked-exit']);
    await eventually(async () => (await sentTips()).length === 2, 'the second tip sent', 15_000);
    const texts = slack.messagesTo(ALICE.id).map((c) => JSON.stringify(c.body.blocks));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('set -o pipefail');
    expect(texts[1]).toContain('is lost with the pod');
  });

  it('a leader cut off from the API server stops sending at once; the other takes over and sends', async () => {
    const link: TcpCut = await startTcpCut(Number(new URL(kube.url).port));
    try {
      kube.apply(workloadCr({ name: 'first', project: 'vision', owner: 'alice' }));
      const viaLink = new KubeConfig();
      viaLink.loadFromString(kube.kubeconfigYaml().replace(kube.url, link.url));
      const a = await replica('bot-a', {}, viaLink);
      const b = await replica('bot-b');
      expect(a.leadership.leading).toBe(true);
      link.cut();
      await eventually(() => !a.leadership.leading, 'the cut-off leader standing down', 15_000);
      expect(await gauge(a, 'runai_bot_leader')).toBe(0);
      // Queued by the follower (the leader's watch is cut too) into the shared store: had the
      // old leader's outbox kept running, it would send it before the Lease expired.
      failTraining('first', 'ValueError: bad learning rate schedule');
      await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the DM after the takeover', 15_000);
      await b.settle();
      expect(b.leadership.leading).toBe(true);
      expect(await sent(a)).toBe(0);
      expect(await sent(b)).toBe(1);
    } finally {
      link.restore();
      await link.close();
    }
  });

  it('posts one operators\' summary per burst, though both replicas count every failure', async () => {
    slack.addChannel('C0OPS', 'runai-ops');
    slack.inviteBot('C0OPS');
    const names = ['w1', 'w2', 'w3', 'w4'];
    for (const name of names) kube.apply(workloadCr({ name, project: 'vision', owner: 'alice' }));
    const extra = { slack: { opsChannel: 'C0OPS' }, alerts: { burstWindow: '2s', opsBurstThreshold: 3 } };
    const a = await replica('bot-a', extra);
    const b = await replica('bot-b', extra);
    for (const name of names) failTraining(name, `ValueError: ${name}`);
    await eventually(() => slack.messagesTo('C0OPS').length > 0, 'the operators\' summary', 15_000);
    // Whatever either replica still had to count or queue is queued now, and the leader sends it.
    await Promise.all([a.settle(), b.settle()]);
    await Promise.all([a.notifier.flushBursts(), b.notifier.flushBursts()]);
    await a.settle();
    const summaries = slack.messagesTo('C0OPS');
    expect(summaries).toHaveLength(1);
    expect(String(summaries[0].body.text)).toContain('4');
    // Both counted them (every replica prepares every failure): the store kept each once.
    expect(await sent(b)).toBe(0);
  });

  it('a follower answers with the maintenance windows the leader fetched, without fetching the feed itself', async () => {
    const feedPath = join(tempDir('ha-feed-'), 'maintenance.ics');
    const start = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const end = new Date(Date.now() + 30 * 86_400_000 + 3_600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    writeFileSync(feedPath, [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:ha-window@cluster.example', 'DTSTAMP:20261201T000000Z',
      'SUMMARY:Network maintenance', `DTSTART:${start}`, `DTEND:${end}`, 'END:VEVENT', 'END:VCALENDAR', '',
    ].join('\r\n'));
    const maintenance = { maintenance: { feed: feedPath, channel: 'C0MAINT', timezone: 'Europe/Berlin' } };
    const a = await replica('bot-a', maintenance);
    await eventually(() => a.maintenance!.upcoming(new Date(), 1).length === 1, 'the leader fetching the feed');
    const b = await replica('bot-b', maintenance);
    expect(b.leadership.leading).toBe(false);
    const shown = await eventually(() => b.maintenance!.upcoming(new Date(), 1)[0], 'the follower showing the window');
    expect(shown.summary).toBe('Network maintenance');
  });
});
