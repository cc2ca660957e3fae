/**
 * What a workload's later life means for the thread of its alert: the one decision of the
 * follow-ups, as pure functions (the adapter is notify/follow-ups.ts). Level-triggered like the
 * lifecycle: the thread remembers the state it last took note of, so the same snapshot decided
 * twice (a restart, a relist, a second replica) gives the same step, and every step has a
 * deterministic number (its place among the thread's events) that its outbox key carries.
 *
 *   the alerted workload (or its latest resubmission) moves on:
 *     Running, Completed, Deleted           → a reply in the thread, the root's first line edited
 *     Stopped by its owner, or by no one named → the same (and no top-level Stopped DM besides)
 *     Stopped by someone else or the system → a new top-level DM linking the thread, no reply
 *                                             (stoppedFollowUp: the owner must act on it), root edited
 *     Failed (again)                        → the escalation DM (a reply may not notify), root edited
 *     Pending, Initializing                 → noted, nothing said
 *   a workload of the same name (cluster, namespace: so project) with a new uid, first seen,
 *   created within `followups.window` after the attempt before it failed or stopped
 *                                         → "resubmitted" in the thread, with what changed
 */
import { workloadId, type FollowUpEvent, type Workload } from '../model.js';
import { diffSubmission, resubmissionVerdict, type ResubmissionVerdict, type SubmissionChange } from './diff.js';
import type { Submission } from './submission.js';

/** What the decision reads of a thread (the store's StoredFollowUpThread is one, with more beside). */
export interface ThreadState {
  /** The alert the thread hangs under: `wl:<id>:Failed` or `:Stopped`. */
  rootKey: string;
  /** The workload (workloadId()) the thread follows now. */
  current: string;
  lastState: string;
  alerted: 'Failed' | 'Stopped';
  endedAt: string;
  events: string[];
  submission?: unknown;
  transient?: boolean;
  updatedAt: string;
}

export type FollowUpStep<T extends ThreadState = ThreadState> =
  | { action: 'none' }
  /** Remember the state (Pending, Initializing): nothing to say. */
  | { action: 'note'; thread: T }
  /** Say it in the thread (or, for `failed`, in a new DM) and edit the root; `seq` numbers it within the thread. */
  | { action: 'tell'; event: FollowUpEvent; seq: number; thread: T; resubmission: boolean };

export interface FollowUpSight {
  /** The workload as the cluster shows it now. */
  workload: Workload;
  /** The bot has no memory of it yet: a new workload (only a new one can be a resubmission). */
  firstSeen: boolean;
}

const EVENT_OF_STATE: Partial<Record<string, FollowUpEvent>> = {
  Running: 'running',
  Completed: 'completed',
  Stopped: 'stopped',
  Deleted: 'deleted',
  Failed: 'failed',
};

/**
 * Who stopped a workload, as far as what the cluster shows says (stopCauseOf): its owner, no one
 * named, another person, or the system (preempted, evicted, a timeout: policy, in the guide's
 * words "User or policy stopped the workload").
 */
export type StopCause =
  | { by: 'owner' }
  | { by: 'unnamed' }
  | { by: 'someone-else'; who: string }
  | { by: 'system'; why: string };

/**
 * How the stop of the workload a thread follows is told. The owner's own stop (or one nobody is
 * named for) is news only as where things stand: a reply in the thread, nothing at the top. A
 * stop by someone else or by the system is something the owner did not do and must act on (the
 * guide: "decide whether to resume or remove it"): a top-level DM that links the thread, since a
 * thread reply may not notify, and no reply besides it.
 */
export function stoppedFollowUp(cause: StopCause): 'reply' | 'escalate' {
  return cause.by === 'owner' || cause.by === 'unnamed' ? 'reply' : 'escalate';
}

/**
 * The scheduler's words for taking a workload's resources (runai-reference §5: PodGroup `Evict`
 * events "was preempted by …", "reclaimed by …"; kubelet's pod reason `Evicted`), and a policy
 * stop by time (Run:ai warns before a workload "is stopped by a project timeout").
 */
const SYSTEM_STOP = /\b(preempt(?:ed|ion)?|evict(?:ed|ion)?|reclaim(?:ed)?|time(?:d)? ?out)\b/i;
const SYSTEM_POD_REASONS: ReadonlySet<string> = new Set(['Evicted', 'Preempted', 'NodeLost', 'Preempting']);
/** A person named as the stopper in Run:ai's phase message ("stopped by bob", "suspended by user alice@example.org"). */
const STOPPED_BY = /\b(?:stopped|suspended)\s+by\s+(?:user\s+)?([A-Za-z0-9][\w.@+-]{0,99})/i;

/** Who stopped `w`, read from its phase message and its pods' reasons (linear in their size). */
export function stopCauseOf(w: Pick<Workload, 'owner' | 'phaseMessage' | 'pods'>): StopCause {
  const message = (w.phaseMessage ?? '').slice(0, 2000);
  const podReason = w.pods.map((p) => p.reason).find((r): r is string => !!r && SYSTEM_POD_REASONS.has(r));
  const system = SYSTEM_STOP.exec(message)?.[1] ?? podReason;
  if (system) return { by: 'system', why: system.toLowerCase() };
  const who = STOPPED_BY.exec(message)?.[1];
  if (!who) return { by: 'unnamed' };
  return samePerson(who, w.owner) ? { by: 'owner' } : { by: 'someone-else', who };
}

/** The owner may be named by username or by email: `alice` is `alice@example.org`. */
function samePerson(who: string, owner: string | undefined): boolean {
  if (!owner) return false;
  const local = (name: string) => name.toLowerCase().split('@')[0];
  return who.toLowerCase() === owner.toLowerCase() || local(who) === local(owner);
}

/** The rootKey's workload id: `wl:<id>:<State>`. */
export function rootWorkloadId(thread: Pick<ThreadState, 'rootKey'>): string {
  const rest = thread.rootKey.slice(thread.rootKey.indexOf(':') + 1);
  return rest.slice(0, rest.lastIndexOf(':'));
}

/**
 * Whether the attempt the thread follows now ended badly: it failed or was stopped (and may
 * since have been deleted, the usual clean-up before a resubmission), or was resubmitted and
 * never got anywhere. A workload that ran again or completed is no longer waiting for a fix.
 */
export function awaitsResubmission(thread: Pick<ThreadState, 'events' | 'lastState'>): boolean {
  if (thread.lastState === 'Failed' || thread.lastState === 'Stopped') return true;
  if (thread.lastState !== 'Deleted' && thread.lastState !== 'Pending' && thread.lastState !== 'Initializing') return false;
  const last = [...thread.events].reverse().find((e) => e !== 'deleted');
  return last === undefined || last === 'failed' || last === 'stopped' || last === 'resubmitted';
}

/** The next step for a thread, given the workload of its chain as the cluster shows it now. */
export function planFollowUp<T extends ThreadState>(thread: T | undefined, sight: FollowUpSight, now: Date, windowMs: number): FollowUpStep<T> {
  if (!thread) return { action: 'none' };
  const w = sight.workload;
  const id = workloadId(w);
  const at = now.toISOString();
  if (id === thread.current) {
    if (w.state === thread.lastState) return { action: 'none' };
    const event = EVENT_OF_STATE[w.state];
    const moved = { ...thread, lastState: w.state, updatedAt: at };
    if (!event) return { action: 'note', thread: moved };
    const events = [...thread.events, event];
    const ended = event === 'failed' || event === 'stopped' ? { endedAt: at } : {};
    return { action: 'tell', event, seq: events.length, thread: { ...moved, ...ended, events }, resubmission: id !== rootWorkloadId(thread) };
  }
  if (!sight.firstSeen || !awaitsResubmission(thread)) return { action: 'none' };
  const ended = Date.parse(thread.endedAt);
  const created = Date.parse(w.createdAt ?? '') || now.getTime();
  // Created after the attempt before it ended (not an older object seen late), and within the window.
  if (created < ended - 60_000 || now.getTime() - ended > windowMs) return { action: 'none' };
  // Seen first already running (or ended): where it stands goes into the root's line with it;
  // the resubmitted reply is the one said (a failure is the reconciler's alert, the escalation).
  const seq = thread.events.length + 1;
  const already = EVENT_OF_STATE[w.state];
  const events: FollowUpEvent[] = [...(thread.events as FollowUpEvent[]), 'resubmitted', ...(already && already !== 'deleted' ? [already] : [])];
  return {
    action: 'tell',
    event: 'resubmitted',
    seq,
    thread: { ...thread, current: id, lastState: w.state, events, updatedAt: at },
    resubmission: true,
  };
}

/**
 * The events the root's first line is made from: everything after the last resubmission, and
 * the resubmissions themselves ("Failed → resubmitted, running", not "…, deleted" for the
 * attempt before it that was cleaned up).
 */
export function statusEvents(events: readonly FollowUpEvent[]): FollowUpEvent[] {
  const last = events.lastIndexOf('resubmitted');
  return events.filter((e, i) => e === 'resubmitted' || i > last);
}

/** What the resubmission reply says: the changes since the attempt before, and the guide's verdict on them. */
export function resubmissionAdvice(thread: Pick<ThreadState, 'submission' | 'alerted' | 'events' | 'transient'>, next: Submission): { changes: SubmissionChange[]; verdict: ResubmissionVerdict } | undefined {
  const previous = thread.submission as Submission | undefined;
  if (!previous || !Array.isArray(previous.argv)) return undefined;
  const changes = diffSubmission(previous, next);
  // The attempt before is the last that ended: a failure unless the last ending was a stop.
  const lastEnd = [...thread.events].reverse().find((e) => e === 'failed' || e === 'stopped');
  const state = lastEnd === 'failed' ? 'Failed' : lastEnd === 'stopped' ? 'Stopped' : thread.alerted;
  return { changes, verdict: resubmissionVerdict(changes, { state, transient: state === 'Failed' ? thread.transient : undefined }) };
}
