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
      arguments: { value: spec.arguments ?? 'train.py' },
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
    },
    spec: { nodeName: spec.node ?? 'gpu-node-01', schedulerName: 'runai-scheduler', containers: [{ name: container, image: 'registry.example.org/ml/train:1.0' }] },
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
