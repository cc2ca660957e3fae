import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { OwnerDirectory } from '../../src/notify/owners.js';
import { SlackSendError } from '../../src/notify/outbox.js';
import { SlackGateway } from '../../src/slack/client.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { ALICE, BOB, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

describe('owner directory', () => {
  let slack: SlackSimulator;
  let store: SqliteStore;
  let clock: Date;
  let owners: OwnerDirectory;

  beforeEach(async () => {
    slack = await startFakeSlack();
    store = new SqliteStore(join(mkdtempSync(join(tmpdir(), 'owners-')), 'bot.db'));
    clock = new Date('2026-11-29T10:00:00Z');
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true }));
    owners = new OwnerDirectory({ emailDomain: 'example.org', map: { bobby: BOB.email! } }, gateway, store, () => clock);
  });

  afterEach(async () => {
    await store.close();
    await slack.close();
  });

  const lookups = () => slack.calls.filter((c) => c.method === 'users.lookupByEmail').length;

  it("pauses every lookup for Slack's Retry-After after one 429, instead of asking again for each owner", async () => {
    slack.rateLimitNext('users.lookupByEmail', 1, 30);
    await expect(owners.slackUserFor('alice')).rejects.toMatchObject({ slackError: 'ratelimited', retryAfterMs: 30_000 });
    expect(lookups()).toBe(1);

    // Another owner inside the pause: refused here, with the time left, and Slack is not asked.
    clock = new Date(clock.getTime() + 10_000);
    const paused = await owners.slackUserFor('bobby').catch((err: unknown) => err);
    expect(paused).toBeInstanceOf(SlackSendError);
    expect(paused).toMatchObject({ slackError: 'ratelimited', retryAfterMs: 20_000 });
    expect(lookups()).toBe(1);

    // After Retry-After, lookups go to Slack again and their answers are cached.
    clock = new Date(clock.getTime() + 21_000);
    await expect(owners.slackUserFor('alice')).resolves.toBe(ALICE.id);
    await expect(owners.slackUserFor('bobby')).resolves.toBe(BOB.id);
    expect(lookups()).toBe(3);
  });

  it('asks Slack once when several ask about one person at the same time, and all share its 429', async () => {
    slack.rateLimitNext('users.lookupByEmail', 1, 30);
    const answers = await Promise.all([owners.slackUserFor('alice'), owners.slackUserFor('alice'), owners.refresh('alice')].map((p) => p.catch((err: unknown) => err)));
    expect(lookups()).toBe(1);
    for (const answer of answers) expect(answer).toMatchObject({ slackError: 'ratelimited' });
    // After the pause, one call again for two callers, and both get the answer.
    clock = new Date(clock.getTime() + 31_000);
    expect(await Promise.all([owners.slackUserFor('alice'), owners.slackUserFor('alice')])).toEqual([ALICE.id, ALICE.id]);
    expect(lookups()).toBe(2);
  });

  it('answers a cached owner during a pause without asking Slack', async () => {
    await expect(owners.slackUserFor('alice')).resolves.toBe(ALICE.id);
    slack.rateLimitNext('users.lookupByEmail', 1, 30);
    await expect(owners.slackUserFor('bobby')).rejects.toMatchObject({ slackError: 'ratelimited' });
    await expect(owners.slackUserFor('alice')).resolves.toBe(ALICE.id);
    expect(lookups()).toBe(2);
  });
});
