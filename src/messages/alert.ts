/**
 * Block Kit for workload alerts. Pure: values in, a message out. Every message has a `text`
 * fallback, stays inside Block Kit's limits, and shows cluster text only escaped (names) or
 * redacted and escaped (log lines, by the triage module).
 */
import { workloadId, type ContainerTermination, type LifecycleState, type Workload } from '../model.js';
import { GUIDE, SAFE_RECOVERY } from '../lifecycle/states.js';
import type { TriageResult } from '../triage/index.js';
import { ACTION } from './ids.js';
import { clusterField, clusterNote, onCluster } from './cluster.js';
import { forCodeBlock, forMrkdwn, forInlineCode, plain, truncate } from './mrkdwn.js';
import { context, fields, header, LIMITS, section, type ActionsBlock, type Block, type Button, type SlackMessage } from './blocks.js';

/** Where the failure happened: the pod and container whose log is quoted. */
export interface FailureSite {
  pod: string;
  container?: string;
  rank?: string;
  node?: string;
  termination?: ContainerTermination;
  previous?: boolean;
}

export interface WorkloadAlert {
  workload: Workload;
  state: LifecycleState;
  triage?: TriageResult;
  site?: FailureSite;
  /** Set when the message cannot reach the owner and lands in a channel instead. */
  ownerNote?: string;
  archivePath?: string;
  /** The archive is still being written here when the DM goes out. */
  archivePending?: string;
  uiUrl?: string;
  /** Why the logs could not be read, when they could not. */
  logProblem?: string;
  /** Lines of the log's tail to show (alerts.logTailLines). */
  snippetLines?: number;
  /**
   * Why the log may be short, from the workload's own command (log-advice.ts logLossLine: mrkdwn
   * with its workload text already escaped); shown when the log was short or lost.
   */
  logLossLine?: string;
}

export const STATE_ICON: Record<LifecycleState, string> = {
  Pending: ':hourglass_flowing_sand:',
  Initializing: ':gear:',
  Running: ':arrow_forward:',
  Completed: ':white_check_mark:',
  Failed: ':x:',
  Stopped: ':double_vertical_bar:',
  Deleted: ':wastebasket:',
};

/** A code block of already redacted text, escaped for Slack and kept inside one section. */
export function codeBlock(title: string, redactedText: string): Block {
  const budget = LIMITS.sectionText - title.length - 10;
  return section(`${title}\n\`\`\`${forCodeBlock(redactedText, budget) || ' '}\`\`\``);
}

function lastLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length <= n ? text : lines.slice(-n).join('\n');
}

/** A code block of text the triage module already redacted and escaped (its snippet). */
function escapedCodeBlock(title: string, escapedText: string): Block {
  const budget = LIMITS.sectionText - title.length - 10;
  const body = escapedText.length > budget ? escapedText.slice(escapedText.length - budget).replace(/^[^\n]*\n/, '') : escapedText;
  return section(`${title}\n\`\`\`${body || ' '}\`\`\``);
}

/**
 * Identifiers only: permission is checked again when the button is clicked. `uid` holds
 * workloadId(): `cluster/uid` for a workload of a named cluster, the bare uid otherwise (the
 * value buttons always carried), so a button finds its workload in the right cluster.
 */
export function workloadRef(w: Pick<Workload, 'namespace' | 'name' | 'uid' | 'cluster'>): string {
  return JSON.stringify({ ns: w.namespace, name: w.name, uid: workloadId(w) });
}

export function describeTermination(t: ContainerTermination | undefined): string | undefined {
  if (!t) return undefined;
  const parts = [t.reason, t.exitCode !== undefined ? `exit code ${t.exitCode}` : undefined].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

export function runaiUiLink(uiUrl: string | undefined, w: Workload): string | undefined {
  if (!uiUrl) return undefined;
  const base = uiUrl.replace(/\/+$/, '');
  return `${base}/workloads?search=${encodeURIComponent(w.name)}&project=${encodeURIComponent(w.project)}`;
}

function alertButtons(alert: WorkloadAlert): ActionsBlock {
  const ref = workloadRef(alert.workload);
  const elements: Button[] = [
    { type: 'button', action_id: ACTION.showLog, text: plain('Show more of the log', LIMITS.buttonText), value: ref },
    // The guide's first step for a failure: "open and save the logs immediately".
    ...(alert.state === 'Failed' ? [{ type: 'button' as const, action_id: ACTION.saveLog, text: plain('Save the whole log', LIMITS.buttonText), value: ref }] : []),
    { type: 'button', action_id: ACTION.muteWorkload, text: plain('Mute this workload', LIMITS.buttonText), value: ref },
    {
      type: 'button',
      action_id: ACTION.muteProject,
      text: plain(`Mute ${alert.workload.project} for a day`, LIMITS.buttonText),
      value: JSON.stringify({ project: alert.workload.project, ns: alert.workload.namespace, name: alert.workload.name, uid: workloadId(alert.workload) }),
    },
  ];
  const link = runaiUiLink(alert.uiUrl, alert.workload);
  if (link) elements.push({ type: 'button', action_id: ACTION.openInRunai, text: plain('Open in Run:ai', LIMITS.buttonText), url: link });
  return { type: 'actions', elements };
}

function siteLabel(site: FailureSite | undefined, source?: { pod?: string; container?: string; rank?: string }): string {
  const pod = site?.pod ?? source?.pod;
  const container = site?.container ?? source?.container;
  // The pod's replica (worker 1) and, when the log names one, the process rank within the job.
  const ranks = [site?.rank, source?.rank && source.rank !== site?.rank ? source.rank : undefined].filter(Boolean);
  const parts = [...ranks, pod && `pod ${pod}`, container && `container ${container}`].filter(Boolean) as string[];
  return parts.length ? ` (${forMrkdwn(parts.join(', '))})` : '';
}

/**
 * The heading of a log's error line: the first relevant error, or, when no line was recognised
 * and a guess from the log's words decided, the line that guess rests on (never called an error
 * the triage recognised).
 */
export function errorLineTitle(firstError: { guessed?: boolean }): string {
  return firstError.guessed ? 'The line the guess rests on' : 'First relevant error';
}

/** Said instead of a category when nothing in the log or the pod named a kind of failure. */
export const UNRECOGNISED = {
  withLine: 'I could not tell the kind of failure from the log; read the error line.',
  withoutLine: 'I could not tell the kind of failure: the log has no error line and Kubernetes gave no reason.',
  guess: 'I could not tell the kind of failure for sure; going by the words of its error lines, a guess:',
} as const;

/**
 * Whether to retry, the category and the advice. `other` by default is not a diagnosis: when
 * nothing named a kind, the message says so plainly instead of "Category: Other error".
 */
export function verdictSection(triage: TriageResult): Block {
  // triage.advice quotes the guide's Safe recovery sentence and says what to change.
  const verdict = triage.transient ? ':repeat: *A plain retry makes sense.*' : ':wrench: *Do not just retry.*';
  // A layer only read from the log's words (layer-words.ts, learnt-words.ts) is offered as a guess, never as a diagnosis.
  const role = triage.evidence[0]?.role;
  const guessed = !triage.recognised && triage.category !== 'other' && (role === 'log-words' || role === 'learnt-words');
  const kind = triage.recognised
    ? `Category: *${forMrkdwn(triage.categoryLabel)}*.`
    : guessed ? `${UNRECOGNISED.guess} *${forMrkdwn(triage.categoryLabel)}*.`
    : triage.firstError ? UNRECOGNISED.withLine : UNRECOGNISED.withoutLine;
  return section(`${verdict} ${kind}\n${forMrkdwn(triage.advice)}`);
}

/** The DM for a Failed or Stopped workload (and any other settled state). */
export function buildWorkloadAlert(alert: WorkloadAlert): SlackMessage {
  const { workload: w, state, triage, site } = alert;
  const guide = GUIDE[state];
  const verb = state === 'Failed' ? 'failed' : state === 'Stopped' ? 'was stopped' : `is ${state}`;
  const blocks: Block[] = [header(`${w.name} ${verb}`.slice(0, LIMITS.header))];
  if (alert.ownerNote) blocks.push(context(forMrkdwn(alert.ownerNote)));
  blocks.push(
    section(`${STATE_ICON[state]} Your ${forMrkdwn(w.kind)} *${forMrkdwn(w.name)}* in project *${forMrkdwn(w.project)}*${onCluster(w)} is *${state}*: ${guide.meaning}.`),
    fields([
      ['Workload', forInlineCode(`${w.namespace}/${w.name}`)],
      clusterField(w),
      ['Project', forMrkdwn(w.project)],
      ['Kind', forMrkdwn(w.kind)],
      ['Run:ai phase', w.phase ? forMrkdwn(w.phase) : undefined],
      ['Termination', forMrkdwn(describeTermination(site?.termination))],
      ['Node', site?.node ? forMrkdwn(site.node) : undefined],
      ['Image', w.image ? forInlineCode(w.image, 300) : undefined],
      ['Command', w.command || w.arguments ? forInlineCode([w.command, w.arguments].filter(Boolean).join(' '), 600) : undefined],
    ]),
  );
  if (w.phaseMessage) blocks.push(context(`Run:ai says: ${forMrkdwn(truncate(w.phaseMessage, 500))}`));

  if (triage?.firstError) {
    const fe = triage.firstError;
    blocks.push(codeBlock(`*${errorLineTitle(fe)}*${siteLabel(site, fe.source)}, log line ${fe.lineNumber}:`, fe.line));
  } else if (state === 'Failed' && triage) {
    blocks.push(section(`*No error line found in the log*${siteLabel(site)}; the category comes from the container's termination state.`));
  }
  const snippet = triage?.snippet && lastLines(triage.snippet, alert.snippetLines ?? 15);
  if (snippet) blocks.push(escapedCodeBlock(`*Last lines of the log*${site?.previous ? ' (previous run of the container)' : ''}:`, snippet));
  if (alert.logProblem) blocks.push(context(`Logs: ${forMrkdwn(alert.logProblem)}`));
  if (alert.logLossLine) blocks.push(section(truncate(alert.logLossLine, LIMITS.sectionText)));

  blocks.push(section(`*Next step* (cluster guide): ${guide.nextAction}`));
  if (state === 'Failed' && triage) blocks.push(verdictSection(triage));
  if (alert.archivePath) blocks.push(context(`Full logs saved to ${forInlineCode(alert.archivePath, 400)}`));
  else if (alert.archivePending) blocks.push(context(`Full logs are being saved to ${forInlineCode(alert.archivePending, 400)}`));
  if (!triage?.advice.includes(SAFE_RECOVERY.oneChange)) blocks.push(context(SAFE_RECOVERY.oneChange));
  blocks.push(alertButtons(alert));

  return { text: alertFallbackText(alert), blocks };
}

export function alertFallbackText(alert: WorkloadAlert): string {
  const { workload: w, state, triage } = alert;
  const head = `${w.kind} ${w.name} (project ${w.project}${clusterNote(w)}) is ${state}: ${GUIDE[state].meaning}.`;
  const error = triage?.firstError ? ` ${triage.firstError.guessed ? 'Line to read' : 'First error'}: ${truncate(triage.firstError.line.replace(/[\r\n]+/g, ' '), 300)}` : '';
  return forMrkdwn(`${head}${error} Next: ${GUIDE[state].nextAction}`);
}
