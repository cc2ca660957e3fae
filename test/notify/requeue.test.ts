/**
 * A failed decision is retried (issue 21, "20 of 20 alerts missing"): the real bot on a real
 * SQLite store that refuses writes (query_only, as a read-only volume does) while workloads
 * fail. Every decision that failed is made again after a short backoff, so once the store takes
 * writes again every owner is told — without a relist or a resync (both set to a day), and
 * without any further event about the workloads.
 */
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { sqliteOf } from '../helpers/store.js';
import { createTestSchema, describeWithPostgres, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres.js';
import { startTcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

describe('a decision the store refused is made again', () => {
  const sims = useSimulators((kube) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  beforeEach(() => ({ kube, slack } = sims));

  it('10 workloads fail while the store refuses writes: every owner is told once it takes them again, with no relist', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `train-${i}`);
    for (const [i, name] of names.entries()) kube.apply(workloadCr({ name, project: 'vision', owner: i % 2 ? 'alice' : 'bob' }));
    const bot = await sims.startBot({
      owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
      cluster: { mode: 'watch', resyncMinutes: 24 * 60, relistMinutes: 24 * 60 },
      alerts: { burstWindow: '0s' },
    });
    await bot.settle();
    const requeued = async () => (await bot.metrics.decisionsRequeued.get()).values.reduce((n, v) => n + v.value, 0);
    const listsBefore = kube.requests.filter((r) => r.path.endsWith('/trainingworkloads') && !r.query.watch).length;

    sqliteOf(bot.store).pragma('query_only = ON');
    for (const name of names) {
      kube.appendLog(ns('vision'), `${name}-0-0`, name, `RuntimeError: ${name} diverged`);
      kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
      kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
    }
    // Each failure was decided, refused by the store, and is waiting to be decided again.
    await eventually(async () => (await requeued()) >= names.length && true, 'the refused decisions requeued', 15_000);
    await bot.settle();
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);

    sqliteOf(bot.store).pragma('query_only = OFF');
    await eventually(() => slack.messagesTo(ALICE.id).length === 5 && slack.messagesTo(BOB.id).length === 5, 'every owner told', 20_000);
    await bot.settle();
    const told = [...slack.messagesTo(ALICE.id), ...slack.messagesTo(BOB.id)].map((c) => String(c.body.text));
    for (const name of names) expect(told.filter((t) => t.includes(`${name} `) || t.includes(`${name}:`) || t.includes(`*${name}*`)).length).toBeGreaterThanOrEqual(1);
    expect(told).toHaveLength(10);
    // No relist did it: the workloads were listed only at start.
    expect(kube.requests.filter((r) => r.path.endsWith('/trainingworkloads') && !r.query.watch).length).toBe(listsBefore);
  }, 60_000);
});

const describePg = await describeWithPostgres('the PostgreSQL requeue test');

describePg('a decision PostgreSQL could not take is made again', () => {
  const sims = useSimulators((kube) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let schema: TestSchema;
  let link: TcpCut;
  beforeEach(async () => {
    schema = await createTestSchema('requeue');
    link = await startTcpCut(Number(new URL(TEST_DATABASE_URL).port || 5432));
  });
  afterEach(async () => {
    await sims.bot?.stop();
    sims.bot = undefined;
    link.restore();
    await link.close();
    await schema.drop();
  });

  it('the link to PostgreSQL is cut while 6 workloads fail: every owner is told once it is back, with no relist', async () => {
    const { kube, slack } = sims;
    const names = Array.from({ length: 6 }, (_, i) => `train-${i}`);
    for (const [i, name] of names.entries()) kube.apply(workloadCr({ name, project: 'vision', owner: i % 2 ? 'alice' : 'bob' }));
    const target = new URL(schema.url);
    const url = `postgres://${target.username}@127.0.0.1:${new URL(link.url).port}${target.pathname}?options=${encodeURIComponent(`-c search_path=${schema.schema}`)}`;
    const bot = await sims.startBot({
      store: { url },
      owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
      cluster: { mode: 'watch', resyncMinutes: 24 * 60, relistMinutes: 24 * 60 },
      alerts: { burstWindow: '0s' },
    });
    await bot.settle();
    const requeued = async () => (await bot.metrics.decisionsRequeued.get()).values.reduce((n, v) => n + v.value, 0);

    link.cut();
    for (const name of names) {
      kube.appendLog(ns('vision'), `${name}-0-0`, name, `RuntimeError: ${name} diverged`);
      kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
      kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
    }
    await eventually(async () => (await requeued()) >= names.length && true, 'the refused decisions requeued', 20_000);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);

    link.restore();
    await eventually(() => slack.messagesTo(ALICE.id).length === 3 && slack.messagesTo(BOB.id).length === 3, 'every owner told', 30_000);
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(3);
    expect(slack.messagesTo(BOB.id)).toHaveLength(3);
  }, 90_000);
});
