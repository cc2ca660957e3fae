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
  containers: ContainerInfo[];
}

export interface Workload {
  uid: string;
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
  /** When the phase last changed, where the CR says so (conditions). */
  phaseChangedAt?: string;
  /** status.conditions / phaseMessage when present: free text from Run:ai. */
  phaseMessage?: string;
  pods: PodInfo[];
  resourceVersion?: string;
}

/** A change of lifecycle state noticed by the bot. */
export interface Transition {
  workload: Workload;
  from: LifecycleState | undefined;
  to: LifecycleState;
  at: Date;
}
