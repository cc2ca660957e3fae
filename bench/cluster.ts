/**
 * The cluster the benchmarks run against: Run:ai workloads spread over projects, three pods
 * each, owners who are Slack users, and the way a workload fails (its pod terminates with a
 * log, then its controller sets the phase). Shapes as in spec/runai-examples/.
 */
import type { FakeKube, KubeObject } from '../src/sim/kube-apiserver.js';
import type { SlackSimulator } from '../src/sim/slack.js';
import { failingLog } from './noisy-log.js';

export const EMAIL_DOMAIN = 'example.org';
const KINDS = ['TrainingWorkload', 'TrainingWorkload', 'TrainingWorkload', 'TrainingWorkload', 'TrainingWorkload', 'TrainingWorkload', 'TrainingWorkload', 'InteractiveWorkload', 'InteractiveWorkload', 'DistributedWorkload'] as const;
const WORKLOADS_PER_PROJECT = 100;

export interface BenchWorkload {
  kind: string;
  namespace: string;
  name: string;
  owner: string;
  /** The pod whose container fails, and its container. */
  pod: string;
  container: string;
}

export interface ClusterShape {
  workloads: number;
  podsPerWorkload: number;
  /** Distinct owners; workload i belongs to owner i mod owners. */
  owners: number;
}

export const ownerName = (i: number) => `user${i}`;
export const slackIdOf = (i: number) => `UB${String(i).padStart(6, '0')}`;

/** Fills the simulated cluster; returns the workloads in creation order. */
export function populate(kube: FakeKube, shape: ClusterShape): BenchWorkload[] {
  const workloads: BenchWorkload[] = [];
  for (let i = 0; i < shape.workloads; i++) {
    const project = `p${Math.floor(i / WORKLOADS_PER_PROJECT)}`;
    const namespace = `runai-${project}`;
    if (i % WORKLOADS_PER_PROJECT === 0) kube.addNamespace(namespace, { 'runai/queue': project });
    const kind = KINDS[i % KINDS.length];
    const name = `job-${i}`;
    const owner = ownerName(i % shape.owners);
    kube.apply(workloadCr(kind, namespace, project, name, owner));
    for (let p = 0; p < shape.podsPerWorkload; p++) kube.apply(runningPod(namespace, project, name, p, owner, kind === 'DistributedWorkload'));
    workloads.push({ kind, namespace, name, owner, pod: `${name}-0-0`, container: name });
  }
  return workloads;
}

/** Every owner as a Slack user whose email the bot finds through owners.emailDomain. */
export function addOwners(slack: SlackSimulator, owners: number): void {
  for (let i = 0; i < owners; i++) {
    slack.addUser({ id: slackIdOf(i), name: ownerName(i), email: `${ownerName(i)}@${EMAIL_DOMAIN}`, real_name: `User ${i}` });
  }
}

/**
 * Fails a workload as the cluster would: its first pod's container writes the error and exits
 * 1, then the workload's phase becomes Failed. Returns the time of the phase change (Date.now()).
 */
export function fail(kube: FakeKube, w: BenchWorkload, logLines: number): number {
  kube.appendLog(w.namespace, w.pod, w.container, failingLog(logLines));
  kube.patch({ kind: 'Pod', namespace: w.namespace, name: w.pod }, (pod) => {
    const status = pod.status as { phase: string; containerStatuses: Array<Record<string, unknown>> };
    status.phase = 'Failed';
    status.containerStatuses[0].ready = false;
    status.containerStatuses[0].state = {
      terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-11-29T09:00:00Z', finishedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
    };
  });
  const at = Date.now();
  kube.setPhase(w.kind, w.namespace, w.name, 'Failed');
  return at;
}

export function workloadCr(kind: string, namespace: string, project: string, name: string, owner: string): KubeObject {
  return {
    apiVersion: 'run.ai/v2alpha1',
    kind,
    metadata: { name, namespace, labels: { project } },
    spec: {
      name: { value: name },
      image: { value: 'registry.example.org/ml/train:1.0' },
      command: { value: 'torchrun' },
      arguments: { value: '--nproc_per_node=8 train.py --config configs/llm-7b.yaml' },
      username: { value: owner },
      gpu: { value: '8' },
    },
    status: { phase: 'Running' },
  } as KubeObject;
}

export function runningPod(namespace: string, project: string, workload: string, index: number, owner: string, distributed: boolean): KubeObject {
  const labels: Record<string, string> = { workloadName: workload, release: workload, project };
  if (distributed) {
    labels['training.kubeflow.org/job-name'] = workload;
    labels['training.kubeflow.org/replica-type'] = index === 0 ? 'master' : 'worker';
    labels['training.kubeflow.org/replica-index'] = String(index === 0 ? 0 : index - 1);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${workload}-0-${index}`, namespace, labels, annotations: { user: owner } },
    spec: {
      nodeName: `gpu-node-${String(index % 40).padStart(2, '0')}`,
      schedulerName: 'runai-scheduler',
      containers: [{ name: workload, image: 'registry.example.org/ml/train:1.0', resources: { limits: { 'nvidia.com/gpu': '8' } } }],
    },
    status: {
      phase: 'Running',
      containerStatuses: [
        { name: workload, image: 'registry.example.org/ml/train:1.0', ready: true, restartCount: 0, state: { running: { startedAt: '2026-11-29T09:00:00Z' } } },
      ],
    },
  } as KubeObject;
}
