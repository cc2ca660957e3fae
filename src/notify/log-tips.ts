/**
 * The log-saving tip: when a workload starts running and its own command works against keeping
 * its log (recovery/log-advice.ts), its owner gets one DM about it — at most one per kind of
 * finding a week (log-tip-plan.ts), never when they turned tips off, never for a workload or
 * project they muted. Queued through the outbox like every owner message, so it is sent at
 * least once and checked against mutes and settings again when it is sent.
 *
 * Bounded: the command is read from the workload object the watch delivered (no API call), and
 * only when a workload starts running; the store is read only when the command has a finding.
 */
import type { Logger } from 'pino';
import type { Workload } from '../model.js';
import type { LedgerStore, OutboxItem, OutboxStore } from '../store/port.js';
import { mutedRecipient } from '../keys.js';
import { buildLogTip } from '../messages/log-advice.js';
import { logAdvice } from '../recovery/log-advice.js';
import { submissionOf } from '../recovery/submission.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';
import { nextTip, tipKeysToRead, type TipRecord } from './log-tip-plan.js';
import { muteTarget } from './mutes.js';

/** The message kind of a tip: `tips off` in a person's settings drops it at delivery (mutes.ts). */
export const LOG_TIP_KIND = 'log-tip';

export interface LogTipsOptions {
  store: Pick<LedgerStore, 'ledgerEntry'> & Pick<OutboxStore, 'enqueue' | 'isQueued'>;
  /**
   * Whether the owner would get this message now: a Slack user of theirs is known, and no mute
   * or setting drops it. A tip is for a person: it never goes to a project or fallback channel.
   */
  deliverable(item: Pick<OutboxItem, 'key' | 'kind' | 'target' | 'payload'>): Promise<boolean>;
  queued(): void;
  /**
   * Whether this replica decides tips now (with ha: the leader; always without). Every replica
   * sees every start, but a start must be decided once: a second replica deciding it after the
   * first had queued its tip reads that kind as told lately and queues the next kind, two tips
   * for one start. (Its check would also spend the leader's Slack lookups.)
   */
  decides?(): boolean;
  log: Logger;
  now(): Date;
}

export class LogTips {
  private readonly slots = new ConcurrencyLimiter(2);
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: LogTipsOptions) {}

  /**
   * A workload was seen to start running; `raw` is its object as the watch delivered it. The
   * command is read now (the object is not kept), the store afterwards, in the background.
   */
  started(workload: Workload, raw: unknown): void {
    const owner = workload.owner;
    if (!owner) return;
    if (this.options.decides && !this.options.decides()) return;
    const findings = logAdvice(submissionOf(raw));
    if (!findings.length) return;
    const job = this.slots
      .run(() => this.tip(workload, owner, findings))
      .catch((err: unknown) => this.options.log.warn({ workload: `${workload.namespace}/${workload.name}`, err: (err as Error)?.message ?? String(err) }, 'cannot queue a log-saving tip; none is sent for this start'))
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
  }

  /** Resolves when every tip being decided is queued or given up (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight);
  }

  private async tip(workload: Workload, owner: string, findings: ReturnType<typeof logAdvice>): Promise<void> {
    const { store, now } = this.options;
    const at = now();
    // Finding by finding, in order: a start usually costs the store two keys, not two per finding.
    let tip: ReturnType<typeof nextTip>;
    for (const finding of findings) {
      const records = new Map<string, TipRecord>();
      for (const key of tipKeysToRead(owner, finding.kind, at)) {
        const [entry, queued] = await Promise.all([store.ledgerEntry(key), store.isQueued(key)]);
        if (entry || queued) records.set(key, { sentAt: entry?.sentAt, dropped: entry?.recipient.startsWith(mutedRecipient('')) ?? false, queued });
      }
      tip = nextTip(owner, [finding], records, at);
      if (tip) break;
    }
    if (!tip) return;
    const item = {
      key: tip.key,
      kind: LOG_TIP_KIND,
      target: { type: 'owner' as const, owner, project: workload.project, workload: muteTarget(workload.namespace, workload.name, workload.cluster) },
      payload: buildLogTip(workload, tip.finding),
    };
    if (!(await this.options.deliverable(item))) return;
    if (await store.enqueue(item, at)) {
      this.options.log.info({ key: tip.key, workload: `${workload.namespace}/${workload.name}` }, 'log-saving tip queued');
      this.options.queued();
    }
  }
}
