/**
 * The simulated Slack lets the bot post only where real Slack does with chat:write and no
 * chat:write.public (docs.slack.dev/reference/methods/chat.postMessage, chat.postEphemeral,
 * chat.update; scopes/chat:write.public): not_in_channel in a public channel it was not invited
 * to, channel_not_found in a private one, and a DM to a user ID always. Posts work once someone
 * invites the bot, and conversations.info's is_member says which it is.
 */
import { WebClient } from '@slack/web-api';
import { ALICE, DEFAULT_SCOPES, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

describe('simulated Slack: where the bot may post', () => {
  let slack: SlackSimulator;
  let client: WebClient;
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    slack.addChannel('C0PUB', 'runai-alerts', [ALICE.id]);
    slack.addChannel('C0PRIV', 'vision', [ALICE.id], { is_private: true });
  });
  afterEach(() => slack.close());

  const refusal = (call: Promise<unknown>) => call.then(() => 'ok', (err: { data?: { error?: string } }) => err.data?.error ?? String(err));
  const post = (channel: string) => refusal(client.chat.postMessage({ channel, text: 'train-1 failed' }));

  it('refuses a public channel it was not invited to with not_in_channel, a private one with channel_not_found, and allows a DM', async () => {
    expect(await post('C0PUB')).toBe('not_in_channel');
    expect(await post('C0PRIV')).toBe('channel_not_found');
    expect(await refusal(client.chat.postEphemeral({ channel: 'C0PUB', user: ALICE.id, text: 'only you' }))).toBe('not_in_channel');
    expect(await post(ALICE.id)).toBe('ok');
    expect(slack.workspace.conversation('C0PUB')).toEqual([]);
    expect(slack.workspace.conversation('C0PRIV')).toEqual([]);
  });

  it('posts from the moment someone invites the bot, and conversations.info says it is a member', async () => {
    const isMember = async (channel: string) => (await client.conversations.info({ channel })).channel?.is_member;
    expect(await isMember('C0PUB')).toBe(false);
    slack.inviteBot('C0PUB');
    slack.inviteBot('C0PRIV');
    expect(await isMember('C0PUB')).toBe(true);
    expect(await isMember('C0PRIV')).toBe(true);
    expect([await post('C0PUB'), await post('C0PRIV')]).toEqual(['ok', 'ok']);
    expect(slack.messagesTo('C0PUB')).toHaveLength(1);
  });

  it('with chat:write.public posts to a public channel without joining, but still not to a private one', async () => {
    slack.setScopes([...DEFAULT_SCOPES, 'chat:write.public']);
    expect(await post('C0PUB')).toBe('ok');
    expect(await post('C0PRIV')).toBe('channel_not_found');
    // chat:write.public is a chat.postMessage scope; ephemeral posts still need the bot in the channel.
    expect(await refusal(client.chat.postEphemeral({ channel: 'C0PUB', user: ALICE.id, text: 'only you' }))).toBe('not_in_channel');
  });

  it('after being removed, still edits its message in a public channel (chat.update has no not_in_channel), but not in a private one', async () => {
    slack.inviteBot('C0PUB');
    slack.inviteBot('C0PRIV');
    const pub = await client.chat.postMessage({ channel: 'C0PUB', text: 'a' });
    const priv = await client.chat.postMessage({ channel: 'C0PRIV', text: 'b' });
    for (const id of ['C0PUB', 'C0PRIV']) slack.workspace.channels.get(id)!.members = [ALICE.id];
    expect(await refusal(client.chat.update({ channel: 'C0PUB', ts: pub.ts!, text: 'a, edited' }))).toBe('ok');
    expect(await refusal(client.chat.update({ channel: 'C0PRIV', ts: priv.ts!, text: 'b, edited' }))).toBe('channel_not_found');
  });
});
