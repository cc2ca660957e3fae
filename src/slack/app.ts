/**
 * Bolt, in Socket Mode (default: no public URL needed next to an on-premise cluster) or HTTP
 * mode (every request verified with the signing secret; Bolt answers 401 to a bad, stale or
 * missing signature before any listener runs).
 */
import type { Server } from 'node:http';
import { App, HTTPReceiver, SocketModeReceiver, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { Config } from '../config.js';
import { fetchThrough } from '../lib/proxy.js';
import { SlackConnection } from './connection.js';
import { slackLogLine } from './log-scrub.js';

export { App };

export interface SlackAppOptions {
  config: Config;
  log: Logger;
  /** Retries for the Web API: the outbox retries on its own schedule, so keep this small. */
  retries?: number;
  /** Told once per connection problem, with its fix (stderr in the start command). */
  announce?(line: string): void;
  /** Where to reach Slack through (lib/proxy.ts): Web API calls, response_url posts and the Socket Mode WebSocket. */
  dispatcher?: Dispatcher;
}

export interface SlackApp {
  app: App;
  /** Parts built after the app follow it with connection.whenConnected() / whenAuthenticated(). */
  connection: SlackConnection;
  /**
   * HTTP mode: listens on `port` (rejecting if it cannot, e.g. EADDRINUSE) before anything
   * reaches Slack. Both modes: starts checking the token and connecting in the background.
   */
  start(port?: number): Promise<Server | undefined>;
  stop(): Promise<void>;
}

/**
 * Builds the Bolt app and its receiver without touching the network: Slack being down or
 * refusing a token must not stop the bot from watching and archiving (see connection.ts).
 */
export function createSlackApp({ config, log, retries = 2, announce, dispatcher }: SlackAppOptions): SlackApp {
  const { secrets, slack } = config;
  const clientOptions = {
    ...(secrets.slackApiUrl ? { slackApiUrl: withTrailingSlash(secrets.slackApiUrl) } : {}),
    // Bolt 5 takes no agent: its Web API client and respond() use this fetch; the receiver below takes the dispatcher itself.
    ...(dispatcher ? { fetch: fetchThrough(dispatcher) } : {}),
    // Explicit, or Socket Mode silently gives listener clients 100 retries (slack-reference §1.2).
    retryConfig: { retries, factor: 2, minTimeout: 500, maxTimeout: 5000 },
    // 429s come back to the caller, which reschedules them (the outbox keeps them on disk).
    rejectRateLimitedCalls: true,
    timeout: 15_000,
  };
  const logger = boltLogger(log.child({ component: 'bolt' }, config.log.slackDebug ? { level: 'debug' } : {}), config.log.slackDebug);
  const logLevel = config.log.slackDebug ? LogLevel.DEBUG : LogLevel.WARN;
  // Built here rather than by Bolt so the bot holds them: it starts the HTTP server before
  // auth.test succeeds (App.start refuses to), and drives the socket's reconnects itself.
  const socketReceiver = slack.mode === 'socket'
    ? new SocketModeReceiver({
        appToken: secrets.slackAppToken!,
        // The WebSocket's way out; apps.connections.open goes through clientOptions.fetch.
        dispatcher,
        logger,
        logLevel,
        autoReconnectEnabled: false,
        // apps.connections.open: one try per attempt; connection.ts owns the schedule.
        installerOptions: { clientOptions: { ...clientOptions, retryConfig: { retries: 0 } } },
      })
    : undefined;
  const httpReceiver = slack.mode === 'http'
    // No customRoutes: this port is Slack's, public; ops endpoints have their own (ops/server.ts).
    ? new HTTPReceiver({ signingSecret: secrets.slackSigningSecret!, port: slack.port, logger, logLevel })
    : undefined;
  const app = new App({
    token: secrets.slackBotToken,
    receiver: socketReceiver ?? httpReceiver,
    ...(socketReceiver ? { socketMode: true, appToken: secrets.slackAppToken } : {}),
    clientOptions,
    logger,
    logLevel,
    // auth.test runs in init(), which connection.ts retries in the background.
    deferInitialization: true,
  });
  const connection = new SlackConnection({
    authenticate: () => app.init(),
    socket: socketReceiver?.client,
    log: log.child({ component: 'slack-connection' }),
    announce,
  });
  return {
    app,
    connection,
    async start(port) {
      const server = httpReceiver ? ((await httpReceiver.start(port ?? slack.port)) as Server) : undefined;
      connection.start();
      return server;
    },
    async stop() {
      await connection.stop();
      if (httpReceiver) await httpReceiver.stop().catch(() => undefined);
    },
  };
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
