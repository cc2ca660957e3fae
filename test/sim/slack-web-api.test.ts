import { WebSocket } from 'ws';
import { ALICE, BOB, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

let slack: SlackSimulator;

/** A raw Web API call, form-encoded like the WebClient, or JSON. */
async function api(method: string, args: Record<string, unknown>, options: { token?: string | null; json?: boolean } = {}) {
  const token = options.token === undefined ? slack.botToken : options.token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let body: string;
  if (options.json) {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(args);
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const form = Object.entries(args).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
    body = new URLSearchParams(form).toString();
  }
  const response = await fetch(`${slack.apiUrl}${method}`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

beforeEach(async () => {
  slack = await startFakeSlack({ scopes: ['chat:write', 'users:read'] });
});

afterEach(async () => {
  await slack.close();
});

describe('simulated Slack Web API', () => {
  it('records each call with its parsed body, decoded blocks, token and time', async () => {
    await api('chat.postMessage', { channel: ALICE.id, text: 'hi', blocks: [section('hi')] });
    const [call] = slack.calls;
    expect(call).toMatchObject({ method: 'chat.postMessage', body: { channel: ALICE.id, text: 'hi', blocks: [section('hi')] }, token: slack.botToken, status: 200 });
    expect(call.at).toBeInstanceOf(Date);
  });

  it('takes JSON bodies as well as forms', async () => {
    const { body } = await api('chat.postMessage', { channel: ALICE.id, text: 'json', blocks: [section('json')] }, { json: true });
    expect(body).toMatchObject({ ok: true, channel: 'D0ALICE' });
    expect(slack.calls[0].body.blocks).toEqual([section('json')]);
  });

  it('takes the token from a form field when there is no Authorization header', async () => {
    const { body } = await api('auth.test', { token: slack.botToken }, { token: null });
    expect(body).toMatchObject({ ok: true });
    expect(slack.calls[0]).toMatchObject({ token: slack.botToken, body: {} });
  });

  it('answers unknown_method, not_authed, invalid_auth and not_allowed_token_type like Slack', async () => {
    expect((await api('chat.teleport', {})).body).toEqual({ ok: false, error: 'unknown_method' });
    expect((await api('auth.test', {}, { token: null })).body).toEqual({ ok: false, error: 'not_authed' });
    expect((await api('auth.test', {}, { token: 'xoxb-wrong' })).body).toEqual({ ok: false, error: 'invalid_auth' });
    expect((await api('apps.connections.open', {})).body).toEqual({ ok: false, error: 'not_allowed_token_type' });
    expect((await api('chat.postMessage', { channel: ALICE.id, text: 'x' }, { token: slack.appToken })).body).toEqual({ ok: false, error: 'not_allowed_token_type' });
  });

  it('reports the configured bot scopes in x-oauth-scopes', async () => {
    expect((await api('auth.test', {})).headers.get('x-oauth-scopes')).toBe('chat:write,users:read');
    slack.setScopes(['chat:write', 'im:write']);
    expect((await api('auth.test', {})).headers.get('x-oauth-scopes')).toBe('chat:write,im:write');
  });

  it('finds people by email regardless of case, and answers users_not_found otherwise', async () => {
    expect((await api('users.lookupByEmail', { email: 'Alice@Example.org' })).body).toMatchObject({ ok: true, user: { id: ALICE.id, profile: { email: ALICE.email } } });
    expect((await api('users.lookupByEmail', { email: 'carol@example.org' })).body).toEqual({ ok: false, error: 'users_not_found' });
  });

  it('answers users.info for known people and user_not_found for others', async () => {
    expect((await api('users.info', { user: BOB.id })).body).toMatchObject({ ok: true, user: { id: BOB.id, name: 'bob', real_name: 'Bob Other' } });
    expect((await api('users.info', { user: 'U0NOBODY' })).body).toEqual({ ok: false, error: 'user_not_found' });
  });

  it('lists user group members and pages through channel members', async () => {
    slack.addUserGroup('S01', [ALICE.id, BOB.id]);
    slack.addChannel('C0NLP', 'nlp', ['U1', 'U2', 'U3']);
    expect((await api('usergroups.users.list', { usergroup: 'S01' })).body).toEqual({ ok: true, users: [ALICE.id, BOB.id] });
    expect((await api('usergroups.users.list', { usergroup: 'S99' })).body).toEqual({ ok: false, error: 'no_such_subteam' });
    const first = (await api('conversations.members', { channel: 'C0NLP', limit: '2' })).body;
    expect(first.members).toEqual(['U1', 'U2']);
    const second = (await api('conversations.members', { channel: 'C0NLP', limit: '2', cursor: first.response_metadata.next_cursor })).body;
    expect(second).toMatchObject({ members: ['U3'], response_metadata: { next_cursor: '' } });
  });

  it('updates a posted message in place and refuses an unknown ts', async () => {
    const posted = (await api('chat.postMessage', { channel: ALICE.id, text: 'train-1 failed' })).body;
    expect((await api('chat.update', { channel: posted.channel, ts: posted.ts, text: 'train-1 retried' })).body).toMatchObject({ ok: true, ts: posted.ts });
    expect(slack.workspace.conversation(ALICE.id)).toEqual([expect.objectContaining({ text: 'train-1 retried', edited: true })]);
    expect((await api('chat.update', { channel: posted.channel, ts: '1.000001', text: 'x' })).body).toEqual({ ok: false, error: 'message_not_found' });
  });

  it('posts ephemeral messages only to members of the channel', async () => {
    slack.addChannel('C0NLP', 'nlp', [ALICE.id, slack.workspace.botUserId]);
    expect((await api('chat.postEphemeral', { channel: 'C0NLP', user: ALICE.id, text: 'only you' })).body).toMatchObject({ ok: true, message_ts: expect.any(String) });
    expect((await api('chat.postEphemeral', { channel: 'C0NLP', user: BOB.id, text: 'only you' })).body).toEqual({ ok: false, error: 'user_not_in_channel' });
    expect(slack.workspace.conversation('C0NLP')).toEqual([expect.objectContaining({ text: 'only you', visibleTo: ALICE.id })]);
  });

  it('applies the message rules to chat.update and chat.postEphemeral too', async () => {
    const posted = (await api('chat.postMessage', { channel: ALICE.id, text: 'a' })).body;
    expect((await api('chat.update', { channel: posted.channel, ts: posted.ts, blocks: [section('no fallback')] })).body).toMatchObject({ ok: false, error: 'missing_text_fallback' });
    expect((await api('chat.postEphemeral', { channel: posted.channel, user: ALICE.id, text: 'h', blocks: [section('x'.repeat(3001))] })).body).toMatchObject({ ok: false, error: 'invalid_blocks' });
  });

  it('refuses malformed blocks JSON with invalid_blocks_format, and a missing channel with channel_not_found', async () => {
    const malformed = new URLSearchParams({ channel: ALICE.id, text: 'x', blocks: '[{' }).toString();
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: malformed,
    });
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_blocks_format' });
    expect((await api('chat.postMessage', { text: 'nowhere' })).body).toEqual({ ok: false, error: 'channel_not_found' });
  });

  it('publishes a Home tab of up to 100 blocks and refuses 101', async () => {
    const view = (n: number) => ({ type: 'home', blocks: Array.from({ length: n }, () => ({ type: 'divider' })) });
    expect((await api('views.publish', { user_id: ALICE.id, view: view(100) })).body).toMatchObject({ ok: true, view: { type: 'home' } });
    expect((await api('views.publish', { user_id: ALICE.id, view: view(101) })).body).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(slack.workspace.homeViews.get(ALICE.id)?.view).toEqual(view(100));
  });

  it('injects an ok:false error for the next call of a method only', async () => {
    slack.failNext('users.lookupByEmail', 'ratelimited');
    expect((await api('users.lookupByEmail', { email: ALICE.email })).body).toEqual({ ok: false, error: 'ratelimited' });
    expect((await api('users.lookupByEmail', { email: ALICE.email })).body).toMatchObject({ ok: true });
  });

  it('rate-limits the next n calls with 429 and Retry-After, then serves again', async () => {
    slack.rateLimitNext('conversations.open', 2, 7);
    for (let i = 0; i < 2; i += 1) {
      const limited = await api('conversations.open', { users: ALICE.id });
      expect([limited.status, limited.headers.get('retry-after'), limited.body]).toEqual([429, '7', { ok: false, error: 'ratelimited' }]);
    }
    expect((await api('conversations.open', { users: ALICE.id })).body).toEqual({ ok: true, channel: { id: 'D0ALICE' } });
    expect(slack.rateLimitedCount).toBe(2);
  });

  it('limits chat.postMessage per channel when asked, counting the 429s', async () => {
    slack.enforcePerChannelRate(1);
    const statuses = [];
    for (const channel of [ALICE.id, ALICE.id, BOB.id]) statuses.push((await api('chat.postMessage', { channel, text: 'x' })).status);
    expect(statuses).toEqual([200, 429, 200]);
    expect(slack.rateLimitedCount).toBe(1);
    expect(slack.messagesTo(ALICE.id)).toHaveLength(1);
  });

  it('answers 503 to everything during an outage and recovers after', async () => {
    slack.down(true);
    expect((await api('auth.test', {})).status).toBe(503);
    slack.down(false);
    expect((await api('auth.test', {})).status).toBe(200);
    expect(slack.callsTo('auth.test').map((c) => c.status)).toEqual([503, 200]);
  });

  it('cuts open Socket Mode connections during an outage that takes the sockets, and refuses new ones until it ends', async () => {
    const { body: before } = await api('apps.connections.open', {}, { token: slack.appToken });
    const { body: spare } = await api('apps.connections.open', {}, { token: slack.appToken });
    const socket = new WebSocket(before.url);
    await new Promise((resolve) => socket.once('message', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    slack.down(true, { sockets: true });
    // 1006: the connection died without a close frame, as when Slack's edge goes away.
    expect(await closed).toBe(1006);
    await expect(firstFrame(spare.url)).rejects.toThrow('Unexpected server response: 503');
    expect((await api('apps.connections.open', {}, { token: slack.appToken })).status).toBe(503);
    slack.down(false);
    const { body: after } = await api('apps.connections.open', {}, { token: slack.appToken });
    expect(JSON.parse(await firstFrame(after.url))).toMatchObject({ type: 'hello' });
  });

  it('calls an accept hook for each ok answer before it leaves, and not for refused calls', async () => {
    const seen: string[] = [];
    const stop = slack.onAccept((call) => seen.push(`${call.method}:${String(call.body.text)}:${slack.calls.includes(call)}`));
    await api('chat.postMessage', { channel: ALICE.id, text: 'one' });
    await api('chat.postMessage', { channel: 'C0NOWHERE', text: 'refused' });
    stop();
    await api('chat.postMessage', { channel: ALICE.id, text: 'after' });
    expect(seen).toEqual(['chat.postMessage:one:true']);
  });

  it('waits for a call that has not happened yet', async () => {
    const waiting = slack.waitFor((c) => c.method === 'chat.postMessage' && c.body.text === 'later');
    await api('chat.postMessage', { channel: BOB.id, text: 'sooner' });
    await api('chat.postMessage', { channel: BOB.id, text: 'later' });
    expect((await waiting).body).toMatchObject({ channel: BOB.id, text: 'later' });
  });

  it('gives up waiting with an error that says what it waited for', async () => {
    await expect(slack.waitFor((c) => c.method === 'views.publish', 50)).rejects.toThrow('waited 50 ms for a matching Web API call');
  });

  it('hands out single-use Socket Mode tickets, says hello on connect, and refuses a reused ticket', async () => {
    const { body } = await api('apps.connections.open', {}, { token: slack.appToken });
    expect(body.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[0-9a-f-]{36}$/);
    expect(JSON.parse(await firstFrame(body.url))).toMatchObject({ type: 'hello', connection_info: { app_id: 'ASIMAPP' } });
    await expect(firstFrame(body.url)).rejects.toThrow('Unexpected server response: 401');
  });
});

/** Connects to a Socket Mode URL and resolves with the first frame the server sends. */
function firstFrame(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('message', (data) => {
      socket.close();
      resolve(String(data));
    });
    socket.once('error', reject);
  });
}
