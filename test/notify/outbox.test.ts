import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { DEFAULT_RETENTION_MS, Outbox } from '../../src/notify/outbox.js';
import { DeliveryPlanner } from '../../src/notify/planner.js';
import { RefusedChannels } from '../../src/notify/refused-channels.js';

import { OwnerDirectory } from '../../src/notify/owners.js';
import { muteScope, muteTarget, parseWorkloadScope } from '../../src/notify/mutes.js';
import { SlackGateway } from '../../src/slack/client.js';
import { SqliteStore, sqliteHandleForTests } from '../../src/store/sqlite/index.js';
import type { SlackMessage } from '../../src/messages/blocks.js';
import { ALICE, BOB, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { captureLog } from '../helpers/log.js';
import { allOutbox } from '../helpers/store.js';

const message: SlackMessage = { text: 'resnet failed', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'resnet failed' } }] };

describe('outbox', () => {
  let slack: SlackSimulator;
  let store: SqliteStore;
  let clock: Date;
  let outbox: Outbox;
  let captured = captureLog();
  let storeErrors: string[];
  let slackErrors: string[];
  let alarms: string[];

  beforeEach(async () => {
    slack = await startFakeSlack();
    slack.addChannel('C0NLP', 'nlp');
    slack.inviteBot('C0NLP');
    slack.addChannel('C0FALLBACK', 'runai-alerts');
    slack.inviteBot('C0FALLBACK');
    store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'outbox-')), 'bot.db'));
    captured = captureLog();
    storeErrors = [];
    slackErrors = [];
    alarms = [];
    clock = new Date('2026-11-29T10:00:00Z');
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true }));
    const owners = new OwnerDirectory({ emailDomain: 'example.org', map: { bobby: 'bob@other.org', root: 'U0ALICE' } }, gateway, store, () => clock);
    outbox = new Outbox({
      store,
      slack: gateway,
      planner: new DeliveryPlanner({ owners, store, projectChannel: (p) => (p === 'nlp' ? 'C0NLP' : undefined), fallbackChannel: 'C0FALLBACK', now: () => clock }),
      refused: new RefusedChannels({ store, log: captured.log, now: () => clock, retentionMs: DEFAULT_RETENTION_MS, queued: () => undefined }),
      log: captured.log,
      now: () => clock,
      onStoreError: (op) => storeErrors.push(op),
      onError: (kind) => slackErrors.push(kind),
      alarm: (line) => alarms.push(line),
    });
  });

  afterEach(async () => {
    await outbox.stop();
    await store.close();
    await slack.close();
  });

  const enqueue = (key: string, owner: string, project = 'vision') =>
    store.enqueue({ key, kind: 'failed', target: { type: 'owner', owner, project, workload: `runai-${project}/job` }, payload: message }, clock);

  it('plans at send time an owner\'s message queued without a plan (an older version\'s row): one nobody wants is recorded as skipped, not sent', async () => {
    await store.enqueue({ key: 'wl:9:Completed', kind: 'completed', target: { type: 'owner', owner: 'alice', project: 'vision', workload: 'runai-vision/job' }, payload: message }, clock);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(await store.ledgerEntry('wl:9:Completed')).toMatchObject({ recipient: 'skipped:not-opted-in' });
  });

  it('follows the stored plan: posts where it says, not where the owner would be looked up now', async () => {
    const plan = { destinations: [{ channel: 'C0NLP', via: 'project' as const, note: { kind: 'no-slack-user' as const, owner: 'alice' } }], at: clock.toISOString() };
    await store.enqueue({ key: 'wl:8:Failed', kind: 'failed', target: { type: 'owner', owner: 'alice', project: 'nlp', workload: 'runai-nlp/job', plan }, payload: message }, clock);
    await outbox.flush();
    expect(slack.messagesTo('C0NLP')).toHaveLength(1);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(slack.callsTo('users.lookupByEmail')).toHaveLength(0);
  });

  it('direct-messages an owner found by email domain, and records it so it is never sent twice', async () => {
    expect(await enqueue('wl:1:Failed', 'alice')).toBe(true);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await store.ledgerEntry('wl:1:Failed')).toMatchObject({ recipient: ALICE.id });
    expect(await enqueue('wl:1:Failed', 'alice')).toBe(false);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('follows the explicit owner map, to a user ID or to another email', async () => {
    await enqueue('wl:2:Failed', 'root');
    await enqueue('wl:3:Failed', 'bobby');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });

  it("sends an unknown owner's alert to the project's channel, else the fallback, saying whose it is", async () => {
    await enqueue('wl:4:Failed', 'mallory', 'nlp');
    await enqueue('wl:5:Failed', 'mallory', 'vision');
    await outbox.flush();
    const [nlp] = slack.messagesTo('C0NLP');
    const [fallback] = slack.messagesTo('C0FALLBACK');
    expect(JSON.stringify(nlp.body.blocks)).toContain('Workload of *mallory*');
    expect(String(fallback.body.text)).toContain('[for mallory]');
    expect(slack.callsTo('users.lookupByEmail').map((c) => c.body.email)).toContain('mallory@example.org');
  });

  it('keeps a rate-limited message and sends it after Retry-After', async () => {
    slack.rateLimitNext('chat.postMessage', 1, 2);
    await enqueue('wl:6:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(await store.outboxDepth()).toBe(1);
    clock = new Date(clock.getTime() + 2500);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await store.outboxDepth()).toBe(0);
  });

  it('takes a 429 in a channel not posted to within the second as the workspace\'s limit: every post waits, not one refused call per item', async () => {
    await enqueue('wl:20:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    // alice's DM was posted to just now: a 429 there is her channel's own 1/s, and bob's DM still goes.
    slack.rateLimitNext('chat.postMessage', 1, 2);
    await enqueue('wl:21:Failed', 'alice');
    await enqueue('wl:22:Failed', 'bobby');
    await outbox.flush();
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    clock = new Date(clock.getTime() + 5000);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);

    // Five seconds on, nobody was posted to within the second: a 429 is the workspace's, and holds every post.
    clock = new Date(clock.getTime() + 5000);
    slack.rateLimitNext('chat.postMessage', 1, 2);
    await enqueue('wl:23:Failed', 'alice');
    await enqueue('wl:24:Failed', 'bobby');
    await enqueue('wl:25:Failed', 'root');
    const before = slack.callsTo('chat.postMessage').length;
    await outbox.flush();
    expect(slack.callsTo('chat.postMessage').length - before).toBe(1);
    expect(await store.outboxDepth()).toBe(3);
    clock = new Date(clock.getTime() + 2500);
    await outbox.flush();
    expect(await store.outboxDepth()).toBe(0);
    expect(slack.callsTo('chat.postMessage').length - before).toBe(4);
  });

  it('survives a Slack outage: nothing is lost, everything is sent once Slack is back', async () => {
    slack.down(true);
    await enqueue('wl:7:Failed', 'alice');
    await enqueue('wl:8:Stopped', 'bobby');
    await outbox.flush();
    expect(await store.outboxDepth()).toBe(2);
    slack.down(false);
    clock = new Date(clock.getTime() + 60_000);
    await outbox.flush();
    expect(await store.outboxDepth()).toBe(0);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });

  it('falls back to the text alone when Slack refuses the blocks', async () => {
    slack.failNext('chat.postMessage', 'invalid_blocks');
    await enqueue('wl:9:Failed', 'alice');
    await outbox.flush();
    const sent = slack.messagesTo(ALICE.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].body.blocks).toBeUndefined();
    expect(sent[0].body.text).toBe('resnet failed');
  });

  it("does not send what the recipient muted, and does not queue it again", async () => {
    await store.mute(ALICE.id, muteScope.project('vision'), new Date(clock.getTime() + 86_400_000));
    await enqueue('wl:10:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(await store.wasSent('wl:10:Failed')).toBe(true);
  });

  it('mutes a workload in its own cluster only; an unnamed cluster\'s mute keeps its old scope', async () => {
    await store.mute(ALICE.id, muteScope.workload('runai-vision', 'train-1', 'gpu-east'), undefined);
    const about = (cluster?: string) =>
      store.enqueue({ key: `wl:${cluster ?? 'x'}/1:Failed`, kind: 'failed', target: { type: 'owner', owner: 'alice', project: 'vision', workload: muteTarget('runai-vision', 'train-1', cluster) }, payload: message }, clock);
    await about('gpu-east');
    await about('gpu-west');
    await about(undefined);
    await outbox.flush();
    // Only gpu-east's is silenced; the same name in gpu-west and in the unnamed cluster still arrive.
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    expect(await store.wasSent('wl:gpu-east/1:Failed')).toBe(true);
    expect(muteScope.workload('runai-vision', 'train-1')).toBe('workload:runai-vision/train-1');
    expect(parseWorkloadScope('workload:gpu-east/runai-vision/train-1')).toEqual({ cluster: 'gpu-east', namespace: 'runai-vision', name: 'train-1' });
    expect(parseWorkloadScope('workload:runai-vision/train-1')).toEqual({ namespace: 'runai-vision', name: 'train-1' });
    expect(parseWorkloadScope('project:vision')).toBeUndefined();
  });

  it('holds a message during the recipient\'s quiet hours and sends it when they end', async () => {
    await store.putSettings(ALICE.id, { quietHours: { from: '22:00', to: '07:00', timezone: 'UTC' } });
    clock = new Date('2026-11-29T23:30:00Z');
    await enqueue('wl:11:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect((await allOutbox(store))[0]).toMatchObject({ attempts: 0, nextAttemptAt: '2026-11-30T07:00:00.000Z' });
    clock = new Date('2026-11-30T07:00:01Z');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('sends Completed notices only to people who opted in', async () => {
    const completed = (key: string, owner: string) =>
      store.enqueue({ key, kind: 'completed', target: { type: 'owner', owner, project: 'vision' }, payload: message }, clock);
    await store.putSettings(BOB.id, { completed: true });
    await completed('wl:12:Completed', 'alice');
    await completed('wl:13:Completed', 'bobby');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });

  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  it('keeps what Slack accepted when the store cannot record it, and never sends it again', async () => {
    await enqueue('wl:20:Failed', 'alice');
    // A real SQLite error on the write that moves the item to the ledger (as SQLITE_FULL would be).
    sqliteHandleForTests(store).exec("CREATE TRIGGER no_delete BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    for (let i = 0; i < 5; i++) {
      await outbox.flush();
      later(120_000);
    }
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await store.wasSent('wl:20:Failed')).toBe(false);
    expect(outbox.storeHealthy()).toBe(false);
    expect(outbox.lastStoreError()).toMatchObject({ op: 'completeOutbox', path: store.path });
    expect(storeErrors).toContain('completeOutbox');
    const failure = captured.entries.find((e) => e.msg === 'store call failed; nothing is sent until it works again');
    expect(failure).toMatchObject({ store: store.path });

    sqliteHandleForTests(store).exec('DROP TRIGGER no_delete');
    later(120_000);
    await outbox.flush();
    expect(outbox.storeHealthy()).toBe(true);
    expect(await store.ledgerEntry('wl:20:Failed')).toMatchObject({ recipient: ALICE.id });
    expect(await store.outboxDepth()).toBe(0);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('survives a store error in its error path (Slack down, the retry cannot be written) and sends once both are back', async () => {
    await enqueue('wl:21:Failed', 'alice');
    slack.down(true);
    // The retry's write fails (it sets attempts); the claim before the send (claimed_by) still works.
    sqliteHandleForTests(store).exec("CREATE TRIGGER no_update BEFORE UPDATE OF attempts ON outbox BEGIN SELECT RAISE(ABORT, 'attempt to write a readonly database'); END");
    await expect(outbox.flush()).resolves.toBeUndefined();
    expect(storeErrors).toEqual(['retryOutboxLater']);
    expect(outbox.storeHealthy()).toBe(false);
    // Backing off: the next pass does not hammer Slack or the store.
    const calls = slack.calls.length;
    await outbox.flush();
    expect(slack.calls.length).toBe(calls);

    sqliteHandleForTests(store).exec('DROP TRIGGER no_update');
    slack.down(false);
    later(60_000);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await store.wasSent('wl:21:Failed')).toBe(true);
    expect(outbox.storeHealthy()).toBe(true);
  });

  it('holds the whole queue while Slack rejects the token, says so once, and sends everything once it is fixed', async () => {
    await enqueue('wl:22:Failed', 'alice');
    await enqueue('wl:23:Failed', 'bobby');
    await enqueue('wl:24:Failed', 'mallory', 'nlp');
    slack.revokeBotToken();
    for (let i = 0; i < 30; i++) {
      await outbox.flush();
      later(61_000);
    }
    expect(await store.outboxDepth()).toBe(3);
    expect(slack.callsTo('chat.postMessage').filter((c) => c.status === 200 && (c.response as { ok?: boolean }).ok)).toHaveLength(0);
    expect(outbox.heldForAuth()).toBe('token_revoked');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toContain('SLACK_BOT_TOKEN was rejected: token_revoked');
    expect(alarms[0]).toContain('reinstall the app');
    expect(slackErrors.filter((k) => k === 'auth').length).toBeGreaterThanOrEqual(30);
    expect(slackErrors).not.toContain('permanent');
    // Held means held: about one try a minute, not one per item per pass.
    expect(slack.calls.length).toBeLessThanOrEqual(31);

    slack.revokeBotToken(false);
    later(61_000);
    await outbox.flush();
    expect(await store.outboxDepth()).toBe(0);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
    expect(slack.messagesTo('C0NLP')).toHaveLength(1);
    expect(outbox.heldForAuth()).toBeUndefined();
  });

  it('retries an owed message for as long as slack.outboxRetention, however many attempts, then drops it with a log line', async () => {
    slack.down(true);
    await enqueue('wl:25:Failed', 'alice');
    // 45 attempts over five and a half days: more than the old cap of 40, less than the 7-day retention.
    for (let i = 0; i < 45; i++) {
      await outbox.flush();
      later(3 * 3_600_000);
    }
    expect((await allOutbox(store))[0].attempts).toBeGreaterThanOrEqual(45);
    expect(await store.outboxDepth()).toBe(1);
    expect(slackErrors).not.toContain('expired');

    later(2 * 86_400_000);
    await outbox.flush();
    expect(await store.outboxDepth()).toBe(0);
    expect(slackErrors).toContain('expired');
    const dropped = captured.entries.find((e) => String(e.msg).includes('slack.outboxRetention'));
    expect(dropped).toMatchObject({ keys: ['wl:25:Failed'] });
  });
});

/**
 * The sender's claims and fence (README, "High availability"): two outboxes over one store are two
 * replicas' senders. Only the one whose turn (send epoch) is the store's records a send, and no
 * sender calls Slack once its lease time (the permit, a monotonic deadline) has run out.
 */
describe('outbox: claims and fencing', () => {
  let slack: SlackSimulator;
  let store: SqliteStore;
  let clock: Date;
  let captured = captureLog();
  const outboxes: Outbox[] = [];

  beforeEach(async () => {
    slack = await startFakeSlack();
    store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'outbox-fence-')), 'bot.db'));
    captured = captureLog();
    clock = new Date('2026-11-29T10:00:00Z');
  });

  afterEach(async () => {
    for (const o of outboxes.splice(0)) await o.stop();
    await store.close();
    await slack.close();
  });

  /**
   * One replica's sender; `beforePost` runs as it is about to post, `afterPost` once Slack
   * accepted a post, before the store records it.
   */
  const sender = (identity: string, hooks: { beforePost?: () => Promise<void>; afterPost?: () => Promise<void> } = {}) => {
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true }));
    const owners = new OwnerDirectory({ emailDomain: 'example.org', map: {} }, gateway, store, () => clock);
    const post: typeof gateway.post = async (channel, m) => {
      await hooks.beforePost?.();
      const r = await gateway.post(channel, m);
      await hooks.afterPost?.();
      return r;
    };
    const outbox = new Outbox({
      store,
      slack: { post, update: (c, ts, m) => gateway.update(c, ts, m), reply: (c, ts, m) => gateway.reply(c, ts, m) },
      planner: new DeliveryPlanner({ owners, store, projectChannel: () => undefined, now: () => clock }),
      refused: new RefusedChannels({ store, log: captured.log, now: () => clock, retentionMs: DEFAULT_RETENTION_MS, queued: () => undefined }),
      log: captured.log.child({ identity }),
      now: () => clock,
      identity,
    });
    outboxes.push(outbox);
    return outbox;
  };
  const enqueue = (key: string) => store.enqueue({ key, kind: 'failed', target: { type: 'user', user: ALICE.id }, payload: message }, clock);
  const superseded = () => captured.entries.filter((e) => String(e.msg).startsWith('this replica stops sending'));

  it('calls Slack only with lease time left: a sender whose permit ran out (frozen, then woken) sends nothing and leaves the item queued', async () => {
    let left = 5_000;
    const outbox = sender('replica-a');
    outbox.start(() => left);
    await enqueue('wl:1:Failed');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);

    left = 0;
    await enqueue('wl:2:Failed');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await store.isQueued('wl:2:Failed')).toBe(true);
    expect(superseded()).toHaveLength(1);
    // It stays aside until leadership starts it again, with time left.
    left = 5_000;
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    outbox.start(() => left);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    expect(await store.outboxDepth()).toBe(0);
  });

  it('stops when another replica begins sending: the stale sender records nothing and sends nothing more; the new one sends what is owed once', async () => {
    const old = sender('replica-a');
    await enqueue('wl:1:Failed');
    await old.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);

    const next = sender('replica-b');
    await next.flush();
    await enqueue('wl:2:Failed');
    await old.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(superseded()).toHaveLength(1);
    await next.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    expect(await store.ledgerEntry('wl:2:Failed')).toMatchObject({ recipient: ALICE.id });
  });

  it('refuses the record of a send accepted just as another replica took over: one duplicate for that fault, then the old sender is silent', async () => {
    let next: Outbox | undefined;
    // Slack accepts the old sender's post; before it records it, the other replica starts its turn.
    const old = sender('replica-a', {
      afterPost: async () => {
        if (!next) {
          next = sender('replica-b');
          await next.flush();
        }
      },
    });
    await enqueue('wl:1:Failed');
    await enqueue('wl:2:Failed');
    await old.flush();
    // The old sender's record was refused (not kept to write back) and it sent nothing after it.
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(await store.wasSent('wl:1:Failed')).toBe(false);
    expect(old.storeHealthy()).toBe(true);
    expect(superseded()).toHaveLength(1);
    // The new sender leaves what the old one claimed until those claims end (claimMs, 10 s here).
    await next!.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    clock = new Date(clock.getTime() + 10_000);
    await next!.flush();
    expect(await store.outboxDepth()).toBe(0);
    // wl:1 twice (the one duplicate this fault allows), wl:2 once.
    expect(slack.messagesTo(ALICE.id)).toHaveLength(3);
    expect(await store.wasSent('wl:2:Failed')).toBe(true);
  });
  it('refuses a deposed sender\'s reschedule as it refuses its completion: it neither re-times nor counts what the new sender owns, and stops', async () => {
    let next: Outbox | undefined;
    // The old sender is about to post; the other replica starts its turn, and Slack's edge answers the post with a 500.
    const old = sender('replica-a', {
      beforePost: async () => {
        if (next) return;
        next = sender('replica-b');
        await next.flush();
        slack.failNextHttp('chat.postMessage', 500);
      },
    });
    await enqueue('wl:1:Failed');
    await enqueue('wl:2:Failed');
    const queuedAt = clock.toISOString();
    await old.flush();
    // Its retryOutboxLater was refused, so it stopped there: wl:2 was not posted by it either.
    expect(superseded()).toHaveLength(1);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(await store.queuedItem('wl:1:Failed')).toMatchObject({ attempts: 0, nextAttemptAt: queuedAt, lastError: undefined });
    expect(old.storeHealthy()).toBe(true);
    // Once the old claims end, the new sender sends each once.
    clock = new Date(clock.getTime() + 10_000);
    await next!.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    expect(await store.outboxDepth()).toBe(0);
  });
});
