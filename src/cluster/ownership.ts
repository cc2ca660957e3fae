/**
 * Which pods belong to a workload. Pods are found by label (POD_LINK_LABELS), and a label names
 * a workload only by name: the pods of an earlier run of a resubmitted workload of the same name
 * (still terminating) carry it too, and `release=<name>` is also what Helm charts put on their
 * pods. So a pod found by label belongs only when its owner chain leads to this workload's uid —
 * Pod → its controller (RunaiJob, PyTorchJob, MPIJob, Job, ReplicaSet, …) → … → the workload CR,
 * the top owner (runai-reference §4) — or, where the chain cannot be read, when it was created
 * at or after the workload. Pure: the reader walks the chain one owner at a time with these steps.
 */
import type { Workload } from '../model.js';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** The outcome for one pod: its chain leads to the workload, leads elsewhere, or cannot be read. */
export type Ownership = 'mine' | 'foreign' | 'unknown';

/**
 * Controllers found between a workload's pods and its CR, by kind, with the plural their API
 * serves them under (the reader GETs them by name). Run:ai's and Kubeflow's jobs are the first
 * hop of training, interactive and distributed workloads; batch Jobs are what Helm hooks and
 * plain jobs run as; inference pods hang under Knative: ReplicaSet → Deployment → Revision →
 * Configuration → Service. Another kind cannot be read, and its pods are judged by time.
 */
export const OWNER_PLURALS: ReadonlyMap<string, { group: string; plural: string }> = new Map([
  ['run.ai/RunaiJob', { group: 'run.ai', plural: 'runaijobs' }],
  ['kubeflow.org/PyTorchJob', { group: 'kubeflow.org', plural: 'pytorchjobs' }],
  ['kubeflow.org/MPIJob', { group: 'kubeflow.org', plural: 'mpijobs' }],
  ['kubeflow.org/TFJob', { group: 'kubeflow.org', plural: 'tfjobs' }],
  ['kubeflow.org/XGBoostJob', { group: 'kubeflow.org', plural: 'xgboostjobs' }],
  ['batch/Job', { group: 'batch', plural: 'jobs' }],
  ['apps/ReplicaSet', { group: 'apps', plural: 'replicasets' }],
  ['apps/Deployment', { group: 'apps', plural: 'deployments' }],
  ['serving.knative.dev/Revision', { group: 'serving.knative.dev', plural: 'revisions' }],
  ['serving.knative.dev/Configuration', { group: 'serving.knative.dev', plural: 'configurations' }],
  ['serving.knative.dev/Service', { group: 'serving.knative.dev', plural: 'services' }],
].map(([key, value]) => [key as string, value as { group: string; plural: string }]));

/** A chain longer than this (inference's is six hops) is not followed further. */
export const MAX_OWNER_DEPTH = 8;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** The owner that controls `obj` (`controller: true`), else its first owner; undefined: none. */
export function controllerRef(obj: unknown): OwnerRef | undefined {
  const meta = isObj(obj) && isObj(obj.metadata) ? obj.metadata : undefined;
  const refs = Array.isArray(meta?.ownerReferences) ? meta.ownerReferences.filter(isObj) : [];
  const ref = refs.find((r) => r.controller === true) ?? refs[0];
  if (!ref) return undefined;
  const [apiVersion, kind, name, uid] = [str(ref.apiVersion), str(ref.kind), str(ref.name), str(ref.uid)];
  return apiVersion && kind && name && uid ? { apiVersion, kind, name, uid } : undefined;
}

/** Where an owner reference points: at the workload, at another workload, or at a controller to read next. */
export function ownerStep(ref: OwnerRef, workload: Pick<Workload, 'uid'>): Ownership | { read: { group: string; plural: string } } {
  if (ref.uid === workload.uid) return 'mine';
  // A Run:ai workload is the top of its chain: another uid is another workload (an earlier run).
  if (groupOf(ref.apiVersion) === 'run.ai' && ref.kind.endsWith('Workload')) return 'foreign';
  const readable = OWNER_PLURALS.get(`${groupOf(ref.apiVersion)}/${ref.kind}`);
  return readable ? { read: readable } : 'unknown';
}

/**
 * What the owner read for `ref` says: the next reference to follow, or the end of the chain.
 * `owner` undefined: it could not be read (gone, forbidden, not served). An object whose uid is
 * not the reference's is a newer object under the old name: the pod's own owner is gone.
 */
export function afterRead(ref: OwnerRef, owner: unknown): OwnerRef | Ownership {
  if (owner === undefined) return 'unknown';
  const uid = isObj(owner) && isObj(owner.metadata) ? str(owner.metadata.uid) : undefined;
  if (uid !== ref.uid) return 'foreign';
  // An owner that has no owner of its own is a top that is not this workload (a Helm release's Job).
  return controllerRef(owner) ?? 'foreign';
}

/**
 * Where neither the chain nor anything else says whose a pod is: it was created at or after the
 * workload (the API server's second-precision times), so it is not an earlier run's.
 */
export function createdWithOrAfter(podCreatedAt: string | undefined, workload: Pick<Workload, 'createdAt'>): boolean {
  const pod = Date.parse(podCreatedAt ?? '');
  const own = Date.parse(workload.createdAt ?? '');
  return Number.isNaN(pod) || Number.isNaN(own) || pod >= own;
}
