/**
 * The Web API calls the bot's core makes, over Bolt's WebClient, with Slack's errors turned
 * into ones the core can act on: rate limited (retry after), transient (retry with backoff)
 * or permanent (retrying cannot help).
 */
import type { WebClient } from '@slack/web-api';
import type { Block } from '../messages/blocks.js';
import { SlackSendError, type SlackPoster } from '../notify/outbox.js';
import type { SlackDirectory } from '../notify/owners.js';

const TRANSIENT_PLATFORM_ERRORS = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

export function toSlackSendError(err: unknown): SlackSendError {
  const e = err as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number; message?: string };
  switch (e?.code) {
    case 'slack_webapi_rate_limited_error':
      return new SlackSendError('rate limited by Slack', false, Math.max(1, e.retryAfter ?? 1) * 1000, 'ratelimited');
    case 'slack_webapi_platform_error': {
      const code = e.data?.error ?? 'unknown_error';
      return new SlackSendError(`Slack refused: ${code}`, !TRANSIENT_PLATFORM_ERRORS.has(code), undefined, code);
    }
    case 'slack_webapi_http_error':
      return new SlackSendError(`Slack answered HTTP ${e.statusCode}`, false);
    case 'slack_webapi_request_error':
      return new SlackSendError('Slack could not be reached', false);
    default:
      return new SlackSendError(e?.message ?? String(err), false);
  }
}

export class SlackGateway implements SlackPoster, SlackDirectory {
  /** The workspace's address (auth.test `url`, e.g. https://acme.slack.com/), asked once. */
  private workspaceUrl?: Promise<string | undefined>;

  constructor(private readonly client: WebClient) {}

  /**
   * A message's permalink in Slack's own form, `<workspace url>archives/<channel>/p<ts without
   * the dot>`, from auth.test's url (one call, then kept): chat.getPermalink would cost a call per
   * link. Undefined when Slack does not say its address.
   */
  async permalink(channel: string, ts: string): Promise<string | undefined> {
    this.workspaceUrl ??= this.client.auth.test().then(
      (r) => (typeof r.url === 'string' && /^https:\/\/[A-Za-z0-9.-]+\/$/.test(r.url) ? r.url : undefined),
      (err: unknown) => {
        this.workspaceUrl = undefined;
        throw toSlackSendError(err);
      },
    );
    const base = await this.workspaceUrl;
    return base && /^\d+\.\d+$/.test(ts) ? `${base}archives/${channel}/p${ts.replace('.', '')}` : undefined;
  }

  async post(channel: string, message: { text: string; blocks?: Block[] }): Promise<{ channel: string; ts?: string }> {
    return this.postMessage(channel, message);
  }

  /** A reply in the thread of `threadTs`, never broadcast to the channel (reply_broadcast is left unset). */
  async reply(channel: string, threadTs: string, message: { text: string; blocks?: Block[] }): Promise<{ channel: string; ts?: string }> {
    return this.postMessage(channel, message, threadTs);
  }

  private async postMessage(channel: string, message: { text: string; blocks?: Block[] }, threadTs?: string): Promise<{ channel: string; ts?: string }> {
    try {
      const result = await this.client.chat.postMessage({
        channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
        unfurl_links: false,
        unfurl_media: false,
      });
      return { channel: result.channel ?? channel, ts: result.ts };
    } catch (err) {
      throw toSlackSendError(err);
    }
  }

  async update(channel: string, ts: string, message: { text: string; blocks?: Block[] }): Promise<void> {
    try {
      await this.client.chat.update({ channel, ts, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
    } catch (err) {
      throw toSlackSendError(err);
    }
  }

  async lookupByEmail(email: string): Promise<string | undefined> {
    try {
      const result = await this.client.users.lookupByEmail({ email });
      return result.user?.deleted ? undefined : result.user?.id;
    } catch (err) {
      const e = toSlackSendError(err);
      if (e.slackError === 'users_not_found') return undefined;
      throw e;
    }
  }

  async emailOf(userId: string): Promise<string | undefined> {
    try {
      const result = await this.client.users.info({ user: userId });
      return result.user?.profile?.email ?? undefined;
    } catch (err) {
      const e = toSlackSendError(err);
      if (e.slackError === 'user_not_found') return undefined;
      throw e;
    }
  }
}
