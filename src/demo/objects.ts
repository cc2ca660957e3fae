/**
 * Run:ai objects as the cluster stores them (shapes from spec/runai-examples/): a workload CR
 * with the {value: …} spec wrapper, its pods with Run:ai's (and Kubeflow's) labels, and the
 * scheduler's PodGroup. The demo applies these to the simulated API server.
 */
import type { KubeObject } from '../sim/kube-apiserver.js';

export type WorkloadKind = 'TrainingWorkload' | 'InteractiveWorkload' | 'DistributedWorkload';

export interface WorkloadSpec {
  kind: WorkloadKind;
  name: string;
  project: string;
  owner: string;
  image: string;
  command: string;
  arguments: string;
  gpu: string;
  phase?: string;
  /** metadata.creationTimestamp (ISO); the API server sets it to now when absent. */
  createdAt?: string;
  /** status.conditions, e.g. why Run:ai keeps it Pending. */
  conditions?: Array<{ type: string; status: string; reason: string; message: string; lastTransitionTime: string }>;
}

/** Run:ai's namespace for a project. */
export const namespaceOf = (project: string) => `runai-${project}`;

export function workloadObject(spec: WorkloadSpec): KubeObject {
  return {
    apiVersion: 'run.ai/v2alpha1',
    kind: spec.kind,
    metadata: {
      name: spec.name,
      namespace: namespaceOf(spec.project),
      labels: { project: spec.project },
      ...(spec.createdAt ? { creationTimestamp: spec.createdAt } : {}),
    },
    spec: {
      name: { value: spec.name },
      image: { value: spec.image },
      command: { value: spec.command },
      arguments: { value: spec.arguments },
      gpu: { value: spec.gpu },
      username: { value: spec.owner },
    },
    status: { phase: spec.phase ?? 'Running', ...(spec.conditions ? { conditions: spec.conditions } : {}) },
  } as KubeObject;
}

export interface PodSpec {
  workload: string;
  project: string;
  owner: string;
  name: string;
  container: string;
  image: string;
  node?: string;
  /** When the container started (ISO). */
  startedAt: string;
  /** Kubeflow replica of a distributed workload. */
  replica?: { type: 'master' | 'worker'; index: number };
  /** Terminated with this exit code; running when absent; `pending` when not scheduled. */
  exit?: { code: number; reason: string; finishedAt: string };
  pending?: { reason: string; message: string };
}

export function podObject(spec: PodSpec): KubeObject {
  const labels: Record<string, string> = { workloadName: spec.workload, release: spec.workload, project: spec.project };
  if (spec.replica) {
    labels['training.kubeflow.org/job-name'] = spec.workload;
    labels['training.kubeflow.org/replica-type'] = spec.replica.type;
    labels['training.kubeflow.org/replica-index'] = String(spec.replica.index);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: spec.name, namespace: namespaceOf(spec.project), labels, annotations: { user: spec.owner } },
    spec: {
      ...(spec.pending ? {} : { nodeName: spec.node ?? 'dgx-a100-01' }),
      schedulerName: 'runai-scheduler',
      containers: [{ name: spec.container, image: spec.image }],
    },
    status: podStatus(spec),
  } as KubeObject;
}

function podStatus(spec: PodSpec): Record<string, unknown> {
  if (spec.pending) {
    return {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: spec.pending.reason, message: spec.pending.message }],
    };
  }
  const exit = spec.exit;
  return {
    phase: exit ? (exit.code === 0 ? 'Succeeded' : 'Failed') : 'Running',
    containerStatuses: [
      {
        name: spec.container,
        image: spec.image,
        ready: !exit,
        restartCount: 0,
        state: exit
          ? { terminated: { exitCode: exit.code, reason: exit.reason, startedAt: spec.startedAt, finishedAt: exit.finishedAt } }
          : { running: { startedAt: spec.startedAt } },
      },
    ],
  };
}

/** The scheduler's PodGroup for a workload's pods (name pg-<pod prefix>-<job uid>). */
export function podGroupObject(workload: string, project: string, owner: string, condition: { reason: string; message: string }): KubeObject {
  return {
    apiVersion: 'scheduling.run.ai/v2alpha2',
    kind: 'PodGroup',
    metadata: {
      name: podGroupName(workload),
      namespace: namespaceOf(project),
      labels: { project, workloadName: workload },
      annotations: { user: owner, 'runai-calculated-status': 'Pending' },
    },
    spec: { minMember: 1, queue: project, priorityClassName: 'build' },
    status: {
      pending: 1,
      schedulingConditions: [
        { type: 'UnschedulableOnNodePool', nodePool: 'default', status: 'True', reason: 'Unschedulable', message: condition.message, reasons: [condition] },
      ],
    },
  } as KubeObject;
}

export function podGroupName(workload: string): string {
  return `pg-${workload}-0-5f0c2a9e-7d41-4c3b-9a8e-1b2c3d4e5f60`;
}
