/**
 * The maintenance loop: refresh the feed on its schedule, and every minute parse (cached),
 * plan and post what is due. All I/O comes in as dependencies. A reminder is marked sent only
 * after post() resolved (in the bot: once it is queued in the outbox), so a failed hand-over is
 * retried on the next tick.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Workload } from '../model.js';
import type { CheckpointReading } from '../recovery/checkpoint.js';
import type { MaintenanceConfig } from './config.js';
import type { FeedCacheEntry, FeedFetchResult } from './feed.js';
import type { MaintenanceLedger } from './ledger.js';
import {
  buildFeedFailureNotice, buildFeedRecoveredNotice, buildOwnerNotice, buildWindowMessage, feedLabel,
  type MessageContext, type SlackMessage,
} from '../messages/maintenance.js';
import { parseFeedOffThread } from './parse-off-thread.js';
import { remindersDue, type DueReminder } from './plan.js';
import { warnOnSkipAheadFallback } from './skip-ahead.js';
import type { MaintenanceWindow } from './window.js';

export interface MaintenanceLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MaintenanceDeps {
  fetcher: { refresh(): Promise<FeedFetchResult>; lastGood(): Promise<FeedCacheEntry | undefined> };
  ledger: MaintenanceLedger;
  /**
   * Hands a message over for delivery under `key` (unique per message, stable across retries:
   * the same key is never delivered twice). Resolves once it is safely on its way; the
   * reminder is marked sent only then.
   */
  post(channel: string, msg: SlackMessage, key: string): Promise<void>;
  /** DM a workload owner (cluster identity); the caller maps it to a Slack user. */
  dm(owner: string, msg: SlackMessage, key: string): Promise<void>;
  runningWorkloads(): Workload[];
  /**
   * What each workload's log says of its last checkpoint, in their order (notify/checkpoints.ts:
   * bounded, concurrency-limited, a failed read is a reading with a problem). Absent: the owners'
   * DM lists the workloads without it.
   */
  checkpointsOf?(workloads: readonly Workload[]): Promise<CheckpointReading[]>;
  config: MaintenanceConfig;
  now(): Date;
  log: MaintenanceLog;
}

const DAY = 86_400_000;
/** Windows that began up to this long ago are still parsed, so running ones get their end notice. */
const LOOKBACK_MS = 7 * DAY;
/** How far ahead windows are listed (upcoming(), the Home tab), at least. */
const HORIZON_MS = 60 * DAY;
const PLAN_CRON = '* * * * *';
/** Logs read for one owner's DM: the first this many of their running workloads get a checkpoint line. */
export const CHECKPOINTS_PER_DM = 20;

interface ParsedFeed {
  body: string;
  day: number;
  from: Date;
  to: Date;
  windows: MaintenanceWindow[];
  complete: boolean;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class MaintenanceService {
  private body: string | undefined;
  private lastGoodAt: string | undefined;
  private parsed: ParsedFeed | undefined;
  /** The parse under way in the worker, shared by everyone who asks meanwhile. */
  private parsing: { body: string; day: number; done: Promise<ParsedFeed> } | undefined;
  private announcedFailure: string | undefined;
  /** The last reminder round, so the next waits for it (remind()). */
  private reminding: Promise<unknown> = Promise.resolve();
  private tasks: ScheduledTask[] = [];
  private stopWarning: (() => void) | undefined;

  constructor(private readonly deps: MaintenanceDeps) {}

  /** Fetches the feed; tells operators once when it starts failing and once when it recovers. */
  async refresh(): Promise<void> {
    const { config, log } = this.deps;
    const result = await this.deps.fetcher.refresh();
    if (result.body !== undefined) {
      this.body = result.body;
      this.lastGoodAt = result.fetchedAt;
    }
    if (result.error) {
      log.error(
        { feed: feedLabel(config.feed), err: result.error.message, failingSince: result.failingSince, lastGood: result.fetchedAt },
        'maintenance feed refresh failed; keeping the last good copy',
      );
      const streak = (result.failingSince ?? this.deps.now()).toISOString();
      if (config.opsChannel && this.announcedFailure !== streak) {
        const notice = buildFeedFailureNotice(config.feed, result.error.message, new Date(streak), this.lastGoodAt, this.context());
        if (await this.tryPost(config.opsChannel, notice, `feed:${streak}:failing`)) this.announcedFailure = streak;
      }
      return;
    }
    if (this.announcedFailure && config.opsChannel) {
      if (await this.tryPost(config.opsChannel, buildFeedRecoveredNotice(config.feed, this.context()), `feed:${this.announcedFailure}:recovered`)) {
        this.announcedFailure = undefined;
      }
    }
    if (result.changed) log.info({ feed: feedLabel(config.feed) }, 'maintenance feed updated');
    // Parsed now (off the event loop), so upcoming() answers from the new copy at once.
    await this.windowsAt(this.deps.now());
  }

  /**
   * Takes the last good copy of the feed from the store without fetching: a follower replica
   * (ha) does not refresh the feed, the leader does, yet /runai and the Home tab show windows.
   */
  async loadLastGood(): Promise<void> {
    const entry = await this.deps.fetcher.lastGood();
    if (!entry) return;
    this.body = entry.body;
    this.lastGoodAt = entry.fetchedAt;
  }

  /**
   * Plans and posts what is due now; returns what was posted. Rounds run one after another: the
   * minute's cron round and a tick (the first round at start, a test's) can fall together, and
   * two rounds at once would both find an owner's DM unsent and both read their logs for it.
   */
  remind(): Promise<DueReminder[]> {
    const round = this.reminding.then(() => this.remindNow());
    this.reminding = round.catch(() => undefined);
    return round;
  }

  private async remindNow(): Promise<DueReminder[]> {
    const now = this.deps.now();
    const feed = await this.windowsAt(now);
    if (!feed) return [];
    const { ledger, config } = this.deps;
    const due = remindersDue({
      windows: feed.windows,
      now,
      offsetsMs: config.remindBefore,
      ownerNoticeMs: config.notifyOwnersBefore,
      sent: await ledger.sentKeys(),
      known: await ledger.known(),
      complete: feed.complete ? { from: feed.from, to: feed.to } : undefined,
    });
    const posted: DueReminder[] = [];
    for (const reminder of due) {
      try {
        if (!(await this.send(reminder, now))) continue;
        for (const key of [reminder.key, ...reminder.settles]) await ledger.markSent(key, now);
        if (reminder.kind !== 'owners' && reminder.kind !== 'end') await ledger.remember(reminder.window);
        posted.push(reminder);
      } catch (err) {
        this.deps.log.error({ key: reminder.key, err: errorText(err) }, 'maintenance reminder not sent; will retry');
      }
    }
    return posted;
  }

  /** One full round: refresh, then remind. */
  async tick(): Promise<DueReminder[]> {
    await this.refresh();
    return this.remind();
  }

  /**
   * The next windows that are not cancelled and not over, for /runai and the Home tab. Answers
   * at once from the last parse (a day-old parse still covers the next 60 days) and has a
   * stale one redone in the background.
   */
  upcoming(now: Date, limit: number): MaintenanceWindow[] {
    if (!this.isCurrent(this.parsed, now)) {
      this.windowsAt(now).catch((err: unknown) => this.deps.log.error({ err: errorText(err) }, 'maintenance feed parse failed'));
    }
    const feed = this.parsed;
    if (!feed) return [];
    return feed.windows.filter((w) => w.status !== 'cancelled' && w.end > now).slice(0, limit);
  }

  start(): void {
    if (this.tasks.length) return;
    this.stopWarning = warnOnSkipAheadFallback(this.deps.log);
    const run = (what: string, job: () => Promise<unknown>) => async () => {
      try {
        await job();
      } catch (err) {
        this.deps.log.error({ err: errorText(err) }, `maintenance ${what} failed`);
      }
    };
    this.tasks = [
      cron.schedule(this.deps.config.refreshCron, run('refresh', () => this.refresh()), { noOverlap: true, name: 'maintenance-refresh' }),
      cron.schedule(PLAN_CRON, run('reminders', () => this.remind()), { noOverlap: true, name: 'maintenance-reminders' }),
    ];
    void run('first round', () => this.tick())();
  }

  stop(): void {
    for (const task of this.tasks) void task.stop();
    this.tasks = [];
    this.stopWarning?.();
    this.stopWarning = undefined;
  }

  private context(): MessageContext {
    return { timezone: this.deps.config.timezone, now: this.deps.now() };
  }

  private dayOf(now: Date): number {
    return Math.floor(now.getTime() / DAY) * DAY;
  }

  private isCurrent(parsed: ParsedFeed | undefined, now: Date): boolean {
    return !!parsed && parsed.body === this.body && parsed.day === this.dayOf(now);
  }

  /**
   * Windows of the current feed copy, parsed once per copy and day over [day − 7 d, day +
   * max(60 d, longest offset) + 2 d]: parsing a big feed can cost a second, so it runs in a
   * worker thread and this awaits it.
   */
  private async windowsAt(now: Date): Promise<ParsedFeed | undefined> {
    const body = this.body;
    if (body === undefined) return undefined;
    if (this.isCurrent(this.parsed, now)) return this.parsed;
    const day = this.dayOf(now);
    if (this.parsing?.body === body && this.parsing.day === day) return this.parsing.done;
    const { config, log } = this.deps;
    const from = new Date(day - LOOKBACK_MS);
    const to = new Date(day + Math.max(HORIZON_MS, config.notifyOwnersBefore, ...config.remindBefore) + 2 * DAY);
    const done = parseFeedOffThread(body, { timezone: config.timezone, from, to, match: config.match }).then((answer): ParsedFeed => {
      if (!answer.ok) {
        log.error({ feed: feedLabel(config.feed), err: answer.error }, 'maintenance feed cannot be read');
        return { body, day, from, to, windows: [], complete: false };
      }
      const { windows, problems } = answer.result;
      if (problems.length) log.warn({ feed: feedLabel(config.feed), problems }, 'maintenance feed has problems');
      return { body, day, from, to, windows, complete: problems.length === 0 };
    });
    this.parsing = { body, day, done };
    try {
      const parsed = await done;
      // A newer copy may have been parsed meanwhile; keep the newest.
      if (this.body === body) this.parsed = parsed;
      return parsed;
    } finally {
      if (this.parsing?.done === done) this.parsing = undefined;
    }
  }

  private async tryPost(channel: string, msg: SlackMessage, key: string): Promise<boolean> {
    try {
      await this.deps.post(channel, msg, key);
      return true;
    } catch (err) {
      this.deps.log.error({ channel, err: errorText(err) }, 'maintenance notice not posted');
      return false;
    }
  }

  /** Posts one reminder; false when there is nowhere to post it. Throws when posting failed. */
  private async send(reminder: DueReminder, now: Date): Promise<boolean> {
    if (reminder.kind === 'owners') {
      await this.notifyOwners(reminder, now);
      return true;
    }
    const channel = this.deps.config.channel;
    if (!channel) return false;
    await this.deps.post(channel, buildWindowMessage(reminder, this.context()), reminder.key);
    return true;
  }

  /** One DM per owner of Running work; owners already told are skipped on a retry. */
  private async notifyOwners(reminder: DueReminder, now: Date): Promise<void> {
    const byOwner = new Map<string, Workload[]>();
    for (const w of this.deps.runningWorkloads()) {
      if (w.state !== 'Running' || !w.owner) continue;
      byOwner.set(w.owner, [...(byOwner.get(w.owner) ?? []), w]);
    }
    const sent = await this.deps.ledger.sentKeys();
    const due = [...byOwner].filter(([owner]) => !sent.has(`${reminder.key}:${owner}`));
    // All owners' logs are read at once (the reader bounds how many at a time), before any DM.
    const readings = await Promise.all(due.map(([, workloads]) => this.checkpoints(workloads)));
    const failures: string[] = [];
    for (const [i, [owner, workloads]] of due.entries()) {
      const key = `${reminder.key}:${owner}`;
      try {
        await this.deps.dm(owner, buildOwnerNotice(reminder.window, workloads, this.context(), readings[i]), key);
        await this.deps.ledger.markSent(key, now);
      } catch (err) {
        failures.push(`${owner}: ${errorText(err)}`);
      }
    }
    if (failures.length) throw new Error(`owner DMs failed for ${failures.join('; ')}`);
  }

  /** The checkpoint readings of the first CHECKPOINTS_PER_DM workloads; none when they cannot be had (the DM goes out anyway). */
  private async checkpoints(workloads: Workload[]): Promise<Array<CheckpointReading | undefined>> {
    if (!this.deps.checkpointsOf) return [];
    try {
      return await this.deps.checkpointsOf(workloads.slice(0, CHECKPOINTS_PER_DM));
    } catch (err) {
      this.deps.log.warn({ err: errorText(err) }, 'checkpoints not read for a maintenance DM; sending it without them');
      return [];
    }
  }
}
