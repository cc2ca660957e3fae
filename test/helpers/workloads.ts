/**
 * Builders for Run:ai objects as the cluster stores them (shapes from spec/runai-examples/):
 * a workload CR with the {value: …} spec wrapper, and its pods with Run:ai's labels.
 */
import type { KubeObject } from '../../src/sim/kube-apiserver.js';

export interface WorkloadSpec {
  kind?: 'TrainingWorkload' | 'InteractiveWorkload' | 'DistributedWorkload' | 'InferenceWorkload';
  name: string;
  project: string;
  owner?: string;
  phase?: string;
  image?: string;
  command?: string;
  arguments?: string;
}

const PLURAL_OF = {
  TrainingWorkload: 'trainingworkloads',
  InteractiveWorkload: 'interactiveworkloads',
  DistributedWorkload: 'distributedworkloads',
  InferenceWorkload: 'inferenceworkloads',
} as const;

export const ns = (project: string) => `runai-${project}`;

export function workloadCr(spec: WorkloadSpec): KubeObject {
  const kind = spec.kind ?? 'TrainingWorkload';
  return {
    apiVersion: 'run.ai/v2alpha1',
    kind,
    metadata: { name: spec.name, namespace: ns(spec.project), labels: { project: spec.project } },
    spec: {
      name: { value: spec.name },
      image: { value: spec.image ?? 'registry.example.org/ml/train:1.0' },
      command: { value: spec.command ?? 'python' },
      // Unbuffered by default, so a workload that starts earns no log-saving tip unless a test gives it a command that does.
      arguments: { value: spec.arguments ?? '-u train.py' },
      ...(spec.owner ? { username: { value: spec.owner } } : {}),
    },
    status: { phase: spec.phase ?? 'Running' },
  } as KubeObject;
}

export function pluralOf(kind: WorkloadSpec['kind'] = 'TrainingWorkload'): string {
  return PLURAL_OF[kind];
}

export interface PodSpec {
  workload: string;
  project: string;
  name?: string;
  container?: string;
  owner?: string;
  node?: string;
  replicaType?: string;
  replicaIndex?: number;
  /** Terminated with this exit code (running when absent). */
  exitCode?: number;
  reason?: string;
  finishedAt?: string;
  /** Restarted: the failure is in lastState and the log under previous=true. */
  restarted?: boolean;
  /** The object that controls the pod (its ownerReferences), as stored (with its uid): a RunaiJob, a Job. */
  controller?: KubeObject;
  /** The container's own command (what a CR without one, e.g. a PyTorchJob's template, gives its pods). */
  command?: string[];
}

/** An ownerReferences entry naming `owner` (a stored object, so with its uid) as the controller. */
export function controlledBy(owner: KubeObject): Array<Record<string, unknown>> {
  return [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true }];
}

/**
 * The RunaiJob Run:ai creates under a Training or Interactive workload: the same name, owned by
 * the workload's CR (`cr` as stored, with its uid; runai-reference §1 and §4).
 */
export function runaiJob(cr: KubeObject): KubeObject {
  return {
    apiVersion: 'run.ai/v1',
    kind: 'RunaiJob',
    metadata: { name: cr.metadata.name, namespace: cr.metadata.namespace, labels: { workloadName: cr.metadata.name }, ownerReferences: controlledBy(cr) },
    spec: {},
  } as KubeObject;
}

export function pod(spec: PodSpec): KubeObject {
  const container = spec.container ?? spec.workload;
  const terminated = spec.exitCode === undefined ? undefined : {
    exitCode: spec.exitCode,
    reason: spec.reason ?? (spec.exitCode === 0 ? 'Completed' : 'Error'),
    startedAt: '2026-11-29T09:00:00Z',
    finishedAt: spec.finishedAt ?? '2026-11-29T09:30:00Z',
  };
  const labels: Record<string, string> = { workloadName: spec.workload, release: spec.workload, project: spec.project };
  if (spec.replicaType) {
    labels['training.kubeflow.org/job-name'] = spec.workload;
    labels['training.kubeflow.org/replica-type'] = spec.replicaType;
    labels['training.kubeflow.org/replica-index'] = String(spec.replicaIndex ?? 0);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: spec.name ?? `${spec.workload}-0-0`,
      namespace: ns(spec.project),
      labels,
      annotations: spec.owner ? { user: spec.owner } : {},
      ...(spec.controller ? { ownerReferences: controlledBy(spec.controller) } : {}),
    },
    spec: { nodeName: spec.node ?? 'gpu-node-01', schedulerName: 'runai-scheduler', containers: [{ name: container, image: 'registry.example.org/ml/train:1.0', ...(spec.command ? { command: spec.command } : {}) }] },
    status: {
      phase: spec.exitCode === undefined ? 'Running' : spec.exitCode === 0 ? 'Succeeded' : 'Failed',
      containerStatuses: [
        {
          name: container,
          image: 'registry.example.org/ml/train:1.0',
          ready: spec.exitCode === undefined,
          restartCount: spec.restarted ? 1 : 0,
          state: spec.restarted ? { running: { startedAt: '2026-11-29T09:31:00Z' } } : terminated ? { terminated } : { running: { startedAt: '2026-11-29T09:00:00Z' } },
          ...(spec.restarted && terminated ? { lastState: { terminated } } : {}),
        },
      ],
    },
  } as KubeObject;
}
