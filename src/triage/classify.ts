import { CATEGORIES } from './categories.js';
import { ERRORS, TIER, type Classification } from './signatures.js';
import type { Category, Evidence, TriageHints } from './types.js';

/**
 * The category of a failure, from the log's best line and what Kubernetes says about the
 * container (termination reason, exit code) and the pod (reason, events). A termination
 * reason such as OOMKilled or Evicted is a fact and wins; events decide only when the log
 * has no real error of its own; an exit code that tells a signal (137 SIGKILL, 139 SIGSEGV)
 * also overrules an exception the log does not recognise.
 */

interface HintRow {
  category: Category;
  summary: string;
  transient?: boolean;
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
  unexpectedadmissionerror: { category: 'eviction', summary: 'The node could not admit the pod' },
  errimagepull: { category: 'image-pull', summary: 'The image could not be pulled' },
  imagepullbackoff: { category: 'image-pull', summary: 'The image could not be pulled' },
  invalidimagename: { category: 'image-pull', summary: 'The image name is invalid' },
  errimageneverpull: { category: 'image-pull', summary: 'The image is not on the node and may not be pulled' },
  createcontainerconfigerror: { category: 'config', summary: 'A secret or config map the container needs is missing' },
  createcontainererror: { category: 'config', summary: 'The container could not be created' },
  runcontainererror: { category: 'config', summary: 'The container could not be started' },
  containercannotrun: { category: 'config', summary: 'The container command could not run' },
  starterror: { category: 'config', summary: 'The container command could not start' },
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
  135: { category: 'crash', summary: 'Exit code 135: bus error (SIGBUS)', overrulesUpTo: TIER.exception },
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
}

function fromHint(row: HintRow, decidedBy: Evidence, strength: number): Decision {
  return {
    category: row.category,
    transient: row.transient ?? CATEGORIES[row.category].transient,
    summary: row.summary,
    decidedBy,
    strength,
  };
}

/** The category said by the newest event that says one. */
function eventHint(events: TriageHints['events']): HintRow | undefined {
  for (const event of [...(events ?? [])].reverse()) {
    const byReason = event.reason ? EVENT_REASONS[event.reason.toLowerCase()] : undefined;
    if (byReason) return byReason;
    const message = event.message ?? '';
    const signature = ERRORS.find((s) => s.pattern.test(message));
    if (signature) return signature;
  }
  return undefined;
}

export function decideCategory(fromLog: Classification | null, hints: TriageHints = {}): Decision {
  const reason = hints.reason ? REASONS[hints.reason.trim().toLowerCase()] : undefined;
  if (reason) return fromHint(reason, 'termination-reason', STRENGTH.reason);
  const logTier = fromLog?.tier ?? -1;
  if (logTier < TIER.exception) {
    const event = eventHint(hints.events);
    if (event) return fromHint(event, 'event', STRENGTH.event);
  }
  const exit = hints.exitCode !== undefined ? EXIT_CODES[hints.exitCode] : undefined;
  if (exit && logTier <= exit.overrulesUpTo) return fromHint(exit, 'exit-code', Math.max(STRENGTH.exitCode, logTier));
  if (fromLog) return fromLogLine(fromLog);
  return { category: 'other', transient: false, summary: 'No error found in the log', decidedBy: 'none', strength: STRENGTH.none };
}

function fromLogLine(c: Classification): Decision {
  return {
    category: c.category,
    transient: c.transient ?? CATEGORIES[c.category].transient,
    summary: c.summary,
    decidedBy: 'log',
    strength: c.tier,
  };
}
