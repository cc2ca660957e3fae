/**
 * The simulated Slack answers what access decisions read: conversations.info's privacy and
 * sharing flags, users.info's guest and foreign-team fields, and, as Slack does, hides a
 * private channel the bot is not in (channel_not_found) from both conversations.info and
 * conversations.members.
 */
import { WebClient } from '@slack/web-api';
import { ALICE, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

describe('simulated Slack: channel and user facts', () => {
  let slack: SlackSimulator;
  let client: WebClient;
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(() => slack.close());

  it('describes a public, a private and a Slack Connect channel', async () => {
    const bot = slack.workspace.botUserId;
    slack.addChannel('C0PUB', 'general', [ALICE.id]);
    slack.addChannel('C0PRIV', 'vision', [ALICE.id, bot], { is_private: true });
    slack.addChannel('C0EXT', 'partner', [ALICE.id, bot], { is_private: true, is_ext_shared: true });
    const info = async (channel: string) => (await client.conversations.info({ channel })).channel;
    expect(await info('C0PUB')).toMatchObject({ id: 'C0PUB', is_channel: true, is_private: false, is_shared: false, is_ext_shared: false, is_member: false });
    expect(await info('C0PRIV')).toMatchObject({ is_channel: false, is_private: true, is_shared: false, is_org_shared: false, is_pending_ext_shared: false, is_member: true });
    // Slack sets is_shared whenever a channel is shared at all.
    expect(await info('C0EXT')).toMatchObject({ is_private: true, is_shared: true, is_ext_shared: true });
  });

  it('answers channel_not_found for a private channel the bot is not in', async () => {
    slack.addChannel('C0HIDDEN', 'secret', [ALICE.id], { is_private: true });
    await expect(client.conversations.info({ channel: 'C0HIDDEN' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } });
    await expect(client.conversations.members({ channel: 'C0HIDDEN' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } });
  });

  it("reports guests, strangers and a foreign user's home team", async () => {
    slack.addUser({ id: 'U0GUEST', name: 'guest', is_restricted: true, is_ultra_restricted: true });
    slack.addUser({ id: 'W0EXT', name: 'ext', is_stranger: true, team_id: 'TOTHER' });
    const user = async (id: string) => (await client.users.info({ user: id })).user;
    expect(await user(ALICE.id)).toMatchObject({ team_id: 'TSIM', is_restricted: false, is_ultra_restricted: false });
    expect((await user(ALICE.id))?.is_stranger).toBeUndefined();
    expect(await user('U0GUEST')).toMatchObject({ is_restricted: true, is_ultra_restricted: true });
    expect(await user('W0EXT')).toMatchObject({ team_id: 'TOTHER', is_stranger: true });
  });
});
