/**
 * Slack's published rate limits in the simulation, seen through the real @slack/web-api
 * WebClient the way it sees them from Slack: a 429 with Retry-After, thrown as
 * WebAPIRateLimitedError when rejectRateLimitedCalls is on, waited out and retried when off.
 */
import { ErrorCode, LogLevel, WebClient, WebClientEvent, type WebAPIRateLimitedError } from '@slack/web-api';
import { RateTiers, TIERS } from '../../src/sim/slack-tiers.js';
import { ALICE, BOB, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

describe('RateTiers (pure)', () => {
  it('lets a burst through, then answers with the seconds until the next call fits', () => {
    const tiers = new RateTiers();
    const t0 = 1_000_000;
    for (let i = 0; i < TIERS[3].burst; i++) expect(tiers.take('users.lookupByEmail', t0)).toBeUndefined();
    // Tier 3: 50 a minute, one every 1.2 s.
    expect(tiers.take('users.lookupByEmail', t0)).toBe(2);
    expect(tiers.take('users.lookupByEmail', t0 + 1_000)).toBe(1);
    expect(tiers.take('users.lookupByEmail', t0 + 1_200)).toBeUndefined();
    expect(tiers.take('users.lookupByEmail', t0 + 1_200)).toBe(2);
  });

  it('counts each method on its own and leaves unlisted methods alone', () => {
    const tiers = new RateTiers();
    for (let i = 0; i < TIERS[1].burst; i++) expect(tiers.take('apps.connections.open', 0)).toBeUndefined();
    expect(tiers.take('apps.connections.open', 0)).toBe(60);
    expect(tiers.take('users.info', 0)).toBeUndefined();
    for (let i = 0; i < 1000; i++) expect(tiers.take('not.a.listed.method', 0)).toBeUndefined();
  });

  it('never refills past the burst, however long the quiet', () => {
    const tiers = new RateTiers();
    tiers.take('views.publish', 0);
    const later = 3_600_000;
    for (let i = 0; i < TIERS[4].burst; i++) expect(tiers.take('views.publish', later)).toBeUndefined();
    expect(tiers.take('views.publish', later)).toBeDefined();
  });
});

describe('simulated Slack with rate tiers, through the real WebClient', () => {
  let slack: SlackSimulator;
  const client = (rejectRateLimitedCalls: boolean) =>
    new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR, rejectRateLimitedCalls, retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 10 } });

  afterEach(async () => {
    await slack.close();
  });

  it('is off unless asked for: a test of something else is never slowed by 429s', async () => {
    slack = await startFakeSlack();
    const web = client(true);
    for (let i = 0; i < TIERS[3].burst + 5; i++) await expect(web.users.lookupByEmail({ email: ALICE.email! })).resolves.toMatchObject({ ok: true });
    expect(slack.rateLimitedCount).toBe(0);
  });

  it('posts to a user ID into the app\'s DM with them (its D… id in the answer), counted against that one conversation\'s 1/s', async () => {
    slack = await startFakeSlack({ rateTiers: true });
    const web = client(true);
    const posted = await web.chat.postMessage({ channel: ALICE.id, text: 'train-1 failed' });
    expect(posted).toMatchObject({ ok: true, channel: slack.workspace.dmWith(ALICE.id).id });
    expect(posted.channel).toMatch(/^D/);
    // The same conversation named by its D… id within the second: the per-channel limit applies.
    const again = (await web.chat.postMessage({ channel: posted.channel!, text: 'again' }).catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(again.code).toBe(ErrorCode.RateLimitedError);
    // Another person's DM is another channel.
    await expect(web.chat.postMessage({ channel: BOB.id, text: 'train-2 failed' })).resolves.toMatchObject({ ok: true });
    // The D… id from the answer is what chat.update edits.
    await expect(web.chat.update({ channel: posted.channel!, ts: posted.ts!, text: 'train-1 and train-3 failed' })).resolves.toMatchObject({ ok: true });
    expect(slack.workspace.conversation(ALICE.id)).toEqual([expect.objectContaining({ text: 'train-1 and train-3 failed', edited: true })]);
    expect(slack.callsTo('conversations.open')).toEqual([]);
    await expect(web.chat.postMessage({ channel: 'UNOBODY', text: 'x' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } });
  });

  it('rejects the call past a Tier 3 burst with WebAPIRateLimitedError and its Retry-After (rejectRateLimitedCalls on)', async () => {
    slack = await startFakeSlack({ rateTiers: true });
    const web = client(true);
    for (let i = 0; i < TIERS[3].burst; i++) await web.users.lookupByEmail({ email: ALICE.email! });
    const err = (await web.users.lookupByEmail({ email: ALICE.email! }).catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(err.code).toBe(ErrorCode.RateLimitedError);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.retryAfter).toBeLessThanOrEqual(2);
    const last = slack.callsTo('users.lookupByEmail').at(-1)!;
    expect([last.status, last.response]).toEqual([429, { ok: false, error: 'ratelimited' }]);
    expect(slack.rateLimitedByMethod).toEqual({ 'users.lookupByEmail': 1 });
    // Another method has its own count.
    await expect(web.users.info({ user: ALICE.id })).resolves.toMatchObject({ ok: true });
  });

  it('answers a second post to one channel within a second with 429, which the client waits out and retries (rejectRateLimitedCalls off)', async () => {
    slack = await startFakeSlack({ rateTiers: true });
    const web = client(false);
    const waits: number[] = [];
    web.on(WebClientEvent.RATE_LIMITED, (retryAfter: number) => waits.push(retryAfter));
    await web.chat.postMessage({ channel: ALICE.id, text: 'first' });
    await expect(web.chat.postMessage({ channel: ALICE.id, text: 'second' })).resolves.toMatchObject({ ok: true });
    expect(waits).toEqual([1]);
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([200, 429, 200]);
    expect(slack.messagesTo(ALICE.id).map((c) => c.body.text)).toEqual(['first', 'second']);
    // Another channel is not held up by the first one's limit.
    await web.chat.postMessage({ channel: BOB.id, text: 'to bob' });
    expect(slack.rateLimitedCount).toBe(1);
  });

  it('can be switched off again, forgetting what it counted', async () => {
    slack = await startFakeSlack({ rateTiers: true });
    const web = client(true);
    for (let i = 0; i < TIERS[3].burst; i++) await web.conversations.open({ users: ALICE.id });
    await expect(web.conversations.open({ users: ALICE.id })).rejects.toMatchObject({ code: ErrorCode.RateLimitedError });
    slack.enforceRateTiers(false);
    await expect(web.conversations.open({ users: ALICE.id })).resolves.toMatchObject({ ok: true });
  });
});
