/**
 * Why a workload is not running yet, in plain words: the Run:ai/KAI scheduler's events and
 * PodGroup conditions (runai-reference §5), and the kubelet's reasons for a workload stuck
 * Initializing (image pull, mounts, unbound claims, container config). Pure; a table of
 * signatures, most specific first.
 */
import type { PodInfo } from '../model.js';
import type { KubeEvent } from '../cluster/reader.js';

export interface SchedulingReason {
  code: string;
  /** What it means, in plain words. */
  plain: string;
  /** What the cluster said, verbatim (escaped by the message builder). */
  detail?: string;
}

const SCHEDULERS = new Set(['runai-scheduler', 'kai-scheduler']);

interface Signature {
  code: string;
  test: RegExp;
  plain: string;
}

/** Matched against scheduler reasons and messages; the first match names the reason. */
const SIGNATURES: Signature[] = [
  { code: 'NonPreemptibleOverQuota', test: /NonPreemptibleOverQuota|non-preemptible workload is over quota/i, plain: "The project's GPU quota is used up for non-preemptible work, so this workload waits until quota frees up." },
  { code: 'OverLimit', test: /OverLimit|quota has reached the allowable limit/i, plain: 'The project (or its department) has reached its resource limit; nothing more can be scheduled until other work ends.' },
  { code: 'InsufficientGPU', test: /enough resources.*\bGPUs?\b|insufficient nvidia\.com\/gpu|GPU memory|mig profile/i, plain: 'No node has enough free GPUs (or GPU memory) for this request right now.' },
  { code: 'InsufficientMemory', test: /enough resources.*\bmemory\b|insufficient memory/i, plain: 'No node has enough free memory for this request right now.' },
  { code: 'InsufficientCPU', test: /enough resources.*\bCPU\b|insufficient cpu/i, plain: 'No node has enough free CPU for this request right now.' },
  { code: 'NodeSelector', test: /node affinity|node selector|didn't match|taint/i, plain: 'No node matches the node pool, affinity or tolerations the workload asks for.' },
  { code: 'GangNotReady', test: /not ready for scheduling|Waiting for \d+ pods|minimum required number of pods/i, plain: 'The scheduler waits until every pod of the workload exists, so they can start together.' },
  { code: 'Preempted', test: /preempted|reclaimed by/i, plain: 'It was preempted by higher-priority work and waits to be scheduled again.' },
  { code: 'UnboundClaim', test: /unbound.*PersistentVolumeClaim|PersistentVolumeClaim.*(not found|unbound)|pod has unbound/i, plain: 'A PersistentVolumeClaim it uses is not bound to a volume (missing or still provisioning).' },
];

/** Container and event reasons of a workload stuck Initializing. */
const INIT_REASONS: Record<string, string> = {
  ErrImagePull: 'The container image cannot be pulled: check the image name, tag and registry access.',
  ImagePullBackOff: 'The container image cannot be pulled: check the image name, tag and registry access.',
  InvalidImageName: 'The container image name is not valid.',
  CreateContainerConfigError: 'The container cannot be configured: a Secret or ConfigMap it references is probably missing.',
  CreateContainerError: 'The container could not be created.',
  FailedMount: 'A volume cannot be mounted into the pod (check the data source and its claim).',
  FailedAttachVolume: 'A volume cannot be attached to the node.',
  CrashLoopBackOff: 'The container keeps crashing on start.',
};

export function schedulingReasons(events: KubeEvent[], podGroups: unknown[], pods: PodInfo[]): SchedulingReason[] {
  const found = new Map<string, SchedulingReason>();
  const add = (text: string | undefined, fallbackCode?: string) => {
    if (!text) return;
    const sig = SIGNATURES.find((s) => s.test.test(text));
    const code = sig?.code ?? fallbackCode;
    if (!code || found.has(code)) return;
    found.set(code, { code, plain: sig?.plain ?? 'The scheduler cannot place the workload yet.', detail: text });
  };

  for (const pg of podGroups) {
    const conditions = (pg as { status?: { schedulingConditions?: unknown } })?.status?.schedulingConditions;
    if (!Array.isArray(conditions)) continue;
    for (const condition of conditions as Array<Record<string, unknown>>) {
      for (const r of Array.isArray(condition.reasons) ? (condition.reasons as Array<Record<string, unknown>>) : []) {
        add(`${String(r.reason ?? '')}: ${String(r.message ?? '')}`.replace(/^: /, ''));
      }
      add(typeof condition.message === 'string' ? condition.message : undefined, 'Unschedulable');
    }
  }
  // Newest events last: walk backwards so the current reason wins over an old one.
  for (const e of [...events].reverse()) {
    if (e.reason && INIT_REASONS[e.reason] && !found.has(e.reason)) {
      found.set(e.reason, { code: e.reason, plain: INIT_REASONS[e.reason], detail: e.message });
      continue;
    }
    const fromScheduler = !e.component || SCHEDULERS.has(e.component) || e.reason === 'FailedScheduling';
    if (fromScheduler && e.reason && /^(Unschedulable|NotReady|Evict|FailedScheduling|FailedBinding|StaleJob)$/.test(e.reason)) {
      add(e.message, e.reason === 'NotReady' ? 'GangNotReady' : e.reason === 'Evict' ? 'Preempted' : 'Unschedulable');
    }
  }
  for (const pod of pods) {
    for (const c of pod.containers) {
      const reason = c.waiting?.reason;
      if (reason && INIT_REASONS[reason] && !found.has(reason)) found.set(reason, { code: reason, plain: INIT_REASONS[reason], detail: c.waiting?.message });
    }
  }
  return [...found.values()];
}
