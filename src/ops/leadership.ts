/**
 * What only the leading replica does, and when the outbox may send. With `ha.enabled` the
 * replicas elect a leader on a Lease (src/cluster/lease.ts) and call lead()/follow() from its
 * callbacks; without it the one replica leads from the start. Every replica keeps watching,
 * reconciling and answering Slack, so a takeover starts warm; the leader alone prepares the
 * alerts owed (reads logs, queues them), and a replica that starts leading decides every
 * workload again (parts/leader-duties.ts), so nothing a follower passed over is lost.
 *
 * The outbox sends only while all three hold: Slack accepted the bot token (every send before
 * would fail and use up a try), this replica leads, and the bot is not stopping. Two replicas
 * sending from one store would each send the same queued item, hence the outbox is the first
 * thing follow() stops. That rule does not rest on timers alone: the outbox gets the Lease's time
 * left (a monotonic deadline) and checks it before every Slack call, and each start is a new
 * sending turn fenced in the store (notify/outbox.ts).
 */
import type { Logger } from 'pino';
import { repeat } from '../lib/repeat.js';

/** A leader-only loop: the schedules (maintenance, cleanup nudges, stuck checks, retention). */
export interface LeaderDuty {
  name: string;
  start(): void;
  stop(): void | Promise<void>;
}

/**
 * How long this replica may still act as the leader, in ms by a monotonic clock (the Lease's
 * renew deadline; LeaseElector.timeLeft). Without ha: always.
 */
export type LeadPermit = () => number;

const ALWAYS: LeadPermit = () => Infinity;

/** The outbox as leadership drives it. */
export interface Sender {
  /** Starts a new sending turn; `permit` is checked before each Slack call. */
  start(permit: LeadPermit): void;
  /** Resolves when the send in progress (if any) has finished. */
  stop(): Promise<void>;
}

export interface LeadershipOptions {
  outbox: Sender;
  duties: LeaderDuty[];
  /** Without ha.enabled: true (the one replica leads); with it, false until the Lease is won. */
  leading: boolean;
  /** True once the bot is stopping: nothing starts again then. */
  stopping(): boolean;
  log: Logger;
  /** Told on every change of leadership (the runai_bot_leader gauge). */
  onChange?(leading: boolean): void;
}

export class Leadership {
  private leadingNow: boolean;
  private slackAccepted = false;
  private sending = false;
  private dutiesRunning = false;
  private permit: LeadPermit = ALWAYS;

  constructor(private readonly options: LeadershipOptions) {
    this.leadingNow = options.leading;
    options.onChange?.(this.leadingNow);
  }

  /** Whether this replica leads now (for /readyz, the metric, and the archive hook). */
  get leading(): boolean {
    return this.leadingNow;
  }

  /**
   * This replica leads: the schedules start, and the outbox too once Slack accepted the token.
   * `permit` says for how long (the Lease's); the outbox checks it before every Slack call, so a
   * replica frozen past its lease and woken calls Slack no more, whichever timer runs first.
   */
  lead(permit: LeadPermit = ALWAYS): void {
    if (this.options.stopping()) return;
    this.permit = permit;
    if (!this.leadingNow) {
      this.leadingNow = true;
      this.options.onChange?.(true);
    }
    if (!this.dutiesRunning) {
      this.dutiesRunning = true;
      // A duty that cannot start (cleanup.cron) throws: at start-up that fails the start, as it always has.
      for (const duty of this.options.duties) duty.start();
    }
    this.syncOutbox();
  }

  /**
   * This replica no longer leads (lost or released the Lease, or is stopping): the outbox stops
   * first, then the schedules. Resolves once the send in flight has ended, so a release of the
   * Lease after it cannot let the other replica send the same item meanwhile.
   */
  async follow(): Promise<void> {
    if (this.leadingNow) {
      this.leadingNow = false;
      this.options.onChange?.(false);
    }
    const sent = this.stopOutbox();
    await this.stopDuties();
    await sent;
  }

  /** Slack accepted the bot token (outbox-hooks.ts): the leader may send from now on. */
  slackAuthenticated(): void {
    this.slackAccepted = true;
    this.syncOutbox();
  }

  /** The schedules stop (bot.stop() without ha: the outbox stops later, as it always has). */
  async stopDuties(): Promise<void> {
    if (!this.dutiesRunning) return;
    this.dutiesRunning = false;
    await Promise.all(this.options.duties.map(async (duty) => {
      try {
        await duty.stop();
      } catch (err) {
        this.options.log.error({ err: (err as Error)?.message ?? String(err), duty: duty.name }, 'a leader duty failed to stop');
      }
    }));
  }

  private syncOutbox(): void {
    const shouldSend = this.slackAccepted && this.leadingNow && !this.options.stopping();
    if (shouldSend && !this.sending) {
      this.sending = true;
      this.options.outbox.start(this.permit);
    } else if (!shouldSend && this.sending) {
      void this.stopOutbox();
    }
  }

  private stopOutbox(): Promise<void> {
    this.sending = false;
    // Stopping a stopped outbox is harmless and awaits a drain still ending.
    return this.options.outbox.stop();
  }
}

/**
 * A task every replica runs while it follows (at start, then every `everyMs`), e.g. taking the
 * leader's copy of something only the leader fetches. Skipped while leading; failures are logged.
 */
export function whileFollowing(leadership: Pick<Leadership, 'leading'>, everyMs: number, task: () => Promise<void>, what: string, log?: Logger): { start(): void; stop(): void } {
  let stop: (() => void) | undefined;
  const run = () => {
    if (leadership.leading) return;
    task().catch((err: unknown) => log?.warn({ err: (err as Error)?.message ?? String(err) }, `cannot ${what}`));
  };
  return {
    start: () => {
      run();
      stop ??= repeat(everyMs, run);
    },
    stop: () => {
      stop?.();
      stop = undefined;
    },
  };
}
