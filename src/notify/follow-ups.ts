/**
 * Follow-ups in the alert's thread (README, "Follow-ups"): the adapter between the reconciler,
 * the notifier and the outbox. What a change means is decided by recovery/follow-up-plan.ts;
 * this reads the thread, asks, and queues what the answer says — store first, through the
 * outbox, so follow-ups have the alerts' delivery guarantee:
 *
 *   - the thread of each Failed or Stopped alert is a row in the store (follow_up_threads), with
 *     the alert as posted (its first line is rewritten from it) and the Submission it is held
 *     against; where the alert went is its ledger row, so a restart or another replica threads
 *     the same way;
 *   - every reply has a key numbered by its place in the thread (keys.ts followUpKey), so a step
 *     decided twice is queued once; the root's edit has one key per root and is coalesced in the
 *     store (one chat.update pending per root, the latest);
 *   - the reconciler asks before it writes its own memory, so a crash in between decides again.
 *
 * A failure of the same workload again (its alert already told) is owed to the notifier under
 * its follow-up key, which builds the escalation DM; a resubmission's own failure is the
 * reconciler's ordinary alert, which the notifier turns into that DM (beforeAlert).
 */
import type { Logger } from 'pino';
import { alertKey, followUpChain, followUpKey, inThreadRecipient, rootEditKey } from '../keys.js';
import { workloadId, type Workload } from '../model.js';
import type { ClusterReader } from '../cluster/reader.js';
import { describeKubeError } from '../cluster/kinds.js';
import { withTimeout } from '../lib/timeout.js';
import { KeyedSerializer } from '../lib/keyed-serializer.js';
import type { SlackMessage } from '../messages/blocks.js';
import { buildResubmittedReply, buildStateFollowUp, rootStatusLine, withRootStatus, type EarlierAlert, type FollowUpEvent, type StoppedBy } from '../messages/follow-ups.js';
import { planFollowUp, resubmissionAdvice, rootWorkloadId, statusEvents, stopCauseOf, stoppedFollowUp, type FollowUpSight } from '../recovery/follow-up-plan.js';
import { submissionOf, type Submission } from '../recovery/submission.js';
import type { FollowUpStore, LedgerStore, NewOutboxItem, OutboxStore, StoredFollowUpThread } from '../store/port.js';
import type { TriageResult } from '../triage/types.js';
import { muteTarget } from './mutes.js';
import type { OwedAlert } from './reconciler.js';

export type { FollowUpSight } from '../recovery/follow-up-plan.js';

/** How long reading a workload's object may take before its Submission is made from what the watch showed. */
const OBJECT_READ_MS = 5000;

export interface FollowUpsOptions {
  store: FollowUpStore & Pick<OutboxStore, 'enqueue' | 'isQueued'> & Pick<LedgerStore, 'wasSent' | 'ledgerEntry' | 'recordSent'>;
  readerFor(cluster: string | undefined): ClusterReader;
  /** Slack's permalink of a message (`https://<team>.slack.com/archives/<channel>/p<ts>`), or undefined. */
  permalink(channel: string, ts: string): Promise<string | undefined>;
  /** followups.window. */
  windowMs: number;
  /** Asks the notifier for an alert the reconciler will not owe (the same workload failing again). */
  owe(alert: OwedAlert): void;
  /** Something was queued: the outbox may send. */
  queued(): void;
  now(): Date;
  log: Logger;
}

/**
 * What an alert about to be built needs of its thread: whether it is an escalation ("failed
 * again", or stopped by someone else or the system), whether it is told in the thread instead
 * (stopped by its owner: `toldInThread`, the root it is told under), and its Submission.
 */
export interface PreparedThread {
  failedAgain?: EarlierAlert;
  stoppedElsewhere?: EarlierAlert & { stopped: StoppedBy };
  toldInThread?: string;
  submission?: Submission;
}

export class FollowUps {
  /** Thread writes one at a time per chain: the reconciler's decisions and the notifier's alerts meet here. */
  private readonly perChain = new KeyedSerializer();

  constructor(private readonly options: FollowUpsOptions) {}

  /**
   * The reconciler saw these workloads change state or appear (before it remembers them). One
   * store read for the slice; a workload whose chain has a thread is then decided alone.
   * Rejects only when the store does (the reconciler then decides again later).
   */
  async observe(sights: readonly FollowUpSight[]): Promise<void> {
    if (!sights.length) return;
    const threads = await this.options.store.followUpThreads(sights.map((s) => followUpChain(s.workload)));
    if (!threads.size) return;
    await Promise.all(sights.filter((s) => threads.has(followUpChain(s.workload))).map((s) => this.perChain.run(followUpChain(s.workload), () => this.observeOne(s))));
  }

  private async observeOne(sight: FollowUpSight): Promise<void> {
    const { store, now, windowMs } = this.options;
    const chain = followUpChain(sight.workload);
    const thread = (await store.followUpThreads([chain])).get(chain);
    const step = planFollowUp(thread, sight, now(), windowMs);
    if (step.action === 'none') return;
    if (step.action === 'note') return store.putFollowUpThread(step.thread);
    const w = sight.workload;
    const next = step.thread;
    const rootId = rootWorkloadId(next);
    const key = followUpKey(rootId, step.seq, step.event);
    // A stop by someone else or the system is an escalation like a failure; the owner's own is a reply.
    const escalates = step.event === 'failed' || (step.event === 'stopped' && stoppedFollowUp(stopCauseOf(w)) === 'escalate');
    if (escalates) {
      // The same workload failing (or stopped) again: its alert was told, so the reconciler owes
      // nothing; the escalation DM is owed under the follow-up's key. (A resubmission's first
      // failure or stop is the reconciler's own alert, made the escalation by prepare.)
      const id = workloadId(w);
      const state = step.event === 'failed' ? 'Failed' : 'Stopped';
      const told = (await store.wasSent(alertKey(id, state))) || (await store.isQueued(alertKey(id, state)));
      if (told) this.options.owe({ key, kind: 'state', workload: w, since: now() });
    } else if (step.event !== 'failed') {
      const reply = step.event === 'resubmitted' ? await this.resubmittedReply(thread!, w) : buildStateFollowUp(step.event, w, { resubmission: step.resubmission });
      await store.enqueue({ key, kind: 'follow-up', target: this.threadTarget(next), payload: reply }, now());
    }
    await this.queueRootEdit(next);
    await store.putFollowUpThread(next);
    this.options.log.info({ key, event: step.event, root: next.rootKey }, 'follow-up queued');
    this.options.queued();
  }

  /**
   * Before the notifier builds a Failed or Stopped alert (while it reads the logs): whether it is
   * the escalation "failed again" of a workload a thread follows (a resubmission, or the same one
   * after it ran again), and what the workload was submitted with, for the thread.
   */
  async prepare(alert: OwedAlert): Promise<PreparedThread> {
    const [told, submission] = await Promise.all([this.toldAgainst(alert), this.submissionOf(alert.workload)]);
    return { ...told, submission };
  }

  /** How a Failed or Stopped alert of the workload a thread follows (not the thread's own root) is told. */
  private async toldAgainst(alert: OwedAlert): Promise<Omit<PreparedThread, 'submission'>> {
    const w = alert.workload;
    if (w.state !== 'Failed' && w.state !== 'Stopped') return {};
    const chain = followUpChain(w);
    const thread = (await this.options.store.followUpThreads([chain])).get(chain);
    if (!thread || thread.current !== workloadId(w) || alert.key === thread.rootKey) return {};
    if (w.state === 'Stopped') {
      const cause = stopCauseOf(w);
      // The owner's own stop is the thread's reply (observeOne queues it): no top-level DM besides.
      if (cause.by === 'owner' || cause.by === 'unnamed') return { toldInThread: thread.rootKey };
      return { stoppedElsewhere: { permalink: await this.permalinkOf(thread.rootKey), stopped: cause } };
    }
    const failures = (thread.alerted === 'Failed' ? 1 : 0) + thread.events.filter((e) => e === 'failed').length;
    return { failedAgain: { permalink: await this.permalinkOf(thread.rootKey), failures: Math.max(2, failures) } };
  }

  private async permalinkOf(rootKey: string): Promise<string | undefined> {
    const root = await this.options.store.ledgerEntry(rootKey);
    return root?.channel && root.ts ? await this.options.permalink(root.channel, root.ts).catch(() => undefined) : undefined;
  }

  /**
   * The alert is told in the thread under `rootKey` instead (a reply queued with the delivery
   * guarantee): recorded as handled, as a muted one is, so it is not prepared again.
   */
  async toldInThread(alert: OwedAlert, rootKey: string): Promise<void> {
    await this.options.store.recordSent({ key: alert.key, recipient: inThreadRecipient(rootKey), sentAt: this.options.now().toISOString() });
    this.options.log.info({ key: alert.key, root: rootKey }, 'not sent on its own: told in the thread of the alert it follows');
  }

  /**
   * Before a Failed or Stopped alert is queued: it opens its workload's thread, or, when the
   * workload is the one a thread follows (a resubmission failed, or the same workload failed
   * again), gives that thread the attempt it will be compared with next. A new thread counts as
   * folded (its first line is not edited) until placed() says the alert has a message of its own.
   */
  async open(alert: OwedAlert, w: Workload, message: SlackMessage, triage: TriageResult | undefined, prepared: PreparedThread): Promise<void> {
    const state = alert.workload.state;
    if (state !== 'Failed' && state !== 'Stopped') return;
    const chain = followUpChain(w);
    await this.perChain.run(chain, async () => {
      const { store, now } = this.options;
      const at = now().toISOString();
      const existing = (await store.followUpThreads([chain])).get(chain);
      // Opened already (the alert was prepared again after a restart): what it says since is kept.
      if (existing?.rootKey === alert.key) return;
      const facts = { submission: prepared.submission ?? (await this.submissionOf(w)), category: triage?.categoryLabel, transient: triage?.transient, endedAt: at, updatedAt: at };
      if (existing && existing.current === workloadId(w)) {
        await store.putFollowUpThread({ ...existing, ...facts, lastState: state });
        return;
      }
      // Not a put: another replica may have opened it (and marked it placed) meanwhile.
      await store.openFollowUpThread({
        chain,
        rootKey: alert.key,
        current: workloadId(w),
        lastState: state,
        alerted: state,
        events: [],
        rootPayload: message,
        name: w.name,
        owner: w.owner,
        project: w.project,
        muteScope: muteTarget(w.namespace, w.name, w.cluster),
        folded: true,
        ...facts,
      });
    });
  }

  /** The alert of a thread was queued as a message of its own (not folded into another's burst): its first line may be edited. */
  async placed(alert: OwedAlert): Promise<void> {
    const chain = followUpChain(alert.workload);
    await this.perChain.run(chain, async () => {
      const thread = (await this.options.store.followUpThreads([chain])).get(chain);
      if (thread?.rootKey === alert.key && thread.folded) await this.options.store.putFollowUpThread({ ...thread, folded: false });
    });
  }

  private threadTarget(thread: StoredFollowUpThread, edit = false): NewOutboxItem['target'] {
    return { type: 'thread', rootKey: thread.rootKey, project: thread.project, workload: thread.muteScope, ...(edit ? { edit: true } : {}) };
  }

  /** The root's first line says where things stand; one pending edit per root, the latest. */
  private async queueRootEdit(thread: StoredFollowUpThread): Promise<void> {
    // An alert folded into another's burst shares that message: its line is not the root's first.
    if (thread.folded) return;
    const line = rootStatusLine(thread.alerted, statusEvents(thread.events as FollowUpEvent[]));
    const payload = withRootStatus(thread.rootPayload as SlackMessage, thread.name, line);
    await this.options.store.queueCoalescedEdit({ key: rootEditKey(thread.rootKey), kind: 'root-edit', target: this.threadTarget(thread, true), payload }, this.options.now());
  }

  private async resubmittedReply(thread: StoredFollowUpThread, w: Workload): Promise<SlackMessage> {
    const next = await this.submissionOf(w);
    const advice = resubmissionAdvice(thread, next);
    const previous = (thread.submission as Submission | undefined) ?? next;
    return buildResubmittedReply({ workload: w, previous, changes: advice?.changes ?? [], verdict: advice?.verdict ?? 'unchanged', earlierCategory: thread.category });
  }

  /**
   * What the workload was submitted with, from its object as the cluster stores it; from what
   * the watch showed (image, command, arguments) when the object cannot be read. Environment
   * values are never read (submission.ts keeps names only).
   */
  private async submissionOf(w: Workload): Promise<Submission> {
    const reader = this.options.readerFor(w.cluster);
    if (reader.workloadObject) {
      try {
        const obj = await withTimeout((signal) => reader.workloadObject!(w, signal), OBJECT_READ_MS, 'reading the workload');
        if (obj) return submissionOf(obj);
      } catch (err) {
        this.options.log.warn({ workload: workloadId(w), err: describeKubeError(err) }, 'cannot read the workload object; its submission is what the watch showed');
      }
    }
    return submissionOf({ kind: w.kind, spec: { image: w.image, command: w.command, arguments: w.arguments } });
  }
}
