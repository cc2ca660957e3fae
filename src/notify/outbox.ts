/**
 * Sends what the bot has decided to say. Messages are queued in SQLite first (so a crash or a
 * Slack outage loses nothing), sent in order, moved to the ledger in the same transaction that
 * removes them from the queue (so nothing is sent twice), and retried with backoff, honouring
 * Slack's Retry-After, when Slack says no for a reason that can pass.
 */
import type { Logger } from 'pino';
import type { OutboxItem, Store } from '../store/sqlite.js';
import { context, type Block } from '../slack/blocks.js';
import { escapeMrkdwn } from '../slack/mrkdwn.js';
import type { Delivery } from './mutes.js';
import type { OwnerDirectory } from './owners.js';

/** The Slack calls the outbox makes (implemented over Bolt's WebClient in slack/client.ts). */
export interface SlackPoster {
  openDm(userId: string): Promise<string>;
  post(channel: string, message: { text: string; blocks?: unknown[] }): Promise<{ channel: string; ts?: string }>;
  update(channel: string, ts: string, message: { text: string; blocks?: unknown[] }): Promise<void>;
}

export class SlackSendError extends Error {
  constructor(
    message: string,
    /** permanent: retrying cannot help (channel_not_found, invalid_blocks, …). */
    readonly permanent: boolean,
    readonly retryAfterMs?: number,
    readonly slackError?: string,
  ) {
    super(message);
    this.name = 'SlackSendError';
  }
}

export interface OutboxOptions {
  store: Store;
  slack: SlackPoster;
  owners: OwnerDirectory;
  /** Channel for a project's workloads whose owner has no Slack user. */
  projectChannel(project: string): string | undefined;
  fallbackChannel?: string;
  /** Whether this message may go to this person now (mutes, settings, quiet hours). */
  delivery(userId: string, item: OutboxItem): Delivery;
  log: Logger;
  now(): Date;
  onSent?(item: OutboxItem): void;
  onError?(kind: 'ratelimited' | 'transient' | 'permanent'): void;
  maxAttempts?: number;
}

const MAX_BACKOFF_MS = 10 * 60_000;

export class Outbox {
  private draining?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private readonly pausedChannels = new Map<string, number>();
  private stopped = false;

  constructor(private readonly options: OutboxOptions) {}

  /** Starts the retry timer; `kick()` sends at once whenever something is queued. */
  start(intervalMs = 1000): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
  }

  /** Stops sending; resolves when the send in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves once everything due now has been tried (tests and shutdown use it). */
  async flush(): Promise<void> {
    this.kick();
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    const { store, log } = this.options;
    for (;;) {
      const due = store.dueOutbox(this.options.now(), 50);
      if (!due.length || this.stopped) return;
      let progressed = false;
      for (const item of due) {
        if (this.stopped) return;
        try {
          await this.send(item);
          progressed = true;
        } catch (err) {
          progressed = this.failed(item, err) || progressed;
        }
      }
      if (!progressed) return;
      log.trace({ remaining: store.outboxDepth() }, 'outbox pass done');
    }
  }

  private async send(item: OutboxItem): Promise<void> {
    const { store, slack, owners, log } = this.options;
    let channel: string | undefined;
    let recipient: string;
    let payload = item.payload;
    const target = item.target;
    if (target.type === 'update') {
      await this.rewrite(item, target.anchorKey);
      return;
    }
    if (target.type === 'channel') {
      channel = target.channel;
      recipient = target.channel;
    } else {
      const userId = target.type === 'user' ? target.user : await owners.slackUserFor(target.owner);
      if (userId) {
        const delivery = this.options.delivery(userId, item);
        if (delivery.action === 'drop') {
          // Recorded as handled, so it is not decided and queued again.
          store.completeOutbox(item.id, { key: item.key, recipient: `muted:${userId}`, sentAt: this.options.now().toISOString() });
          log.info({ key: item.key, why: delivery.why }, 'not sent: the recipient does not want it');
          return;
        }
        if (delivery.action === 'defer') {
          store.retryOutboxLater(item.id, delivery.until, 'quiet hours', false);
          return;
        }
        recipient = userId;
        channel = await this.withPause(`dm:${userId}`, () => slack.openDm(userId));
      } else {
        const owner = target.type === 'owner' ? target.owner : undefined;
        channel = (target.type === 'owner' ? this.options.projectChannel(target.project) : undefined) ?? this.options.fallbackChannel;
        recipient = channel ?? '';
        if (!channel) {
          store.dropOutbox(item.id);
          log.error({ key: item.key, owner }, 'no Slack user for the owner and no project or fallback channel configured; message dropped');
          this.options.onError?.('permanent');
          return;
        }
        payload = withOwnerNote(payload, owner);
      }
    }
    const result = await this.withPause(channel, () => slack.post(channel!, payload));
    store.completeOutbox(item.id, { key: item.key, recipient, channel: result.channel, ts: result.ts, sentAt: this.options.now().toISOString() });
    this.options.onSent?.(item);
  }

  /** Rewrites a message already sent; waits while the original is still queued. */
  private async rewrite(item: OutboxItem, anchorKey: string): Promise<void> {
    const { store, slack, log } = this.options;
    const anchor = store.ledgerEntry(anchorKey);
    if (!anchor) {
      if (store.isQueued(anchorKey)) {
        store.retryOutboxLater(item.id, new Date(this.options.now().getTime() + 1000), 'waiting for the original message', false);
      } else {
        store.dropOutbox(item.id);
        log.warn({ key: item.key, anchorKey }, 'the message to rewrite was never sent; rewrite dropped');
      }
      return;
    }
    if (!anchor.channel || !anchor.ts) {
      // The original was not posted (the person muted it): nothing to rewrite.
      store.completeOutbox(item.id, { key: item.key, recipient: anchor.recipient, sentAt: this.options.now().toISOString() });
      return;
    }
    await this.withPause(anchor.channel, () => slack.update(anchor.channel!, anchor.ts!, item.payload));
    store.completeOutbox(item.id, { key: item.key, recipient: anchor.recipient, channel: anchor.channel, ts: anchor.ts, sentAt: this.options.now().toISOString() });
    this.options.onSent?.(item);
  }

  /** Runs a call unless its channel is paused by a recent 429; a 429 pauses the channel. */
  private async withPause<T>(channel: string, call: () => Promise<T>): Promise<T> {
    const until = this.pausedChannels.get(channel) ?? 0;
    const now = this.options.now().getTime();
    if (until > now) throw new SlackSendError('channel is rate limited', false, until - now, 'ratelimited');
    try {
      return await call();
    } catch (err) {
      if (err instanceof SlackSendError && err.retryAfterMs !== undefined) this.pausedChannels.set(channel, now + err.retryAfterMs);
      throw err;
    }
  }

  /** Reschedules or drops a failed item. Returns true when the item left the queue. */
  private failed(item: OutboxItem, err: unknown): boolean {
    const { store, log } = this.options;
    const maxAttempts = this.options.maxAttempts ?? 40;
    const e = err instanceof SlackSendError ? err : new SlackSendError((err as Error)?.message ?? String(err), false);
    if (e.slackError === 'ratelimited') {
      this.options.onError?.('ratelimited');
      store.retryOutboxLater(item.id, new Date(this.options.now().getTime() + (e.retryAfterMs ?? 1000)), e.message);
      return false;
    }
    if (e.permanent && e.slackError === 'invalid_blocks' && item.payload.blocks) {
      // Never lose the alert over a layout problem: send the text fallback alone.
      log.error({ key: item.key, slackError: e.slackError }, 'Slack refused the blocks; sending the text fallback only');
      store.db.prepare('UPDATE outbox SET payload = ? WHERE id = ?').run(JSON.stringify({ text: item.payload.text }), item.id);
      return true;
    }
    if (e.permanent || item.attempts + 1 >= maxAttempts) {
      this.options.onError?.('permanent');
      log.error({ key: item.key, slackError: e.slackError, err: e.message, attempts: item.attempts + 1 }, 'message dropped');
      store.dropOutbox(item.id);
      return true;
    }
    this.options.onError?.('transient');
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** item.attempts);
    log.warn({ key: item.key, err: e.message, retryInMs: delay }, 'sending failed; will retry');
    store.retryOutboxLater(item.id, new Date(this.options.now().getTime() + delay), e.message);
    return false;
  }
}

/** The message went to a channel instead of its owner: say whose it is, right under the header. */
export function withOwnerNote(payload: OutboxItem['payload'], owner: string | undefined): OutboxItem['payload'] {
  const note = owner
    ? `Workload of *${escapeMrkdwn(owner)}*: no Slack user could be found for this owner, so it is posted here. Map them under \`owners.map\` in the bot's config.`
    : 'This workload names no owner, so it is posted here.';
  const blocks = (payload.blocks ?? []) as Block[];
  const at = blocks[0]?.type === 'header' ? 1 : 0;
  return {
    // The owner comes from the cluster (an annotation, spec.username): through the pipeline
    // like any workload text, or `<!channel>` in it would ping the channel from the fallback.
    text: `[for ${escapeMrkdwn(owner ?? 'unknown owner')}] ${payload.text}`,
    blocks: blocks.length ? [...blocks.slice(0, at), context(note), ...blocks.slice(at)].slice(0, 50) : undefined,
  };
}
