/**
 * Bolt, in Socket Mode (default: no public URL needed next to an on-premise cluster) or HTTP
 * mode (every request verified with the signing secret; Bolt answers 401 to a bad, stale or
 * missing signature before any listener runs).
 */
import { App, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { slackLogLine } from './log-scrub.js';

export { App };

export interface SlackAppOptions {
  config: Config;
  log: Logger;
  /** Retries for the Web API: the outbox retries on its own schedule, so keep this small. */
  retries?: number;
}

export async function createSlackApp({ config, log, retries = 2 }: SlackAppOptions): Promise<App> {
  const { secrets, slack } = config;
  const socket = slack.mode === 'socket';
  const app = new App({
    token: secrets.slackBotToken,
    ...(socket
      ? { socketMode: true, appToken: secrets.slackAppToken, installerOptions: { port: slack.port } }
      // No customRoutes: this port is Slack's, public; ops endpoints have their own (ops/server.ts).
      : { signingSecret: secrets.slackSigningSecret, port: slack.port }),
    clientOptions: {
      ...(secrets.slackApiUrl ? { slackApiUrl: withTrailingSlash(secrets.slackApiUrl) } : {}),
      // Explicit, or Socket Mode silently gives listener clients 100 retries (slack-reference §1.2).
      retryConfig: { retries, factor: 2, minTimeout: 500, maxTimeout: 5000 },
      // 429s come back to the caller, which reschedules them (the outbox keeps them on disk).
      rejectRateLimitedCalls: true,
      timeout: 15_000,
    },
    logger: boltLogger(log.child({ component: 'bolt' }, config.log.slackDebug ? { level: 'debug' } : {}), config.log.slackDebug),
    logLevel: config.log.slackDebug ? LogLevel.DEBUG : LogLevel.WARN,
    // auth.test runs in init(), where a bad token is a catchable error, not a crash.
    deferInitialization: true,
  });
  try {
    await app.init();
  } catch (err) {
    const e = err as { data?: { error?: string }; code?: string; message?: string };
    if (e.code === 'slack_webapi_platform_error') {
      throw new Error(`Slack refused the bot token (SLACK_BOT_TOKEN): ${e.data?.error}. Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions, and reinstall the app if its scopes changed.`, { cause: err });
    }
    throw new Error(`cannot reach Slack${secrets.slackApiUrl ? ` at ${secrets.slackApiUrl}` : ''}: ${e.message ?? String(err)}`, { cause: err });
  }
  return app;
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * Bolt's logger interface over pino. Bolt, the Web API client and the Socket Mode client share
 * it, and at debug they log whole envelopes and the Socket Mode ticket URL: debug lines are
 * dropped unless log.slackDebug is true, and every line, at any level, is scrubbed of tokens,
 * response_url, trigger_id and ticket URLs.
 */
export function boltLogger(log: Logger, debug = false): BoltLogger {
  let level: LogLevel = debug ? LogLevel.DEBUG : LogLevel.WARN;
  return {
    debug: debug ? (...msg: unknown[]) => log.debug(slackLogLine(msg)) : () => undefined,
    info: (...msg: unknown[]) => log.info(slackLogLine(msg)),
    warn: (...msg: unknown[]) => log.warn(slackLogLine(msg)),
    error: (...msg: unknown[]) => log.error(slackLogLine(msg)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
