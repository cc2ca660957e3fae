import type { LifecycleState } from '../model.js';

/**
 * The cluster's lifecycle guide, verbatim (spec/workload-lifecycle-guide.txt). This table is
 * the single source of the meaning and next action quoted to users; do not paraphrase it.
 */
export const GUIDE: Readonly<Record<LifecycleState, { meaning: string; nextAction: string }>> = {
  Pending: {
    meaning: 'Waiting for a schedulable resource or prerequisite',
    nextAction: 'Check quota, resource preset, image, and data source.',
  },
  Initializing: {
    meaning: 'Platform is preparing the workload',
    nextAction: 'Wait for the transition or inspect the event details.',
  },
  Running: {
    meaning: 'Container command is active',
    nextAction: 'Inspect and save relevant logs, then checkpoint important work.',
  },
  Completed: {
    meaning: 'Command ended successfully',
    nextAction: 'Preserve results and delete disposable resources.',
  },
  Failed: {
    meaning: 'Startup or application command ended with an error',
    nextAction: 'Open and save the logs immediately, then identify the first relevant error.',
  },
  Stopped: {
    meaning: 'User or policy stopped the workload',
    nextAction: 'Capture any remaining logs, then decide whether to resume or remove it.',
  },
  Deleted: {
    meaning: 'Workload record has been removed',
    nextAction: 'Confirm results were stored outside ephemeral storage.',
  },
};

/** The guide's "Safe recovery" section, quoted where retry advice is given. */
export const SAFE_RECOVERY = {
  retryTransient: 'A retry is appropriate for transient scheduling or service failures.',
  fixApplication: 'Application errors need a corrected image, command, or data path.',
  oneChange:
    'Use status and logs before changing a configuration. When retrying, make one intentional change at a time and keep the previous image tag and command in the workload record.',
  /** The second sentence of oneChange alone, for a resubmission held against it. */
  oneChangeAtATime: 'When retrying, make one intentional change at a time and keep the previous image tag and command in the workload record.',
  cleanup:
    'When a workload is no longer needed, stop it and delete only disposable runtime resources. Preserve outputs, checkpoints, and reproducibility notes in approved persistent storage.',
} as const;

/**
 * The guide's "Save application logs to persistent storage" section, quoted where the log
 * advice (src/recovery/log-advice.ts) applies it. The guide writes a typographic apostrophe
 * in "application\u2019s" (a right single quotation mark); it is escaped here to keep the bundle's sources within Latin-1.
 */
export const LOG_SAVING = {
  pipefail: 'set -o pipefail preserves a failing application\u2019s exit status instead of reporting only the result from tee.',
  unbuffered: 'The -u option asks Python to flush output without long buffering delays.',
  persistentMount: 'This protects the log only when /data is the intended persistent mount. Confirm it with findmnt /data or df -h /data before the real run.',
  noCredentials: 'Do not write credentials, access tokens, sensitive prompts, or confidential dataset values to the log.',
  perRank: 'For distributed workloads, write a separate file per rank or let only rank 0 write the combined application log.',
  /** The guide's own example of a log saved the right way. */
  example: 'set -o pipefail\nmkdir -p /data/logs\npython -u train.py 2>&1 | tee -a /data/logs/train.log',
} as const;

/** The guide's "Planned maintenance" advice. */
export const MAINTENANCE_ADVICE = {
  plan: 'Plan project deadlines, long-running jobs, checkpoints, and data transfers around the announced window.',
  stoppingPoint:
    'Your SCC AI engineer will discuss upcoming maintenance during planning and help identify a safe stopping point for work already in progress.',
  persist: 'Preserve outputs, checkpoints, and reproducibility notes in approved persistent storage.',
} as const;

/**
 * Run:ai phase → guide state. Run:ai has finer phases than the guide (runai-reference §2b);
 * each maps to the state a user would recognise. Unknown or missing phases are Pending only
 * when nothing else is known: a workload just created has no status yet.
 */
const PHASE_TO_STATE: Readonly<Record<string, LifecycleState>> = {
  creating: 'Initializing',
  pending: 'Pending',
  initializing: 'Initializing',
  resuming: 'Initializing',
  running: 'Running',
  degraded: 'Running',
  updating: 'Running',
  completed: 'Completed',
  succeeded: 'Completed',
  failed: 'Failed',
  error: 'Failed',
  timedout: 'Failed',
  stopped: 'Stopped',
  stopping: 'Stopped',
  suspended: 'Stopped',
  deleting: 'Deleted',
  deleted: 'Deleted',
  terminating: 'Deleted',
  // Legacy runai-calculated-status values (reference §2d).
  unschedulable: 'Pending',
  containercreating: 'Initializing',
  preempted: 'Pending',
};

/** The guide state for a Run:ai phase; undefined when the phase is unknown to us. */
export function stateForPhase(phase: string | undefined): LifecycleState | undefined {
  if (!phase) return undefined;
  return PHASE_TO_STATE[phase.trim().toLowerCase()];
}

export function isDegradedPhase(phase: string | undefined): boolean {
  return phase?.trim().toLowerCase() === 'degraded';
}

/** States after which nothing more happens to the workload without a person acting. */
export const SETTLED_STATES: ReadonlySet<LifecycleState> = new Set(['Completed', 'Failed', 'Stopped', 'Deleted']);
