/**
 * How the outbox sends a follow-up (an item whose target is `thread`): a reply under the alert
 * it follows (chat.postMessage with thread_ts, never reply_broadcast: a follow-up broadcast back
 * to the channel is filed as a bug against peers, Sentry #90689), or an edit of the alert itself
 * (chat.update). Where the alert went is its ledger row (channel, ts), so this works after a
 * restart or on another replica. Kept apart from outbox.ts, which hands it the calls it shares
 * (its pauses after a 429, its record-or-remember of what Slack accepted).
 */
import type { Logger } from 'pino';
import { mutedRecipient } from '../keys.js';
import type { BurstStore, LedgerEntry, LedgerStore, OutboxItem, OutboxStore, OutboxTarget } from '../store/port.js';
import type { Block } from '../messages/blocks.js';
import type { SkipReason, Wanted } from '../delivery/plan.js';

export type ThreadTarget = Extract<OutboxTarget, { type: 'thread' }>;

export interface FollowUpSendContext {
  store: Pick<LedgerStore, 'ledgerEntry'> & Pick<OutboxStore, 'isQueued' | 'completeOutbox' | 'retryOutboxLater' | 'dropOutbox'> & Pick<BurstStore, 'burstEntries'>;
  slack: {
    reply(channel: string, threadTs: string, message: { text: string; blocks?: Block[] }): Promise<{ channel: string; ts?: string }>;
    update(channel: string, ts: string, message: { text: string; blocks?: Block[] }): Promise<void>;
  };
  /** What the person wants now (delivery/plan.ts wanted: mutes, settings, quiet hours). */
  wanted(userId: string, item: OutboxItem, target: ThreadTarget): Promise<Wanted>;
  onSkipped?(reason: SkipReason): void;
  /** The outbox's 429 pauses around a call. */
  withPause<T>(channel: string, method: 'chat.postMessage' | 'chat.update', call: () => Promise<T>): Promise<T>;
  /** Records what Slack accepted (kept in memory and written later if the store refuses). */
  recordAccepted(item: OutboxItem, write: () => Promise<void>): Promise<void>;
  write(op: string, call: () => Promise<void>): Promise<boolean>;
  /** When the channel was last posted to (ms), if within the last second or so. */
  lastPost(channel: string): number | undefined;
  /** The follow-ups' own pace for edits (kept by the outbox across calls). */
  pace: FollowUpPace;
  now(): Date;
  log: Logger;
}

/**
 * Follow-ups are never urgent, so they keep under Slack's limits instead of learning them from
 * 429s: a reply waits out its channel's second (chat.postMessage, about 1/s per channel), and
 * edits keep to chat.update's Tier 3 (about 50 a minute for the workspace) with a small burst.
 * Without it, a thousand follow-ups met one 429 for nearly every call (bench/followups.ts).
 */
export class FollowUpPace {
  private tokens: number;
  private at = 0;

  constructor(
    private readonly burst = EDIT_BURST,
    private readonly perMs = EDITS_PER_MINUTE / 60_000,
  ) {
    this.tokens = burst;
  }

  /** Takes an edit's turn at `now`: 0 when it may go, else the ms until it may. */
  takeEdit(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + (now - this.at) * this.perMs);
    this.at = now;
    // (Within a hair of a whole token counts as one: 1.5 s of refill is 0.9999999 in floating point.)
    if (this.tokens >= 1 - 1e-9) {
      this.tokens = Math.max(0, this.tokens - 1);
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perMs - 1e-6));
  }
}

/** chat.update's Tier 3 (docs.slack.dev/apis/web-api/rate-limits: 50+ per minute), shared with burst rewrites: a little under it. */
const EDITS_PER_MINUTE = 40;
const EDIT_BURST = 5;
/** chat.postMessage's per-channel limit: about one a second. */
const CHANNEL_POST_MS = 1000;

/** How long a follow-up waits for its alert, still queued, before it looks again. */
const WAIT_FOR_ROOT_MS = 1000;

/** A Slack user id (a DM): a person whose mutes and quiet hours apply. A channel id starts with C or G. */
const PERSON = /^[UW][A-Z0-9]+$/;

export async function sendFollowUp(item: OutboxItem, target: ThreadTarget, ctx: FollowUpSendContext): Promise<void> {
  const { store, log } = ctx;
  const sentAt = () => ctx.now().toISOString();
  const root = await store.ledgerEntry(target.rootKey);
  if (!root) {
    if (await store.isQueued(target.rootKey)) {
      await ctx.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(ctx.now().getTime() + WAIT_FOR_ROOT_MS), 'waiting for the alert it follows', 'deliberate'));
    } else {
      await ctx.write('dropOutbox', () => store.dropOutbox(item.id));
      log.warn({ key: item.key, root: target.rootKey }, 'the alert this follows was never sent; follow-up dropped');
    }
    return;
  }
  const handled = (entry: Omit<LedgerEntry, 'key' | 'sentAt'>) => ctx.write('completeOutbox', () => store.completeOutbox(item.id, { key: item.key, sentAt: sentAt(), ...entry }));
  if (!root.channel || !root.ts) {
    // The alert was not posted (its owner had muted it): nor is what follows it.
    await handled({ recipient: root.recipient });
    log.info({ key: item.key, root: target.rootKey }, 'not sent: the alert it follows was not posted');
    return;
  }
  if (PERSON.test(root.recipient)) {
    const delivery = await ctx.wanted(root.recipient, item, target);
    if (delivery.action === 'drop') {
      if (await handled({ recipient: mutedRecipient(root.recipient) })) {
        log.info({ key: item.key, why: delivery.why }, 'not sent: the recipient does not want it');
        ctx.onSkipped?.(delivery.reason);
      }
      return;
    }
    if (delivery.action === 'defer') {
      await ctx.write('retryOutboxLater', () => store.retryOutboxLater(item.id, delivery.until, 'quiet hours', 'deliberate'));
      return;
    }
  }
  const channel = root.channel;
  const ts = root.ts;
  const now = ctx.now().getTime();
  const paced = async (waitMs: number, why: string) => {
    await ctx.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(now + waitMs), why, 'deliberate'));
  };
  if (target.edit) {
    // A root that became a burst lists several workloads: its first line is not this one's to
    // change. (An alert folded into another's burst is never edited: notify/follow-ups.ts.)
    if ((await store.burstEntries(target.rootKey)).length > 0) {
      await handled({ recipient: root.recipient, channel, ts });
      return;
    }
    const wait = ctx.pace.takeEdit(now);
    if (wait > 0) return paced(wait, 'paced: chat.update is Tier 3');
    await ctx.withPause(channel, 'chat.update', () => ctx.slack.update(channel, ts, item.payload));
    await ctx.recordAccepted(item, () => store.completeOutbox(item.id, { key: item.key, recipient: root.recipient, channel, ts, sentAt: sentAt() }));
    return;
  }
  const last = ctx.lastPost(channel);
  if (last !== undefined && now - last < CHANNEL_POST_MS) return paced(CHANNEL_POST_MS - (now - last), 'paced: one post a second per channel');
  const posted = await ctx.withPause(channel, 'chat.postMessage', () => ctx.slack.reply(channel, ts, item.payload));
  await ctx.recordAccepted(item, () => store.completeOutbox(item.id, { key: item.key, recipient: root.recipient, channel: posted.channel, ts: posted.ts, sentAt: sentAt() }));
}
