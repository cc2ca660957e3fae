/**
 * Staying connected to Slack without ever holding the rest of the bot hostage: the bot token is
 * checked (auth.test) and, in Socket Mode, the websocket opened in the background, each retried
 * with capped, jittered backoff for as long as the process runs. While Slack is unreachable or
 * refuses a token the bot keeps watching, archiving and queueing; readiness says why it is not
 * connected. @slack/socket-mode's own reconnect is switched off (autoReconnectEnabled: false):
 * it drops the promise of a failed reconnect, so a 5xx from apps.connections.open during a
 * reconnect becomes an unhandled rejection that ends the process (slackapi/node-slack-sdk#2656).
 */
import type { Logger } from 'pino';
import { backoffDelay, SLACK_BACKOFF, type Backoff } from '../lib/backoff.js';

/** The part of @slack/socket-mode's SocketModeClient this drives. */
export interface SocketClient {
  start(): Promise<unknown>;
  disconnect(): Promise<void>;
  on(event: 'disconnected', listener: () => void): unknown;
}

export interface SlackConnectionOptions {
  /** Checks the bot token (Bolt's app.init(): auth.test); rejects when Slack is unreachable or refuses it. */
  authenticate(): Promise<void>;
  /** Socket Mode only: the client whose connection to keep open. */
  socket?: SocketClient;
  log: Logger;
  /** Told once per distinct problem, with its fix (the start command writes it to stderr). */
  announce?(line: string): void;
  /** Called each time the bot goes from not connected to connected (drain the outbox). */
  onConnected?(): void;
  /** Called once, when Slack first accepts the bot token: the Web API can be used from then on. */
  onAuthenticated?(): void;
  backoff?: Backoff;
  random?: () => number;
}

export interface ConnectionStatus {
  ok: boolean;
  detail?: string;
}

export class SlackConnection {
  private authOk = false;
  private authProblem = 'checking the bot token (auth.test)';
  private socketOk = false;
  private socketProblem = 'connecting (Socket Mode)';
  private connecting = false;
  private stopped = false;
  private wasConnected = false;
  private readonly announced = new Set<string>();
  /** Subscribed by the parts built after the Slack app (the outbox, leadership): see whenConnected/whenAuthenticated. */
  private readonly connectedListeners: Array<() => void> = [];
  private readonly authenticatedListeners: Array<() => void> = [];
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve(): void }>();
  private readonly attempted = { auth: deferred(), socket: deferred() };
  /** Resolves when the token check and the first socket connection have each been tried once. */
  readonly firstAttempt = Promise.all([this.attempted.auth.promise, this.attempted.socket.promise]).then(() => undefined);

  constructor(private readonly options: SlackConnectionOptions) {
    options.socket?.on('disconnected', () => {
      if (this.stopped || !this.socketOk) return;
      this.socketOk = false;
      this.socketProblem = 'Socket Mode connection closed; reconnecting';
      options.log.warn('Socket Mode connection closed; reconnecting');
      this.changed();
      void this.connectSocket();
    });
  }

  /** Starts both loops in the background; never throws, never waits for Slack. */
  start(): void {
    this.stopped = false;
    if (!this.options.socket) this.attempted.socket.resolve();
    void this.authenticate();
    void this.connectSocket();
  }

  status(): ConnectionStatus {
    if (!this.authOk) return { ok: false, detail: this.authProblem };
    if (this.options.socket && !this.socketOk) return { ok: false, detail: this.socketProblem };
    return { ok: true };
  }

  get connected(): boolean {
    return this.status().ok;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.attempted.auth.resolve();
    this.attempted.socket.resolve();
    for (const { timer, resolve } of this.timers) {
      clearTimeout(timer);
      resolve();
    }
    this.timers.clear();
    await this.options.socket?.disconnect().catch(() => undefined);
  }

  /** Each time the bot goes from not connected to connected (the outbox sends what waited). */
  whenConnected(listener: () => void): void {
    this.connectedListeners.push(listener);
  }

  /** Once, when Slack first accepts the bot token (the leader may send from then on). */
  whenAuthenticated(listener: () => void): void {
    this.authenticatedListeners.push(listener);
  }

  private async authenticate(): Promise<void> {
    const { log } = this.options;
    for (let failures = 1; !this.stopped; failures++) {
      try {
        await this.options.authenticate().finally(() => this.attempted.auth.resolve());
        if (this.stopped) return;
        this.authOk = true;
        log.info('Slack accepted the bot token');
        this.options.onAuthenticated?.();
        for (const listener of this.authenticatedListeners) listener();
        this.changed();
        return;
      } catch (err) {
        if (this.stopped) return;
        this.authProblem = describeAuthError(err);
        const wait = this.delay(failures);
        this.report(this.authProblem, { retryInMs: wait });
        await this.sleep(wait);
      }
    }
  }

  private async connectSocket(): Promise<void> {
    const { socket, log } = this.options;
    if (!socket || this.connecting || this.stopped) return;
    this.connecting = true;
    try {
      for (let failures = 1; !this.stopped; failures++) {
        try {
          await socket.start().finally(() => this.attempted.socket.resolve());
          if (this.stopped) return;
          this.socketOk = true;
          log.info('Socket Mode connected');
          this.changed();
          return;
        } catch (err) {
          if (this.stopped) return;
          this.socketProblem = describeSocketError(err);
          const wait = this.delay(failures);
          this.report(this.socketProblem, { retryInMs: wait });
          await this.sleep(wait);
        }
      }
    } finally {
      this.connecting = false;
    }
  }

  /** The first time a problem is seen it is an error with its fix; repeats are quiet. */
  private report(problem: string, fields: Record<string, unknown>): void {
    if (this.announced.has(problem)) {
      this.options.log.debug(fields, problem);
      return;
    }
    this.announced.add(problem);
    this.options.log.error(fields, problem);
    this.options.announce?.(problem);
  }

  private changed(): void {
    const ok = this.connected;
    if (ok && !this.wasConnected) {
      this.announced.clear();
      this.options.onConnected?.();
      for (const listener of this.connectedListeners) listener();
    }
    this.wasConnected = ok;
  }

  private delay(failures: number): number {
    return backoffDelay(failures, (this.options.random ?? Math.random)(), this.options.backoff ?? SLACK_BACKOFF);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.timers.add(entry);
    });
  }
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

interface SlackErrorShape {
  code?: string;
  data?: { error?: string };
  statusCode?: number;
  message?: string;
  original?: { code?: string; message?: string };
}

/** Platform errors that mean the token itself is wrong, not that Slack is having a bad day. */
const TOKEN_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type', 'missing_scope']);

/** What went wrong checking the bot token, with the fix; never the token or a URL with a ticket. */
export function describeAuthError(err: unknown): string {
  const e = (err ?? {}) as SlackErrorShape;
  if (e.code === 'slack_webapi_platform_error') {
    const code = e.data?.error ?? 'unknown_error';
    if (TOKEN_ERRORS.has(code)) {
      return `Slack refused the bot token (SLACK_BOT_TOKEN): ${code}. Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions, and reinstall the app if its scopes changed.`;
    }
    return `Slack answered auth.test with ${code}; retrying`;
  }
  return `cannot reach Slack to check the bot token: ${transportProblem(e)}; retrying`;
}

export function describeSocketError(err: unknown): string {
  const e = (err ?? {}) as SlackErrorShape;
  if (e.code === 'slack_webapi_platform_error') {
    const code = e.data?.error ?? 'unknown_error';
    if (TOKEN_ERRORS.has(code)) {
      return `Slack refused the app-level token (SLACK_APP_TOKEN): ${code}. Create one with connections:write under Basic Information → App-Level Tokens, and enable Socket Mode.`;
    }
    return `Socket Mode not connected: apps.connections.open answered ${code}; retrying`;
  }
  if (err === undefined) return 'Socket Mode not connected: the connection closed before Slack said hello; retrying';
  return `Socket Mode not connected: ${transportProblem(e)}; retrying`;
}

function transportProblem(e: SlackErrorShape): string {
  if (e.code === 'slack_webapi_http_error') return `Slack answered HTTP ${e.statusCode}`;
  if (e.code === 'slack_webapi_request_error') return `request failed (${e.original?.code ?? e.original?.message ?? 'no answer'})`;
  if (e.code === 'slack_webapi_rate_limited_error') return 'rate limited by Slack';
  // Websocket errors name only the status ("Unexpected server response: 503"), never the ticket URL.
  return stripUrls(e.message ?? 'unknown error');
}

/** A websocket URL carries a one-use ticket: keep it out of logs and readiness. */
function stripUrls(text: string): string {
  return text.replace(/\b(?:wss?|https?):\/\/\S+/g, '<url>');
}
