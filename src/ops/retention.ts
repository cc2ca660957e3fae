/**
 * Keeps the store and the log archive from growing for ever, on an hourly timer: what was said
 * about workloads long gone, deleted workloads, mutes that ended, and archived logs past
 * archive.retention or beyond archive.maxTotalBytes. Logs what it removed.
 */
import type { Logger } from 'pino';
import type { HealthStore, PreferenceStore, WorkloadStore } from '../store/port.js';
import { planArchivePrune, removeArchived, scanArchive } from '../archive/retention.js';

export const RETENTION_INTERVAL_MS = 3_600_000;

export interface RetentionOptions {
  store: Pick<HealthStore, 'pruneLedger'> & Pick<WorkloadStore, 'presentWorkloadUids' | 'pruneDeletedWorkloads'> & Pick<PreferenceStore, 'pruneExpiredMutes'>;
  /** Uids of workloads the bot still sees (the watch cache): their ledger rows are kept. */
  liveWorkloads(): Iterable<string>;
  /** Ledger rows and deleted workloads are kept this long: max(lookback, cleanup.after, 30d). */
  keepMs: number;
  archive?: {
    dir: string;
    retentionMs: number;
    maxTotalBytes?: number;
    /** Directories being written now. */
    busy(): Iterable<string>;
  };
  /** Follow-up threads (and the submissions they keep) are forgotten once older than followups.window. */
  followUps?: { windowMs: number; prune(before: Date): Promise<number> };
  log: Logger;
  now(): Date;
  intervalMs?: number;
}

export interface RetentionResult {
  ledger: number;
  workloads: number;
  mutes: number;
  archive: { byAge: number; bySize: number; bytes: number };
  /** Follow-up threads past followups.window (0 without follow-ups). */
  threads?: number;
}

export class RetentionPruner {
  private timer?: NodeJS.Timeout;
  private running?: Promise<RetentionResult>;

  constructor(private readonly options: RetentionOptions) {}

  /** Prunes now, then every hour. */
  start(): void {
    void this.runSafely();
    this.timer = setInterval(() => void this.runSafely(), this.options.intervalMs ?? RETENTION_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass; a pass already running is joined, not doubled. Rejects if the store cannot be written. */
  run(): Promise<RetentionResult> {
    this.running ??= this.prune().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runSafely(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      // Readiness reports a store that cannot be written; the next pass tries again.
      this.options.log.error({ err: (err as Error).message }, 'pruning old data failed');
    }
  }

  private async prune(): Promise<RetentionResult> {
    const { store, log, keepMs } = this.options;
    const now = this.options.now();
    const horizon = new Date(now.getTime() - keepMs);
    const live = new Set([...this.options.liveWorkloads(), ...(await store.presentWorkloadUids())]);
    const result: RetentionResult = {
      ledger: await store.pruneLedger(horizon, live),
      workloads: await store.pruneDeletedWorkloads(horizon),
      mutes: await store.pruneExpiredMutes(now),
      archive: await this.pruneArchive(now),
      ...(this.options.followUps ? { threads: await this.options.followUps.prune(new Date(now.getTime() - this.options.followUps.windowMs)) } : {}),
    };
    if (result.threads) log.info({ threads: result.threads }, 'forgot follow-up threads past followups.window');
    if (result.ledger || result.workloads || result.mutes) {
      log.info({ ledger: result.ledger, workloads: result.workloads, mutes: result.mutes, before: horizon.toISOString() }, 'pruned old ledger rows, deleted workloads and ended mutes');
    }
    return result;
  }

  private async pruneArchive(now: Date): Promise<RetentionResult['archive']> {
    const { archive, log } = this.options;
    const done = { byAge: 0, bySize: 0, bytes: 0 };
    if (!archive) return done;
    let entries;
    try {
      entries = await scanArchive(archive.dir);
    } catch (err) {
      log.warn({ dir: archive.dir, err: (err as NodeJS.ErrnoException).code ?? (err as Error).message }, 'cannot scan the log archive for old logs');
      return done;
    }
    const plan = planArchivePrune(entries, {
      nowMs: now.getTime(),
      retentionMs: archive.retentionMs,
      maxTotalBytes: archive.maxTotalBytes,
      busy: new Set(archive.busy()),
    });
    for (const item of plan) {
      try {
        await removeArchived(archive.dir, item.path);
      } catch (err) {
        log.warn({ path: item.path, err: (err as NodeJS.ErrnoException).code ?? (err as Error).message }, 'cannot delete old archived logs');
        continue;
      }
      if (item.reason === 'age') done.byAge++;
      else done.bySize++;
      done.bytes += item.bytes;
      log.info({ path: item.path, bytes: item.bytes, reason: item.reason }, item.reason === 'age' ? 'deleted archived logs older than archive.retention' : 'deleted the oldest archived logs to stay within archive.maxTotalBytes');
    }
    return done;
  }
}
