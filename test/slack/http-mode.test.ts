/**
 * HTTP mode (`slack.mode: http`): Slack's requests arrive at /slack/events signed with the
 * signing secret, on a port that serves nothing else (health and metrics are on ops.port). A signed command, click and Home tab event are answered; unsigned, stale and
 * tampered requests get 401 and nothing is done with them.
 */
import { once } from 'node:events';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACTION } from '../../src/messages/ids.js';
import { signedRequest, type Json } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { ALICE, baseConfig, ERIN, startWorld, type World } from './world.js';

const SIGNING_SECRET = 'test-signing-secret'; // what startTestBot puts in SLACK_SIGNING_SECRET

/** Stands in for Slack's response_url endpoint: records what the bot posts to each path. */
async function startResponseCatcher(): Promise<{ server: Server; url(id: string): string; posts: Map<string, Json[]> }> {
  const posts = new Map<string, Json[]>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = (req.url ?? '/').slice(1);
      posts.set(id, [...(posts.get(id) ?? []), JSON.parse(body) as Json]);
      res.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return { server, posts, url: (id) => `http://127.0.0.1:${port}/${id}` };
}

describe('HTTP mode', () => {
  let world: World;
  let catcher: Awaited<ReturnType<typeof startResponseCatcher>>;
  let events: string;

  beforeAll(async () => {
    catcher = await startResponseCatcher();
    world = await startWorld({ ...baseConfig, slack: { mode: 'http' } });
    events = `http://127.0.0.1:${world.bot.slackPort}/slack/events`;
  });

  afterAll(async () => {
    await world.close();
    await new Promise((resolve) => catcher.server.close(resolve));
  });

  const command = (user: string, text: string, responseId: string) => ({
    command: {
      token: 'legacy-verification-token',
      team_id: 'TSIM',
      channel_id: `D${user.slice(1)}`,
      user_id: user,
      user_name: user,
      command: '/runai',
      text,
      api_app_id: 'ASIMAPP',
      response_url: catcher.url(responseId),
      trigger_id: '1.2',
    },
  });

  it('serves nothing but /slack/events on the public Slack port; health and metrics are on ops.port', async () => {
    const slackBase = `http://127.0.0.1:${world.bot.slackPort}`;
    const opsBase = `http://127.0.0.1:${world.bot.port}`;
    expect(world.bot.port).not.toBe(world.bot.slackPort);
    for (const path of ['/metrics', '/healthz', '/readyz']) {
      const onSlack = await fetch(`${slackBase}${path}`);
      expect(`${path} ${onSlack.status}`).toBe(`${path} 404`);
      expect(await onSlack.text()).not.toContain('runai_bot_');
      expect(`${path} ${(await fetch(`${opsBase}${path}`)).status}`).toBe(`${path} 200`);
    }
    expect(await (await fetch(`${opsBase}/metrics`)).text()).toContain('runai_bot_transitions_total');
    // Slack's own path is not on the ops port either.
    expect((await fetch(`${opsBase}/slack/events`, { method: 'POST' })).status).toBe(404);
  });

  it('answers a signed slash command through its response_url', async () => {
    const response = await signedRequest(events, command(ALICE.id, 'logs resnet', 'signed'), SIGNING_SECRET);
    expect(response.status).toBe(200);
    const [reply] = await eventually(() => catcher.posts.get('signed'), 'the reply');
    expect(reply.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply.blocks)).toContain('CUDA out of memory');
  });

  it('refuses unsigned, stale and tampered requests with 401 and does nothing with them', async () => {
    const usersInfoBefore = world.slack.callsTo('users.info').length;
    const unsigned = await signedRequest(events, command(ALICE.id, 'mute project vision', 'unsigned'), SIGNING_SECRET, { unsigned: true });
    const stale = await signedRequest(events, command(ALICE.id, 'mute project vision', 'stale'), SIGNING_SECRET, {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    const tampered = await signedRequest(events, command(ALICE.id, 'mute project vision', 'tampered'), SIGNING_SECRET, { tamper: true });
    const wrongSecret = await signedRequest(events, command(ALICE.id, 'mute project vision', 'wrong'), 'not-the-secret');
    expect([unsigned.status, stale.status, tampered.status, wrongSecret.status]).toEqual([401, 401, 401, 401]);

    // A good request after them is answered; none of the bad ones was, or changed anything.
    await signedRequest(events, command(ERIN.id, 'help', 'after'), SIGNING_SECRET);
    await eventually(() => catcher.posts.get('after'), 'the reply to the good request');
    for (const id of ['unsigned', 'stale', 'tampered', 'wrong']) expect(catcher.posts.get(id)).toBeUndefined();
    expect(await world.bot.store.activeMutes(ALICE.id, new Date())).toEqual([]);
    expect(world.slack.callsTo('users.info').length).toBe(usersInfoBefore);
  });

  it('answers a signed button click and publishes the Home tab for a signed event', async () => {
    const value = JSON.stringify({ ns: 'runai-vision', name: 'resnet', uid: world.bot.reconciler.workloads().find((w) => w.namespace === 'runai-vision' && w.name === 'resnet')!.uid });
    const interaction = {
      type: 'block_actions',
      user: { id: ALICE.id, username: 'alice', team_id: 'TSIM' },
      api_app_id: 'ASIMAPP',
      team: { id: 'TSIM', domain: 'simulated' },
      container: { type: 'message', message_ts: '1.000001', channel_id: 'DALICE' },
      channel: { id: 'DALICE', name: 'directmessage' },
      response_url: catcher.url('click'),
      trigger_id: '1.3',
      actions: [{ type: 'button', action_id: ACTION.muteWorkload, block_id: 'actions', value, action_ts: '1.1' }],
    };
    expect((await signedRequest(events, { interaction }, SIGNING_SECRET)).status).toBe(200);
    const [reply] = await eventually(() => catcher.posts.get('click'), 'the click reply');
    expect(String(reply.text)).toContain('Muted `resnet`');

    const event = {
      type: 'event_callback',
      team_id: 'TSIM',
      api_app_id: 'ASIMAPP',
      event: { type: 'app_home_opened', user: ALICE.id, channel: 'DALICE', tab: 'home', event_ts: '1.2' },
      event_id: 'Ev0HTTPHOME',
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: 'TSIM', user_id: 'USIMBOT', is_bot: true }],
    };
    expect((await signedRequest(events, { event }, SIGNING_SECRET)).status).toBe(200);
    const home = await eventually(() => world.slack.workspace.homeViews.get(ALICE.id), 'the Home tab');
    expect(JSON.stringify(home.view)).toContain('workload runai-vision/resnet until unmuted');
  });
});
