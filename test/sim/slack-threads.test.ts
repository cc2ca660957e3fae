/**
 * Threads in the simulated Slack, through the real WebClient, as Slack answers them
 * (docs.slack.dev/reference/methods/chat.postMessage, chat.update): a reply's `thread_ts` must
 * name a message in that conversation (thread_not_found otherwise: bolt-js #2307, a deleted
 * parent), a reply to a reply joins its parent's thread, `reply_broadcast` is recorded so the
 * bot's tests can say it never sets it, the bot edits only its own messages
 * (cant_update_message) and only ones that exist (message_not_found), and chat.update is Tier 3.
 */
import { LogLevel, WebClient } from '@slack/web-api';
import { TIERS } from '../../src/sim/slack-tiers.js';
import { ALICE, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

describe('simulated Slack: threads and edits', () => {
  let slack: SlackSimulator;
  let web: WebClient;
  const error = (call: Promise<unknown>) => call.then(() => 'ok', (err: { data?: { error?: string } }) => err.data?.error ?? String(err));
  afterEach(() => slack.close());

  describe('without rate tiers', () => {
    beforeEach(async () => {
      slack = await startFakeSlack();
      web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
    });

    it('threads a reply under a message of the same conversation, and records whether it was broadcast', async () => {
      const root = await web.chat.postMessage({ channel: ALICE.id, text: 'train-1 failed' });
      const reply = await web.chat.postMessage({ channel: root.channel!, thread_ts: root.ts!, text: 'running again' });
      expect(reply.message?.thread_ts).toBe(root.ts);
      const loud = await web.chat.postMessage({ channel: root.channel!, thread_ts: root.ts!, text: 'also to the channel', reply_broadcast: true });
      // A reply to a reply is in the parent's thread.
      await web.chat.postMessage({ channel: root.channel!, thread_ts: reply.ts!, text: 'completed' });
      const [first, ...replies] = slack.workspace.conversation(ALICE.id);
      expect(first).toMatchObject({ ts: root.ts, thread_ts: undefined });
      expect(replies.map((m) => [m.text, m.thread_ts, m.reply_broadcast])).toEqual([
        ['running again', root.ts, undefined],
        ['also to the channel', root.ts, true],
        ['completed', root.ts, undefined],
      ]);
      expect(loud.ok).toBe(true);
      // reply_broadcast without thread_ts is a plain post: nothing to broadcast.
      await web.apiCall('chat.postMessage', { channel: ALICE.id, text: 'top level', reply_broadcast: true });
      const top = slack.workspace.conversation(ALICE.id).at(-1)!;
      expect([top.text, top.thread_ts, top.reply_broadcast]).toEqual(['top level', undefined, undefined]);
    });

    it('answers thread_not_found for a thread_ts naming no message of that conversation, or a deleted one, and posts nothing', async () => {
      const root = await web.chat.postMessage({ channel: ALICE.id, text: 'train-1 failed' });
      slack.addChannel('C0OPS', 'ops', [], {});
      slack.inviteBot('C0OPS');
      const before = slack.workspace.conversation(ALICE.id).length;
      expect(await error(web.chat.postMessage({ channel: ALICE.id, thread_ts: '1.000001', text: 'x' }))).toBe('thread_not_found');
      // A message of another conversation is no parent here.
      expect(await error(web.chat.postMessage({ channel: 'C0OPS', thread_ts: root.ts!, text: 'x' }))).toBe('thread_not_found');
      slack.workspace.remove(slack.workspace.find(root.channel!, root.ts!)!);
      expect(await error(web.chat.postMessage({ channel: ALICE.id, thread_ts: root.ts!, text: 'x' }))).toBe('thread_not_found');
      expect(slack.workspace.conversation(ALICE.id)).toHaveLength(before - 1);
      expect(slack.workspace.conversation('C0OPS')).toHaveLength(0);
    });

    it('edits only the bot\'s own messages, and only ones that exist', async () => {
      const own = await web.chat.postMessage({ channel: ALICE.id, text: 'train-1 failed' });
      const hers = slack.workspace.postAs(ALICE.id, ALICE.id, 'thanks, looking', new Date());
      expect(await error(web.chat.update({ channel: own.channel!, ts: hers.ts, text: 'edited' }))).toBe('cant_update_message');
      expect(hers.text).toBe('thanks, looking');
      expect(await error(web.chat.update({ channel: own.channel!, ts: '9.000009', text: 'edited' }))).toBe('message_not_found');
      expect(await error(web.chat.update({ channel: own.channel!, ts: own.ts!, text: 'Failed → running again' }))).toBe('ok');
      expect(slack.workspace.find(own.channel!, own.ts!)).toMatchObject({ text: 'Failed → running again', edited: true });
    });
  });

  it('limits chat.update as Tier 3 for the workspace, whatever the message', async () => {
    slack = await startFakeSlack({ rateTiers: true });
    web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } });
    const roots = [await web.chat.postMessage({ channel: ALICE.id, text: 'root' })];
    let refused = 0;
    for (let i = 0; i < TIERS[3].burst + 3; i++) {
      const outcome = await error(web.chat.update({ channel: roots[0].channel!, ts: roots[0].ts!, text: `edit ${i}` }));
      if (outcome !== 'ok') refused++;
    }
    expect(refused).toBe(3);
    expect(slack.rateLimitedCount).toBe(3);
  });
});
