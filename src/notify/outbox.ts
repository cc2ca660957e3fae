/**
 * Sends what the bot has decided to say. Messages are queued in the store first (so a crash or a
 * Slack outage loses nothing), sent in order, moved to the ledger in the same transaction that
 * removes them from the queue, and retried with backoff, honouring Slack's Retry-After, when
 * Slack says no for a reason that can pass.
 *
 * DELIVERY GUARANTEE (also in the README, "Delivery guarantee"):
 *   Every owed (workload, state) reaches its destination at least once. A duplicate is possible
 *   only for a crash between Slack accepting a message and the store recording it, at most one
 *   per crash. A workload is recorded as told (its ledger row) only when a message that names
 *   it has been accepted by Slack: posted, or edited into an accepted message (a burst rewrite).
 * What keeps it:
 *   - owed messages and burst folds are on disk before anything is sent (outbox, burst_entries);
 *   - a fold is told only by completeBurstRewrite, after Slack accepted the rewrite naming it;
 *     when the anchor was never posted, folded alerts are released to go out on their own;
 *   - a store write that fails after Slack accepted a message is kept in memory and retried
 *     before anything else is sent, so the process never sends it again while it lives;
 *   - no error drops an owed message except a permanent refusal of that message, or its age
 *     passing `retentionMs`; a rejected token holds the whole queue instead, and a channel that
 *     refuses the bot (not invited) sends the message down its plan or makes it wait.
 * Where a message goes is not decided here: an owner's message carries its plan
 * (delivery/plan.ts), and the outbox only asks whether the person still wants it.
 * With two replicas (README, "High availability"): each sending turn takes a fencing token, the
 * store's send epoch (beginSending); the sender claims what it sends under it (claimOutbox, a
 * claim no longer than the lease time left), checks its lease time left (a monotonic deadline)
 * before every Slack call, and records every send in a transaction that refuses a stale token. So
 * a replica cut off or frozen past its Lease sends nothing once another has started its turn, and
 * at most the one message it had in flight is sent twice.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { mutedRecipient, parseBurstDestination } from '../keys.js';
import { StaleSenderError, type BurstStore, type HealthStore, type LedgerEntry, type LedgerStore, type OutboxItem, type OutboxStore, type OutboxTarget, type StoredBurstEntry } from '../store/port.js';
import { buildOwnerBurstMessage } from '../messages/burst.js';
import type { BurstEntry } from './burst.js';
import { context, type Block } from '../messages/blocks.js';
import { escapeMrkdwn } from '../messages/mrkdwn.js';
import { wanted, type Destination, type SkipReason } from '../delivery/plan.js';
import { refusalText, withNotes, type Payload, type Refusal } from '../delivery/notes.js';
import { owedOfItem, type DeliveryPlanner } from './planner.js';
import { CHANNEL_REFUSALS, type RefusedChannels } from './refused-channels.js';
import { backoffDelay } from '../lib/backoff.js';
import { AuthHold, rejectsToken } from './auth-hold.js';
import { RateGate, type GatedMethod } from './rate-gate.js';
import { SlackSendError } from './slack-send-error.js';
import { StoreGuard, type StoreProblem } from './store-guard.js';
import { FollowUpPace, sendFollowUp, type FollowUpSendContext } from './follow-up-delivery.js';

/**
 * The Slack calls the outbox makes (implemented over Bolt's WebClient in slack/client.ts). A DM
 * is posted with the person's user ID as the channel: Slack puts it in the app's DM with them
 * and answers with that conversation's D… id, which later rewrites (chat.update) use. So a DM
 * costs one chat.postMessage, not also a conversations.open (Tier 3, ~50/min per workspace).
 */
export interface SlackPoster {
  post(channel: string, message: { text: string; blocks?: Block[] }): Promise<{ channel: string; ts?: string }>;
  update(channel: string, ts: string, message: { text: string; blocks?: Block[] }): Promise<void>;
  /** A reply in a thread (chat.postMessage with thread_ts), never broadcast: follow-ups (notify/follow-up-delivery.ts). */
  reply(channel: string, threadTs: string, message: { text: string; blocks?: Block[] }): Promise<{ channel: string; ts?: string }>;
}

export { SlackSendError } from './slack-send-error.js';
export type { StoreProblem } from './store-guard.js';

export interface OutboxOptions {
  store: Pick<LedgerStore, 'ledgerEntry'> &
    Pick<OutboxStore, 'beginSending' | 'claimOutbox' | 'queuedItem' | 'isQueued' | 'completeOutbox' | 'retryOutboxLater' | 'dropOutbox' | 'replaceOutboxPayload'> &
    Pick<BurstStore, 'burst' | 'burstEntries' | 'completeBurstRewrite' | 'dropBurst' | 'releaseBurst'> &
    Pick<HealthStore, 'location'>;
  slack: SlackPoster;
  /** Plans an owner's message queued without a plan, and reads what a person wants now (mutes, settings). */
  planner: Pick<DeliveryPlanner, 'plan' | 'preferences'>;
  /** Channels that refuse the bot's posts: skipped down a plan, named for /readyz. */
  refused: RefusedChannels;
  log: Logger;
  now(): Date;
  onSent?(item: OutboxItem): void;
  /** A queued message was not sent: the person does not want it (any more), or it has nowhere to go. */
  onSkipped?(reason: SkipReason): void;
  onError?(kind: 'ratelimited' | 'transient' | 'permanent' | 'auth' | 'expired' | 'refused'): void;
  /** A store read or write failed (SQLITE_FULL, SQLITE_BUSY, a PostgreSQL error, …); `op` names the call. */
  onStoreError?(op: string, err: unknown): void;
  /** How long an owed message may wait (outage, revoked token) before it is dropped. Default 7 days. */
  retentionMs?: number;
  /** How often a queue held by a rejected token tries again. Default one minute. */
  authRetryMs?: number;
  /** Where the one-line operator alarm about a rejected token goes (default: stderr). */
  alarm?(line: string): void;
  /** Who sends (the Lease identity), written beside the send epoch. Default: host name and pid. */
  identity?: string;
  /** The longest a claim on an item lasts (never longer than the lease time left). Default 10 s. */
  claimMs?: number;
}

/**
 * How long this replica may still call Slack as the sender, in ms, by a monotonic clock
 * (performance.now(): a frozen and woken process sees the time it lost). LeaseElector.timeLeft;
 * without ha the one replica always may.
 */
export type SendPermit = () => number;

/** The permit ran out before a Slack call: this replica may no longer lead; nothing was sent. */
class PermitLapsed extends Error {
  constructor() {
    super('the lease time left to send ran out');
    this.name = 'PermitLapsed';
  }
}

/** A destination a burst is keyed by: the person, or the channel plus project (channels never mix projects). */
export interface BurstDestination {
  key: string;
  userId?: string;
}


const MAX_BACKOFF_MS = 10 * 60_000;
const DEFAULT_CLAIM_MS = 10_000;
/** A message waiting for a channel to let the bot in: the /invite is a person's, any minute. */
const REFUSED_BACKOFF = { initialMs: 1000, maxMs: 60_000 };
export const DEFAULT_RETENTION_MS = 7 * 86_400_000;

/** A rewrite that cannot be applied: the folded alerts go out on their own instead. */
const ANCHOR_GONE = 'the first message of the burst was not posted';

export class Outbox {
  private draining?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  /** Follow-ups keep under Slack's limits rather than learn them from 429s (follow-up-delivery.ts). */
  private readonly followUpPace = new FollowUpPace();
  private stopped = false;
  /** This sender's fencing token (the store's send epoch), taken at its first pass after start(). */
  private fence?: number;
  /** Another replica began sending, or the permit lapsed: nothing is sent until start() again. */
  private superseded = false;
  private permit: SendPermit = () => Infinity;
  /** Slack's Retry-After, per channel and per method (rate-gate.ts). */
  private readonly gate: RateGate;
  /** Store failures backed off, and what Slack accepted but the store did not record (store-guard.ts). */
  private readonly guard: StoreGuard;
  /** A rejected token holds the whole queue (auth-hold.ts). */
  private readonly auth: AuthHold;

  constructor(private readonly options: OutboxOptions) {
    this.gate = new RateGate(options.now);
    this.guard = new StoreGuard({
      location: options.store.location, log: options.log, now: options.now, onStoreError: options.onStoreError,
      // A stale fence is an answer (another replica sends), not a store failure.
      passThrough: (err) => err instanceof StaleSenderError,
    });
    this.auth = new AuthHold({ log: options.log, now: options.now, retryMs: options.authRetryMs, alarm: options.alarm, onHeld: () => options.onError?.('auth') });
  }

  /**
   * Starts sending (a new turn: a new send epoch is taken at the first pass) and the retry timer;
   * `kick()` sends at once whenever something is queued. `permit` says how long this replica may
   * still call Slack (the Lease's renew deadline); checked before every call.
   */
  start(permit: SendPermit = () => Infinity, intervalMs = 1000): void {
    this.stopped = false;
    this.superseded = false;
    this.fence = undefined;
    this.permit = permit;
    clearInterval(this.timer);
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
    this.draining = this.drain()
      // drain() guards its own store calls; this is the last net, so a rejection never goes unhandled.
      .catch((err: unknown) => this.options.log.error({ err: (err as Error)?.message ?? String(err) }, 'outbox pass failed'))
      .finally(() => {
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

  /** False while a store write has failed and not yet succeeded again (for /readyz). */
  storeHealthy(): boolean {
    return this.guard.healthy();
  }

  /** The last store failure while it lasts (op, SQLite code, store path). */
  lastStoreError(): StoreProblem | undefined {
    return this.guard.problem();
  }

  /** The Slack error that holds the queue (invalid_auth, token_revoked, …), if any. */
  heldForAuth(): string | undefined {
    return this.auth.problem();
  }

  private async drain(): Promise<void> {
    try {
      await this.drainClaimed();
    } catch (err) {
      if (!(err instanceof StaleSenderError || err instanceof PermitLapsed)) throw err;
      this.supersededBy(err);
    }
  }

  /** Claims what is due under this sender's fence and sends it, until nothing due is left. */
  private async drainClaimed(): Promise<void> {
    const { store, log } = this.options;
    for (;;) {
      if (this.stopped || this.superseded || !(await this.guard.recordUnrecorded()) || this.auth.holding()) return;
      if (this.fence === undefined) {
        const identity = this.options.identity ?? `${hostname()}-${process.pid}`;
        this.fence = await this.guard.call('beginSending', () => store.beginSending(identity, this.options.now()));
        if (this.fence === undefined) return;
        log.info({ epoch: this.fence }, 'sending under a new send epoch');
      }
      const fence = this.fence;
      const now = this.options.now();
      const claimMs = Math.min(this.options.claimMs ?? DEFAULT_CLAIM_MS, this.permit());
      if (!(claimMs > 0)) throw new PermitLapsed();
      const due = await this.guard.call('claimOutbox', () => store.claimOutbox(fence, now, new Date(now.getTime() + claimMs), 50), false);
      if (!due?.length) return;
      let progressed = false;
      for (const item of due) {
        if (this.stopped || this.superseded || !this.guard.ready() || this.auth.holding()) return;
        if (await this.expired(item)) {
          progressed = true;
          continue;
        }
        try {
          await this.send(item);
          progressed = true;
          this.auth.works();
        } catch (err) {
          if (err instanceof StaleSenderError || err instanceof PermitLapsed) throw err;
          progressed = (await this.failed(item, err)) || progressed;
        }
      }
      if (!progressed) return;
      log.trace('outbox pass done');
    }
  }

  /**
   * Another replica sends now (the store refused this fence), or this one's lease time ran out
   * before a Slack call: stop until leadership starts this sender again. The items it claimed
   * are left to the store: the new sender's epoch takes them once their claims end.
   */
  private supersededBy(err: StaleSenderError | PermitLapsed): void {
    this.superseded = true;
    this.fence = undefined;
    this.options.log.warn({ reason: err.message }, 'this replica stops sending: another replica sends now, or its lease lapsed');
  }

  /** Every Slack call: only with lease time left (monotonic), and through the 429 gate. */
  private callSlack<T>(channel: string, method: GatedMethod, call: () => Promise<T>): Promise<T> {
    if (!(this.permit() > 0)) throw new PermitLapsed();
    return this.gate.run(channel, method, call);
  }

  private async send(item: OutboxItem): Promise<void> {
    const target = item.target;
    if (target.type === 'burst') return this.rewriteBurst(item, target.anchorKey);
    if (target.type === 'update') return this.rewrite(item, target.anchorKey);
    if (target.type === 'thread') return sendFollowUp(item, target, this.followUpContext());
    if (target.type === 'channel') return this.post(item, [{ channel: target.channel, via: 'channel' }]);
    if (target.type === 'user') return this.post(item, [{ channel: target.user, via: 'dm' }]);
    const destinations = target.plan?.destinations ?? (await this.planNow(item, target));
    if (!destinations) return;
    // What the person wants may have changed since the plan (a mute, a setting, quiet hours): the plan's rule, asked again.
    const dm = destinations[0]?.via === 'dm' ? destinations[0].channel : undefined;
    if (dm && !(await this.stillWanted(item, target, dm))) return;
    await this.post(item, destinations);
  }

  /** What a follow-up's send (follow-up-delivery.ts) shares with the rest of the outbox. */
  private followUpContext(): FollowUpSendContext {
    const { store } = this.options;
    const fence = this.fence;
    return {
      store: {
        ledgerEntry: (key) => store.ledgerEntry(key),
        isQueued: (key) => store.isQueued(key),
        // Every write under this sending turn's fence: a stale turn's is refused and it stops.
        retryOutboxLater: (id, at, reason, wait) => store.retryOutboxLater(id, at, reason, wait, fence),
        dropOutbox: (id) => store.dropOutbox(id, fence),
        completeOutbox: (id, entry) => store.completeOutbox(id, entry, fence),
        burstEntries: (anchorKey) => store.burstEntries(anchorKey),
      },
      slack: this.options.slack,
      // The plan's rule for what a person wants (mutes, settings, quiet hours), asked when it is sent.
      wanted: async (userId, item, target) =>
        wanted({ key: item.key, kind: item.kind, project: target.project, workload: target.workload }, await this.options.planner.preferences(userId), this.options.now()),
      // The lease's time left and the 429 gate, as for every Slack call.
      withPause: (channel, method, call) => this.callSlack(channel, method, call),
      recordAccepted: (item, write) => this.recordAccepted(item, 'completeOutbox', write),
      write: (op, call) => this.guard.write(op, call),
      lastPost: (channel) => this.gate.lastPost(channel),
      pace: this.followUpPace,
      onSkipped: (reason) => this.options.onSkipped?.(reason),
      now: () => this.options.now(),
      log: this.options.log,
    };
  }

  /** An owner's message queued without a plan (before plans; or Slack could not be asked who the owner is): planned now. */
  private async planNow(item: OutboxItem, target: Extract<OutboxTarget, { type: 'owner' }>): Promise<Destination[] | undefined> {
    // Taken now: a fact kept for later (store-guard.ts) is written under the turn that sent it.
    const fence = this.fence;
    const { store, log } = this.options;
    const plan = await this.options.planner.plan(owedOfItem({ ...item, target }));
    if (plan.action === 'drop') {
      // Recorded as handled, so it is not decided and queued again.
      if (await this.guard.write('completeOutbox', () => store.completeOutbox(item.id, { key: item.key, recipient: skippedRecipient(plan.reason), sentAt: this.options.now().toISOString() }, fence))) {
        log.info({ key: item.key, why: plan.why }, 'not sent');
        this.options.onSkipped?.(plan.reason);
      }
      return undefined;
    }
    return plan.destinations;
  }

  private async stillWanted(item: OutboxItem, target: Extract<OutboxTarget, { type: 'owner' }>, userId: string): Promise<boolean> {
    // Taken now: a fact kept for later (store-guard.ts) is written under the turn that sent it.
    const fence = this.fence;
    const { store, log } = this.options;
    const verdict = wanted(owedOfItem({ ...item, target }), await this.options.planner.preferences(userId), this.options.now());
    if (verdict.action === 'drop') {
      // Recorded as handled, so it is not decided and queued again.
      if (await this.guard.write('completeOutbox', () => store.completeOutbox(item.id, { key: item.key, recipient: mutedRecipient(userId), sentAt: this.options.now().toISOString() }, fence))) {
        log.info({ key: item.key, why: verdict.why }, 'not sent: the recipient does not want it');
        this.options.onSkipped?.(verdict.reason);
      }
      return false;
    }
    if (verdict.action === 'defer') {
      await this.guard.write('retryOutboxLater', () => store.retryOutboxLater(item.id, verdict.until, 'quiet hours', 'deliberate', fence));
      return false;
    }
    return true;
  }

  /**
   * Posts to the first destination of the plan that Slack accepts, each saying why it is there:
   * a channel that refuses the bot (not invited) is skipped and named in the note of the next.
   * When every destination refuses, throws a refusal: the item waits and is tried again.
   */
  private async post(item: OutboxItem, destinations: readonly Destination[]): Promise<void> {
    // Taken now: a fact kept for later (store-guard.ts) is written under the turn that sent it.
    const fence = this.fence;
    const { store, slack, refused } = this.options;
    const passed: Refusal[] = [];
    for (const [i, destination] of destinations.entries()) {
      // A refusal believed is skipped only on the way to another destination: the last is always
      // asked, so an item that waits for the /invite finds out at its next try.
      const known = destination.via === 'dm' || i === destinations.length - 1 ? undefined : refused.believed(destination.channel);
      if (known) {
        passed.push(known);
        continue;
      }
      const payload = withNotes(item.payload as Payload, destination.note, passed);
      let result: { channel: string; ts?: string };
      try {
        result = await this.callSlack(destination.channel, 'chat.postMessage', () => slack.post(destination.channel, payload));
      } catch (err) {
        if (!(err instanceof SlackSendError) || !err.slackError || !CHANNEL_REFUSALS.has(err.slackError) || destination.via === 'dm') throw err;
        await refused.refuse(destination.channel, err.slackError);
        passed.push({ channel: destination.channel, slackError: err.slackError });
        continue;
      }
      if (destination.via !== 'dm') refused.accepted(destination.channel);
      if (passed.length) this.options.log.warn({ key: item.key, channel: destination.channel, refused: passed.map((r) => r.channel) }, 'posted further down the plan: Slack refused the places before');
      await this.recordAccepted(item, 'completeOutbox', () =>
        store.completeOutbox(item.id, { key: item.key, recipient: destination.channel, channel: result.channel, ts: result.ts, sentAt: this.options.now().toISOString() }, fence),
      );
      return;
    }
    if (!passed.length) {
      this.options.log.error({ key: item.key }, 'no Slack user for the owner and no project or fallback channel configured; message dropped');
      await this.guard.write('dropOutbox', () => store.dropOutbox(item.id, fence));
      this.options.onError?.('permanent');
      return;
    }
    throw new SlackSendError(`Slack refuses every destination (${passed.map((r) => `${r.channel}: ${r.slackError}`).join(', ')})`, false, undefined, passed[passed.length - 1].slackError);
  }

  /**
   * Rewrites a burst's first message to list every alert folded into it, then records each as
   * told. When the first message was never posted, the folded alerts go out on their own.
   */
  private async rewriteBurst(item: OutboxItem, anchorKey: string): Promise<void> {
    // Taken now: a fact kept for later (store-guard.ts) is written under the turn that sent it.
    const fence = this.fence;
    const { store, slack, log } = this.options;
    const now = this.options.now();
    const read = await this.guard.call('readBurst', async () => ({
      burst: await store.burst(anchorKey),
      anchor: await store.ledgerEntry(anchorKey),
      queued: await store.queuedItem(anchorKey),
      entries: await store.burstEntries(anchorKey),
    }), false);
    if (!read) return;
    const { burst, anchor, queued, entries } = read;
    if (!burst) {
      await this.guard.write('dropOutbox', () => store.dropOutbox(item.id, fence));
      return;
    }
    if (!anchor) {
      if (queued) {
        const at = Math.max(Date.parse(queued.nextAttemptAt), now.getTime() + 1000);
        await this.guard.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(at), 'waiting for the first message of the burst', 'deliberate', fence));
        return;
      }
      await this.release(anchorKey, 'the first message was refused or dropped');
      return;
    }
    if (!anchor.channel || !anchor.ts) {
      await this.release(anchorKey, 'the first message was not posted (muted)');
      return;
    }
    const destination = parseBurstDestination(burst.destination);
    const userId = destination?.kind === 'user' ? destination.user : undefined;
    const sentAt = now.toISOString();
    const muted: LedgerEntry[] = [];
    const listed: StoredBurstEntry[] = [];
    // A mute set since the fold still applies: a muted workload is never listed to that person.
    const preferences = userId && entries.some((e) => !e.told) ? await this.options.planner.preferences(userId) : undefined;
    for (const e of entries) {
      const target = e.item.target;
      const drop = !e.told && userId && target.type === 'owner' && wanted(owedOfItem({ key: e.key, kind: e.item.kind, target }), preferences, now).action === 'drop';
      if (drop) muted.push({ key: e.key, recipient: mutedRecipient(userId), sentAt });
      else listed.push(e);
    }
    const telling = listed.filter((e) => !e.told);
    if (telling.length) {
      const project = destination?.kind === 'channel' ? destination.project : undefined;
      const message = buildOwnerBurstMessage([burst.anchorEntry as BurstEntry, ...listed.map((e) => e.entry as BurstEntry)]);
      // The anchor went further down its plan when the burst's channel refused it: the rewrite says so too.
      const refusedHere = destination?.kind === 'channel' && anchor.channel !== destination.channel ? [{ channel: destination.channel, slackError: this.options.refused.list().find((r) => r.channel === destination.channel)?.slackError ?? 'not_in_channel' }] : [];
      const payload = project === undefined ? message : withChannelNote(message, project, refusedHere);
      await this.callSlack(anchor.channel, 'chat.update', () => slack.update(anchor.channel!, anchor.ts!, payload));
    }
    const told = telling.map((e) => ({ key: e.key, recipient: anchor.recipient, channel: anchor.channel, ts: anchor.ts, sentAt }));
    await this.recordAccepted(item, 'completeBurstRewrite', () => store.completeBurstRewrite(item.id, anchorKey, told, muted, fence));
    log.info({ anchor: anchorKey, told: told.length, muted: muted.length }, 'burst grouped for one destination');
  }

  /** The folded alerts of a burst whose first message is gone are queued to go out on their own. */
  private async release(anchorKey: string, why: string): Promise<void> {
    const fence = this.fence;
    const released = await this.guard.call('releaseBurst', () => this.options.store.releaseBurst(anchorKey, this.options.now(), fence));
    if (released?.length) this.options.log.warn({ anchor: anchorKey, released: released.length, why }, `${ANCHOR_GONE}; each folded alert is sent on its own`);
  }

  /** Rewrites a message already sent; waits while the original is still queued (rewrites queued before bursts were stored). */
  private async rewrite(item: OutboxItem, anchorKey: string): Promise<void> {
    // Taken now: a fact kept for later (store-guard.ts) is written under the turn that sent it.
    const fence = this.fence;
    const { store, slack, log } = this.options;
    const anchor = await store.ledgerEntry(anchorKey);
    if (!anchor || !anchor.channel || !anchor.ts) {
      if (!anchor && (await store.isQueued(anchorKey))) {
        await this.guard.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(this.options.now().getTime() + 1000), 'waiting for the original message', 'deliberate', fence));
      } else {
        await this.guard.write('dropOutbox', () => store.dropOutbox(item.id, fence));
        log.warn({ key: item.key, anchorKey }, 'the message to rewrite was never posted; rewrite dropped');
      }
      return;
    }
    await this.callSlack(anchor.channel, 'chat.update', () => slack.update(anchor.channel!, anchor.ts!, item.payload));
    await this.recordAccepted(item, 'completeOutbox', () =>
      store.completeOutbox(item.id, { key: item.key, recipient: anchor.recipient, channel: anchor.channel, ts: anchor.ts, sentAt: this.options.now().toISOString() }, fence),
    );
  }

  /** Reschedules, holds or drops a failed item. Returns true when the item left the queue. */
  private async failed(item: OutboxItem, err: unknown): Promise<boolean> {
    // Every write under this turn's fence: a deposed sender neither re-times nor drops what the new one owns.
    const fence = this.fence;
    const { store, log } = this.options;
    const e = err instanceof SlackSendError ? err : new SlackSendError((err as Error)?.message ?? String(err), false);
    const now = this.options.now().getTime();
    if (rejectsToken(e.slackError)) {
      this.auth.hold(e.slackError!);
      return false;
    }
    if (e.slackError === 'ratelimited') {
      this.options.onError?.('ratelimited');
      await this.guard.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(now + (e.retryAfterMs ?? 1000)), e.message, 'rate-limited', fence));
      return false;
    }
    if (e.slackError && CHANNEL_REFUSALS.has(e.slackError) && !e.permanent) {
      // Every destination refuses the bot (not invited): the message waits for the /invite,
      // tried again within a minute or so, up to the retention (RefusedChannels names them).
      this.options.onError?.('refused');
      const delay = backoffDelay(item.attempts + 1, Math.random(), REFUSED_BACKOFF);
      this.options.log.warn({ key: item.key, err: e.message, retryInMs: delay }, 'no destination accepts the message yet; it waits');
      await this.guard.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(now + delay), e.message, 'backoff', fence));
      return false;
    }
    if (e.permanent && item.target.type === 'burst') {
      // The grouped message cannot be rewritten (deleted, channel gone, …): nothing is lost, each goes alone.
      this.options.onError?.('permanent');
      log.error({ key: item.key, slackError: e.slackError }, 'Slack refused the burst rewrite');
      await this.release(item.target.anchorKey, `the rewrite was refused: ${e.slackError}`);
      return true;
    }
    if (e.permanent && e.slackError === 'invalid_blocks' && item.payload.blocks) {
      // Never lose the alert over a layout problem: send the text fallback alone.
      log.error({ key: item.key, slackError: e.slackError }, 'Slack refused the blocks; sending the text fallback only');
      return await this.guard.write('replaceOutboxPayload', () => store.replaceOutboxPayload(item.id, { text: item.payload.text }, fence));
    }
    if (e.permanent) {
      this.options.onError?.('permanent');
      log.error({ key: item.key, slackError: e.slackError, err: e.message, attempts: item.attempts + 1 }, 'message dropped');
      await this.guard.write('dropOutbox', () => store.dropOutbox(item.id, fence));
      return true;
    }
    this.options.onError?.('transient');
    // Hand-written rather than p-retry: the backoff lives in the database (attempts,
    // next_attempt_at), so it carries over restarts, which an in-process retry loop cannot.
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(item.attempts, 30));
    log.warn({ key: item.key, err: e.message, slackError: e.slackError, retryInMs: delay }, 'sending failed; will retry');
    await this.guard.write('retryOutboxLater', () => store.retryOutboxLater(item.id, new Date(now + delay), e.message, 'backoff', fence));
    return false;
  }

  /** No attempt cap: an owed message waits out any outage up to the retention, then is dropped loudly. */
  private async expired(item: OutboxItem): Promise<boolean> {
    const retention = this.options.retentionMs ?? DEFAULT_RETENTION_MS;
    const age = this.options.now().getTime() - Date.parse(item.createdAt);
    if (!(age > retention)) return false;
    const fence = this.fence;
    const { store, log } = this.options;
    const dropped = await this.guard.call('dropExpired', async () => (item.target.type === 'burst' ? store.dropBurst(item.target.anchorKey, fence) : (await store.dropOutbox(item.id, fence), [item.key])));
    if (!dropped) return false;
    this.options.onError?.('expired');
    log.error({ keys: dropped, kind: item.kind, ageMs: age, retentionMs: retention, lastError: item.lastError }, 'owed message dropped: it waited longer than slack.outboxRetention');
    return true;
  }

  /**
   * Records what Slack accepted. If the store refuses, the fact is kept (store-guard.ts) and
   * written before anything else is sent, so this process never sends it again.
   */
  private async recordAccepted(item: OutboxItem, op: string, write: () => Promise<void>): Promise<void> {
    this.options.onSent?.(item);
    await this.guard.record(item.key, op, write);
  }
}

/** The message went to a channel instead of its owner: say whose it is, right under the header. */
export function withOwnerNote(payload: OutboxItem['payload'], owner: string | undefined): OutboxItem['payload'] {
  return withNotes(payload as Payload, owner ? { kind: 'no-slack-user', owner } : { kind: 'no-owner' }) as OutboxItem['payload'];
}

/**
 * A burst posted in a channel lists workloads of one project whose owners have no Slack user;
 * `refused`: the burst's channel refused the anchor, which was posted further down its plan.
 */
function withChannelNote(payload: OutboxItem['payload'], project: string, refused: Refusal[]): OutboxItem['payload'] {
  const note = `Workloads of project *${escapeMrkdwn(project)}* whose owners have no Slack user, so they are posted here. Map them under \`owners.map\` in the bot's config.`;
  const blocks = [...((payload.blocks ?? []) as Block[])];
  const at = blocks[0]?.type === 'header' ? 1 : 0;
  const lines = [note, ...(refused.length ? [refusalText(refused)] : [])];
  return {
    text: `[project ${project}] ${payload.text}`,
    blocks: blocks.length ? [...blocks.slice(0, at), ...lines.map((l) => context(l)), ...blocks.slice(at)].slice(0, 50) : undefined,
  };
}

/** The ledger's recipient for an owner's message planned to nobody (README, "Delivery guarantee"). */
function skippedRecipient(reason: string): string {
  return `skipped:${reason}`;
}
