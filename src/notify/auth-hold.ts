/**
 * The outbox's auth hold: Slack rejects the token itself, so no message can go until someone
 * fixes the secret, and retrying costs nothing — the whole queue waits rather than dropping each
 * item as "permanent". missing_scope is not here: it is per method (a lost im:write still lets
 * channel posts through), so it is retried per item with backoff, within the retention.
 */
import type { Logger } from 'pino';

const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive']);

/** Whether Slack's error rejects the token (not one call). */
export function rejectsToken(slackError: string | undefined): boolean {
  return slackError !== undefined && AUTH_ERRORS.has(slackError);
}

export interface AuthHoldOptions {
  log: Logger;
  now(): Date;
  /** How often a held queue tries again. Default one minute. */
  retryMs?: number;
  /** Where the one-line operator alarm goes (default: stderr). */
  alarm?(line: string): void;
  onHeld?(): void;
}

export class AuthHold {
  private heldUntil = 0;
  private why?: string;

  constructor(private readonly options: AuthHoldOptions) {}

  /** True until the next retry of a held queue. */
  holding(): boolean {
    return this.heldUntil > this.options.now().getTime();
  }

  /** The Slack error that holds the queue (invalid_auth, token_revoked, …), if any. */
  problem(): string | undefined {
    return this.why;
  }

  /** Slack rejected the token: hold everything, and say so once (until it works again). */
  hold(slackError: string): void {
    const retryMs = this.options.retryMs ?? 60_000;
    this.heldUntil = this.options.now().getTime() + retryMs;
    this.options.onHeld?.();
    if (this.why) return;
    this.why = slackError;
    const line = `SLACK_BOT_TOKEN was rejected: ${slackError}. Nothing is dropped; every message waits (up to slack.outboxRetention) and is retried every ${Math.round(retryMs / 1000)} s. Fix: reinstall the app to the workspace (OAuth & Permissions) and update the secret with the new Bot User OAuth Token (xoxb-…).`;
    this.options.log.error({ slackError, retryInMs: retryMs }, line);
    (this.options.alarm ?? ((text: string) => process.stderr.write(`${text}\n`)))(line);
  }

  /** A Slack call worked: the token is good again. */
  works(): void {
    if (!this.why) return;
    this.options.log.info({ was: this.why }, 'Slack accepts the bot token again; sending what was held');
    this.why = undefined;
    this.heldUntil = 0;
  }
}
