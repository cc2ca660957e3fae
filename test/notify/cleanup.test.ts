import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { GUIDE, SAFE_RECOVERY } from '../../src/lifecycle/states.js';
import { cleanupKey } from '../../src/keys.js';
import { CleanupNudger, staleWorkloadsByOwner } from '../../src/notify/cleanup.js';
import { DEFAULT_RETENTION_MS, Outbox } from '../../src/notify/outbox.js';
import { DeliveryPlanner } from '../../src/notify/planner.js';
import { RefusedChannels } from '../../src/notify/refused-channels.js';

import { OwnerDirectory } from '../../src/notify/owners.js';
import { buildCleanupDigest, CLEANUP_LIST_MAX, describeDuration, NEVER_DELETES } from '../../src/messages/cleanup.js';
import { SlackGateway } from '../../src/slack/client.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import type { StoredWorkload } from '../../src/store/port.js';
import { ALICE, BOB, messageViolation, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, workloadCr } from '../helpers/workloads.js';
import type { FakeKube } from '../fakes/kube-apiserver.js';
import { captureLog } from '../helpers/log.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-30T09:00:00Z');
const THREE_DAYS = 3 * DAY;

let uid = 0;
function stored(name: string, owner: string | undefined, state: string, daysAgo: number, extra: Partial<StoredWorkload> = {}): StoredWorkload {
  const project = extra.project ?? 'vision';
  return {
    uid: `uid-${++uid}`,
    namespace: `runai-${project}`,
    name,
    project,
    owner,
    kind: 'TrainingWorkload',
    state,
    stateSince: new Date(NOW.getTime() - daysAgo * DAY).toISOString(),
    snapshot: '{}',
    ...extra,
  };
}

/** Alice has three stale workloads among others that must not be listed; Bob has one. */
function cluster(): StoredWorkload[] {
  return [
    stored('resnet-failed', 'alice', 'Failed', 5),
    stored('bert-done', 'alice', 'Completed', 4, { project: 'nlp' }),
    stored('old-notebook', 'alice', 'Stopped', 10),
    stored('fresh-failure', 'alice', 'Failed', 1),
    stored('exactly-three-days', 'alice', 'Completed', 3),
    stored('long-runner', 'alice', 'Running', 20),
    stored('stuck', 'alice', 'Pending', 20),
    stored('already-deleted', 'alice', 'Failed', 10, { deletedAt: new Date(NOW.getTime() - DAY).toISOString() }),
    stored('bobs-job', 'bob', 'Completed', 7),
    stored('nobodys', undefined, 'Failed', 7),
  ];
}

describe('which workloads are stale', () => {
  it('lists exactly the Completed, Failed and Stopped workloads settled for longer than the threshold, per owner, oldest first', () => {
    const byOwner = staleWorkloadsByOwner(cluster(), NOW, THREE_DAYS);
    expect([...byOwner.keys()].sort()).toEqual(['alice', 'bob']);
    expect(byOwner.get('alice')!.map((w) => w.name)).toEqual(['old-notebook', 'resnet-failed', 'bert-done']);
    expect(byOwner.get('bob')!.map((w) => w.name)).toEqual(['bobs-job']);
  });
});

describe('the cleanup digest', () => {
  it("lists each workload with its project, state and since when, and quotes the guide's advice", () => {
    const [stale] = staleWorkloadsByOwner(cluster(), NOW, THREE_DAYS).values();
    const message = buildCleanupDigest({ workloads: stale, afterMs: THREE_DAYS });
    expect(messageViolation(message)).toBeUndefined();
    const body = JSON.stringify(message.blocks);
    expect(body).toContain('3 of your workloads have sat Completed, Failed or Stopped for more than 3 days');
    const since = Math.floor(Date.parse(stale[0].stateSince) / 1000);
    expect(body).toContain(`• *old-notebook* in *vision*: Stopped since <!date^${since}^{date_short_pretty}|2026-11-20 UTC>`);
    expect(body).toContain('• *bert-done* in *nlp*: Completed since');
    for (const advice of [GUIDE.Completed.nextAction, SAFE_RECOVERY.cleanup, NEVER_DELETES]) expect(body).toContain(advice);
    expect(message.text).toContain('old-notebook, resnet-failed, bert-done');
  });

  it('lists at most 40 and counts the rest, staying inside Block Kit limits with long names', () => {
    const many = Array.from({ length: 45 }, (_, i) => stored(`${'very-long-workload-name-'.repeat(10)}${i}`, 'alice', 'Failed', 10 + i));
    const message = buildCleanupDigest({ workloads: many, afterMs: THREE_DAYS });
    expect(messageViolation(message)).toBeUndefined();
    const body = JSON.stringify(message.blocks);
    expect(body.match(/• \*/g)).toHaveLength(CLEANUP_LIST_MAX);
    expect(body).toContain('…and 5 more.');
  });

  it('escapes names from the cluster', () => {
    const message = buildCleanupDigest({ workloads: [stored('<!channel>', 'alice', 'Failed', 10)], afterMs: THREE_DAYS });
    expect(JSON.stringify(message)).not.toContain('<!channel>');
  });

  it('says the threshold as it was configured', () => {
    expect([describeDuration(THREE_DAYS), describeDuration(DAY), describeDuration(36 * 3_600_000), describeDuration(90 * 60_000)]).toEqual([
      '3 days', '1 day', '36 hours', '90 minutes',
    ]);
  });
});

describe('cleanup nudges', () => {
  let slack: SlackSimulator;
  let store: SqliteStore;
  let outbox: Outbox;
  let path: string;
  let clock: Date;
  const captured = captureLog();

  beforeEach(async () => {
    slack = await startFakeSlack();
    path = join(tempDir('cleanup-'), 'bot.db');
    store = new SqliteStore(path);
    for (const w of cluster()) await store.putWorkload(w);
    clock = NOW;
    outbox = outboxFor(store);
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
    await slack.close();
  });

  function outboxFor(s: SqliteStore): Outbox {
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }));
    return new Outbox({
      store: s,
      slack: gateway,
      planner: new DeliveryPlanner({ owners: new OwnerDirectory({ emailDomain: 'example.org', map: { bob: 'bob@other.org' } }, gateway, s, () => clock), store: s, projectChannel: () => undefined, now: () => clock }),
      refused: new RefusedChannels({ store: s, log: captured.log, now: () => clock, retentionMs: DEFAULT_RETENTION_MS, queued: () => undefined }),
      log: captured.log,
      now: () => clock,
    });
  }

  const nudger = (s = store, o = outbox, cron = '0 9 * * 1') =>
    new CleanupNudger({ store: s, afterMs: THREE_DAYS, cron, timezone: 'UTC', log: captured.log, now: () => clock, queued: () => o.kick() });

  it('sends each owner one message listing their stale workloads', async () => {
    expect(await nudger().runOnce(clock)).toBe(2);
    await outbox.flush();
    const [toAlice, ...moreToAlice] = slack.messagesTo(ALICE.id);
    const [toBob, ...moreToBob] = slack.messagesTo(BOB.id);
    expect(moreToAlice).toEqual([]);
    expect(moreToBob).toEqual([]);
    const alice = JSON.stringify(toAlice.body.blocks);
    for (const name of ['old-notebook', 'resnet-failed', 'bert-done']) expect(alice).toContain(`*${name}*`);
    for (const name of ['fresh-failure', 'exactly-three-days', 'long-runner', 'stuck', 'already-deleted', 'bobs-job', 'nobodys']) expect(alice).not.toContain(name);
    expect(JSON.stringify(toBob.body.blocks)).toContain('*bobs-job*');
    expect(await store.wasSent(cleanupKey('alice', clock))).toBe(true);
  });

  it('does not send again on a second run the same day, even after a restart; the next run sends again', async () => {
    await nudger().runOnce(clock);
    await outbox.flush();
    clock = new Date(NOW.getTime() + 6 * 3_600_000);
    expect(await nudger().runOnce(clock)).toBe(0);
    await outbox.stop();
    await store.close();
    store = new SqliteStore(path);
    outbox = outboxFor(store);
    expect(await nudger(store, outbox).runOnce(clock)).toBe(0);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);

    clock = new Date(NOW.getTime() + 7 * DAY);
    expect(await nudger(store, outbox).runOnce(clock)).toBe(2);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
  });

  it('schedules the runs with cleanup.cron', () => {
    const n = nudger();
    n.start();
    try {
      const next = n.nextRun()!;
      expect(next.getUTCDay()).toBe(1);
      expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([9, 0]);
      expect(next.getTime()).toBeGreaterThan(Date.now());
    } finally {
      n.stop();
    }
    expect(n.nextRun()).toBeUndefined();
  });
});

describe('cleanup nudges through the bot', () => {
  const sims = useSimulators();
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  it("nudges the owner once about what has sat for days, and not about what is recent or running", async () => {
    let clock = new Date();
    kube.apply(workloadCr({ name: 'old-done', project: 'vision', owner: 'alice', phase: 'Completed' }));
    kube.apply(workloadCr({ name: 'still-training', project: 'vision', owner: 'alice', phase: 'Running' }));
    kube.apply(workloadCr({ name: 'late-failure', project: 'vision', owner: 'alice', phase: 'Running' }));
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' } }, { now: () => clock });

    clock = new Date(clock.getTime() + 2 * DAY);
    kube.setPhase('TrainingWorkload', ns('vision'), 'late-failure', 'Failed');
    await eventually(async () => (await bot!.store.allWorkloads()).find((w) => w.name === 'late-failure' && w.state === 'Failed'), 'the failure seen');
    await bot.settle();

    clock = new Date(clock.getTime() + 2 * DAY);
    expect(await bot.cleanup.runOnce(clock)).toBe(1);
    expect(await bot.cleanup.runOnce(clock)).toBe(0);
    await bot.settle();
    const nudges = slack.messagesTo(ALICE.id).filter((m) => JSON.stringify(m.body.blocks).includes('Workloads to clean up'));
    expect(nudges).toHaveLength(1);
    const body = JSON.stringify(nudges[0].body.blocks);
    expect(body).toContain('*old-done*');
    expect(body).not.toContain('still-training');
    expect(body).not.toContain('late-failure');
  });
});
