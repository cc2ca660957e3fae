/**
 * Cleanup nudges: on a schedule (cleanup.cron, weekly by default), each owner gets one message
 * listing their workloads that have sat Completed, Failed or Stopped longer than cleanup.after,
 * with the guide's advice. The bot only reminds; it deletes nothing. The message's key names
 * the day, so a restart on the same day does not send it again.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { cleanupKey } from '../keys.js';
import type { LifecycleState } from '../model.js';
import type { OutboxStore, StoredWorkload, WorkloadStore } from '../store/port.js';
import { buildCleanupDigest } from '../messages/cleanup.js';

/** States a workload rests in until someone deletes it. */
const STALE_STATES: ReadonlySet<string> = new Set<LifecycleState>(['Completed', 'Failed', 'Stopped']);

/**
 * The workloads each owner could clean up: settled for more than `afterMs`, not deleted, oldest
 * first. Workloads that name no owner are left out: there is nobody to nudge.
 */
export function staleWorkloadsByOwner(workloads: StoredWorkload[], now: Date, afterMs: number): Map<string, StoredWorkload[]> {
  const byOwner = new Map<string, StoredWorkload[]>();
  const sorted = workloads
    .filter((w) => w.owner && !w.deletedAt && STALE_STATES.has(w.state) && now.getTime() - Date.parse(w.stateSince) > afterMs)
    .sort((a, b) => Date.parse(a.stateSince) - Date.parse(b.stateSince) || a.name.localeCompare(b.name));
  for (const w of sorted) {
    const list = byOwner.get(w.owner!) ?? [];
    list.push(w);
    byOwner.set(w.owner!, list);
  }
  return byOwner;
}

export interface CleanupNudgerOptions {
  store: Pick<WorkloadStore, 'allWorkloads'> & Pick<OutboxStore, 'enqueue'>;
  /** cleanup.after */
  afterMs: number;
  /** cleanup.cron */
  cron: string;
  /** IANA zone the cron expression is read in; default: the process's. */
  timezone?: string;
  log: Logger;
  now(): Date;
  /** Sends what was queued (the outbox's kick). */
  queued(): void;
}

export class CleanupNudger {
  private task?: ScheduledTask;

  constructor(private readonly options: CleanupNudgerOptions) {}

  /** Schedules the nudges. cleanup.cron was validated with the config (src/config.ts), the one place that names its key. */
  start(): void {
    const { cron: expression, timezone, log } = this.options;
    this.task = cron.schedule(
      expression,
      async () => {
        try {
          await this.runOnce(this.options.now());
        } catch (err) {
          log.error({ err: (err as Error).message }, 'cleanup nudges failed');
        }
      },
      { name: 'cleanup-nudges', timezone, noOverlap: true },
    );
    log.info({ cron: expression, next: this.nextRun()?.toISOString() }, 'cleanup nudges scheduled');
  }

  /** When the next nudges go out (undefined when not started). */
  nextRun(): Date | undefined {
    return this.task?.getNextRun() ?? undefined;
  }

  /** Queues one nudge per owner with stale workloads; returns how many were queued (not sent before today). */
  async runOnce(now: Date): Promise<number> {
    const { store, afterMs, log } = this.options;
    let queued = 0;
    for (const [owner, workloads] of staleWorkloadsByOwner(await store.allWorkloads(), now, afterMs)) {
      const projects = new Set(workloads.map((w) => w.project));
      // One project: its channel stands in for an owner Slack does not know, and its mute applies.
      // Several: no single project speaks for the message, so neither does.
      const project = projects.size === 1 ? workloads[0].project : '';
      const message = buildCleanupDigest({ workloads, afterMs });
      if (await store.enqueue({ key: cleanupKey(owner, now), kind: 'cleanup', target: { type: 'owner', owner, project }, payload: message }, now)) queued++;
    }
    if (queued) this.options.queued();
    log.info({ queued }, 'cleanup nudges queued');
    return queued;
  }

  stop(): void {
    void this.task?.destroy();
    this.task = undefined;
  }
}
