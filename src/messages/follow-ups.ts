/**
 * Block Kit for what happens to a workload after its alert: the thread replies (resubmitted,
 * running again, completed, stopped, deleted), the alert's first line edited to say where
 * things stand, and the escalation DM when it fails again. Pure: values in, messages out;
 * every workload string goes through the sanitize pipeline for its destination.
 */
import { GUIDE, SAFE_RECOVERY } from '../lifecycle/states.js';
import type { Workload } from '../model.js';
import type { ResubmissionVerdict, SubmissionChange } from '../recovery/diff.js';
import type { Submission } from '../recovery/submission.js';
import { buildWorkloadAlert, STATE_ICON, type WorkloadAlert } from './alert.js';
import { context, header, LIMITS, section, type Block, type SlackMessage } from './blocks.js';
import { clusterNote, onCluster } from './cluster.js';
import { forInlineCode, forMrkdwn, truncate } from './mrkdwn.js';

import type { FollowUpEvent } from '../model.js';

export type { FollowUpEvent };

/** Changes listed one per line in a reply; the rest are counted. */
const MAX_LISTED_CHANGES = 10;

/**
 * The alert's first line once things moved on: "Failed → resubmitted, running". The state the
 * alert was about, then how often it was resubmitted, then the latest state (a failure after
 * a resubmission is "failed again"; running after a stop, "running again").
 */
export function rootStatusLine(alerted: 'Failed' | 'Stopped', events: readonly FollowUpEvent[]): string {
  const resubmissions = events.filter((e) => e === 'resubmitted').length;
  const latest = [...events].reverse().find((e) => e !== 'resubmitted');
  const parts: string[] = [];
  if (resubmissions) parts.push(resubmissions === 1 ? 'resubmitted' : `resubmitted ${resubmissions} times`);
  const afterResubmission = latest !== undefined && events.lastIndexOf('resubmitted') < events.lastIndexOf(latest);
  if (latest === 'running') parts.push(resubmissions && afterResubmission ? 'running' : 'running again');
  else if (latest === 'failed') parts.push('failed again');
  else if (latest) parts.push(latest);
  return parts.length ? `${alerted} \u2192 ${parts.join(', ')}` : alerted;
}

/** The alert with its first line (the header) and fallback text saying where things stand now. */
export function withRootStatus(alert: SlackMessage, workloadName: string, statusLine: string): SlackMessage {
  const [first, ...rest] = alert.blocks;
  const blocks = first?.type === 'header' ? rest : alert.blocks;
  return {
    text: `${forMrkdwn(statusLine)}. ${alert.text}`.slice(0, 3000),
    blocks: [header(`${workloadName}: ${statusLine}`.slice(0, LIMITS.header)), ...blocks],
  };
}

type Code = (text: string) => string;

const mrkdwnCode: Code = (text) => forInlineCode(text, 200);
const plainCode: Code = (text) => text;

function side(value: string | undefined, code: Code): string {
  return value === undefined ? 'none' : code(value);
}

/** One change in words; `code` shows a workload value (inline code in mrkdwn, as is in plain text). */
export function describeChange(change: SubmissionChange, code: Code = mrkdwnCode): string {
  const arrow = (label: string) => `${label} ${side(change.before, code)} \u2192 ${side(change.after, code)}`;
  switch (change.kind) {
    case 'image-tag':
      return arrow('image tag');
    case 'image-repository':
      return arrow('image');
    case 'image-digest':
      return arrow('image digest');
    case 'command':
      return arrow('command');
    case 'argument-changed':
      return change.subject ? arrow(`argument ${code(change.subject)}:`) : arrow('argument');
    case 'argument-added':
      return `argument added: ${side(change.after, code)}`;
    case 'argument-removed':
      return `argument removed: ${side(change.before, code)}`;
    case 'arguments-rewritten':
      return `arguments rewritten (${change.before} \u2192 ${change.after})`;
    case 'env-added':
      return `environment variable added: ${side(change.subject, code)}`;
    case 'env-removed':
      return `environment variable removed: ${side(change.subject, code)}`;
    case 'mount-added':
      return `data source added at ${side(change.subject, code)}: ${side(change.after, code)}`;
    case 'mount-removed':
      return `data source removed from ${side(change.subject, code)}: ${side(change.before, code)}`;
    case 'mount-changed':
      return arrow(`data source at ${side(change.subject, code)}:`);
    case 'gpu-devices':
      return arrow('GPUs');
    case 'gpu-fraction':
      return arrow('GPU fraction');
    case 'gpu-memory':
      return arrow('GPU memory');
    case 'gpu-mig':
      return arrow('MIG profile');
    case 'memory':
      return arrow('CPU memory');
    case 'node-pool':
      return arrow('node pool');
    case 'working-dir':
      return arrow('working directory');
  }
}

/** "1 change: image tag 2.1 → 2.2", "3 changes", "no change": plain text, for fallbacks and the thread's summary. */
export function changeSummary(changes: readonly SubmissionChange[]): string {
  if (changes.length === 0) return 'no change';
  if (changes.length === 1) return `1 change: ${describeChange(changes[0], plainCode)}`;
  return `${changes.length} changes`;
}

/** What the guide's Safe recovery says about a resubmission, in its own words where it has them. */
export function verdictText(verdict: ResubmissionVerdict, earlierCategory?: string): string {
  const category = earlierCategory ? ` with *${forMrkdwn(earlierCategory, 100)}*` : '';
  switch (verdict) {
    case 'one-change':
      return 'One intentional change, as the guide asks.';
    case 'several-changes':
      return `:warning: The guide suggests one intentional change at a time, so that the fix can be told apart: _${SAFE_RECOVERY.oneChangeAtATime}_`;
    case 'unchanged-after-application-error':
      return `:warning: It failed${category}, an application error, and nothing changed: it will most likely fail the same way. _${SAFE_RECOVERY.fixApplication}_`;
    case 'unchanged-after-transient-failure':
      return `:repeat: Resubmitted unchanged after a transient failure${category}, which the guide allows: _${SAFE_RECOVERY.retryTransient}_`;
    case 'unchanged-after-stop':
      return 'Resubmitted unchanged after it was stopped.';
    case 'unchanged':
      return `Nothing changed since it failed. _${SAFE_RECOVERY.retryTransient} ${SAFE_RECOVERY.fixApplication}_`;
  }
}

function changeList(changes: readonly SubmissionChange[]): string {
  if (!changes.length) return '*Nothing changed* in the image, command, arguments, environment variable names, data sources, GPU and memory requests or node pool.';
  const shown = changes.slice(0, MAX_LISTED_CHANGES).map((c) => describeChange(c));
  const more = changes.length - shown.length;
  if (changes.length === 1) return `*1 change:* ${shown[0]}`;
  return `*${changes.length} changes:*\n${shown.map((line) => `\u2022 ${line}`).join('\n')}${more > 0 ? `\n\u2022 \u2026 and ${more} more` : ''}`;
}

/** The image and command of the attempt before, kept in the thread as the guide asks. */
function previousRecord(previous: Submission): string | undefined {
  const parts = [
    previous.image && `image ${forInlineCode(previous.image.ref, 300)}`,
    previous.argv.length ? `command ${forInlineCode(previous.argv.join(' '), 600)}` : undefined,
  ].filter(Boolean);
  return parts.length ? `Before: ${parts.join(', ')}. _Keep the previous image tag and command_ (cluster guide, Safe recovery).` : undefined;
}

export interface ResubmittedReply {
  /** The resubmission. */
  workload: Workload;
  /** What the earlier attempt was submitted with. */
  previous: Submission;
  changes: readonly SubmissionChange[];
  verdict: ResubmissionVerdict;
  /** Triage's category of the earlier failure, when it failed. */
  earlierCategory?: string;
}

/** The thread reply under a failed or stopped workload's alert when a workload of the same name is created again. */
export function buildResubmittedReply(reply: ResubmittedReply): SlackMessage {
  const w = reply.workload;
  const blocks: Block[] = [
    section(`:leftwards_arrow_with_hook: *Resubmitted*: a new ${forMrkdwn(w.kind, 100)} *${forMrkdwn(w.name, 200)}* in project *${forMrkdwn(w.project, 100)}*${onCluster(w)}.\n${changeList(reply.changes)}`),
    section(verdictText(reply.verdict, reply.earlierCategory)),
  ];
  const record = previousRecord(reply.previous);
  if (record) blocks.push(context(record));
  return { text: forMrkdwn(`${w.name} was resubmitted (${changeSummary(reply.changes)}).`), blocks };
}

export type StateFollowUp = 'running' | 'completed' | 'stopped' | 'deleted';

const FOLLOW_UP_STATE: Readonly<Record<StateFollowUp, 'Running' | 'Completed' | 'Stopped' | 'Deleted'>> = {
  running: 'Running',
  completed: 'Completed',
  stopped: 'Stopped',
  deleted: 'Deleted',
};

/** A thread reply for a later state of the workload, or of its resubmission. */
export function buildStateFollowUp(event: StateFollowUp, workload: Workload, options: { resubmission?: boolean } = {}): SlackMessage {
  const state = FOLLOW_UP_STATE[event];
  const again = event === 'running' && !options.resubmission ? ' again' : '';
  const whose = options.resubmission ? 'The resubmitted ' : '';
  const blocks: Block[] = [
    section(`${STATE_ICON[state]} ${whose}${forMrkdwn(workload.kind, 100)} *${forMrkdwn(workload.name, 200)}*${onCluster(workload)} is *${state}*${again}: ${GUIDE[state].meaning}.`),
    context(`Next step (cluster guide): ${GUIDE[state].nextAction}`),
  ];
  return { text: forMrkdwn(`${whose}${workload.kind} ${workload.name} (project ${workload.project}${clusterNote(workload)}) is ${state}${again}.`), blocks };
}

/** A Slack permalink (`chat.getPermalink`), or nothing: only an http(s) address to a message archive is made a link. */
const PERMALINK = /^https?:\/\/[A-Za-z0-9.-]{1,253}(?::\d{1,5})?\/archives\/[A-Za-z0-9]{1,32}\/p\d{1,20}(?:\?[A-Za-z0-9=&._%-]{0,200})?$/;

export interface EarlierAlert {
  /** The permalink of the earlier alert's thread, built by the caller with chat.getPermalink. */
  permalink?: string;
  /** How many times it has failed, this one included (2 for the first "failed again"). */
  failures?: number;
}

/**
 * "Failed again": a new top-level DM (a thread reply may not notify), the full alert for
 * this failure with a link back to the earlier thread.
 */
export function buildFailedAgainDm(alert: WorkloadAlert, earlier: EarlierAlert): SlackMessage {
  const times = earlier.failures && earlier.failures > 2 ? ` (${earlier.failures} failures so far)` : '';
  return escalation(alert, earlier, `${alert.workload.name} failed again`, `:rotating_light: *Failed again* after it was resubmitted${times}.`, `Failed again${forMrkdwn(times)}`);
}

/** Who stopped it, for the DM (recovery/follow-up-plan.ts StopCause, the escalating kinds). */
export type StoppedBy = { by: 'someone-else'; who: string } | { by: 'system'; why: string };

/**
 * A workload a thread follows was stopped by someone other than its owner, or by the system
 * (preempted, evicted, a timeout): a new top-level DM linking the thread, since its owner did
 * not do it and must decide what to do (the guide's next action for Stopped).
 */
export function buildStoppedElsewhereDm(alert: WorkloadAlert, earlier: EarlierAlert, stopped: StoppedBy): SlackMessage {
  const by = stopped.by === 'system' ? `by the system (${forMrkdwn(stopped.why, 40)})` : `by ${forMrkdwn(stopped.who, 100)}, not by you`;
  return escalation(alert, earlier, `${alert.workload.name} was stopped`, `${STATE_ICON.Stopped} *Stopped* ${by}.`, 'Stopped');
}

/** An escalation's DM: its own header and line, the link to the earlier thread, then the alert as usual. */
function escalation(alert: WorkloadAlert, earlier: EarlierAlert, title: string, line: string, textPrefix: string): SlackMessage {
  const message = buildWorkloadAlert(alert);
  const [, ...rest] = message.blocks;
  const link = earlier.permalink && PERMALINK.test(earlier.permalink) ? `<${earlier.permalink}|the earlier alert's thread>` : "the earlier alert's thread";
  const blocks: Block[] = [header(truncate(title, LIMITS.header)), section(`${line} What happened before is in ${link}.`), ...rest];
  return { text: `${textPrefix}: ${message.text}`.slice(0, 3000), blocks: blocks.slice(0, LIMITS.blocks) };
}
