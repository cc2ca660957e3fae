/**
 * The cleanup nudge: one message to an owner listing the workloads that have sat Completed,
 * Failed or Stopped for days, with the guide's advice on what to keep and what to delete.
 * Pure: values in, a message out.
 */
import { GUIDE, SAFE_RECOVERY } from '../lifecycle/states.js';
import { context, header, section, type Block, type SlackMessage } from './blocks.js';
import { forMrkdwn, slackDate, truncate } from './mrkdwn.js';
import { onCluster, qualifiedName } from './cluster.js';

/** Listed by name; the rest are counted. 40 lines in sections of 10 stay far inside 50 blocks. */
export const CLEANUP_LIST_MAX = 40;
const LINES_PER_SECTION = 10;
/**
 * Names are cut to these lengths so that 40 lines (under ~240 characters each) fit Slack's
 * 12,000 characters of text per message, and 10 fit a section's 3,000. The date token is
 * never cut: half of one shows as garbage.
 */
const NAME_MAX = 100;
const PROJECT_MAX = 50;

export const NEVER_DELETES = 'The bot never deletes anything.';

/** What the digest shows of a stored workload (the store's rows fit this shape). */
export interface CleanupWorkload {
  name: string;
  project: string;
  state: string;
  /** Its named cluster, when the bot watches several (store rows that record one). */
  cluster?: string;
  /** ISO time it entered its state. */
  stateSince: string;
}

export interface CleanupDigest {
  /** The owner's stale workloads, oldest first. */
  workloads: CleanupWorkload[];
  /** cleanup.after: how long they have sat at least. */
  afterMs: number;
}

export function buildCleanupDigest({ workloads, afterMs }: CleanupDigest): SlackMessage {
  const age = describeDuration(afterMs);
  const listed = workloads.slice(0, CLEANUP_LIST_MAX);
  const lines = listed.map(
    (w) => `• *${forMrkdwn(truncate(w.name, NAME_MAX))}* in *${forMrkdwn(truncate(w.project, PROJECT_MAX))}*${onCluster(w)}: ${forMrkdwn(w.state)} since ${since(w.stateSince)}`,
  );
  const count = workloads.length === 1 ? 'One of your workloads has' : `${workloads.length} of your workloads have`;
  const blocks: Block[] = [
    header(':broom: Workloads to clean up'),
    section(`${count} sat Completed, Failed or Stopped for more than ${age}:`),
  ];
  for (let i = 0; i < lines.length; i += LINES_PER_SECTION) blocks.push(section(lines.slice(i, i + LINES_PER_SECTION).join('\n')));
  if (workloads.length > listed.length) blocks.push(context(`…and ${workloads.length - listed.length} more.`));
  blocks.push(section(`*Next step* (cluster guide): ${GUIDE.Completed.nextAction}\n${SAFE_RECOVERY.cleanup}`), context(NEVER_DELETES));
  const names = listed.slice(0, 10).map(qualifiedName).join(', ') + (workloads.length > 10 ? ', …' : '');
  return {
    text: forMrkdwn(`${count} sat Completed, Failed or Stopped for more than ${age}: ${names}. ${GUIDE.Completed.nextAction} ${NEVER_DELETES}`),
    blocks,
  };
}

function since(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? forMrkdwn(iso) : slackDate(at, `${at.toISOString().slice(0, 10)} UTC`, '{date_short_pretty}');
}

const UNITS: Array<[number, string]> = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
];

/** 259200000 → "3 days": cleanup.after as the config most likely said it. */
export function describeDuration(ms: number): string {
  for (const [size, unit] of UNITS) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`;
  }
  return `${Math.max(1, Math.round(ms / 60_000))} minutes`;
}
