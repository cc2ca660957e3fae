import { CATEGORIES } from './categories.js';
import { PRECEDENCE, TIER, rowOverrules, rowTakes, type PrecedenceRow } from './precedence.js';
import { ERRORS, type Classification } from './signatures.js';
import type { Category, Evidence, EvidenceItem, EvidenceKind, EvidenceRole, TriageHints } from './types.js';

/**
 * The category of a failure, from the whole failure rather than one line: the log's evidence
 * and what Kubernetes says about the container (termination reason, exit code, signal) and the
 * pod (reason, events), weighed by the precedence in precedence.ts. The tables here say what
 * each termination reason, pod event and exit code means.
 */

interface HintRow {
  category: Category;
  kind?: EvidenceKind;
  summary: string;
  transient?: boolean;
  /**
   * The reason says which step refused the pod, not why: its message (the device plugin's
   * answer to the kubelet, the container runtime's error) does. It counts as the pod's history, as an event does, so a line
   * of the log or of the pasted status that names a kind decides over it.
   */
  report?: true;
}

/** Container termination reasons and pod reasons (lower case). */
export const REASONS: Readonly<Record<string, HintRow>> = {
  oomkilled: { category: 'host-oom', summary: 'The container was OOMKilled: it used more memory than its limit' },
  evicted: { category: 'eviction', summary: 'The pod was evicted from its node' },
  preempted: { category: 'eviction', summary: 'The workload was preempted by higher-priority work' },
  preempting: { category: 'eviction', summary: 'The workload was preempted by higher-priority work' },
  nodelost: { category: 'eviction', summary: 'The node running the pod was lost' },
  nodeshutdown: { category: 'eviction', summary: 'The node running the pod shut down' },
  terminated: { category: 'eviction', summary: 'The pod was terminated by its node (shutdown or drain)' },
  unexpectedadmissionerror: { category: 'other', summary: 'The node could not admit the pod: an admission handler (usually the device plugin allocating GPUs) refused it, and its message says why', report: true },
  errimagepull: { category: 'image-pull', summary: 'The image could not be pulled' },
  imagepullbackoff: { category: 'image-pull', summary: 'The image could not be pulled' },
  invalidimagename: { category: 'image-pull', summary: 'The image name is invalid' },
  errimageneverpull: { category: 'image-pull', summary: 'The image is not on the node and may not be pulled' },
  createcontainerconfigerror: { category: 'config', summary: 'A secret or config map the container needs is missing' },
  createcontainererror: { category: 'config', summary: 'The container could not be created', report: true },
  runcontainererror: { category: 'config', summary: 'The container could not be started', report: true },
  containercannotrun: { category: 'config', summary: 'The container command could not run', report: true },
  starterror: { category: 'config', summary: 'The container command could not start', report: true },
  unschedulable: { category: 'scheduling', summary: 'No node can run the pod, or the project is over quota' },
  failedscheduling: { category: 'scheduling', summary: 'No node can run the pod, or the project is over quota' },
  failedmount: { category: 'volume-mount', summary: 'A volume could not be mounted' },
  failedattachvolume: { category: 'volume-mount', summary: 'A volume could not be attached' },
};

/** Pod event reasons beyond the termination reasons above (lower case). */
export const EVENT_REASONS: Readonly<Record<string, HintRow>> = {
  ...REASONS,
  nodenotready: { category: 'eviction', summary: 'The node running the pod stopped being ready' },
  taintmanagereviction: { category: 'eviction', summary: 'The pod was evicted from a tainted node' },
  systemoom: { category: 'host-oom', summary: 'The node ran out of memory' },
  oomkilling: { category: 'host-oom', summary: 'The node ran out of memory and killed a process' },
};

/** Exit codes that say how a process ended, and up to which log tier they overrule the log. */
export const EXIT_CODES: Readonly<Record<number, HintRow & { overrulesUpTo: number }>> = {
  137: { category: 'host-oom', summary: 'Exit code 137: killed by SIGKILL, usually for using too much memory', overrulesUpTo: TIER.exception },
  139: { category: 'crash', summary: 'Exit code 139: segmentation fault', overrulesUpTo: TIER.exception },
  134: { category: 'crash', summary: 'Exit code 134: aborted (SIGABRT)', overrulesUpTo: TIER.exception },
  135: { category: 'host-oom', kind: 'shared-memory', summary: 'Exit code 135: bus error (SIGBUS), in a container usually shared memory (/dev/shm) exhausted', overrulesUpTo: TIER.exception },
  132: { category: 'crash', summary: 'Exit code 132: illegal instruction (SIGILL)', overrulesUpTo: TIER.exception },
  136: { category: 'crash', summary: 'Exit code 136: floating-point exception (SIGFPE)', overrulesUpTo: TIER.exception },
  127: { category: 'config', summary: 'Exit code 127: command not found', overrulesUpTo: TIER.secondary },
  126: { category: 'permission', summary: 'Exit code 126: command found but not executable', overrulesUpTo: TIER.secondary },
  143: { category: 'eviction', summary: 'Exit code 143: stopped by SIGTERM from outside', overrulesUpTo: TIER.secondary },
};

/** Strength of a pick decided by a hint (see TriageResult.strength). */
const STRENGTH = { reason: 4, event: 2, exitCode: 2, none: -1 } as const;

export interface Decision {
  category: Category;
  transient: boolean;
  summary: string;
  decidedBy: Evidence;
  strength: number;
  /** What was weighed, the deciding item first. */
  evidence: EvidenceItem[];
  /** False when nothing named a kind of failure (see TriageResult.recognised). */
  recognised: boolean;
}

function hintItem(row: HintRow, role: EvidenceRole): EvidenceItem {
  return { role, category: row.category, summary: row.summary, recognised: true, ...(row.kind && { kind: row.kind }), ...(row.transient !== undefined && { transient: row.transient }) };
}

/** The newest event that says something, as evidence. */
function eventItem(events: TriageHints['events']): EvidenceItem | undefined {
  for (const event of [...(events ?? [])].reverse()) {
    const byReason = event.reason ? EVENT_REASONS[event.reason.toLowerCase()] : undefined;
    if (byReason) return hintItem(byReason, 'pod-event');
    const message = event.message ?? '';
    const signature = ERRORS.find((s) => s.pattern.test(message));
    if (signature) return { ...hintItem(signature, 'pod-event'), ...(signature.kind && { kind: signature.kind }) };
  }
  return undefined;
}

/** The exit code the container ended with; a signal alone (no exit code) counts as 128 + its number. */
function exitCodeOf(hints: TriageHints): number | undefined {
  if (hints.exitCode !== undefined) return hints.exitCode;
  return hints.signal !== undefined && hints.signal > 0 ? 128 + hints.signal : undefined;
}

/** What the container's termination and the pod say, as evidence. */
function hintEvidence(hints: TriageHints): EvidenceItem[] {
  const items: EvidenceItem[] = [];
  const reason = hints.reason ? REASONS[hints.reason.trim().toLowerCase()] : undefined;
  if (reason) items.push(hintItem(reason, reason.report ? 'pod-event' : 'termination-reason'));
  const code = exitCodeOf(hints);
  const exit = code !== undefined ? EXIT_CODES[code] : undefined;
  if (exit) items.push(hintItem(exit, 'exit-code'));
  const event = eventItem(hints.events);
  if (event) items.push(event);
  return items;
}

const DECIDED_BY: Readonly<Record<EvidenceRole, Evidence>> = {
  line: 'log',
  detail: 'log',
  chain: 'log',
  'last-exception': 'log',
  cascade: 'log',
  'cuda-after-nccl': 'log',
  'termination-reason': 'termination-reason',
  'exit-code': 'exit-code',
  'pod-event': 'event',
  'log-words': 'log',
  'learnt-words': 'log',
};

/** Whether a row may decide, given how much the chosen line counts. */
function lineAllows(row: PrecedenceRow, lineTier: number, item: EvidenceItem, exitCode: number | undefined): boolean {
  if (row.lineBelow === 'recognised') return lineTier < TIER.recognised;
  if (row.lineBelow === 'exception') return lineTier < TIER.exception;
  if (row.lineBelow === 'per exit code') return item.role !== 'exit-code' || exitCode === undefined || lineTier <= EXIT_CODES[exitCode].overrulesUpTo;
  return true;
}

function strengthOf(item: EvidenceItem, lineTier: number): number {
  switch (item.role) {
    case 'termination-reason':
      return STRENGTH.reason;
    case 'pod-event':
      return STRENGTH.event;
    case 'exit-code':
      return Math.max(STRENGTH.exitCode, lineTier);
    default:
      return item.recognised ? Math.max(lineTier, TIER.recognised) : lineTier;
  }
}

/**
 * The category of a failure from everything that points at one: the log's evidence (the
 * chosen line first, then the lines after it, its chained exceptions and the last exception;
 * first-error.ts collects them) and what Kubernetes says. The first row of PRECEDENCE that
 * applies decides.
 */
export function decideCategory(line: Classification | null, logEvidence: readonly EvidenceItem[] = [], hints: TriageHints = {}): Decision {
  const lineTier = line?.tier ?? -1;
  const lineCategory = line?.category ?? 'other';
  const lineItem: EvidenceItem[] = line && !logEvidence.some((e) => e.role === 'line')
    ? [{ role: 'line', category: line.category, summary: line.summary, recognised: line.tier >= TIER.recognised, ...(line.transient !== undefined && { transient: line.transient }), ...(line.kind && { kind: line.kind }) }]
    : [];
  const items = [...lineItem, ...logEvidence, ...hintEvidence(hints)];
  const exitCode = exitCodeOf(hints);
  for (const row of PRECEDENCE) {
    if (!rowOverrules(row, lineCategory, line?.kind)) continue;
    const item = items.find((e) => row.from.includes(e.role) && rowTakes(row, e) && lineAllows(row, lineTier, e, exitCode));
    if (!item) continue;
    // The retry verdict of the most specific evidence of that category: a pull's 429 may sit on
    // the wrapped line after the one that says the pull failed, and under a termination reason
    // (`Evicted`) the kubelet's own line says whether for node pressure or the pod's own limits.
    const verdict = item.transient !== undefined ? item : items.find((e) => e.category === item.category && e.transient !== undefined && (e.role === 'line' || e.role === 'detail' || e.role === 'chain'));
    return {
      category: item.category,
      transient: verdict?.transient ?? CATEGORIES[item.category].transient,
      summary: item.summary,
      decidedBy: DECIDED_BY[item.role],
      strength: strengthOf(item, lineTier),
      evidence: [item, ...items.filter((e) => e !== item)],
      // A layer read from the log's words is a guess, not a recognised kind: the alert says so.
      recognised: item.role !== 'log-words' && item.role !== 'learnt-words' && (item.category !== 'other' || item.recognised),
    };
  }
  return { category: 'other', transient: false, summary: 'No error found in the log', decidedBy: 'none', strength: STRENGTH.none, evidence: items, recognised: false };
}
