/**
 * The demo page's actions without a browser: the real demo (real bot, simulated cluster and
 * Slack) behind the real page server, driven by HTTP requests shaped like the page's own. What a
 * visitor does must reach the bot the way Slack delivers it and come back as Slack shows it;
 * what another origin sends must be refused before it reaches anything.
 */
import http from 'node:http';
import { pageStateOf, type PageState } from '../../src/demo/page-state.js';
import { startDemoPage, TOKEN_HEADER, type DemoPage } from '../../src/demo/page-server.js';
import { startDemo, type Demo } from '../../src/demo/run.js';
import { visitorActions } from '../../src/demo/visitor.js';
import { captureLog } from '../helpers/log.js';

/** Steps wait for the page's button: nothing plays on a timer during these tests. */
const NEVER_MS = 3_600_000;

let demo: Demo;
let page: DemoPage;
let token: string;

interface Answer {
  status: number;
  body: string;
}

function request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: page.port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A POST exactly as the page's script sends it, with any header replaced. */
function act(kind: string, body: unknown, override: Record<string, string> = {}): Promise<Answer> {
  const headers = {
    host: `127.0.0.1:${page.port}`,
    origin: `http://127.0.0.1:${page.port}`,
    'content-type': 'application/json',
    [TOKEN_HEADER]: token,
    ...override,
  };
  return request('POST', `/act/${kind}`, headers, JSON.stringify(body));
}

async function stateOf(user: string): Promise<PageState> {
  const answer = await request('GET', `/state.json?user=${user}`, { host: `127.0.0.1:${page.port}` });
  return JSON.parse(answer.body) as PageState;
}

/** The person's state once `ready` holds for it (the bot answers after its ack, as in Slack). */
async function until(user: string, ready: (s: PageState) => boolean): Promise<PageState> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await stateOf(user);
    if (ready(state)) return state;
    if (Date.now() > deadline) throw new Error(`the page never showed what was expected to ${user}:\n${JSON.stringify(state.conversations.map((c) => c.html))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const dmHtml = (s: PageState) => s.conversations.find((c) => c.kind === 'dm')!.html;
const ephemeralCount = (s: PageState) => (dmHtml(s).match(/class="message ephemeral"/g) ?? []).length;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** What a reader sees of some HTML: tags dropped, entities decoded, spaces collapsed. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]).replace(/\s+/g, ' ').trim();
/** Text of the newest message in the person's DM. */
const lastDmText = (s: PageState) => textOf(`<article${dmHtml(s).split('<article').at(-1)!}`);

/** Types a command in the person's DM and resolves with the text of the reply the page then shows. */
async function command(user: string, text: string): Promise<string> {
  const before = ephemeralCount(await stateOf(user));
  const answer = await act('command', { user, channel: `D${user.slice(1)}`, text });
  expect(answer).toEqual({ status: 200, body: '{"ok":true}' });
  return lastDmText(await until(user, (s) => ephemeralCount(s) > before));
}

beforeAll(async () => {
  demo = await startDemo({ log: captureLog('warn').log, stepDelayMs: NEVER_MS });
  void demo.play().catch(() => undefined);
  page = await startDemoPage(0, {
    ...pageStateOf(demo),
    act: visitorActions({ slack: demo.slack, people: new Set(demo.slack.workspace.users.keys()), playNext: () => demo.playNext() }),
  });
  const index = await request('GET', '/', { host: `127.0.0.1:${page.port}` });
  token = /<meta name="demo-token" content="([^"]+)">/.exec(index.body)![1];
}, 60_000);

afterAll(async () => {
  await page?.close();
  await demo?.stop();
});

describe('the demo page refuses what does not come from the page itself', () => {
  const typed = { user: 'U0ALICE', channel: 'D0ALICE', text: '/runai help' };

  it.each([
    ['no token', { [TOKEN_HEADER]: '' }, 403],
    ['a wrong token', { [TOKEN_HEADER]: 'x'.repeat(32) }, 403],
    ['another origin', { origin: 'http://evil.example' }, 403],
    ['no origin', { origin: '' }, 403],
    ['a form post', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['another host name (DNS rebinding)', { host: `evil.example:1234` }, 421],
  ])('refuses a command with %s, and the bot never hears of it', async (_what, override, status) => {
    const commandsBefore = demo.slack.responses.length;
    const answer = await act('command', typed, override);
    expect(answer.status).toBe(status);
    // A refused request reaches nothing: had it been sent, the bot would have answered by now via response_url.
    const accepted = await act('command', { ...typed, text: '/runai help' });
    expect(accepted.status).toBe(200);
    await until('U0ALICE', () => demo.slack.responses.length > commandsBefore);
    expect(demo.slack.responses.length).toBe(commandsBefore + 1);
  });

  it('serves nothing, not even the state, under another host name', async () => {
    expect((await request('GET', '/state.json', { host: 'evil.example' })).status).toBe(421);
  });

  it('acts only as a person of the demo, and types only where that person is', async () => {
    expect((await act('command', { user: 'U0NOBODY', channel: 'D0NOBODY', text: '/runai help' })).status).toBe(403);
    expect((await act('command', { user: 'U0FRANK', channel: 'D0ALICE', text: '/runai list' })).status).toBe(403);
    const notACommand = await act('command', { user: 'U0FRANK', channel: 'D0FRANK', text: 'hello bot' });
    expect(notACommand.status).toBe(400);
    expect(notACommand.body).toContain('/runai help');
  });
});

describe('a visitor acting through the page', () => {
  it('gets /runai help as an ephemeral reply in the DM, from the bot itself', async () => {
    const reply = await command('U0BOB', '/runai help');
    expect(reply).toContain('Only visible to you');
    expect(reply).toContain('/runai status NAME');
  });

  it('as a stranger, gets the same answer about someone else’s workload as about one that does not exist', async () => {
    const other = await command('U0FRANK', '/runai status resnet-finetune');
    const missing = await command('U0FRANK', '/runai status no-such-workload');
    expect(other).toContain("I can't show you a workload named resnet-finetune");
    // Compared from the message body on: the posting times may differ by a minute.
    const body = (reply: string, name: string) => reply.split('Only visible to you')[1].replace(name, 'NAME');
    expect(body(other, 'resnet-finetune')).toBe(body(missing, 'no-such-workload'));
  });

  it('sees a project’s workload as its member and any workload as an admin, but not other projects’', async () => {
    expect(await command('U0DAVE', '/runai status llama-ddp')).toContain('llama-ddp');
    expect(await command('U0DAVE', '/runai status llama-ddp')).not.toContain("can't show you");
    expect(await command('U0DAVE', '/runai status resnet-finetune')).toContain("I can't show you a workload named resnet-finetune");
    expect(await command('U0ERIN', '/runai status resnet-finetune')).not.toContain("can't show you");
  });

  it('plays the next event on request: the OOM alert reaches alice, and its "Show more of the log" button answers her', async () => {
    const seen = (await stateOf('U0ALICE')).next;
    expect(seen?.label).toBe('Fail a job');
    expect((await act('next', {})).status).toBe(200);
    const alice = await until('U0ALICE', (s) => dmHtml(s).includes('resnet-finetune failed'));
    expect(alice.next?.label).not.toBe('Fail a job');

    const button = /<article class="message" data-ts="([^"]+)">(?:(?!<article).)*?data-action-id="runai_show_log" data-value="([^"]+)"/s.exec(dmHtml(alice))!;
    const [, ts, escapedValue] = button;
    const value = escapedValue.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);

    // frank cannot click a button on alice's message: he has no such message in front of him.
    expect((await act('action', { user: 'U0FRANK', channel: 'D0ALICE', ts, actionId: 'runai_show_log', value })).status).toBe(404);
    expect((await act('action', { user: 'U0ALICE', channel: 'D0ALICE', ts, actionId: 'runai_show_log', value: '{"forged":1}' })).status).toBe(404);

    const before = ephemeralCount(alice);
    expect((await act('action', { user: 'U0ALICE', channel: 'D0ALICE', ts, actionId: 'runai_show_log', value })).status).toBe(200);
    const after = await until('U0ALICE', (s) => ephemeralCount(s) > before);
    expect(lastDmText(after)).toContain('torch.OutOfMemoryError: CUDA out of memory');
    // The reply is alice's alone.
    expect(dmHtml(await stateOf('U0FRANK'))).not.toContain('OutOfMemoryError');
  });

  it('opens the Home tab: app_home_opened reaches the bot, which publishes the person’s view', async () => {
    expect((await stateOf('U0CAROL')).home).toContain('has not published a Home tab');
    expect((await act('home', { user: 'U0CAROL' })).status).toBe(200);
    const carol = await until('U0CAROL', (s) => s.home.includes('data-home'));
    expect(carol.home).toContain('Your Run:ai workloads');
    expect(carol.home).toContain('llama-ddp');
    const publish = demo.slack.callsTo('views.publish').find((c) => c.body.user_id === 'U0CAROL');
    expect(publish).toBeDefined();
  });

  it("refreshes the Home tab with its own button, clicked where Slack has no channel or response_url", async () => {
    await act('home', { user: 'U0DAVE' });
    await until('U0DAVE', (s) => s.home.includes('data-home'));
    const published = () => demo.slack.callsTo('views.publish').filter((c) => c.body.user_id === 'U0DAVE').length;
    const before = published();
    expect((await act('action', { user: 'U0DAVE', actionId: 'runai_home_refresh', value: 'refresh' })).status).toBe(200);
    await until('U0DAVE', () => published() > before);
    expect(published()).toBe(before + 1);
  });

  it('answers a command typed in a channel with a reply in that channel that only the person sees', async () => {
    expect((await act('command', { user: 'U0FRANK', channel: 'C0MAINT', text: '/runai maintenance' })).status).toBe(200);
    const maintenance = (s: PageState) => s.conversations.find((c) => c.id === 'C0MAINT')!.html;
    const frank = await until('U0FRANK', (s) => maintenance(s).includes('ephemeral'));
    expect(textOf(maintenance(frank))).toContain('NVIDIA driver and firmware upgrade');
    expect(maintenance(await stateOf('U0ALICE'))).not.toContain('ephemeral');
  });
});
