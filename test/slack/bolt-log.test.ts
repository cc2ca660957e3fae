/**
 * Bolt and the Slack SDKs log whole envelopes and the Socket Mode ticket URL at debug. Through
 * the real bot and the simulated Slack, with the logger captured at debug: their debug lines
 * are dropped unless log.slackDebug is true, and even then carry no token, response_url,
 * trigger_id or ticket.
 */
import { scrubSlackLogText } from '../../src/slack/log-scrub.js';
import { ALICE } from '../fakes/slack.js';
import type { TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';

const VERIFICATION_TOKEN = 'simulated-verification-token'; // what the simulated payloads carry

describe('Bolt log output', () => {
  const sims = useSimulators();

  /** Starts the bot, has Alice type a command and click nothing; returns what must never be logged. */
  async function exercise(bot: TestBot): Promise<string[]> {
    const result = await sims.slack.sendSlashCommand({ user_id: ALICE.id, text: 'help' });
    await result.nextResponse();
    const ticketUrls = sims.slack.callsTo('apps.connections.open').map((c) => String((c.response as { url: string }).url));
    expect(ticketUrls.length).toBeGreaterThan(0);
    const responseUrl = `/respond/${result.responseId!}`;
    const secrets = [sims.slack.botToken, sims.slack.appToken, VERIFICATION_TOKEN, responseUrl, ...ticketUrls, ...ticketUrls.map((u) => new URL(u).searchParams.get('ticket')!)];
    await bot.stop();
    return secrets;
  }

  const boltEntries = (bot: TestBot) => bot.captured.entries.filter((e) => e.component === 'bolt');

  it('drops Bolt and SDK debug lines unless log.slackDebug is true', async () => {
    const bot = await sims.startBot({}, { logLevel: 'debug' });
    const secrets = await exercise(bot);
    expect(boltEntries(bot).filter((e) => e.level === 'debug')).toEqual([]);
    for (const secret of secrets) expect(bot.captured.text()).not.toContain(secret);
  });

  it('with log.slackDebug: true, logs the envelopes without tokens, response_url or ticket', async () => {
    const bot = await sims.startBot({ log: { slackDebug: true } }, { logLevel: 'info' });
    const secrets = await exercise(bot);
    const debug = boltEntries(bot).filter((e) => e.level === 'debug');
    // The key alone turns them on, whatever log.level says, and they are the envelopes.
    expect(debug.length).toBeGreaterThan(0);
    expect(debug.map((e) => String(e.msg)).join('\n')).toContain('slash_commands');
    const text = bot.captured.text();
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});

describe('scrubSlackLogText', () => {
  it.each([
    ['a bot token', 'token xoxb-1234-5678-abcdef used', 'xoxb-1234'],
    ['an app token', 'appToken: xapp-1-A0-123-abc', 'xapp-1-A0'],
    ['a Socket Mode URL', 'Connecting to wss://wss-primary.slack.com/link/?ticket=abc-123&app_id=A1', 'ticket=abc'],
    ['a JSON response_url', '{"response_url":"https://hooks.slack.com/commands/T1/1/xyz","text":"help"}', 'hooks.slack.com/commands'],
    ['an escaped JSON response_url', '"{\\"response_url\\":\\"http://127.0.0.1:5/respond/r1\\"}"', 'respond/r1'],
    ['a form response_url', 'token=vtok&response_url=https%3A%2F%2Fhooks.slack.com%2Fx&text=help', 'vtok'],
    ['a verification token', '{"token":"vtok-123","team_id":"T1"}', 'vtok-123'],
    ['a trigger_id', '{"trigger_id":"123.456.abc"}', '123.456.abc'],
    ['a Bearer header', 'Authorization: Bearer xyz-secret', 'xyz-secret'],
  ])('removes %s', (_what, line, secret) => {
    const scrubbed = scrubSlackLogText(line);
    expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('[redacted]');
  });

  it('leaves ordinary text alone', () => {
    const line = '[DEBUG] socket-mode:SocketModeClient:0 Transitioning to state: connected, team T1, channel C0VISION';
    expect(scrubSlackLogText(line)).toBe(line);
  });
});
