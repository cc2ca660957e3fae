/**
 * Block Kit for what the bot finds in a workload's command and log tail: the log-saving tip
 * (one finding), the DM for a likely masked failure, the line a failure DM gets when its log
 * was short or lost, and the checkpoint line for the maintenance DM and `/runai status`.
 * Pure; workload text (commands, paths, error lines) goes through the sanitize pipeline.
 */
import type { Workload } from '../model.js';
import type { CheckpointSighting, Progress } from '../recovery/checkpoint.js';
import type { LogFinding, LogFindingKind, Phrase } from '../recovery/log-advice.js';
import type { MaskedFailure } from '../recovery/masked.js';
import { codeBlock, runaiUiLink, STATE_ICON, workloadRef } from './alert.js';
import { context, header, LIMITS, section, type Block, type Button, type SlackMessage } from './blocks.js';
import { clusterNote, onCluster } from './cluster.js';
import { ACTION } from './ids.js';
import { forInlineCode, forMrkdwn, plain } from './mrkdwn.js';

/** A finding's phrase as mrkdwn: the bot's words as they are, workload text as inline code. */
export function phraseText(phrase: Phrase): string {
  return phrase.map((part) => (typeof part === 'string' ? part : forInlineCode(part.code, 300))).join('');
}

/** The same without markup, for fallback texts. */
function phrasePlain(phrase: Phrase): string {
  return forMrkdwn(phrase.map((part) => (typeof part === 'string' ? part.replace(/`/g, '') : part.code)).join(''), 600);
}

function owner(w: Workload): string {
  return `${forMrkdwn(w.kind, 100)} *${forMrkdwn(w.name, 200)}* in project *${forMrkdwn(w.project, 100)}*${onCluster(w)}`;
}

function guideAndFix(finding: LogFinding): string {
  return `*The cluster guide:* _${finding.guide}_\n*Fix:* ${phraseText(finding.fix)}`;
}

export const TIPS_OFF = 'At most one tip a week for each kind of finding. Turn tips off with `/runai settings tips off`.';

/** The tip a person gets the first time a workload of theirs runs with a finding. */
export function buildLogTip(workload: Workload, finding: LogFinding): SlackMessage {
  const blocks: Block[] = [
    header(`A tip for the log of ${workload.name}`.slice(0, LIMITS.header)),
    section(`:bulb: Your ${owner(workload)} is running. Something in its command works against keeping its log: ${phraseText(finding.problem)}.${finding.command ? `\n${forInlineCode(finding.command, 600)}` : ''}`),
    section(guideAndFix(finding)),
    context(TIPS_OFF),
  ];
  return { text: forMrkdwn(`Tip for ${workload.name} (project ${workload.project}${clusterNote(workload)}): `) + phrasePlain(finding.problem), blocks };
}

/** The DM for a Completed workload whose log ends in an error its pipe likely hid. */
export function buildMaskedFailureDm(workload: Workload, masked: MaskedFailure, uiUrl?: string): SlackMessage {
  const blocks: Block[] = [
    header(`${workload.name} completed, but its log ends in an error`.slice(0, LIMITS.header)),
    section(
      `${STATE_ICON.Failed} Your ${owner(workload)} is *Completed*, but the end of its log holds an error (*${forMrkdwn(masked.categoryLabel, 100)}*). ` +
        `Its exit status was likely hidden: ${phraseText(masked.finding.problem)}.`,
    ),
    codeBlock(`*The error*, log line ${masked.lineNumber}:`, masked.errorLine),
    section(guideAndFix(masked.finding)),
    context('Likely, not certain: the program may have handled the error and finished well. Check its results before you rely on them.'),
  ];
  const buttons: Button[] = [{ type: 'button', action_id: ACTION.showLog, text: plain('Show more of the log', LIMITS.buttonText), value: workloadRef(workload) }];
  const link = runaiUiLink(uiUrl, workload);
  if (link) buttons.push({ type: 'button', action_id: ACTION.openInRunai, text: plain('Open in Run:ai', LIMITS.buttonText), url: link });
  blocks.push({ type: 'actions', elements: buttons });
  const text = forMrkdwn(`${workload.kind} ${workload.name} (project ${workload.project}${clusterNote(workload)}) completed, but its log ends in an error: ${masked.errorLine.slice(0, 300)}`);
  return { text, blocks };
}

/** Which findings explain a short or lost log, most likely cause first. */
const LOG_LOSS_ORDER: readonly LogFindingKind[] = ['buffered-output', 'log-not-persistent', 'one-log-all-ranks'];

/** The one line a failure DM gets when its log was short or lost, or undefined when the command explains nothing. */
export function logLossLine(findings: readonly LogFinding[]): string | undefined {
  for (const kind of LOG_LOSS_ORDER) {
    const finding = findings.find((f) => f.kind === kind);
    if (finding) return `:information_source: *Why the log may be short:* ${phraseText(finding.problem)}. ${phraseText(finding.fix)}`;
  }
  return undefined;
}

/** "40 min ago", "3 h 5 min ago", "2 days ago": whole units passed, as a clock reads. */
export function ago(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min ago` : `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

function progressText(progress: Progress | undefined): string | undefined {
  if (!progress) return undefined;
  const epoch = progress.epoch !== undefined ? `, epoch ${progress.epoch}` : '';
  return `${progress.unit} ${progress.value}${epoch}`;
}

/**
 * The checkpoint line of the maintenance DM and `/runai status`: "last checkpoint saved 40
 * min ago (iteration 12000)", or "no checkpoint line in the last 500 lines of its log" —
 * never "no checkpoint": a framework may save without saying so.
 */
function linesText(n: number): string {
  return n === 1 ? 'line' : `${n} lines`;
}

export function checkpointLine(sighting: CheckpointSighting, now: Date): string {
  const parts: string[] = [];
  const saved = sighting.lastSaved;
  if (saved) {
    const when = sighting.ageMs !== undefined ? ` ${ago(sighting.ageMs)}` : '';
    const what = [progressText(saved.progress), saved.path ? forInlineCode(saved.path, 120) : undefined].filter(Boolean).join(', ');
    parts.push(`last checkpoint saved${when}${what ? ` (${what})` : ''}${saved.at ? '' : ', its time not in the log'}`);
  } else if (sighting.linesRead === 0) {
    // An empty tail says nothing about checkpoints either way.
    parts.push('its log is empty so far, so it names no checkpoint');
  } else if (sighting.unfinished) {
    parts.push(`no finished checkpoint save in the last ${linesText(sighting.linesRead)} of its log`);
  } else {
    parts.push(`no checkpoint line in the last ${linesText(sighting.linesRead)} of its log`);
  }
  const open = sighting.unfinished;
  if (open) {
    const when = open.at ? ` ${ago(Math.max(0, now.getTime() - open.at.getTime()))}` : '';
    const what = progressText(open.progress);
    parts.push(`${open.scheduled ? 'an asynchronous save scheduled' : 'a save begun'}${when}${what ? ` (${what})` : ''} has not said it finished`);
  }
  return parts.join('; ');
}
