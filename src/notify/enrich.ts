/**
 * Enrich a workload that has just failed or stopped: read its pods, find the container that
 * failed first (the failed rank of a distributed workload), read that container's log —
 * `previous` when it has restarted since — and the events about it, and triage them. Every
 * read is bounded in size and time; a read that fails leaves the alert without that part
 * rather than without the alert (kwatch: degrade, don't die).
 */
import type { ContainerInfo, ContainerTermination, PodInfo, Workload } from '../model.js';
import { normalizeWorkload, rankLabel, type NormalizeOptions } from '../cluster/normalize.js';
import type { ClusterReader, KubeEvent } from '../cluster/reader.js';
import { describeKubeError } from '../cluster/kinds.js';
import { triageSources, triageText, type TriageResult } from '../triage/index.js';
import type { FailureSite } from '../messages/alert.js';
import { withTimeout } from '../lib/timeout.js';

export interface Enriched {
  workload: Workload;
  site?: FailureSite;
  triage?: TriageResult;
  events: KubeEvent[];
  logProblem?: string;
}

export interface EnrichOptions {
  reader: ClusterReader;
  normalize(namespace: string): NormalizeOptions;
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

export async function enrichWorkload(raw: unknown, base: Workload, options: EnrichOptions): Promise<Enriched> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let workload = base;
  let problem: string | undefined;
  try {
    const pods = await withTimeout((signal) => options.reader.podsOf(base.namespace, base.name, signal), timeoutMs, 'listing pods');
    // The cluster stays the one the workload was read from (the minimal CR does not carry it).
    workload = { ...normalizeWorkload(raw, pods, { ...options.normalize(base.namespace), cluster: base.cluster }), state: base.state };
  } catch (err) {
    problem = `could not list the pods: ${describeKubeError(err)}`;
  }

  const candidates = failureCandidates(workload.pods).slice(0, options.maxCandidates ?? 3);
  const events = await withTimeout(
    (signal) => options.reader.eventsFor(workload.namespace, [workload.name, ...workload.pods.map((p) => p.name)], signal),
    timeoutMs,
    'reading events',
  ).catch(() => [] as KubeEvent[]);

  if (!candidates.length) {
    if (!problem && base.state === 'Failed') problem = workload.pods.length ? 'no container reported a failure' : 'the workload has no pods left to read logs from';
    const triage = base.state === 'Failed' ? triageText('', { events }) : undefined;
    return { workload, events, triage, logProblem: problem };
  }

  const results: Array<{ candidate: Candidate; triage: TriageResult }> = [];
  for (const candidate of candidates) {
    const source = { pod: candidate.pod.name, container: candidate.container.name, rank: rankLabel(candidate.pod) };
    const hints = {
      exitCode: candidate.termination?.exitCode,
      signal: candidate.termination?.signal,
      reason: candidate.termination?.reason ?? candidate.pod.reason,
      events: events.filter((e) => !e.involvedName || e.involvedName === candidate.pod.name || e.involvedKind !== 'Pod'),
    };
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
      results.push({ candidate, triage: triageText(log, hints, source) });
    } catch (err) {
      problem = `could not read the log of ${candidate.pod.name}/${candidate.container.name}: ${describeKubeError(err)}`;
      results.push({ candidate, triage: triageText('', hints, source) });
    }
  }
  const chosen = triageSources(results.map((r) => r.triage));
  const picked = results.find((r) => r.triage === chosen) ?? results[0];
  const { pod, container, termination, previous } = picked.candidate;
  return {
    workload,
    events,
    triage: chosen,
    logProblem: problem,
    site: { pod: pod.name, container: container.name, rank: rankLabel(pod), node: pod.node, termination, previous },
  };
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

