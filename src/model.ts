/**
 * The bot's own picture of a Run:ai workload: a plain, immutable value built by
 * `cluster/normalize` from the workload CR and its pods. Every field that a cluster may not
 * set is optional; nothing downstream may assume more than this type promises.
 */

/** The seven states of the cluster's lifecycle guide (spec/workload-lifecycle-guide.txt). */
export type LifecycleState =
  | 'Pending'
  | 'Initializing'
  | 'Running'
  | 'Completed'
  | 'Failed'
  | 'Stopped'
  | 'Deleted';

export const LIFECYCLE_STATES: readonly LifecycleState[] = [
  'Pending', 'Initializing', 'Running', 'Completed', 'Failed', 'Stopped', 'Deleted',
];

/** Run:ai workload kinds, as served under run.ai/<version>. */
export type WorkloadKind = string; // TrainingWorkload, InteractiveWorkload, DistributedWorkload, …

export interface ContainerTermination {
  reason?: string;      // Error, OOMKilled, Completed, ContainerCannotRun, …
  exitCode?: number;
  signal?: number;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
}

export interface ContainerInfo {
  name: string;
  image?: string;
  restartCount: number;
  ready: boolean;
  /** Current state. */
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: ContainerTermination;
  /** Previous run's termination (the container restarted): logs live under `previous=true`. */
  lastTerminated?: ContainerTermination;
  /** Init containers are reported too: a failing init container fails the pod. */
  init?: boolean;
}

export interface PodInfo {
  name: string;
  uid?: string;
  namespace: string;
  node?: string;
  phase?: string;           // Pending, Running, Succeeded, Failed, Unknown
  reason?: string;          // Evicted, NodeLost, …
  message?: string;
  /** Replica type of a distributed workload: master, worker, launcher. */
  replicaType?: string;
  /** Replica index within its type ("1" for worker 1). */
  replicaIndex?: number;
  createdAt?: string;
  /** The scheduler's PodGroup of the pod (its `pod-group-name` annotation), whose events say why it waits or was preempted. */
  podGroup?: string;
  containers: ContainerInfo[];
}

export interface Workload {
  /** The Kubernetes metadata.uid: unique within its cluster only. Keys use workloadId(). */
  uid: string;
  /**
   * The configured name of the cluster it runs in (`clusters[].name`); undefined when the bot
   * watches one cluster configured the old way (`cluster:` only), so every key stays as it was.
   */
  cluster?: string;
  kind: WorkloadKind;
  apiVersion: string;
  name: string;
  namespace: string;
  project: string;
  /** Cluster identity of the owner (username or email); undefined when nothing names one. */
  owner?: string;
  /** Run:ai phase as the CR reports it (status.phase), or undefined. */
  phase?: string;
  /** Lifecycle state of the guide, derived from the phase. */
  state: LifecycleState;
  /** Degraded: Running, but Run:ai says something is off. */
  degraded?: boolean;
  image?: string;
  command?: string;
  arguments?: string;
  createdAt?: string;
  /** When the current phase began, where the CR says so (its condition of that type, phaseUpdatedAt, completedAt). */
  phaseChangedAt?: string;
  /** status.conditions / phaseMessage when present: free text from Run:ai. */
  phaseMessage?: string;
  pods: PodInfo[];
  resourceVersion?: string;
}

/**
 * The bot's identity for a workload: `<cluster>/<uid>` when it runs in a named cluster, the bare
 * uid otherwise. Every ledger key, cache key, store row and button value uses it, so the same
 * uid (or name) in two clusters never collides, and a single-cluster store from before
 * `clusters:` existed keeps its keys. `/` cannot occur in a Kubernetes uid or a cluster name.
 */
export function workloadId(workload: { uid: string; cluster?: string }): string {
  return workload.cluster ? workloadIdPrefix(workload.cluster) + workload.uid : workload.uid;
}

/** What workloadId() puts before the uid of a workload in the named cluster `cluster`. */
export function workloadIdPrefix(cluster: string): string {
  return `${cluster}/`;
}

/** workloadId() read back: `cluster/uid` or a bare uid (`/` occurs in neither part). */
export function splitWorkloadId(id: string | undefined): { cluster?: string; uid?: string } {
  if (!id) return {};
  const slash = id.indexOf('/');
  return slash === -1 ? { uid: id } : { cluster: id.slice(0, slash), uid: id.slice(slash + 1) };
}

/** A change of lifecycle state noticed by the bot. */
export interface Transition {
  workload: Workload;
  from: LifecycleState | undefined;
  to: LifecycleState;
  at: Date;
}

/*
 * Value shapes that the message builders (src/messages/) share with the modules that produce
 * them. They live here, not beside their producers, so that presentation depends on the model
 * only and no folder has to import the one that imports it back.
 */

/** An event about a workload or its pods, as read from the cluster. */
export interface KubeEvent {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  component?: string;
  involvedKind?: string;
  involvedName?: string;
  lastSeen?: string;
}

/** A user's notification preferences (/runai settings). */
/** Why a message is posted where it is, rendered under its header (delivery/notes.ts). */
export type Note = { kind: 'no-slack-user'; owner: string } | { kind: 'no-owner' };

/** One place a message may go, in the order tried (delivery/plan.ts). `channel` is a user ID for a DM. */
export interface Destination {
  channel: string;
  via: 'dm' | 'project' | 'fallback' | 'ops' | 'channel';
  note?: Note;
}

/** The plan of a message as its outbox row keeps it (delivery/plan.ts decides it). */
export interface StoredPlan {
  destinations: Destination[];
  /** When it was planned (ISO): an old row planned before a config change is still followed. */
  at: string;
}

export interface UserSettings {
  /** Also tell me when a workload of mine completes. */
  completed: boolean;
  /** Warn me about workloads stuck in Pending or Initializing. */
  pending: boolean;
  /** One log-saving tip the first time a workload of mine runs with a finding (at most one a week per kind). */
  tips: boolean;
  /** Hold messages during these local hours (HH:MM–HH:MM, may span midnight) and send them after. */
  quietHours?: { from: string; to: string; timezone: string };
}

/** One alert folded into a burst (src/notify/burst.ts). */
export interface BurstEntry {
  key: string;
  /** The workload's named cluster (Workload.cluster): absent with one cluster, and in entries stored before clusters had names. */
  cluster?: string;
  owner: string;
  namespace: string;
  name: string;
  project: string;
  kind: string;
  state: string;
  node?: string;
  category?: string;
  categoryLabel?: string;
  firstError?: string;
}

/** Why the log archive cannot be written (src/archive/archive.ts). */
export interface StorageProblem {
  kind: 'disk-full' | 'unwritable' | 'io-error';
  code?: string;
  message: string;
}

/** One occurrence of a maintenance event, as the rest of the bot sees it. */
export type WindowStatus = 'confirmed' | 'tentative' | 'cancelled';

export interface MaintenanceWindow {
  uid: string;
  /** ISO UTC of the occurrence's original slot (its RECURRENCE-ID), or of the start. */
  occurrenceStart: string;
  /**
   * Stable identity across feed edits: uid + original slot for an instance of a recurring event
   * (or an override without its master), the uid alone for a single event.
   */
  key: string;
  summary: string;
  description?: string;
  location?: string;
  start: Date;
  end: Date;
  allDay: boolean;
  status: WindowStatus;
  sequence: number;
}

export type ReminderKind = 'advance' | 'owners' | 'start' | 'end' | 'changed' | 'cancelled';

/** The version of a window that was last announced. */
export interface KnownWindow {
  start: string;
  end: string;
  sequence: number;
  status: string;
  summary?: string;
}

/** A maintenance reminder that is due (src/maintenance/plan.ts). */
export interface DueReminder {
  /** Ledger key: posted once, ever. */
  key: string;
  kind: ReminderKind;
  window: MaintenanceWindow;
  /** For advance reminders: the offset before the start that fell due. */
  offsetMs?: number;
  /** For changed and cancelled: what had been announced. */
  previous?: KnownWindow;
  /** Keys made unnecessary by posting this one; mark them sent with it. */
  settles: string[];
}

/** What can happen to a workload (or its resubmission) after its alert, in the order it happened (README, "Follow-ups"). */
export type FollowUpEvent = 'resubmitted' | 'running' | 'completed' | 'stopped' | 'deleted' | 'failed';
