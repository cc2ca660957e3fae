/**
 * Turns "this owner is owed a message about this workload" into a queued Slack message: plan
 * it first (delivery/plan.ts: drop, defer, where, which burst), so that a message nobody wants
 * (muted, or a Completed notice its owner never opted in to: the commonest path) costs no pod
 * list, no event or log read and no ledger row; then enrich (pods, logs, events, triage or
 * scheduler reasons), build the Block Kit, and queue it with its plan in the outbox — or fold it
 * into the owner's burst (persisted with its rewrite in one transaction: see outbox.ts for the
 * delivery guarantee). One enrichment per key at a time however many events arrive meanwhile,
 * and a bounded number at once so a burst of a thousand failures does not open a thousand
 * connections to the API server.
 */
import type { Logger } from 'pino';
import { workloadId, type Workload } from '../model.js';
import type { BurstStore, OutboxStore } from '../store/port.js';
import { describeKubeError } from '../cluster/kinds.js';
import { objectRef, withPods } from '../cluster/normalize.js';
import type { ClusterReader } from '../cluster/reader.js';
import { buildWorkloadAlert } from '../messages/alert.js';
import { buildFailedAgainDm, buildStoppedElsewhereDm } from '../messages/follow-ups.js';
import type { FollowUps, PreparedThread } from './follow-ups.js';
import type { SlackMessage } from '../messages/blocks.js';
import { buildStuckMessage } from '../messages/stuck.js';
import { buildMaskedFailureDm, logLossLine } from '../messages/log-advice.js';
import { logAdvice } from '../recovery/log-advice.js';
import { logShortOrLost } from '../recovery/log-loss.js';
import { checkMaskedFailure, mayHideFailure } from './masked-check.js';
import { opsSummary, type BurstEntry } from './burst.js';
import { enrichWorkload, eventSubjects, type EnrichOptions, type Enriched } from './enrich.js';
import { muteTarget } from './mutes.js';
import type { Outbox } from './outbox.js';
import { planDelivery, storedPlan, type DeliveryFacts, type Owed, type Plan, type SkipReason } from '../delivery/plan.js';
import { withOpenBurst, type DeliveryPlanner } from './planner.js';
import type { OutboxTarget } from '../store/port.js';
import type { AlertSink, OwedAlert } from './reconciler.js';
import { schedulingReasons } from './scheduling.js';
import { withDeadline } from '../archive/deadline.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';
import { Requeue, type RequeueOptions } from '../lib/requeue.js';

const ARCHIVE_WAIT_MS = 2000;
/**
 * Keys planned to nobody, remembered so that the next event or resync about the same workload
 * (which owes the same key again: nothing is in the ledger) is not planned and counted again.
 * Bounded: the oldest are forgotten first, and planning one again costs a few store reads.
 */
const SKIPPED_REMEMBERED = 10_000;

/** Enrichment reads from the workload's own cluster (undefined: the one unnamed cluster). */
export interface NotifierEnrichOptions extends Omit<EnrichOptions, 'reader'> {
  readerFor(cluster: string | undefined): ClusterReader;
}

export interface NotifierOptions {
  store: Pick<OutboxStore, 'enqueue'> & Pick<BurstStore, 'admitToBurst' | 'burstRewritesDueNow' | 'admitToOpsBurst'>;
  outbox: Pick<Outbox, 'kick'>;
  /** Reads the facts each plan is made from (the owner's Slack user, their mutes and settings, the channels). */
  planner: Pick<DeliveryPlanner, 'facts'>;
  /** An alert that could not be queued is prepared again after a backoff (metrics). */
  onRequeued?(): void;
  /** Whether this replica prepares owed alerts now (with ha: while it leads). Default: always. */
  prepares?(): boolean;
  requeue?: RequeueOptions;
  /** An owed message was planned to nobody, before any enrichment (metrics). */
  onSkipped?(reason: SkipReason): void;
  enrich: NotifierEnrichOptions;
  log: Logger;
  now(): Date;
  /** The Run:ai UI of a cluster, for the links in messages. */
  uiUrlFor(cluster: string | undefined): string | undefined;
  /** The state the cluster shows now (by workloadId()): a warning about a state already left is not sent. */
  currentState(id: string): string | undefined;
  burst: { windowMs: number; opsChannel?: string; opsThreshold?: number };
  /**
   * Extra work on a failure that the DM mentions (the log archive): where its result goes, and
   * a promise that resolves with that place once it is there (undefined: nothing was saved).
   */
  onSettled?(workload: Workload): { path: string; done: Promise<string | undefined> } | undefined;
  maxConcurrent?: number;
  onTriage?(ms: number, category: string): void;
  /** alerts.maskedFailures: a Completed workload whose log likely ends in a failure its pipe hid gets its owner a DM. */
  maskedFailures?: boolean;
  /** Threads of Failed and Stopped alerts (notify/follow-ups.ts): opened as alerts are queued; "failed again" escalates. */
  followUps?: Pick<FollowUps, 'prepare' | 'open' | 'placed' | 'toldInThread'>;
}

/** The message kind of a likely masked failure: not opt-in like `completed`, so it reaches the owner. */
export const MASKED_FAILURE_KIND = 'masked-failure';

export class Notifier implements AlertSink {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly skipped = new Set<string>();
  private readonly requeue: Requeue;
  private readonly slots: ConcurrencyLimiter;

  constructor(private readonly options: NotifierOptions) {
    this.slots = new ConcurrencyLimiter(options.maxConcurrent ?? 8);
    this.requeue = new Requeue({ ...options.requeue, onGivenUp: (key) => options.log.error({ key }, 'too many alerts waiting to be queued again; this one waits for the next resync') });
  }

  owed(alert: OwedAlert): void {
    // Every replica sees every failure; only the one that leads prepares it (pods, events, logs),
    // so the API server is read once per failure. A replica that starts leading decides every
    // workload again (parts/leader-duties.ts), so what a follower passed over is prepared then.
    if (this.options.prepares && !this.options.prepares()) return;
    if (this.inFlight.has(alert.key) || this.skipped.has(alert.key)) return;
    const job = this.slots.run(() => this.prepare(alert))
      .then(() => this.requeue.succeeded(alert.key))
      .catch((err: unknown) => {
        // Not queued (the store refused the write): prepared again after a backoff, the latest alert for the key winning.
        const failures = this.requeue.failed(alert.key, () => this.owed(alert));
        this.options.onRequeued?.();
        this.options.log.error({ key: alert.key, err: (err as Error)?.message ?? String(err), code: (err as { code?: string })?.code, failures }, 'preparing an alert failed; prepared again after a backoff');
      })
      .finally(() => this.inFlight.delete(alert.key));
    this.inFlight.set(alert.key, job);
  }

  /** Stops retrying alerts that could not be queued (shutdown). */
  stop(): void {
    this.requeue.stop();
  }

  /** Plans first: what is dropped is neither enriched nor queued. */
  private async prepare(alert: OwedAlert): Promise<void> {
    const owed = owedOf(alert);
    let facts: DeliveryFacts | undefined;
    try {
      facts = await this.options.planner.facts(owed);
    } catch (err) {
      this.options.log.warn({ key: alert.key, err: (err as Error).message }, 'cannot tell where the alert goes yet; it is planned when it is sent');
    }
    const plan = facts && planDelivery(owed, facts);
    if (plan?.action === 'drop' && facts && plan.reason === 'not-opted-in' && this.mayMaskFailure(alert)) {
      // Only a failure hidden behind a pipe could be said to this owner: planned as that, and
      // dropped after the one log read if the log ends cleanly.
      const masked = planDelivery({ ...owed, kind: MASKED_FAILURE_KIND }, facts);
      if (masked.action !== 'drop') return this.prepareSettled(alert, owed, facts, masked, plan);
    }
    if (plan?.action === 'drop') return this.skip(alert, plan);
    return alert.kind === 'stuck' ? this.prepareStuck(alert, plan) : this.prepareSettled(alert, owed, facts, plan);
  }

  /** A Completed workload whose command (as the CR names it) pipes its output without pipefail. */
  private mayMaskFailure(alert: OwedAlert): boolean {
    return alert.kind === 'state' && alert.workload.state === 'Completed' && !!this.options.maskedFailures && mayHideFailure(alert.workload);
  }

  private async skip(alert: OwedAlert, plan: Extract<Plan, { action: 'drop' }>): Promise<void> {
    const { log } = this.options;
    this.skipped.add(alert.key);
    if (this.skipped.size > SKIPPED_REMEMBERED) this.skipped.delete(this.skipped.values().next().value as string);
    log.info({ key: alert.key, why: plan.why }, 'not sent, and not enriched: planned to nobody');
    this.options.onSkipped?.(plan.reason);
    const w = alert.workload;
    if (alert.kind === 'stuck' || w.state === 'Completed') return;
    // The operators' digest counts every failure of a burst, told or not (without the triage it was
    // spared). A drop is remembered in memory only, so after a restart it is decided and dropped
    // again: counted then only if it happened now (seen changing, or within the burst window), not
    // into a new burst as old news.
    if (alert.transition || this.options.now().getTime() - alert.since.getTime() <= this.options.burst.windowMs) {
      await this.countForOperators(burstEntry(alert.key, { workload: w }));
    }
    // The log archive keeps every failure's logs whoever is told.
    this.options.onSettled?.(w);
  }

  /** Resolves when every alert being prepared is queued (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight.values());
  }

  /** Makes pending burst rewrites and the operators' summary due now (shutdown, tests). */
  async flushBursts(): Promise<void> {
    try {
      await this.options.store.burstRewritesDueNow(this.options.now());
    } catch (err) {
      // Nothing is lost: the rewrites stay queued for their own time.
      this.options.log.warn({ err: (err as Error).message }, 'cannot make burst rewrites due now');
    }
    this.options.outbox.kick();
  }

  /** `unlessMasked`: nothing but a masked failure is wanted (the owner never opted in to Completed): else this drop. */
  private async prepareSettled(alert: OwedAlert, owed: Owed, facts: DeliveryFacts | undefined, plan: Plan | undefined, unlessMasked?: Extract<Plan, { action: 'drop' }>): Promise<void> {
    const started = performance.now();
    const archive = this.options.onSettled?.(alert.workload);
    // Its thread is looked up (and what it was submitted with read) while the logs are.
    const prepared: Promise<PreparedThread> = alert.workload.state === 'Completed' ? Promise.resolve({}) : this.threadOf(alert);
    const enriched = await enrichWorkload(alert.workload, this.enrichOptions(alert.workload.cluster));
    if (enriched.triage) this.options.onTriage?.(performance.now() - started, enriched.triage.category);
    // The DM does not wait long for big logs: it says where they are being saved instead.
    const saved = archive ? await withDeadline(archive.done, ARCHIVE_WAIT_MS) : undefined;
    const archivePath = saved?.settled ? saved.value : undefined;
    const archivePending = archive && !saved?.settled ? archive.path : undefined;
    const w = enriched.workload;
    if (alert.workload.state === 'Completed' && this.options.maskedFailures) {
      const masked = await this.maskedFailureOf(alert.key, w, enriched);
      if (masked) return this.queue({ key: alert.key, kind: MASKED_FAILURE_KIND, target: this.ownerTarget(w, plan), payload: buildMaskedFailureDm(w, masked, this.options.uiUrlFor(w.cluster)) }, w);
    }
    if (unlessMasked) return this.skip(alert, unlessMasked);
    const thread = await prepared;
    if (thread.toldInThread) return this.options.followUps?.toldInThread(alert, thread.toldInThread);
    const input = {
      workload: w,
      state: alert.workload.state,
      triage: enriched.triage,
      site: enriched.site,
      uiUrl: this.options.uiUrlFor(alert.workload.cluster),
      logProblem: enriched.logProblem,
      archivePath,
      archivePending,
      snippetLines: this.options.enrich.tailLines,
      logLossLine: alert.workload.state === 'Failed' && logShortOrLost({ problem: enriched.logProblem, lineCount: enriched.triage?.lineCount }) ? logLossLine(logFindingsOfAlert(enriched)) : undefined,
    };
    // A workload whose earlier alert has a thread and fails again, or is stopped by someone else
    // or the system: a new DM linking that thread.
    const escalation = thread.failedAgain ?? thread.stoppedElsewhere;
    const message = thread.failedAgain
      ? buildFailedAgainDm(input, thread.failedAgain)
      : thread.stoppedElsewhere
        ? buildStoppedElsewhereDm(input, thread.stoppedElsewhere, thread.stoppedElsewhere.stopped)
        : buildWorkloadAlert(input);
    const kind = alert.workload.state.toLowerCase();
    const item = { key: alert.key, kind, target: this.ownerTarget(w, plan), payload: message };
    // Completed is opt-in per person, so it never anchors or joins a burst others must see.
    if (alert.workload.state === 'Completed') return this.queue(item, w);
    const entry = burstEntry(alert.key, enriched);
    await this.countForOperators(entry);
    // The thread is in the store before its alert is queued: whatever follows finds it, however soon.
    const followUps = this.options.followUps;
    const opened = await this.followUpStep('keep the alert\'s thread', alert, () => followUps?.open(alert, w, message, enriched.triage, thread));
    const burst = plan && plan.action !== 'drop' ? plan.burst : undefined;
    // The escalation is a DM of its own: folded into a burst it would rewrite the very alert whose thread it links.
    const folded = !burst || !facts || escalation ? (await this.queue(item, w), false) : await this.admitToBurst(burst.key, owed, facts, entry, item);
    // Its first line may be edited once it is known to be a message of its own (undefined: queued before, not known).
    if (opened && folded === false) await this.followUpStep('mark the alert\'s thread as its own message', alert, () => followUps?.placed(alert));
  }

  /** A follow-up step around an alert: a failure loses only the follow-ups, never the alert. */
  private async followUpStep(what: string, alert: OwedAlert, step: () => Promise<void> | undefined): Promise<boolean> {
    try {
      await step();
      return true;
    } catch (err) {
      this.options.log.error({ key: alert.key, err: (err as Error)?.message ?? String(err) }, `cannot ${what}; it gets no follow-ups`);
      return false;
    }
  }

  private async threadOf(alert: OwedAlert): Promise<PreparedThread> {
    try {
      return (await this.options.followUps?.prepare(alert)) ?? {};
    } catch (err) {
      this.options.log.warn({ key: alert.key, err: (err as Error)?.message ?? String(err) }, 'cannot read the alert\'s earlier thread; sent as a plain alert');
      return {};
    }
  }

  /**
   * Opens a burst (the alert is queued and becomes its anchor) or folds the alert into the open
   * one, as planDelivery says given the burst the store finds open. One transaction: the fold,
   * its membership and the burst's rewrite are on disk together, and the alert is not told until
   * Slack accepts a rewrite naming it. The store serialises admissions per destination, so two
   * alerts for one person cannot both open a burst.
   */
  /** Whether the alert was folded into another's burst; undefined when it was queued already. */
  private async admitToBurst(destination: string, owed: Owed, facts: DeliveryFacts, entry: BurstEntry, item: QueuedAlert): Promise<boolean | undefined> {
    const { store, log } = this.options;
    const now = this.options.now();
    const outcome = await store.admitToBurst(destination, item, entry, now, (open) => {
      const plan = planDelivery(owed, withOpenBurst(facts, open && { anchorKey: open.anchorKey, openedAt: Date.parse(open.openedAt) }, now));
      if (plan.action === 'fold') return { grouped: true, anchorKey: plan.burst.anchorKey, rewriteAt: plan.burst.rewriteAt };
      return { grouped: false, closesAt: (plan.action !== 'drop' && plan.burst?.closesAt) || now.getTime() + this.options.burst.windowMs };
    });
    // Already queued, by another replica (ha) when it decided first: its outbox may not be the one
    // sending, so this one looks now rather than at its next timer tick.
    if (!outcome) {
      this.options.outbox.kick();
      return undefined;
    }
    if (outcome.folded) log.info({ key: item.key, anchor: outcome.anchorKey, destination }, 'alert folded into a burst');
    else log.info({ key: item.key, workload: `${entry.namespace}/${entry.name}`, kind: item.kind }, 'alert queued');
    this.options.outbox.kick();
    return outcome.folded;
  }

  /** The owner's target, carrying the plan the sender follows (none: it is planned when sent). */
  private ownerTarget(w: Workload, plan: Plan | undefined): Extract<OutboxTarget, { type: 'owner' }> {
    const target = ownerTarget(w);
    return plan && plan.action !== 'drop' ? { ...target, plan: storedPlan(plan, this.options.now()) } : target;
  }

  /** A likely masked failure of a Completed workload (one bounded log read, only for a command with the pipe); a failed read says nothing. */
  private async maskedFailureOf(key: string, w: Workload, enriched: Enriched) {
    // No pod, no log to read: the check needs its main container.
    if (!enriched.rawPods.length) return undefined;
    try {
      return await checkMaskedFailure(w, enriched.submission, this.options.enrich.readerFor(w.cluster), this.options.enrich.timeoutMs);
    } catch (err) {
      this.options.log.warn({ key, err: describeKubeError(err) }, 'cannot read the log of a completed workload whose pipe may hide a failure; the ordinary notice goes');
      return undefined;
    }
  }

  private enrichOptions(cluster: string | undefined): EnrichOptions {
    const { readerFor, ...rest } = this.options.enrich;
    return { ...rest, reader: readerFor(cluster) };
  }

  private async prepareStuck(alert: OwedAlert, plan: Plan | undefined): Promise<void> {
    const w = alert.workload;
    const { reader, ownerKeys } = this.enrichOptions(w.cluster);
    let workload = w;
    let reasons: ReturnType<typeof schedulingReasons> = [];
    try {
      const [pods, podGroups] = await Promise.all([
        reader.podsOf(w),
        reader.podGroupsOf(w.namespace, w.name).catch(() => []),
      ]);
      workload = withPods(w, pods, { ownerKeys, podGroups });
      const groups = podGroups.flatMap((g) => objectRef(g).name ?? []);
      const events = await reader.eventsFor(w.namespace, eventSubjects(workload, groups));
      reasons = schedulingReasons(events, podGroups, workload.pods);
    } catch (err) {
      this.options.log.warn({ key: alert.key, err: describeKubeError(err) }, 'cannot read why the workload waits; warning without reasons');
    }
    // It may have started while we were reading: then it is no longer stuck, and says nothing.
    if (this.options.currentState(workloadId(w)) !== w.state) return;
    const state = w.state as 'Pending' | 'Initializing';
    const message = buildStuckMessage({ workload, state, since: alert.since, reasons, uiUrl: this.options.uiUrlFor(w.cluster) }, this.options.now());
    await this.queue({ key: alert.key, kind: state.toLowerCase(), target: this.ownerTarget(workload, plan), payload: message }, workload);
  }

  private async queue(item: QueuedAlert, w: Workload): Promise<void> {
    const queued = await this.options.store.enqueue(item, this.options.now());
    if (queued) this.options.log.info({ key: item.key, workload: `${w.namespace}/${w.name}`, kind: item.kind }, 'alert queued');
    // Kicked either way: a copy queued first by another replica (ha) is this outbox's to send if it leads.
    this.options.outbox.kick();
  }

  /**
   * Counts the alert into the stored cluster-wide burst; the operators' summary is queued (or its
   * text brought up to date) in the same transaction, due when the burst closes. A failure here
   * costs the summary a line, never the owner's alert.
   */
  private async countForOperators(entry: BurstEntry): Promise<void> {
    const { windowMs, opsChannel: channel, opsThreshold: threshold = 10 } = this.options.burst;
    try {
      await this.options.store.admitToOpsBurst(entry.key, entry, this.options.now(), windowMs, (burst) => {
        if (burst.entries.length === threshold) this.options.log.warn({ count: burst.entries.length, burst: burst.key }, 'burst of workload failures');
        return opsSummary(burst, { windowMs, threshold, channel });
      });
    } catch (err) {
      this.options.log.error({ key: entry.key, err: (err as Error)?.message ?? String(err) }, 'cannot count the alert into the operators\' burst summary');
    }
  }
}

/** The log-saving findings an alert can stand behind: none without a pod (its environment and volumes would be guesses). */
function logFindingsOfAlert(e: Enriched) {
  return e.rawPods.length ? logAdvice(e.submission) : [];
}

type QueuedAlert = { key: string; kind: string; target: Extract<OutboxTarget, { type: 'owner' }>; payload: SlackMessage };

/** An owed alert as its plan sees it: the kind it is queued as (its state's), and whether it may burst. */
function owedOf(alert: OwedAlert): Owed {
  const w = alert.workload;
  return { key: alert.key, kind: w.state.toLowerCase(), owner: w.owner || undefined, project: w.project, workload: muteTarget(w.namespace, w.name, w.cluster), burstable: alert.kind === 'state' && w.state !== 'Completed' };
}

function ownerTarget(w: Workload) {
  return { type: 'owner' as const, owner: w.owner ?? '', project: w.project, workload: muteTarget(w.namespace, w.name, w.cluster) };
}

function burstEntry(key: string, e: Pick<Enriched, 'workload' | 'site' | 'triage'>): BurstEntry {
  const w = e.workload;
  return {
    key,
    ...(w.cluster ? { cluster: w.cluster } : {}),
    owner: w.owner ?? '',
    namespace: w.namespace,
    name: w.name,
    project: w.project,
    kind: w.kind,
    state: w.state,
    node: e.site?.node,
    category: e.triage?.category,
    categoryLabel: e.triage?.categoryLabel,
    firstError: detached(e.triage?.firstError?.line),
  };
}

/**
 * A copy of a short string that shares no memory with the text it was cut from. V8 keeps a
 * slice as a view of its parent: the first error line, held by the operators' burst summary
 * for a whole window, would otherwise keep the log it was read from (up to 4 MB each) alive.
 */
function detached(text: string | undefined): string | undefined {
  return text === undefined ? undefined : Buffer.from(text, 'utf8').toString('utf8');
}
