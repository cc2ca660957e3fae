/**
 * Run:ai workload CR + its namespace's labels → our Workload value; its pods join it later
 * (withPods), when someone reads them.
 * Tolerant of every missing field (runai-reference marks much of the shape unconfirmed); only
 * an object without a name, namespace or uid is refused, with a MalformedWorkloadError.
 */
import type { ContainerInfo, ContainerTermination, PodInfo, Workload } from '../model.js';
import { isDegradedPhase, stateForPhase } from '../lifecycle/states.js';

export class MalformedWorkloadError extends Error {
  constructor(readonly objectName: string, reason: string) {
    super(`malformed workload ${objectName}: ${reason}`);
    this.name = 'MalformedWorkloadError';
  }
}

/** Where Run:ai puts the owner, in the order we trust them (runai-reference §3). */
export const DEFAULT_OWNER_KEYS = ['spec.username.value', 'spec.userId.value', 'pod.annotations.user', 'pod.labels.user'];

/** Pod labels that link a pod to its workload, most specific first (runai-reference §4). */
export const POD_LINK_LABELS = ['workloadName', 'release', 'training.kubeflow.org/job-name'];

/**
 * Labels naming a workload's scheduling queue, which in Run:ai is the project: Run:ai's
 * `runai/queue`, and `kai.scheduler/queue` that KAI-based schedulers put on pods and namespaces
 * as well. Wherever one is read, both are, Run:ai's first.
 */
export const QUEUE_LABELS = ['runai/queue', 'kai.scheduler/queue'];

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
/** Timestamps: strings in watch JSON, Date objects from client-node's typed API calls. */
const time = (v: unknown): string | undefined => (v instanceof Date ? (Number.isNaN(v.getTime()) ? undefined : v.toISOString()) : str(v));

function at(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** Run:ai wraps most spec fields as {value: …}; accept both wrapped and plain. */
function specValue(spec: unknown, field: string): string | undefined {
  const v = isObj(spec) ? spec[field] : undefined;
  if (isObj(v)) return scalar(v.value);
  return scalar(v);
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return str(v);
}

function labels(obj: unknown, key: 'labels' | 'annotations'): Record<string, string> {
  const m = at(obj, `metadata.${key}`);
  if (!isObj(m)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = v;
  return out;
}

export interface NormalizeOptions {
  ownerKeys?: string[];
  /** The configured name of the cluster the object was read from (`clusters[].name`); unset for the one unnamed cluster. */
  cluster?: string;
  /** Labels of the workload's namespace (runai/queue or kai.scheduler/queue names the project). */
  namespaceLabels?: Record<string, string>;
}

/** The queue (project) a set of labels names, by QUEUE_LABELS in order. */
export function queueFrom(labelSet: Record<string, string> | undefined): string | undefined {
  for (const key of QUEUE_LABELS) {
    const value = str(labelSet?.[key]);
    if (value) return value.trim();
  }
  return undefined;
}

/** The owner a PodGroup carries: its `user` annotation, else its `user` label (runai-reference §3). */
export function ownerFromPodGroup(podGroup: unknown): string | undefined {
  return str(labels(podGroup, 'annotations').user)?.trim() ?? str(labels(podGroup, 'labels').user)?.trim();
}

/** The cheap identity of a raw watch object, for keys and log lines, before full validation. */
export function objectRef(raw: unknown): { namespace?: string; name?: string; uid?: string; kind?: string } {
  return {
    namespace: str(at(raw, 'metadata.namespace')),
    name: str(at(raw, 'metadata.name')),
    uid: str(at(raw, 'metadata.uid')),
    kind: str(at(raw, 'kind')),
  };
}

/**
 * The CR (with its namespace's labels) → our Workload, without pods: what the reconciler caches,
 * decides on, remembers and shows. It is normalised once, here; whoever reads the pods later
 * attaches them with withPods().
 */
export function normalizeWorkload(raw: unknown, options: NormalizeOptions = {}): Workload {
  const ref = objectRef(raw);
  const label = `${ref.kind ?? 'object'} ${ref.namespace ?? '?'}/${ref.name ?? '?'}`;
  if (!isObj(raw)) throw new MalformedWorkloadError(label, 'not an object');
  if (!ref.name) throw new MalformedWorkloadError(label, 'metadata.name is missing');
  if (!ref.namespace) throw new MalformedWorkloadError(label, 'metadata.namespace is missing');
  if (!ref.uid) throw new MalformedWorkloadError(label, 'metadata.uid is missing');
  const status = raw.status;
  if (status !== undefined && status !== null && !isObj(status)) throw new MalformedWorkloadError(label, 'status is not an object');
  const spec = raw.spec;
  if (spec !== undefined && spec !== null && !isObj(spec)) throw new MalformedWorkloadError(label, 'spec is not an object');

  const phase = str(at(raw, 'status.phase'));
  const crLabels = labels(raw, 'labels');
  // Run:ai's queue label on the namespace first, then the label that names the project outright,
  // then KAI's or Run:ai's queue label on the workload, then the namespace's name.
  const project = queueFrom(options.namespaceLabels) ?? crLabels['project'] ?? queueFrom(crLabels) ?? ref.namespace.replace(/^runai-/, '');

  const conditions = at(raw, 'status.conditions');
  const latestCondition = Array.isArray(conditions)
    ? conditions.filter(isObj).sort((a, b) => (time(b.lastTransitionTime) ?? '').localeCompare(time(a.lastTransitionTime) ?? ''))[0]
    : undefined;

  return {
    uid: ref.uid,
    ...(options.cluster ? { cluster: options.cluster } : {}),
    kind: ref.kind ?? 'Workload',
    apiVersion: str(raw.apiVersion) ?? '',
    name: ref.name,
    namespace: ref.namespace,
    project,
    owner: crOwner(raw, options.ownerKeys ?? DEFAULT_OWNER_KEYS),
    phase,
    // Without a phase (a CR the operator has not touched yet, or a cluster whose CRs carry no
    // status) the workload counts as waiting.
    state: stateForPhase(phase) ?? 'Pending',
    degraded: isDegradedPhase(phase) || undefined,
    image: specValue(spec, 'image'),
    command: specValue(spec, 'command'),
    arguments: specValue(spec, 'arguments'),
    createdAt: time(at(raw, 'metadata.creationTimestamp')),
    phaseChangedAt: phaseTime(raw, phase),
    phaseMessage: str(at(raw, 'status.phaseMessage')) ?? str(latestCondition?.message),
    pods: [],
    resourceVersion: str(at(raw, 'metadata.resourceVersion')),
  };
}

export interface PodOptions {
  /** owners.keys: its `pod.*` keys name the owner from the pods. */
  ownerKeys?: string[];
  /**
   * The workload's PodGroups, where the caller has read them: the scheduler copies the pod's
   * `user` annotation and label onto the PodGroup, which names the owner when neither the
   * workload nor its pods (not created yet, or gone) do.
   */
  podGroups?: unknown[];
}

/**
 * The one way pods join a workload: `workload` as the reconciler normalised it, with `pods`
 * (read now, the workload's own: cluster/reader podsOf) attached. What the CR decided stays —
 * state, project, owner, image — so an alert, a reply and the archive describe the workload
 * the store remembers and access is checked against; the pods only fill an owner the CR names
 * nowhere (owners.keys' `pod.*` keys, then the PodGroups) and an image its spec does not give.
 */
export function withPods(workload: Workload, pods: unknown[], options: PodOptions = {}): Workload {
  const podInfos = pods.flatMap((p) => normalizePod(p) ?? []);
  return {
    ...workload,
    owner: workload.owner ?? podOwner(pods, options.ownerKeys ?? DEFAULT_OWNER_KEYS) ?? firstOwner(options.podGroups),
    image: workload.image ?? podInfos[0]?.containers.find((c) => !c.init)?.image,
    pods: podInfos,
  };
}

/**
 * When the CR says its current phase began: the lastTransitionTime of the condition of that
 * type that holds (example 01: type Failed, status "True"), else `status.phaseUpdatedAt`, else,
 * for a phase that ends the workload, `status.completedAt` — the control plane's names for them
 * (runai-reference §6; whether the CR mirrors them is unconfirmed, §2a). A condition of another
 * type dates another change, so it is not taken for this one.
 */
function phaseTime(raw: Obj, phase: string | undefined): string | undefined {
  if (!phase) return undefined;
  const conditions = at(raw, 'status.conditions');
  const own = Array.isArray(conditions)
    ? conditions.filter(isObj).find((c) => str(c.type)?.toLowerCase() === phase.toLowerCase() && String(c.status ?? 'True').toLowerCase() === 'true')
    : undefined;
  const ended = phase === 'Failed' || phase === 'Completed';
  return time(own?.lastTransitionTime) ?? time(at(raw, 'status.phaseUpdatedAt')) ?? (ended ? time(at(raw, 'status.completedAt')) : undefined);
}

/** The owner the CR's own fields name: the first of owners.keys that is not a `pod.*` key and has a value. */
function crOwner(raw: Obj, keys: string[]): string | undefined {
  for (const key of keys) {
    if (key.startsWith('pod.')) continue;
    const value = scalar(at(raw, key));
    if (value) return value.trim();
  }
  return undefined;
}

/** The owner the pods name: the first `pod.annotations.X` / `pod.labels.X` key of owners.keys found on any pod. */
function podOwner(pods: unknown[], keys: string[]): string | undefined {
  for (const key of keys) {
    if (!key.startsWith('pod.')) continue;
    const [, kind, ...rest] = key.split('.');
    const name = rest.join('.');
    for (const pod of pods) {
      const value = labels(pod, kind === 'labels' ? 'labels' : 'annotations')[name];
      if (str(value)) return value.trim();
    }
  }
  return undefined;
}

function firstOwner(podGroups: unknown[] | undefined): string | undefined {
  for (const group of podGroups ?? []) {
    const owner = ownerFromPodGroup(group);
    if (owner) return owner;
  }
  return undefined;
}

function termination(v: unknown): ContainerTermination | undefined {
  if (!isObj(v)) return undefined;
  const exitCode = typeof v.exitCode === 'number' ? v.exitCode : undefined;
  return {
    reason: str(v.reason),
    exitCode,
    signal: typeof v.signal === 'number' ? v.signal : undefined,
    message: str(v.message),
    startedAt: time(v.startedAt),
    finishedAt: time(v.finishedAt),
  };
}

function containerInfo(v: unknown, init: boolean, specImages: Map<string, string>): ContainerInfo | undefined {
  if (!isObj(v) || !str(v.name)) return undefined;
  const state = isObj(v.state) ? v.state : {};
  const lastState = isObj(v.lastState) ? v.lastState : {};
  const waiting = isObj(state.waiting) ? { reason: str(state.waiting.reason), message: str(state.waiting.message) } : undefined;
  return {
    name: v.name as string,
    image: str(v.image) ?? specImages.get(v.name as string),
    restartCount: typeof v.restartCount === 'number' ? v.restartCount : 0,
    ready: v.ready === true,
    waiting,
    running: isObj(state.running) ? { startedAt: time(state.running.startedAt) } : undefined,
    terminated: termination(state.terminated),
    lastTerminated: termination(lastState.terminated),
    init: init || undefined,
  };
}

export function normalizePod(raw: unknown): PodInfo | undefined {
  if (!isObj(raw)) return undefined;
  const name = str(at(raw, 'metadata.name'));
  const namespace = str(at(raw, 'metadata.namespace'));
  if (!name || !namespace) return undefined;
  const podLabels = labels(raw, 'labels');
  const specImages = new Map<string, string>();
  for (const list of ['containers', 'initContainers']) {
    const cs = at(raw, `spec.${list}`);
    if (Array.isArray(cs)) for (const c of cs) if (isObj(c) && str(c.name) && str(c.image)) specImages.set(c.name as string, c.image as string);
  }
  const statuses = (key: string, init: boolean) => {
    const list = at(raw, `status.${key}`);
    return Array.isArray(list) ? list.flatMap((c) => containerInfo(c, init, specImages) ?? []) : [];
  };
  let containers = [...statuses('initContainerStatuses', true), ...statuses('containerStatuses', false)];
  if (!statuses('containerStatuses', false).length) {
    // No status yet: list the spec's containers so logs can still be asked for by name.
    const declared = at(raw, 'spec.containers');
    if (Array.isArray(declared)) {
      containers = [
        ...containers,
        ...declared.filter(isObj).flatMap((c) => (str(c.name) ? [{ name: c.name as string, image: str(c.image), restartCount: 0, ready: false }] : [])),
      ];
    }
  }
  const index = podLabels['training.kubeflow.org/replica-index'];
  return {
    name,
    uid: str(at(raw, 'metadata.uid')),
    namespace,
    node: str(at(raw, 'spec.nodeName')),
    phase: str(at(raw, 'status.phase')),
    reason: str(at(raw, 'status.reason')),
    message: str(at(raw, 'status.message')),
    replicaType: podLabels['training.kubeflow.org/replica-type']?.toLowerCase(),
    replicaIndex: index !== undefined && /^\d+$/.test(index) ? Number(index) : undefined,
    createdAt: time(at(raw, 'metadata.creationTimestamp')),
    podGroup: str(labels(raw, 'annotations')['pod-group-name']),
    containers,
  };
}

/** The name a pod links to through its labels (the workload it belongs to), if any. */
export function podWorkloadName(pod: unknown): string | undefined {
  const podLabels = labels(pod, 'labels');
  for (const key of POD_LINK_LABELS) if (podLabels[key]) return podLabels[key];
  return undefined;
}

/**
 * When the pods' containers last ended (the latest terminated.finishedAt, current or previous run,
 * of an app container): the cluster's time for a failure or completion whose CR gives none.
 */
export function containersFinishedAt(pods: PodInfo[]): string | undefined {
  let latest: string | undefined;
  for (const pod of pods) {
    for (const c of pod.containers) {
      if (c.init) continue;
      for (const end of [c.terminated?.finishedAt, c.lastTerminated?.finishedAt]) {
        if (end && !Number.isNaN(Date.parse(end)) && (!latest || Date.parse(end) > Date.parse(latest))) latest = end;
      }
    }
  }
  return latest;
}

/** "worker 1", "master 0", or undefined for a single-pod workload. */
export function rankLabel(pod: PodInfo): string | undefined {
  if (!pod.replicaType) return undefined;
  return pod.replicaIndex !== undefined ? `${pod.replicaType} ${pod.replicaIndex}` : pod.replicaType;
}
