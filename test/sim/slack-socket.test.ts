import { App, LogLevel, RespondError, SocketModeReceiver } from '@slack/bolt';
import { ALICE, SlackSimulator, startFakeSlack } from '../fakes/slack.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('simulated Slack Socket Mode with the real Bolt app', () => {
  let slack: SlackSimulator;
  let app: App;
  const homeClicks: Array<{ hadRespond: boolean; container: unknown }> = [];
  const eventBodies: unknown[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack();
    // A custom receiver, to reconnect quickly: it needs its own slackApiUrl (slack-reference.md §1.2).
    const receiver = new SocketModeReceiver({
      appToken: slack.appToken,
      clientPingTimeout: 2000,
      logLevel: LogLevel.ERROR,
      installerOptions: { clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } } },
    });
    app = new App({ token: slack.botToken, receiver, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } } });
    app.command('/silent', async () => {
      // never acks: Bolt in Socket Mode has no 3-second timer of its own
    });
    app.command('/chatty', async ({ ack, respond, command, client }) => {
      await ack();
      const statuses = [];
      for (const text of [...['1', '2', '3', '4', '5', '6'].map((n) => `update ${n}`), 'oversized']) {
        const blocks = text === 'oversized' ? [section('x'.repeat(3001))] : undefined;
        statuses.push(await respond({ text, blocks }).then((r) => r.status, (e: unknown) => (e instanceof RespondError ? `RespondError ${e.statusCode}` : String(e))));
      }
      // Report back through the Web API, so the test can wait for the listener to finish.
      await client.chat.postMessage({ channel: command.user_id, text: statuses.join(' ') });
    });
    app.command('/oversized', async ({ ack, respond, command, client }) => {
      await ack();
      const status = await respond({ text: 'too big', blocks: [section('x'.repeat(3001))] }).then((r) => r.status, (e: unknown) => (e instanceof RespondError ? `RespondError ${e.statusCode}` : String(e)));
      await client.chat.postMessage({ channel: command.user_id, text: `oversized: ${status}` });
    });
    app.action('refresh_home', async ({ ack, respond, body }) => {
      await ack();
      homeClicks.push({ hadRespond: respond !== undefined, container: 'container' in body ? body.container : undefined });
    });
    app.event('app_mention', async ({ body }) => {
      eventBodies.push(body);
    });
    await app.start();
  });

  afterAll(async () => {
    await app.stop();
    await slack.close();
  });

  it('wraps events in the full event_callback body the JS client expects', async () => {
    expect(await slack.sendEvent({ type: 'app_mention', user: ALICE.id, text: '<@USIMBOT> hi', channel: 'C0NLP' })).toEqual({});
    expect(eventBodies[0]).toMatchObject({
      type: 'event_callback',
      team_id: 'TSIM',
      api_app_id: 'ASIMAPP',
      event: { type: 'app_mention', user: ALICE.id },
      authorizations: [{ user_id: 'USIMBOT', is_bot: true }],
    });
  });

  it('gives a Home tab button no response_url, as Slack does', async () => {
    const click = await slack.sendBlockAction({ user_id: ALICE.id, action_id: 'refresh_home' });
    expect(click.responseId).toBeUndefined();
    await expect(click.nextResponse()).rejects.toThrow('has no response_url');
    expect(homeClicks).toEqual([{ hadRespond: false, container: { type: 'view', view_id: 'V0ALICE' } }]);
  });

  it('fails an envelope the app never acknowledges', async () => {
    await expect(slack.sendSlashCommand({ user_id: ALICE.id, command: '/silent' }, 200)).rejects.toThrow('was not acknowledged within 200 ms');
  });

  it('takes five posts on one response_url, then answers 404, which Bolt raises as RespondError', async () => {
    const result = await slack.sendSlashCommand({ user_id: ALICE.id, command: '/chatty' });
    const report = await slack.waitFor((c) => c.method === 'chat.postMessage' && String(c.body.text).startsWith('200'));
    expect(report.body.text).toBe('200 200 200 200 200 RespondError 404 RespondError 404');
    expect(slack.responsesFor(result.responseId!).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 404, 404]);
  });

  it('answers 400 to a response_url post whose blocks Slack would refuse', async () => {
    const result = await slack.sendSlashCommand({ user_id: ALICE.id, command: '/oversized' });
    const report = await slack.waitFor((c) => c.method === 'chat.postMessage' && String(c.body.text).startsWith('oversized'));
    expect(report.body.text).toBe('oversized: RespondError 400');
    expect(slack.responsesFor(result.responseId!)).toEqual([expect.objectContaining({ status: 400 })]);
  });

  it('tells the app to refresh its connection, and the app comes back on a new ticket', async () => {
    slack.disconnectSockets('refresh_requested');
    await slack.waitForSocketConnections(2);
    expect(slack.callsTo('apps.connections.open')).toHaveLength(2);
    expect(await slack.sendEvent({ type: 'app_mention', user: ALICE.id, text: 'again', channel: 'C0NLP' })).toEqual({});
  });
});

describe('simulated Slack Socket Mode without an app', () => {
  it('refuses to send an envelope when no connection is open', async () => {
    const slack = await SlackSimulator.start();
    await expect(slack.sendEvent({ type: 'app_home_opened', user: ALICE.id, tab: 'home' })).rejects.toThrow('no Socket Mode connection is open');
    await slack.close();
  });
});
