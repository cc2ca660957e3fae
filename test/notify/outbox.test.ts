import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { Outbox } from '../../src/notify/outbox.js';
import { OwnerDirectory } from '../../src/notify/owners.js';
import { deliveryFor, muteScope } from '../../src/notify/mutes.js';
import { SlackGateway } from '../../src/slack/client.js';
import { Store } from '../../src/store/sqlite.js';
import { ALICE, BOB, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { captureLog } from '../helpers/log.js';

const message = { text: 'resnet failed', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'resnet failed' } }] };

describe('outbox', () => {
  let slack: SlackSimulator;
  let store: Store;
  let clock: Date;
  let outbox: Outbox;
  const captured = captureLog();

  beforeEach(async () => {
    slack = await startFakeSlack();
    slack.addChannel('C0NLP', 'nlp');
    slack.addChannel('C0FALLBACK', 'runai-alerts');
    store = new Store(join(mkdtempSync(join(tmpdir(), 'outbox-')), 'bot.db'));
    clock = new Date('2026-11-29T10:00:00Z');
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true }));
    const owners = new OwnerDirectory({ emailDomain: 'example.org', map: { bobby: 'bob@other.org', root: 'U0ALICE' } }, gateway, store, () => clock);
    outbox = new Outbox({
      store,
      slack: gateway,
      owners,
      projectChannel: (p) => (p === 'nlp' ? 'C0NLP' : undefined),
      fallbackChannel: 'C0FALLBACK',
      delivery: (user, item) => deliveryFor(store, user, item, clock),
      log: captured.log,
      now: () => clock,
    });
  });

  afterEach(async () => {
    await outbox.stop();
    store.close();
    await slack.close();
  });

  const enqueue = (key: string, owner: string, project = 'vision') =>
    store.enqueue({ key, kind: 'failed', target: { type: 'owner', owner, project, workload: `runai-${project}/job` }, payload: message }, clock);

  it('direct-messages an owner found by email domain, and records it so it is never sent twice', async () => {
    expect(enqueue('wl:1:Failed', 'alice')).toBe(true);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(store.ledgerEntry('wl:1:Failed')).toMatchObject({ recipient: ALICE.id });
    expect(enqueue('wl:1:Failed', 'alice')).toBe(false);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('follows the explicit owner map, to a user ID or to another email', async () => {
    enqueue('wl:2:Failed', 'root');
    enqueue('wl:3:Failed', 'bobby');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });

  it("sends an unknown owner's alert to the project's channel, else the fallback, saying whose it is", async () => {
    enqueue('wl:4:Failed', 'mallory', 'nlp');
    enqueue('wl:5:Failed', 'mallory', 'vision');
    await outbox.flush();
    const [nlp] = slack.messagesTo('C0NLP');
    const [fallback] = slack.messagesTo('C0FALLBACK');
    expect(JSON.stringify(nlp.body.blocks)).toContain('Workload of *mallory*');
    expect(String(fallback.body.text)).toContain('[for mallory]');
    expect(slack.callsTo('users.lookupByEmail').map((c) => c.body.email)).toContain('mallory@example.org');
  });

  it('keeps a rate-limited message and sends it after Retry-After', async () => {
    slack.rateLimitNext('chat.postMessage', 1, 2);
    enqueue('wl:6:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(store.outboxDepth()).toBe(1);
    clock = new Date(clock.getTime() + 2500);
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(store.outboxDepth()).toBe(0);
  });

  it('survives a Slack outage: nothing is lost, everything is sent once Slack is back', async () => {
    slack.down(true);
    enqueue('wl:7:Failed', 'alice');
    enqueue('wl:8:Stopped', 'bobby');
    await outbox.flush();
    expect(store.outboxDepth()).toBe(2);
    slack.down(false);
    clock = new Date(clock.getTime() + 60_000);
    await outbox.flush();
    expect(store.outboxDepth()).toBe(0);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });

  it('falls back to the text alone when Slack refuses the blocks', async () => {
    slack.failNext('chat.postMessage', 'invalid_blocks');
    enqueue('wl:9:Failed', 'alice');
    await outbox.flush();
    const sent = slack.messagesTo(ALICE.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].body.blocks).toBeUndefined();
    expect(sent[0].body.text).toBe('resnet failed');
  });

  it("does not send what the recipient muted, and does not queue it again", async () => {
    store.mute(ALICE.id, muteScope.project('vision'), new Date(clock.getTime() + 86_400_000));
    enqueue('wl:10:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(store.wasSent('wl:10:Failed')).toBe(true);
  });

  it('holds a message during the recipient\'s quiet hours and sends it when they end', async () => {
    store.putSettings(ALICE.id, { quietHours: { from: '22:00', to: '07:00', timezone: 'UTC' } });
    clock = new Date('2026-11-29T23:30:00Z');
    enqueue('wl:11:Failed', 'alice');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(store.allOutbox()[0]).toMatchObject({ attempts: 0, nextAttemptAt: '2026-11-30T07:00:00.000Z' });
    clock = new Date('2026-11-30T07:00:01Z');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('sends Completed notices only to people who opted in', async () => {
    const completed = (key: string, owner: string) =>
      store.enqueue({ key, kind: 'completed', target: { type: 'owner', owner, project: 'vision' }, payload: message }, clock);
    store.putSettings(BOB.id, { completed: true });
    completed('wl:12:Completed', 'alice');
    completed('wl:13:Completed', 'bobby');
    await outbox.flush();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    expect(slack.messagesTo(BOB.id)).toHaveLength(1);
  });
});
