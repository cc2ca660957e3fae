/**
 * No Slack look-up on the failure path: owners are resolved to Slack users when their workloads
 * are first seen, and DMs are posted to the user ID (no conversations.open). Through the real
 * bot against the simulated Slack (with its rate tiers where they matter) and Kubernetes, with
 * Slack's calls counted at the simulator.
 */
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { OwnerPrefetcher } from '../../src/notify/owner-prefetch.js';
import { OwnerDirectory } from '../../src/notify/owners.js';
import { SlackGateway } from '../../src/slack/client.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { startFakeSlack, type SlackSimulator, type SlackUser } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { useSimulators } from '../helpers/sims.js';
import { allOutbox } from '../helpers/store.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const person = (i: number): SlackUser => ({ id: `U0P${i}`, name: `p${i}`, email: `p${i}@example.org`, real_name: `Person ${i}` });
const PEOPLE = Array.from({ length: 8 }, (_, i) => person(i));
const HOUR = 3_600_000;

function addWorkload(kube: FakeKube, name: string, owner: string, phase = 'Running'): void {
  kube.apply(workloadCr({ name, project: 'genai', owner, phase }));
  kube.apply(pod({ workload: name, project: 'genai', node: 'gpu-3' }));
}

function failWorkload(kube: FakeKube, name: string): void {
  kube.appendLog(ns('genai'), `${name}-0-0`, name, `RuntimeError: CUDA error: an illegal memory access was encountered (${name})`);
  kube.apply(pod({ workload: name, project: 'genai', node: 'gpu-3', exitCode: 1 }));
  kube.setPhase('TrainingWorkload', ns('genai'), name, 'Failed');
}

describe('owners resolved ahead of failures (real bot)', () => {
  const sims = useSimulators((kube, slack) => {
    kube.addNamespace(ns('genai'), { 'runai/queue': 'genai' });
    for (const p of PEOPLE) slack.addUser(p);
    slack.addChannel('C0OPS', 'runai-ops');
    slack.inviteBot('C0OPS');
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const lookups = () => slack.callsTo('users.lookupByEmail');
  const config = (extra: Record<string, any> = {}) => ({
    owners: { emailDomain: 'example.org', lookupsPerMinute: 600, ...extra },
    slack: { opsChannel: 'C0OPS' },
    alerts: { burstWindow: '5s', opsBurstThreshold: 2 },
  });
  const resolved = (b: TestBot, people: SlackUser[]) => async () => {
    for (const p of people) if ((await b.store.cachedSlackUser(p.email!))?.userId !== p.id) return false;
    return b.ownerPrefetch.settled;
  };

  it('looks each owner up once when their workloads are seen, so a burst of their failures calls neither users.lookupByEmail nor conversations.open', async () => {
    slack.enforceRateTiers(true);
    // Three workloads per owner: the relist queues owners, not workloads.
    for (const [i, p] of PEOPLE.entries()) for (let j = 0; j < 3; j++) addWorkload(kube, `job-${i}-${j}`, p.name);
    bot = await sims.startBot(config());
    await eventually(resolved(bot, PEOPLE), 'every owner resolved in the background', 30_000);
    expect(lookups().map((c) => c.body.email).sort()).toEqual(PEOPLE.map((p) => p.email).sort());

    const before = slack.calls.length;
    for (let i = 0; i < PEOPLE.length; i++) for (let j = 0; j < 3; j++) failWorkload(kube, `job-${i}-${j}`);
    await eventually(() => PEOPLE.every((p) => slack.messagesTo(p.id).length > 0), 'a DM for every owner', 30_000);
    await bot.notifier.flushBursts();
    await eventually(
      () => PEOPLE.every((p, i) => slack.workspace.conversation(p.id).some((m) => [0, 1, 2].every((j) => JSON.stringify(m).includes(`job-${i}-${j}`)))),
      'each owner\'s DM naming all three of their failures',
      30_000,
    );
    const during = slack.calls.slice(before);
    expect(during.filter((c) => c.method === 'users.lookupByEmail')).toEqual([]);
    expect(during.filter((c) => c.method === 'conversations.open')).toEqual([]);
    for (const p of PEOPLE) {
      // Posted to the user ID; Slack's answer names the DM, which the rewrite then edits.
      const [first] = slack.messagesTo(p.id);
      expect(first.body.channel).toBe(p.id);
      const dm = slack.workspace.dmWith(p.id).id;
      expect(first.response).toMatchObject({ ok: true, channel: dm });
      expect(during.some((c) => c.method === 'chat.update' && c.body.channel === dm)).toBe(true);
    }
  }, 120_000);

  it('uses a cached answer past its TTL at once, and refreshes it in the background, while lookups wait out a 429', async () => {
    const [alice] = PEOPLE;
    addWorkload(kube, 'train-a', alice.name);
    // The bot ran before: alice was looked up 25 hours ago (the TTL of a found user is 24 hours).
    const dir = tempDir();
    const seeded = new SqliteStore(join(dir, 'bot.db'));
    await seeded.cacheSlackUser(alice.email!, alice.id, new Date(Date.now() - 25 * HOUR));
    await seeded.close();
    // Slack refuses lookups for the next minute.
    slack.rateLimitNext('users.lookupByEmail', 100, 60);
    bot = await sims.startBot(config(), { dir });
    // The background refresh asked once, met the 429, and every lookup now waits a minute.
    await eventually(() => lookups().length === 1, 'the background refresh to ask Slack', 30_000);
    expect(lookups()[0].status).toBe(429);

    failWorkload(kube, 'train-a');
    // Well inside Slack's minute: the DM cannot have waited the 429 out.
    const [dm] = await eventually(() => slack.messagesTo(alice.id).length > 0 && slack.messagesTo(alice.id), 'alice\'s DM from the stale answer', 30_000);
    expect(JSON.stringify(dm.body)).toContain('train-a');
    // The DM did not wait for a lookup: none was made on the failure path.
    expect(lookups()).toHaveLength(1);
  }, 90_000);

  it('sends the alerts of owners already resolved while a 429 holds the lookup of a new owner, and that one\'s alert after it', async () => {
    const [alice, bob] = PEOPLE;
    addWorkload(kube, 'train-a', alice.name);
    addWorkload(kube, 'train-b', bob.name);
    const dir = tempDir();
    const seeded = new SqliteStore(join(dir, 'bot.db'));
    await seeded.cacheSlackUser(alice.email!, alice.id, new Date());
    await seeded.close();
    slack.rateLimitNext('users.lookupByEmail', 1, 3);
    // The pause Slack asks for (3 s) is kept on the bot's clock, which moves only when the test
    // moves it: alice's DM is sent inside the pause however long a loaded machine takes over it.
    let clock = new Date();
    bot = await sims.startBot(config(), { dir, now: () => clock });
    // bob's background lookup met the 429 (alice was cached, so she was never asked about).
    await eventually(() => lookups().length === 1, 'bob\'s background lookup', 30_000);
    expect(lookups()[0]).toMatchObject({ status: 429, body: { email: bob.email } });

    failWorkload(kube, 'train-a');
    failWorkload(kube, 'train-b');
    await eventually(() => slack.messagesTo(alice.id).length > 0, 'alice\'s DM', 30_000);
    // Sent inside the pause: no lookup since the 429, and bob's alert still waits for his.
    expect(lookups()).toHaveLength(1);
    expect(slack.messagesTo(bob.id)).toHaveLength(0);
    // bob is not lost: his alert goes once lookups may go again.
    clock = new Date(clock.getTime() + 4000);
    const [dm] = await eventually(() => slack.messagesTo(bob.id).length > 0 && slack.messagesTo(bob.id), 'bob\'s DM after the pause', 30_000);
    expect(JSON.stringify(dm.body)).toContain('train-b');
    expect(lookups().filter((c) => c.status === 200 && c.body.email === bob.email)).toHaveLength(1);
  }, 90_000);

  it('looks up at send time an owner the background has not reached yet', async () => {
    const [alice, bob] = PEOPLE;
    addWorkload(kube, 'train-a', alice.name);
    // One background lookup a minute: alice's takes the slot, bob waits in the queue.
    bot = await sims.startBot(config({ lookupsPerMinute: 1 }));
    await eventually(() => lookups().length === 1, 'alice\'s background lookup', 30_000);
    addWorkload(kube, 'train-b', bob.name, 'Failed');
    failWorkload(kube, 'train-b');
    const [dm] = await eventually(() => slack.messagesTo(bob.id).length > 0 && slack.messagesTo(bob.id), 'bob\'s DM', 30_000);
    expect(JSON.stringify(dm.body)).toContain('train-b');
    expect(lookups().map((c) => c.body.email)).toEqual([alice.email, bob.email]);
  }, 90_000);

  it('sends each owner\'s first alert before burst rewrites, stuck warnings and the operators\' digest', async () => {
    let clock = new Date();
    const [alice, bob, carol] = PEOPLE;
    addWorkload(kube, 'wait-c', carol.name, 'Pending');
    addWorkload(kube, 'train-a1', alice.name);
    addWorkload(kube, 'train-a2', alice.name);
    addWorkload(kube, 'train-b', bob.name);
    bot = await sims.startBot({ ...config(), alerts: { burstWindow: '5s', opsBurstThreshold: 2, pendingAfter: '30m' } }, { now: () => clock });
    await eventually(resolved(bot, [alice, bob, carol]), 'the owners resolved');
    // Everything queues while the outbox is stopped, in the order it was decided.
    await bot.outbox.stop();
    clock = new Date(clock.getTime() + 35 * 60_000);
    const queued = async () => JSON.stringify(await allOutbox(bot.store));
    bot.checkStuck();
    await eventually(async () => (await queued()).includes('wait-c'), 'carol\'s stuck warning queued');
    failWorkload(kube, 'train-a1');
    await eventually(async () => (await queued()).includes('train-a1'), 'alice\'s first alert queued');
    failWorkload(kube, 'train-a2');
    await eventually(async () => (await allOutbox(bot.store)).some((i) => i.kind === 'burst'), 'alice\'s second failure folded into her burst');
    failWorkload(kube, 'train-b');
    await eventually(async () => (await queued()).includes('train-b'), 'bob\'s first alert queued');
    await bot.notifier.flushBursts();
    await bot.settle();
    const kinds = (await allOutbox(bot.store)).map((i) => i.kind);
    // The operators' summary is queued once the burst reaches the threshold (stored, one per burst across replicas), yet sent last.
    expect(kinds).toEqual(['pending', 'failed', 'ops-burst', 'burst', 'failed']);

    const before = slack.calls.length;
    bot.outbox.start();
    await bot.outbox.flush();
    const sent = slack.calls.slice(before).filter((c) => c.status === 200);
    const describe = (c: (typeof sent)[number]) => `${c.method} ${c.method === 'chat.update' ? 'rewrite' : String(c.body.channel)}`;
    expect(sent.map(describe)).toEqual([
      `chat.postMessage ${alice.id}`,
      `chat.postMessage ${bob.id}`,
      'chat.update rewrite',
      `chat.postMessage ${carol.id}`,
      'chat.postMessage C0OPS',
    ]);
  });
});

describe('OwnerPrefetcher (real directory, SQLite and simulated Slack)', () => {
  let slack: SlackSimulator;
  let store: SqliteStore;
  let clock: Date;
  let prefetcher: OwnerPrefetcher;
  let present: Set<string>;

  beforeEach(async () => {
    slack = await startFakeSlack({ users: PEOPLE });
    store = new SqliteStore(join(tempDir(), 'bot.db'));
    clock = new Date('2026-11-30T10:00:00Z');
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true }));
    const owners = new OwnerDirectory({ emailDomain: 'example.org', map: { mapped: 'U0P7' } }, gateway, store, () => clock);
    present = new Set();
    prefetcher = new OwnerPrefetcher({ owners, presentOwners: () => present, log: captureLog('warn').log, now: () => clock, perMinute: 6000, maxQueued: 3 });
  });

  afterEach(async () => {
    await prefetcher.stop();
    await store.close();
    await slack.close();
  });

  const lookedUp = () => slack.callsTo('users.lookupByEmail').map((c) => String(c.body.email));

  it('holds at most maxQueued owners, each once however often seen, and takes the rest when seen again', async () => {
    for (let round = 0; round < 3; round++) for (const p of PEOPLE.slice(0, 5)) prefetcher.seen(p.name);
    expect(prefetcher.waiting).toBe(3);
    prefetcher.start();
    // Settled: the queue is empty and no owner is being checked, so no lookup is still to come.
    await eventually(() => prefetcher.settled, 'the three queued owners looked up', 15_000);
    expect(lookedUp()).toHaveLength(3);
    for (const p of PEOPLE.slice(0, 5)) prefetcher.seen(p.name);
    await eventually(() => prefetcher.settled, 'the other two, seen again', 15_000);
    expect(lookedUp().sort()).toEqual(PEOPLE.slice(0, 5).map((p) => p.email).sort());
    // An owner mapped to a Slack user ID needs no lookup.
    prefetcher.seen('mapped');
    expect(prefetcher.settled).toBe(false);
    await eventually(() => prefetcher.settled, 'the mapped owner checked', 15_000);
    expect(lookedUp()).toHaveLength(5);
  });

  it('refreshes owners still present before their answer lapses, and forgets those whose workloads are gone', async () => {
    const [a, b] = PEOPLE;
    prefetcher.seen(a.name);
    prefetcher.seen(b.name);
    prefetcher.start();
    await eventually(() => prefetcher.settled, 'both looked up', 15_000);
    expect(lookedUp().sort()).toEqual([a.email, b.email].sort());
    present = new Set([a.name]);
    // 20 hours on: past 80% of the 24-hour TTL, not past the TTL.
    clock = new Date(clock.getTime() + 20 * HOUR);
    prefetcher.sweep();
    // Settled, not merely asked: Slack sees the lookup before its answer is in the store.
    expect(prefetcher.settled).toBe(false);
    await eventually(() => prefetcher.settled, 'a looked up again', 15_000);
    expect(lookedUp()).toHaveLength(3);
    expect(lookedUp()[2]).toBe(a.email);
    expect((await store.cachedSlackUser(a.email!))?.lookedUpAt).toBe(clock.toISOString());
    // b is gone: not looked up again, even when the sweep runs later.
    clock = new Date(clock.getTime() + HOUR);
    prefetcher.sweep();
    prefetcher.seen(a.name);
    // Nothing queued by either (b forgotten, a's answer fresh): settled with no lookup to come.
    await eventually(() => prefetcher.settled, 'the sweep and the sighting checked', 15_000);
    expect(prefetcher.waiting).toBe(0);
    expect(lookedUp()).toHaveLength(3);
  });
});
