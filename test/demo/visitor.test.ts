/**
 * What the demo page may ask for, and the Home tab event the simulated Slack sends for it: the
 * page's requests are untrusted input, and the event must look like the one Slack sends.
 */
import { App } from '@slack/bolt';
import { findButton, parseVisitorRequest, slashCommandText } from '../../src/demo/visitor.js';
import { ALICE, socketModeOptions, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

describe("the page's requests", () => {
  it('reads a command, a click, a Home tab visit and "play next", and refuses anything malformed', () => {
    expect(parseVisitorRequest('command', { user: 'U0ALICE', channel: 'D0ALICE', text: '/runai list' })).toEqual({ kind: 'command', user: 'U0ALICE', channel: 'D0ALICE', text: '/runai list' });
    expect(parseVisitorRequest('action', { user: 'U0ALICE', actionId: 'a', value: 'v' })).toEqual({ kind: 'action', user: 'U0ALICE', actionId: 'a', value: 'v', channel: undefined, ts: undefined });
    expect(parseVisitorRequest('home', { user: 'U0ALICE' })).toEqual({ kind: 'home', user: 'U0ALICE' });
    expect(parseVisitorRequest('next', null)).toEqual({ kind: 'next' });
    expect(parseVisitorRequest('command', { user: 'U0ALICE', text: 42 })).toHaveProperty('error');
    expect(parseVisitorRequest('action', { user: 'U0ALICE', actionId: 'a', channel: {} })).toHaveProperty('error');
    expect(parseVisitorRequest('home', [])).toHaveProperty('error');
    expect(parseVisitorRequest('delete', { user: 'U0ALICE' })).toEqual({ error: 'unknown action "delete"' });
  });

  it('passes on only /runai commands, with what follows the command', () => {
    expect(slashCommandText('/runai')).toBe('');
    expect(slashCommandText('  /runai  status x -p vision ')).toBe('status x -p vision');
    expect(slashCommandText('/runaix status')).toBeUndefined();
    expect(slashCommandText('/remind me')).toBeUndefined();
    expect(slashCommandText('runai list')).toBeUndefined();
  });

  it('finds a button by action_id and value, in actions or as an accessory, with its block_id and text', () => {
    const blocks = [
      { type: 'section', block_id: 's1', text: { type: 'mrkdwn', text: 'x' }, accessory: { type: 'button', action_id: 'refresh', value: 'r', text: { type: 'plain_text', text: 'Refresh' } } },
      { type: 'actions', block_id: 'a1', elements: [{ type: 'button', action_id: 'mute', value: '{"name":"job"}', text: { type: 'plain_text', text: 'Mute' } }] },
    ];
    expect(findButton(blocks, 'mute', '{"name":"job"}')).toEqual({ blockId: 'a1', text: 'Mute' });
    expect(findButton(blocks, 'refresh', 'r')).toEqual({ blockId: 's1', text: 'Refresh' });
    expect(findButton(blocks, 'mute', '{"name":"other"}')).toBeUndefined();
    expect(findButton(blocks, 'mute', undefined)).toBeUndefined();
    expect(findButton('not blocks', 'mute', undefined)).toBeUndefined();
  });
});

describe('opening the Home tab in the simulated Slack', () => {
  let slack: SlackSimulator;
  let app: App;
  const seen: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    slack = await startFakeSlack();
    app = new App(socketModeOptions(slack));
    app.event('app_home_opened', async ({ event, client }) => {
      seen.push(event as unknown as Record<string, unknown>);
      await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `visit ${seen.length}` } }] } });
    });
    await app.start();
  });

  afterAll(async () => {
    await app.stop();
    await slack.close();
  });

  it('sends app_home_opened for the home tab, from the DM, with the view published last time', async () => {
    await slack.openHomeTab(ALICE.id);
    await slack.waitFor((c) => c.method === 'views.publish');
    expect(seen[0]).toMatchObject({ type: 'app_home_opened', user: ALICE.id, channel: 'D0ALICE', tab: 'home' });
    expect(seen[0]).not.toHaveProperty('view');

    await slack.openHomeTab(ALICE.id);
    await slack.waitFor((c) => c.method === 'views.publish' && JSON.stringify(c.body.view).includes('visit 2'));
    expect(seen[1].view).toMatchObject({ id: 'V0ALICE', type: 'home', blocks: [{ text: { text: 'visit 1' } }] });
  });
});
