/**
 * Turns "this owner is owed a message about this workload" into a queued Slack message:
 * enrich (pods, logs, events, triage or scheduler reasons), build the Block Kit, queue it in
 * the outbox — or fold it into the owner's burst (persisted with its rewrite in one transaction:
 * see outbox.ts for the delivery guarantee). One enrichment per key at a time however
 * many events arrive meanwhile, and a bounded number at once so a burst of a thousand failures
 * does not open a thousand connections to the API server.
 */
import type { Logger } from 'pino';
import { opsBurstKey } from '../keys.js';
import { workloadId, type Workload } from '../model.js';
import type { BurstStore, OutboxStore } from '../store/port.js';
import { describeKubeError } from '../cluster/kinds.js';
import { objectRef, withPods } from '../cluster/normalize.js';
import type { ClusterReader } from '../cluster/reader.js';
import { buildOpsBurstMessage } from '../messages/burst.js';
import { buildWorkloadAlert } from '../messages/alert.js';
import { buildFailedAgainDm } from '../messages/follow-ups.js';
import type { FollowUps, PreparedThread } from './follow-ups.js';
import type { SlackMessage } from '../messages/blocks.js';
import { buildStuckMessage } from '../messages/stuck.js';
import { buildMaskedFailureDm, logLossLine } from '../messages/log-advice.js';
import { logAdvice } from '../recovery/log-advice.js';
import { logShortOrLost } from '../recovery/log-loss.js';
import { checkMaskedFailure } from './masked-check.js';
import { admit, OpsBurstCounter, type BurstEntry, type OpsBurst } from './burst.js';
import { enrichWorkload, eventSubjects, type EnrichOptions, type Enriched } from './enrich.js';
import { muteTarget } from './mutes.js';
import type { BurstDestination, Outbox } from './outbox.js';
import type { AlertSink, OwedAlert } from './reconciler.js';
import { schedulingReasons } from './scheduling.js';
import { withDeadline } from '../archive/deadline.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';

const ARCHIVE_WAIT_MS = 2000;

/** Enrichment reads from the workload's own cluster (undefined: the one unnamed cluster). */
export interface NotifierEnrichOptions extends Omit<EnrichOptions, 'reader'> {
  readerFor(cluster: string | undefined): ClusterReader;
}

export interface NotifierOptions {
  store: Pick<OutboxStore, 'enqueue'> & Pick<BurstStore, 'admitToBurst' | 'burstRewritesDueNow'>;
  outbox: Outbox;
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
  followUps?: Pick<FollowUps, 'prepare' | 'open' | 'placed'>;
}

/** The message kind of a likely masked failure: not opt-in like `completed`, so it reaches the owner. */
export const MASKED_FAILURE_KIND = 'masked-failure';

export class Notifier implements AlertSink {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly slots: ConcurrencyLimiter;
  private readonly ops: OpsBurstCounter;
  private opsPosting: Promise<void> = Promise.resolve();

  constructor(private readonly options: NotifierOptions) {
    this.slots = new ConcurrencyLimiter(options.maxConcurrent ?? 8);
    this.ops = new OpsBurstCounter({
      windowMs: options.burst.windowMs,
      threshold: options.burst.opsThreshold ?? 10,
      now: () => options.now().getTime(),
      onOpsBurst: (burst) => this.postOpsSummary(burst),
    });
  }

  owed(alert: OwedAlert): void {
    if (this.inFlight.has(alert.key)) return;
    const job = this.slots.run(() => (alert.kind === 'stuck' ? this.prepareStuck(alert) : this.prepareSettled(alert)))
      .catch((err: unknown) => this.options.log.error({ key: alert.key, err: (err as Error).message }, 'preparing an alert failed'))
      .finally(() => this.inFlight.delete(alert.key));
    this.inFlight.set(alert.key, job);
  }

  /** Resolves when every alert being prepared is queued (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight.values());
  }

  /** Makes pending burst rewrites due now and posts the operators' summary (shutdown, tests). */
  async flushBursts(): Promise<void> {
    try {
      await this.options.store.burstRewritesDueNow(this.options.now());
    } catch (err) {
      // Nothing is lost: the rewrites stay queued for their own time.
      this.options.log.warn({ err: (err as Error).message }, 'cannot make burst rewrites due now');
    }
    this.ops.flush();
    await this.opsPosting;
    this.options.outbox.kick();
  }

  private async prepareSettled(alert: OwedAlert): Promise<void> {
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
      if (masked) return this.queue(alert, w, buildMaskedFailureDm(w, masked, this.options.uiUrlFor(w.cluster)), MASKED_FAILURE_KIND);
    }
    const relation = await prepared;
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
      logLossLine: alert.workload.state === 'Failed' && logShortOrLost({ problem: enriched.logProblem, lineCount: enriched.triage?.lineCount }) ? logLossLine(logAdvice(enriched.submission)) : undefined,
    };
    // A workload whose earlier alert has a thread and fails again: a new DM linking that thread.
    const message = relation.failedAgain ? buildFailedAgainDm(input, relation.failedAgain) : buildWorkloadAlert(input);
    const kind = alert.workload.state.toLowerCase();
    // Completed is opt-in per person, so it never anchors or joins a burst others must see.
    if (alert.workload.state === 'Completed') return this.queue(alert, w, message, kind);
    await this.queueSettled(alert, enriched, message, kind, relation);
  }

  /**
   * Queues a Failed or Stopped alert with its thread: the thread is in the store before the alert
   * is queued (so whatever follows it finds it, however soon), marked folded until the alert is
   * known to have a message of its own, whose first line may then be edited.
   */
  private async queueSettled(alert: OwedAlert, enriched: Enriched, message: SlackMessage, kind: string, prepared: PreparedThread): Promise<void> {
    const followUps = this.options.followUps;
    const opened = await this.followUpStep('keep the alert\'s thread', alert, () => followUps?.open(alert, enriched.workload, message, enriched.triage, prepared));
    // The escalation is a DM of its own: folded into a burst it would rewrite the very alert whose thread it links.
    const folded = prepared.failedAgain ? (await this.queue(alert, enriched.workload, message, kind), false) : await this.queueOrFold(alert, enriched, message, kind);
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

  /** Queues the alert or folds it into a burst: whether it was folded, undefined when it was already queued. */
  private async queueOrFold(alert: OwedAlert, enriched: Enriched, message: SlackMessage, kind: string): Promise<boolean | undefined> {
    const w = enriched.workload;
    const entry = burstEntry(alert.key, enriched);
    this.ops.count(entry);
    const item = { key: alert.key, kind, target: ownerTarget(w), payload: message };
    let destination: BurstDestination | undefined;
    try {
      destination = await this.options.outbox.burstDestination(item);
    } catch (err) {
      this.options.log.warn({ key: alert.key, err: (err as Error).message }, 'cannot tell where the alert goes yet; it is sent on its own');
    }
    if (!destination) {
      await this.queue(alert, w, message, kind);
      return false;
    }
    return this.admitToBurst(destination, entry, item);
  }

  /**
   * Opens a burst (the alert is queued and becomes its anchor) or folds the alert into the open
   * one. One transaction: the fold, its membership and the burst's rewrite are on disk together,
   * and the alert is not told until Slack accepts a rewrite naming it. The store serialises
   * admissions per destination, so two alerts for one person cannot both open a burst.
   */
  private async admitToBurst(destination: BurstDestination, entry: BurstEntry, item: QueuedAlert): Promise<boolean | undefined> {
    const { store, log } = this.options;
    const now = this.options.now();
    const outcome = await store.admitToBurst(destination.key, item, entry, now, (open) =>
      admit(open && { anchorKey: open.anchorKey, openedAt: Date.parse(open.openedAt) }, now.getTime(), this.options.burst.windowMs),
    );
    // Already queued, by another replica (ha) when it decided first: its outbox may not be the one
    // sending, so this one looks now rather than at its next timer tick.
    if (!outcome) {
      this.options.outbox.kick();
      return undefined;
    }
    if (outcome.folded) log.info({ key: item.key, anchor: outcome.anchorKey, destination: destination.key }, 'alert folded into a burst');
    else log.info({ key: item.key, workload: `${entry.namespace}/${entry.name}`, kind: item.kind }, 'alert queued');
    this.options.outbox.kick();
    return outcome.folded;
  }

  /** A likely masked failure of a Completed workload (one bounded log read, only for a command with the pipe); a failed read says nothing. */
  private async maskedFailureOf(key: string, w: Workload, enriched: Enriched) {
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

  private async prepareStuck(alert: OwedAlert): Promise<void> {
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
    await this.queue(alert, workload, message, state.toLowerCase());
  }

  private async queue(alert: OwedAlert, w: Workload, message: SlackMessage, kind: string): Promise<void> {
    const queued = await this.options.store.enqueue({ key: alert.key, kind, target: ownerTarget(w), payload: message }, this.options.now());
    if (queued) this.options.log.info({ key: alert.key, workload: `${w.namespace}/${w.name}`, kind }, 'alert queued');
    // Kicked either way: a copy queued first by another replica (ha) is this outbox's to send if it leads.
    this.options.outbox.kick();
  }

  /** The counter calls back synchronously; the summary is queued in the background, one at a time. */
  private postOpsSummary(burst: OpsBurst): void {
    const channel = this.options.burst.opsChannel;
    this.options.log.warn({ count: burst.entries.length }, 'burst of workload failures');
    if (!channel) return;
    const item = { key: opsBurstKey(new Date(burst.openedAt)), kind: 'ops-burst', target: { type: 'channel' as const, channel }, payload: buildOpsBurstMessage(burst.entries, this.options.burst.windowMs) };
    const now = this.options.now();
    this.opsPosting = this.opsPosting
      .then(() => this.options.store.enqueue(item, now))
      .then(() => this.options.outbox.kick())
      .catch((err: unknown) => this.options.log.error({ key: item.key, err: (err as Error)?.message ?? String(err) }, 'cannot queue the operators\' burst summary'));
  }
}

type QueuedAlert = { key: string; kind: string; target: ReturnType<typeof ownerTarget>; payload: SlackMessage };

function ownerTarget(w: Workload) {
  return { type: 'owner' as const, owner: w.owner ?? '', project: w.project, workload: muteTarget(w.namespace, w.name, w.cluster) };
}

function burstEntry(key: string, e: Enriched): BurstEntry {
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
