/**
 * Enrich a workload that has just failed or stopped: read its pods, find the container that
 * failed first (the failed rank of a distributed workload), read that container's log —
 * `previous` when it has restarted since — and the events about it, and triage them. Every
 * read is bounded in size and time; a read that fails leaves the alert without that part
 * rather than without the alert (kwatch: degrade, don't die).
 */
import type { ContainerInfo, ContainerTermination, PodInfo, Workload } from '../model.js';
import { rankLabel, withPods } from '../cluster/normalize.js';
import type { ClusterReader, InvolvedObject, KubeEvent } from '../cluster/reader.js';
import { describeKubeError } from '../cluster/kinds.js';
import { triageSources, triageText, type TriageResult } from '../triage/index.js';
import type { FailureSite } from '../messages/alert.js';
import { withTimeout } from '../lib/timeout.js';
import { submissionOfWorkload } from '../recovery/workload-submission.js';
import type { Submission } from '../recovery/submission.js';

export interface Enriched {
  workload: Workload;
  /** The pods as the cluster gave them (what the normalised ones leave out: env names, volumes); empty when they could not be read. */
  rawPods: unknown[];
  site?: FailureSite;
  triage?: TriageResult;
  events: KubeEvent[];
  logProblem?: string;
  /** What it was submitted with: its command, and the environment names and volumes of its pods. */
  submission: Submission;
}

export interface EnrichOptions {
  reader: ClusterReader;
  /** owners.keys: names the owner from the pods when the CR names none. */
  ownerKeys?: string[];
  tailLines: number;
  /** Logs read per candidate container; the first error is usually near the end. */
  logTailLines?: number;
  logLimitBytes?: number;
  /** How many failing containers to read (the ranks of a distributed workload). */
  maxCandidates?: number;
  timeoutMs?: number;
}

interface Candidate {
  pod: PodInfo;
  container: ContainerInfo;
  termination?: ContainerTermination;
  previous: boolean;
}

/** `base` is the workload as the reconciler cached it; its pods are read now and attached to it. */
export async function enrichWorkload(base: Workload, options: EnrichOptions): Promise<Enriched> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let workload = base;
  let rawPods: unknown[] = [];
  let problem: string | undefined;
  try {
    rawPods = await withTimeout((signal) => options.reader.podsOf(base, signal), timeoutMs, 'listing pods');
    workload = withPods(base, rawPods, { ownerKeys: options.ownerKeys });
  } catch (err) {
    problem = `could not list the pods: ${describeKubeError(err)}`;
  }
  const submission = submissionOfWorkload(base, rawPods);

  const candidates = failureCandidates(workload.pods).slice(0, options.maxCandidates ?? 3);
  // Read while the logs are: one round trip less before the alert (the events are a few small lists).
  const eventsRead = withTimeout(
    (signal) => options.reader.eventsFor(workload.namespace, eventSubjects(workload), signal),
    timeoutMs,
    'reading events',
  ).catch(() => [] as KubeEvent[]);

  if (!candidates.length) {
    const events = await eventsRead;
    if (!problem && base.state === 'Failed') problem = workload.pods.length ? 'no container reported a failure' : 'the workload has no pods left to read logs from';
    const triage = base.state === 'Failed' ? triageText('', { events }) : undefined;
    return { workload, rawPods, events, triage, logProblem: problem, submission };
  }

  const results: Array<{ candidate: Candidate; triage: TriageResult }> = [];
  for (const candidate of candidates) {
    const source = { pod: candidate.pod.name, container: candidate.container.name, rank: rankLabel(candidate.pod) };
    const hints = async () => ({
      exitCode: candidate.termination?.exitCode,
      signal: candidate.termination?.signal,
      reason: candidate.termination?.reason ?? candidate.pod.reason,
      events: (await eventsRead).filter((e) => !e.involvedName || e.involvedName === candidate.pod.name || e.involvedKind !== 'Pod'),
    });
    try {
      const log = await withTimeout(
        (signal) => options.reader.readLog({
          namespace: workload.namespace,
          pod: candidate.pod.name,
          container: candidate.container.name,
          previous: candidate.previous || undefined,
          tailLines: options.logTailLines ?? 5000,
          limitBytes: options.logLimitBytes ?? 4 * 1024 * 1024,
        }, signal),
        timeoutMs,
        'reading the log',
      );
      results.push({ candidate, triage: triageText(log, await hints(), source) });
    } catch (err) {
      problem = `could not read the log of ${candidate.pod.name}/${candidate.container.name}: ${describeKubeError(err)}`;
      results.push({ candidate, triage: triageText('', await hints(), source) });
    }
  }
  const chosen = triageSources(results.map((r) => r.triage));
  const picked = results.find((r) => r.triage === chosen) ?? results[0];
  const { pod, container, termination, previous } = picked.candidate;
  return {
    workload,
    rawPods,
    events: await eventsRead,
    triage: chosen,
    logProblem: problem,
    submission,
    site: { pod: pod.name, container: container.name, rank: rankLabel(pod), node: pod.node, termination, previous },
  };
}

/** Pods whose events are read when none has failed (a workload that waits): the first few not running. */
const WAITING_PODS_READ = 3;

/**
 * The objects whose events explain a workload: the workload itself, its pods that failed (else,
 * while it waits, the first pods not running yet) and their PodGroups, named by the pods'
 * `pod-group-name` annotation or by the PodGroups read (`podGroups`), where the scheduler says
 * Unschedulable, NotReady or Evict (runai-reference §5). Not all 64 ranks of a job, nor the
 * namespace: their events repeat each other's, and a busy namespace holds thousands.
 */
export function eventSubjects(workload: Workload, podGroups: readonly string[] = []): InvolvedObject[] {
  const failed = failureCandidates(workload.pods).map((c) => c.pod);
  const pods = [...new Set(failed.length ? failed : workload.pods.filter((p) => p.phase !== 'Running' && p.phase !== 'Succeeded').slice(0, WAITING_PODS_READ))];
  const groups = new Set([...workload.pods.flatMap((p) => p.podGroup ?? []), ...podGroups]);
  return [
    { kind: workload.kind, name: workload.name, uid: workload.uid },
    ...pods.map((p) => ({ kind: 'Pod', name: p.name, uid: p.uid })),
    ...[...groups].map((name) => ({ kind: 'PodGroup', name })),
  ];
}

/**
 * Containers that ended badly, the earliest first: in a distributed job the first rank to
 * fail is usually the cause, and the others fail after it (NCCL timeouts, elastic teardown).
 * A container that restarted and is running or waiting again has its failure in lastState,
 * and its log under `previous`.
 */
export function failureCandidates(pods: PodInfo[]): Candidate[] {
  const found: Candidate[] = [];
  for (const pod of pods) {
    for (const container of pod.containers) {
      const current = container.terminated;
      if (current && (current.exitCode ?? 0) !== 0) {
        found.push({ pod, container, termination: current, previous: false });
      } else if (!current && container.lastTerminated && (container.lastTerminated.exitCode ?? 0) !== 0) {
        found.push({ pod, container, termination: container.lastTerminated, previous: true });
      } else if (!current && pod.phase === 'Failed' && !container.init) {
        // Evicted or lost pods carry no container termination; the pod says why.
        found.push({ pod, container, termination: pod.reason ? { reason: pod.reason, message: pod.message } : undefined, previous: false });
      }
    }
  }
  const time = (c: Candidate) => Date.parse(c.termination?.finishedAt ?? '') || Number.MAX_SAFE_INTEGER;
  return found.sort((a, b) => time(a) - time(b) || Number(!!a.container.init) - Number(!!b.container.init));
}

