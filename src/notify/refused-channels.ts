/**
 * Channels where Slack refuses the bot's posts (not invited: not_in_channel; a private channel
 * it cannot see: channel_not_found; archived: is_archived). Such a refusal is about the place,
 * not the message: the sender moves on to the next destination of the message's plan, or the
 * message waits (retried, within slack.outboxRetention) until someone invites the bot. This
 * remembers the refusals so that a burst of messages does not ask Slack again for each one
 * (a refused channel is tried again after `recheckMs`), names them for /readyz and the metrics,
 * and queues one operators' notice per channel per UTC day.
 */
import type { Logger } from 'pino';
import { refusedChannelKey } from '../keys.js';
import { buildRefusedChannelMessage } from '../messages/refused-channel.js';
import type { OutboxStore } from '../store/port.js';
import type { Refusal } from '../delivery/notes.js';

/** Slack errors that refuse a channel (docs.slack.dev/reference/methods/chat.postMessage, "Errors"). */
export const CHANNEL_REFUSALS: ReadonlySet<string> = new Set(['not_in_channel', 'channel_not_found', 'is_archived']);

export interface RefusedChannel extends Refusal {
  /** When Slack first refused it in this run of refusals (ISO). */
  since: string;
}

export interface RefusedChannelsOptions {
  store: Pick<OutboxStore, 'enqueue'>;
  opsChannel?: string;
  /** How long a refusal is believed before the channel is tried again. Default one minute. */
  recheckMs?: number;
  retentionMs: number;
  now(): Date;
  log: Logger;
  /** A notice was queued: send it. */
  queued(): void;
  /** The set changed (metrics). */
  onChange?(refused: readonly RefusedChannel[]): void;
}

const DEFAULT_RECHECK_MS = 60_000;

export class RefusedChannels {
  private readonly refused = new Map<string, { slackError: string; since: number; triedAt: number }>();

  constructor(private readonly options: RefusedChannelsOptions) {}

  /** Slack refused a post to `channel`. */
  async refuse(channel: string, slackError: string): Promise<void> {
    const now = this.options.now();
    const known = this.refused.get(channel);
    this.refused.set(channel, { slackError, since: known?.since ?? now.getTime(), triedAt: now.getTime() });
    if (!known) {
      this.options.log.error({ channel, slackError }, `Slack refuses the bot's posts in ${channel}; messages for it go to the next place in their plan or wait. Fix: /invite the bot in that channel`);
      this.options.onChange?.(this.list());
    }
    await this.notify(channel, slackError, now);
  }

  /** Slack accepted a post to `channel`: it is no longer refused. */
  accepted(channel: string): void {
    if (!this.refused.delete(channel)) return;
    this.options.log.info({ channel }, 'Slack accepts the bot\'s posts in the channel again');
    this.options.onChange?.(this.list());
  }

  /** The refusal still believed for `channel` (tried again once it is older than the recheck). */
  believed(channel: string): Refusal | undefined {
    const known = this.refused.get(channel);
    if (!known) return undefined;
    const fresh = this.options.now().getTime() - known.triedAt < (this.options.recheckMs ?? DEFAULT_RECHECK_MS);
    return fresh ? { channel, slackError: known.slackError } : undefined;
  }

  list(): RefusedChannel[] {
    return [...this.refused].map(([channel, r]) => ({ channel, slackError: r.slackError, since: new Date(r.since).toISOString() }));
  }

  /** For /readyz: which channels refuse, and the fix; undefined when none does. */
  detail(): string | undefined {
    const list = this.list();
    if (!list.length) return undefined;
    return `Slack refuses the bot's posts in ${list.map((r) => `${r.channel} (${r.slackError} since ${r.since})`).join(', ')}: type /invite with the bot's name in each; messages for them are posted elsewhere or wait`;
  }

  /** Queued once a day per channel (the ledger keeps the key); never into the channel that refuses. */
  private async notify(channel: string, slackError: string, now: Date): Promise<void> {
    const ops = this.options.opsChannel;
    if (!ops || ops === channel || this.refused.has(ops) && this.believed(ops)) return;
    const payload = buildRefusedChannelMessage({ channel, slackError, retentionDays: Math.round(this.options.retentionMs / 86_400_000) });
    try {
      if (await this.options.store.enqueue({ key: refusedChannelKey(channel, now), kind: 'refused-channel', target: { type: 'channel', channel: ops }, payload }, now)) this.options.queued();
    } catch (err) {
      // The next refusal queues it again.
      this.options.log.warn({ channel, err: (err as Error)?.message ?? String(err) }, 'cannot queue the operators\' notice about a refused channel');
    }
  }
}
