import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, webApi } from '@slack/bolt';
import {
  ALICE,
  httpModeOptions,
  signedRequest,
  socketModeOptions,
  startFakeSlack,
  type SlackSimulator,
} from '../fakes/slack.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const retryButton = {
  type: 'actions',
  block_id: 'workload',
  elements: [{ type: 'button', action_id: 'retry', text: { type: 'plain_text', text: 'Retry' }, value: 'train-1' }],
};

/** The Slack error code a WebClient call was refused with. */
async function slackError(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (e) {
    return (e as { data?: { error?: string } }).data?.error ?? String(e);
  }
  throw new Error('the call was accepted');
}

describe('simulated Slack with the real Bolt app in Socket Mode', () => {
  let slack: SlackSimulator;
  let app: App;

  beforeAll(async () => {
    slack = await startFakeSlack({ scopes: ['chat:write', 'im:write', 'users:read'] });
    app = new App(socketModeOptions(slack));
    app.command('/runai', async ({ command, ack, respond }) => {
      await ack({ response_type: 'ephemeral', text: `Looking up ${command.text}` });
      await respond({ text: `Status of ${command.text}: Running` });
    });
    app.action('retry', async ({ ack, respond, action }) => {
      await ack();
      await respond({ replace_original: true, text: `Retrying ${'value' in action ? action.value : ''}` });
    });
    app.event('app_home_opened', async ({ event, client }) => {
      await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: [section('Your workloads')] } });
    });
    await app.start();
  });

  afterAll(async () => {
    await app.stop();
    await slack.close();
  });

  it('answers the auth.test Bolt makes while it is constructed, with the bot scopes in a header', async () => {
    const check = await app.client.auth.test();
    expect(check).toMatchObject({ ok: true, user_id: 'USIMBOT', bot_id: 'BSIMBOT', team_id: 'TSIM' });
    expect(check.response_metadata?.scopes).toEqual(['chat:write', 'im:write', 'users:read']);
    expect(slack.callsTo('auth.test')[0].token).toBe(slack.botToken);
  });

  it('hands out the Socket Mode URL only for the app token, and the app connects to it', () => {
    const [open] = slack.callsTo('apps.connections.open');
    expect(open.token).toBe(slack.appToken);
    expect((open.response as { url: string }).url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    expect(slack.socketConnections).toBe(1);
  });

  it('delivers a slash command, returns its ack, and records the later respond()', async () => {
    const result = await slack.sendSlashCommand({ user_id: ALICE.id, text: 'train-1', command: '/runai' });
    expect(result.ack).toEqual({ response_type: 'ephemeral', text: 'Looking up train-1' });
    const reply = await result.nextResponse();
    expect(reply).toMatchObject({ id: result.responseId, status: 200, body: { text: 'Status of train-1: Running' } });
    expect(slack.workspace.conversation(ALICE.id).at(-1)).toMatchObject({ text: 'Status of train-1: Running', visibleTo: ALICE.id });
  });

  it('opens a stable DM per person and files its messages under that person', async () => {
    const first = await app.client.conversations.open({ users: ALICE.id });
    const again = await app.client.conversations.open({ users: ALICE.id });
    expect(first.channel?.id).toMatch(/^D/);
    expect(again.channel?.id).toBe(first.channel?.id);
    const posted = await app.client.chat.postMessage({ channel: first.channel!.id!, text: 'train-1 failed', blocks: [section('*train-1* failed'), retryButton] });
    expect(posted).toMatchObject({ ok: true, channel: first.channel?.id });
    expect(slack.messagesTo(ALICE.id).map((c) => c.body.text)).toContain('train-1 failed');
    expect(slack.messagesTo(ALICE.id).at(-1)?.body.blocks).toEqual([section('*train-1* failed'), retryButton]);
  });

  it('delivers a button click from a message, and respond() replaces that message', async () => {
    const dm = (await app.client.conversations.open({ users: ALICE.id })).channel!.id!;
    const posted = await app.client.chat.postMessage({ channel: dm, text: 'train-2 failed', blocks: [section('train-2 failed'), retryButton] });
    const click = await slack.sendBlockAction({ user_id: ALICE.id, action_id: 'retry', block_id: 'workload', value: 'train-2', channel_id: dm, message_ts: posted.ts });
    expect(click.ack).toEqual({});
    await click.nextResponse();
    expect(slack.workspace.find(dm, posted.ts!)).toMatchObject({ text: 'Retrying train-2', edited: true });
  });

  it('delivers app_home_opened wrapped as an event_callback, and the Home tab gets published', async () => {
    await slack.sendEvent({ type: 'app_home_opened', user: ALICE.id, channel: 'D0ALICE', tab: 'home' });
    const publish = await slack.waitFor((c) => c.method === 'views.publish' && c.body.user_id === ALICE.id);
    expect(publish.body.view).toEqual({ type: 'home', blocks: [section('Your workloads')] });
    expect(slack.workspace.homeViews.get(ALICE.id)?.view).toEqual({ type: 'home', blocks: [section('Your workloads')] });
  });

  it('refuses a message of 51 blocks with invalid_blocks, as Slack does', async () => {
    const blocks = Array.from({ length: 51 }, (_, i) => section(`line ${i}`));
    expect(await slackError(app.client.chat.postMessage({ channel: ALICE.id, text: 'too many', blocks }))).toBe('invalid_blocks');
    const refused = slack.callsTo('chat.postMessage').at(-1)!;
    expect(refused.response).toMatchObject({ response_metadata: { messages: ['[ERROR] must provide no more than 50 items [json-pointer:/blocks]'] } });
  });

  it('refuses blocks without a text fallback (stricter than Slack, by project rule)', async () => {
    expect(await slackError(app.client.chat.postMessage({ channel: ALICE.id, blocks: [section('no fallback')] }))).toBe('missing_text_fallback');
  });

  it('refuses a channel it does not know, and posts to one it was invited to', async () => {
    expect(await slackError(app.client.chat.postMessage({ channel: 'C0NLP', text: 'hello' }))).toBe('channel_not_found');
    slack.addChannel('C0NLP', 'nlp');
    slack.inviteBot('C0NLP');
    await app.client.chat.postMessage({ channel: 'C0NLP', text: 'hello' });
    expect(slack.messagesTo('C0NLP').map((c) => c.body.text)).toEqual(['hello']);
  });

  it('answers 429 with Retry-After, and the real WebClient waits and retries once', async () => {
    const client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 1, minTimeout: 10, maxTimeout: 10 },
      logLevel: webApi.LogLevel.ERROR,
    });
    const announced: number[] = [];
    client.on(webApi.WebClientEvent.RATE_LIMITED, (retryAfterSec: number) => announced.push(retryAfterSec));
    slack.rateLimitNext('chat.postMessage', 1, 1);
    const before = slack.callsTo('chat.postMessage').length;

    const posted = await client.chat.postMessage({ channel: ALICE.id, text: 'after the limit' });

    expect(posted.ok).toBe(true);
    expect(announced).toEqual([1]);
    expect(slack.callsTo('chat.postMessage').slice(before).map((c) => c.status)).toEqual([429, 200]);
    expect(slack.rateLimitedCount).toBe(1);
  });

  it('refuses every call of a method for a while, each 429 saying the time left, as Slack limits by time', async () => {
    const client = new webApi.WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, logLevel: webApi.LogLevel.ERROR });
    slack.rateLimitFor('chat.update', 2500);
    const refused: number[] = [];
    for (let i = 0; i < 3; i++) {
      await client.chat.update({ channel: 'C0NLP', ts: '1.0', text: 'x' }).catch((err: { data?: { retryAfter?: number }; retryAfter?: number }) => refused.push(err.retryAfter ?? -1));
    }
    expect(refused).toHaveLength(3);
    for (const seconds of refused) expect([2, 3]).toContain(seconds);
    // Other methods are not limited by it.
    expect((await client.chat.postMessage({ channel: ALICE.id, text: 'still fine' })).ok).toBe(true);
  });
});

describe('simulated Slack requests to the real Bolt app in HTTP mode', () => {
  const signingSecret = 'simulated-signing-secret';
  let slack: SlackSimulator;
  let app: App;
  let eventsUrl: string;
  const commandsSeen: string[] = [];
  const command = (text: string) => slack.commandRequest({ user_id: ALICE.id, command: '/runai', text });

  beforeAll(async () => {
    slack = await startFakeSlack();
    app = new App(httpModeOptions(slack, signingSecret));
    app.command('/runai', async ({ command: cmd, ack, respond }) => {
      commandsSeen.push(cmd.text);
      await ack(`seen ${cmd.text}`);
      await respond({ text: `later: ${cmd.text}` });
    });
    app.action('retry', async ({ ack }) => {
      await ack();
    });
    app.event('app_home_opened', async ({ event, client }) => {
      await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: [section('Over HTTP')] } });
    });
    const server = (await app.start(0)) as Server;
    eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });

  afterAll(async () => {
    await app.stop();
    await slack.close();
  });

  it('accepts a correctly signed slash command, and its respond() reaches the simulation', async () => {
    const request = command('signed');
    const response = await signedRequest(eventsUrl, request, signingSecret);
    expect([response.status, response.body]).toEqual([200, 'seen signed']);
    const reply = await slack.waitForResponse(request.responseId);
    expect(reply.body).toMatchObject({ text: 'later: signed' });
  });

  it('accepts a correctly signed button click posted as a payload= form', async () => {
    const { interaction } = slack.interactionRequest({ user_id: ALICE.id, action_id: 'retry', value: 'train-1', channel_id: 'D0ALICE' });
    expect((await signedRequest(eventsUrl, { interaction }, signingSecret)).status).toBe(200);
  });

  it('accepts a correctly signed JSON event, and the listener publishes the Home tab', async () => {
    const response = await signedRequest(eventsUrl, slack.eventRequest({ type: 'app_home_opened', user: ALICE.id, tab: 'home' }), signingSecret);
    expect(response.status).toBe(200);
    const publish = await slack.waitFor((c) => c.method === 'views.publish');
    expect(publish.body.view).toEqual({ type: 'home', blocks: [section('Over HTTP')] });
  });

  it.each([
    ['unsigned', { unsigned: true }],
    ['stale (6 minutes old)', { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }],
    ['tampered', { tamper: true }],
  ])('answers 401 to a %s request and never runs the listener', async (label, options) => {
    const response = await signedRequest(eventsUrl, command(label), signingSecret, options);
    expect(response.status).toBe(401);
    expect(commandsSeen).not.toContain(label);
  });

  it('answers 401 to a request signed with another secret', async () => {
    const response = await signedRequest(eventsUrl, command('wrong secret'), 'not-the-secret');
    expect(response.status).toBe(401);
    expect(commandsSeen).toEqual(['signed']);
  });
});
