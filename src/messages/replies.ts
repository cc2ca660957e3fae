/**
 * Block Kit for the answers to `/runai` and to button clicks. Pure: values in, a message out.
 * Cluster text (names, messages) is escaped; log text arrives redacted and is escaped here for
 * a code block. Every message has a `text` fallback and stays inside Slack's limits.
 */
import type { KubeEvent, LifecycleState, MaintenanceWindow, PodInfo, UserSettings, Workload } from '../model.js';
import { GUIDE, MAINTENANCE_ADVICE, SAFE_RECOVERY } from '../lifecycle/states.js';
import { rankLabel } from '../cluster/normalize.js';
import { safeTail, type TriageResult } from '../triage/index.js';
import { context, fields, header, LIMITS, section, type Block, type SectionBlock, type SlackMessage } from './blocks.js';
import { describeTermination, errorLineTitle, runaiUiLink, STATE_ICON, verdictSection } from './alert.js';
import { forCodeBlock, forMrkdwn, forInlineCode, slackDate, truncate } from './mrkdwn.js';
import type { CheckpointReading } from '../recovery/checkpoint.js';
import type { LogFinding } from '../recovery/log-advice.js';
import { checkpointNote, logFindingsSection } from './status-notes.js';
import { clusterCode, clusterField, clusterNote, nameCode, onCluster, qualifiedName } from './cluster.js';

/** The one answer for "no such workload" and "not yours to see": identical, so it reveals nothing. */
export function refusalMessage(name: string): SlackMessage {
  const text = `I can't show you a workload named ${forInlineCode(name, 100)}.`;
  return { text, blocks: [section(`${text} \`/runai list\` shows the workloads you own.`)] };
}

export const USAGE_LINES: ReadonlyArray<[string, string]> = [
  ['/runai list', 'my workloads, grouped by state, newest first'],
  ['/runai list [-p PROJECT] [--cluster C] [--state failed|pending|running]', 'every workload I may see (mine, my projects\', or all for admins) that matches'],
  ['/runai status NAME [-p PROJECT]', 'state, what it means, what to do next, pods and times'],
  ['/runai logs NAME [-p PROJECT] [--tail N]', `the last N log lines (default 50, at most 1000), secrets redacted`],
  ['/runai why NAME [-p PROJECT]', 'the first relevant error and advice, or why a Pending workload waits'],
  ['/runai maintenance', 'the next maintenance windows'],
  ['/runai mute NAME [-p PROJECT] [for 2h]', 'no more messages about this workload (for a while, or until unmuted)'],
  ['/runai mute project PROJECT [for 1d]', 'no more messages about a project'],
  ['/runai unmute NAME | project PROJECT', 'undo a mute'],
  ['/runai settings', 'what I tell you: `settings completed on|off`, `settings pending on|off`, `settings tips on|off`, `settings quiet 22:00-07:00 [TZ]`, `settings quiet off`'],
];

/** Shown only when the bot watches several clusters: how to name one. */
export function clusterUsageLines(clusters: readonly string[]): Array<[string, string]> {
  if (clusters.length < 2) return [];
  return [
    ['/runai status|logs|why CLUSTER/NAME', 'the workload in that cluster; also `CLUSTER/PROJECT/NAME` or `--cluster CLUSTER NAME`'],
    ['', `clusters: ${clusters.map(clusterCode).join(', ')}`],
  ];
}

export function usageMessage(problem?: string, clusters: readonly string[] = []): SlackMessage {
  const lines = [...USAGE_LINES, ...clusterUsageLines(clusters)].map(([usage, what]) => (usage ? `\`${usage}\` ${what}` : what)).join('\n');
  const blocks: Block[] = [];
  if (problem) blocks.push(section(`:warning: ${problem}.`));
  blocks.push(section(`*What I can do*\n${lines}`));
  blocks.push(context('Workload details and logs are shown to their owner, the members of their project and the bot admins.'));
  return { text: forMrkdwn(`${problem ? `${problem}. ` : ''}Usage: /runai list | status | logs | why | maintenance | mute | unmute | settings`), blocks };
}

export function ambiguousMessage(name: string, projects: string[]): SlackMessage {
  const list = projects.map((p) => forInlineCode(p, 60)).join(', ');
  const text = `Several projects have a workload named ${forInlineCode(name, 100)}: ${list}. Add \`-p PROJECT\` to say which.`;
  return { text, blocks: [section(text)] };
}

/**
 * A name that the asker may see in several clusters, for a command that acts on one (logs,
 * why, mute): the choices, each as it can be typed, and the question which.
 */
export function ambiguousClusterMessage(verb: string, name: string, choices: string[]): SlackMessage {
  const list = choices.map((c) => forInlineCode(c, 200)).join(', ');
  const text = `${forInlineCode(name, 100)} exists in several clusters: ${list}. Which one? For example ${forInlineCode(`/runai ${verb} ${choices[0] ?? name}`, 260)}.`;
  return { text, blocks: [section(text)] };
}

/** A cluster the config does not name: the ones it does, so the next try can succeed. */
export function unknownClusterMessage(cluster: string, clusters: readonly string[]): SlackMessage {
  const known = clusters.length > 1
    ? `The clusters I watch are ${clusters.map(clusterCode).join(', ')}.`
    : 'I watch one cluster only, so there is no need to name it.';
  const text = `I don't know a cluster named ${forInlineCode(cluster, 63)}. ${known}`;
  return { text, blocks: [section(`:warning: ${text}`)] };
}

/** Several status answers in one reply (one name in several clusters), divided, inside Slack's 50 blocks. */
export function statusesMessage(messages: SlackMessage[]): SlackMessage {
  const blocks: Block[] = [];
  for (const m of messages) {
    if (blocks.length + m.blocks.length + 1 > LIMITS.blocks) break;
    if (blocks.length) blocks.push({ type: 'divider' });
    blocks.push(...m.blocks);
  }
  return { text: truncate(messages.map((m) => m.text).join(' '), 3000), blocks };
}

export function failureMessage(what: string): SlackMessage {
  const text = `Sorry, I couldn't do that: ${forMrkdwn(truncate(what, 500))}. Please try again in a minute.`;
  return { text, blocks: [section(`:warning: ${text}`)] };
}

/** Order of the groups in `list` and on the Home tab: what needs attention first. */
export const STATE_ORDER: readonly LifecycleState[] = ['Failed', 'Stopped', 'Pending', 'Initializing', 'Running', 'Completed', 'Deleted'];

/** Newest first, by creation time. */
export function newestFirst(a: Workload, b: Workload): number {
  return (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.name.localeCompare(b.name);
}

export function workloadLine(w: Workload, now: Date): string {
  const age = w.createdAt ? `, created ${relative(new Date(w.createdAt), now)}` : '';
  return `${forInlineCode(w.name, 120)} in ${forMrkdwn(w.project)}${onCluster(w)} (${forMrkdwn(w.kind)}${w.degraded ? ', degraded' : ''}${age})`;
}

/** Workload lines grouped by state, each group one section within the limits. */
export function groupedWorkloadBlocks(workloads: Workload[], now: Date, perState: number): Block[] {
  const blocks: Block[] = [];
  for (const state of STATE_ORDER) {
    const inState = workloads.filter((w) => w.state === state).sort(newestFirst);
    if (!inState.length) continue;
    const shown = inState.slice(0, perState).map((w) => `• ${workloadLine(w, now)}`);
    if (inState.length > perState) shown.push(`… and ${inState.length - perState} more`);
    blocks.push(section(`${STATE_ICON[state]} *${state}* (${inState.length}): _${GUIDE[state].meaning}_\n${shown.join('\n')}`));
  }
  return blocks;
}

export function listMessage(workloads: Workload[], now: Date): SlackMessage {
  if (!workloads.length) {
    const text = 'You have no workloads on the cluster right now (none whose owner maps to your Slack account).';
    return { text, blocks: [section(text)] };
  }
  const text = `Your ${workloads.length} workload${workloads.length === 1 ? '' : 's'}, by state.`;
  return { text, blocks: [section(`*${text}*`), ...groupedWorkloadBlocks(workloads, now, 15), context('`/runai status NAME` for details, `/runai logs NAME` for logs.')] };
}

/** What a `/runai list` filter named (slack/parse-command.ts's ListFilter, by shape: messages import no adapter). */
export interface ListFilterView {
  project?: string;
  cluster?: string;
  state?: string;
}

/** "failed workloads in project `vision` on cluster *gpu-east*": the filter in words, escaped. */
export function filterWords(filter: ListFilterView, count = 2): string {
  const parts = [`${filter.state ? `${filter.state} ` : ''}workload${count === 1 ? '' : 's'}`];
  if (filter.project) parts.push(`in project ${forInlineCode(filter.project, 60)}`);
  if (filter.cluster) parts.push(`on cluster *${forMrkdwn(filter.cluster, 63)}*`);
  return parts.join(' ');
}

/** `/runai list` with a filter: what the asker may see of it, by state, or plainly none. */
export function filteredListMessage(workloads: Workload[], filter: ListFilterView, now: Date): SlackMessage {
  const what = filterWords(filter, workloads.length);
  if (!workloads.length) {
    const text = `There are no ${what} that you may see.`;
    return { text, blocks: [section(text)] };
  }
  const text = `${workloads.length} ${what} that you may see, by state.`;
  return {
    text,
    blocks: [
      section(`*${text}*`),
      ...groupedWorkloadBlocks(workloads, now, 15),
      context('You see your own workloads, those of your projects, and, as an admin, all. `/runai status NAME -p PROJECT` for details.'),
    ],
  };
}

function podLine(pod: PodInfo): string {
  const rank = rankLabel(pod);
  const containers = pod.containers.map((c) => {
    const state = c.terminated ? `terminated (${describeTermination(c.terminated) ?? 'no reason'})`
      : c.waiting ? `waiting (${c.waiting.reason ?? 'no reason'})`
      : c.running ? 'running' : 'unknown';
    const restarts = c.restartCount ? `, ${c.restartCount} restart${c.restartCount === 1 ? '' : 's'}` : '';
    return `${c.init ? 'init ' : ''}${c.name}: ${state}${restarts}`;
  });
  const head = [rank, pod.phase, pod.reason, pod.node ? `on ${pod.node}` : 'not scheduled'].filter(Boolean).join(', ');
  return `• ${forInlineCode(pod.name, 120)} ${forMrkdwn(head)}\n    ${forMrkdwn(containers.join('; ') || 'no containers reported')}`;
}

export interface StatusView {
  workload: Workload;
  now: Date;
  /** When the bot saw the workload enter its state. */
  stateSince?: string;
  uiUrl?: string;
  /** Why the pods could not be read, when they could not. */
  podProblem?: string;
  /** A Running workload's last checkpoint, as its log's tail names it. */
  checkpoint?: CheckpointReading;
  /** What its command gets wrong about keeping its log (recovery/log-advice.ts). */
  logFindings?: readonly LogFinding[];
}

export function statusMessage({ workload: w, now, stateSince, uiUrl, podProblem, checkpoint, logFindings = [] }: StatusView): SlackMessage {
  const guide = GUIDE[w.state];
  const blocks: Block[] = [
    header(`${qualifiedName(w)}: ${w.state}`),
    section(`${STATE_ICON[w.state]} *${w.state}*${w.degraded ? ' (degraded)' : ''}: ${guide.meaning}.\n*Next step* (cluster guide): ${guide.nextAction}`),
    fields([
      ['Workload', forInlineCode(`${w.namespace}/${w.name}`)],
      clusterField(w),
      ['Project', forMrkdwn(w.project)],
      ['Kind', forMrkdwn(w.kind)],
      ['Owner', w.owner ? forMrkdwn(w.owner) : undefined],
      ['Run:ai phase', w.phase ? forMrkdwn(w.phase) : undefined],
      ['Created', w.createdAt ? timeText(w.createdAt, now) : undefined],
      ['In this state since', stateSince ? timeText(stateSince, now) : undefined],
      ['Image', w.image ? forInlineCode(w.image, 300) : undefined],
      ['Command', w.command || w.arguments ? forInlineCode([w.command, w.arguments].filter(Boolean).join(' '), 600) : undefined],
    ]),
  ];
  if (w.phaseMessage) blocks.push(context(`Run:ai says: ${forMrkdwn(truncate(w.phaseMessage, 500))}`));
  const pods = w.pods.slice(0, 20).map(podLine);
  if (w.pods.length > 20) pods.push(`… and ${w.pods.length - 20} more pods`);
  blocks.push(section(pods.length ? `*Pods*\n${pods.join('\n')}` : `*Pods*: ${podProblem ? `could not be read (${forMrkdwn(podProblem)})` : 'none right now'}`));
  if (checkpoint) blocks.push(section(`:floppy_disk: *Checkpoint:* ${checkpointNote(checkpoint, now)}.`));
  const findings = logFindingsSection(logFindings);
  if (findings) blocks.push(section(findings));
  const link = runaiUiLink(uiUrl, w);
  if (link) blocks.push(context(`<${link}|Open in Run:ai>`));
  return { text: forMrkdwn(`${w.name} (project ${w.project}${clusterNote(w)}) is ${w.state}: ${guide.meaning}. Next: ${guide.nextAction}`), blocks };
}

/** Log text in a reply: ~11k characters at most (Slack's undocumented total cap is ~12k). */
export const LOG_BUDGET_CHARS = 10_000;
const SECTION_CODE_CHARS = LIMITS.sectionText - 10;

export interface LogsView {
  workload: Workload;
  pod: string;
  container: string;
  previous: boolean;
  /** The log as read: the view cleans, redacts and escapes it. */
  text: string;
  tail: number;
  /** The asked tail was above the maximum and was lowered to `tail`. */
  capped: boolean;
  /** The other containers one could ask for, e.g. other ranks. */
  note?: string;
}

/**
 * The last lines that fit, escaped, split over as many code sections as they need. Lines are
 * kept from the end (the end of a log matters most) and the cut is said in words.
 */
export function logSections(raw: string, budget = LOG_BUDGET_CHARS): { blocks: SectionBlock[]; shown: number; total: number } {
  // Whole text first: a private-key block spans lines and must collapse before lines are picked.
  // Only the tail that can fit is cleaned and redacted (each line takes at least 2 characters).
  const { lines, before } = safeTail(raw.replace(/\n$/, ''), Math.ceil(budget / 2) + 1);
  if (before === 0 && lines.length === 1 && lines[0] === '') return { blocks: [], shown: 0, total: 0 };
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const escaped = forCodeBlock(lines[i], SECTION_CODE_CHARS) || ' ';
    if (used + escaped.length + 1 > budget) break;
    kept.unshift(escaped);
    used += escaped.length + 1;
  }
  const chunks: string[][] = [[]];
  let size = 0;
  for (const line of kept) {
    if (size + line.length + 1 > SECTION_CODE_CHARS && chunks.at(-1)!.length) {
      chunks.push([]);
      size = 0;
    }
    chunks.at(-1)!.push(line);
    size += line.length + 1;
  }
  return { blocks: chunks.map((c) => section(`\`\`\`${c.join('\n')}\`\`\``)), shown: kept.length, total: before + lines.length };
}

export function noPodsMessage(w: Workload): SlackMessage {
  const text = `${nameCode(w)} has no pods right now, so there is no log to show.`;
  return { text, blocks: [section(text)] };
}

export function logsMessage(view: LogsView): SlackMessage {
  const { workload: w } = view;
  const where = `${view.pod}, container ${view.container}${view.previous ? ', previous run' : ''}`;
  const { blocks: code, shown, total } = logSections(view.text);
  const notes: string[] = [];
  if (view.capped) notes.push(`I show at most ${view.tail} lines.`);
  if (shown < total) notes.push(`${total - shown} earlier line${total - shown === 1 ? '' : 's'} of the ${total} read did not fit in a Slack message; the full log is in Run:ai or \`kubectl logs\`.`);
  if (view.note) notes.push(forMrkdwn(view.note));
  const blocks: Block[] = [
    section(`*Log of ${nameCode(w)}* (${forMrkdwn(where)}): last ${shown} line${shown === 1 ? '' : 's'}, secrets redacted.`),
    ...(code.length ? code : [section('_The log is empty._')]),
  ];
  if (notes.length) blocks.push(context(notes.join(' ')));
  return { text: forMrkdwn(`Log of ${qualifiedName(w)} (${where}): last ${shown} lines.`), blocks };
}

export interface WhyView {
  workload: Workload;
  triage?: TriageResult;
  /** Pod and container the error was found in. */
  where?: string;
  /** Scheduler events that explain a wait, newest last. */
  schedulerReasons: KubeEvent[];
  /** The same (and the PodGroup's conditions, the kubelet's reasons) in plain words. */
  plainReasons?: Array<{ plain: string }>;
  logProblem?: string;
  /** What its command gets wrong about keeping its log (recovery/log-advice.ts). */
  logFindings?: readonly LogFinding[];
}

export function whyMessage({ workload: w, triage, where, schedulerReasons, plainReasons = [], logProblem, logFindings = [] }: WhyView): SlackMessage {
  const blocks: Block[] = [section(`${STATE_ICON[w.state]} *${forMrkdwn(w.name)}*${onCluster(w)} is *${w.state}*: ${GUIDE[w.state].meaning}.`)];
  let summary: string;
  if (w.state === 'Pending' || w.state === 'Initializing') {
    const reasons = schedulerReasons.slice(-8).map((e) => `• *${forMrkdwn(e.reason ?? 'Event')}*${e.count && e.count > 1 ? ` (×${e.count})` : ''}: ${forMrkdwn(truncate(e.message ?? '', 400))}`);
    if (w.phaseMessage) reasons.unshift(`• Run:ai says: ${forMrkdwn(truncate(w.phaseMessage, 400))}`);
    if (plainReasons.length) blocks.push(section(`*In plain words:*\n${plainReasons.slice(0, 5).map((r) => `• ${r.plain}`).join('\n')}`));
    blocks.push(section(reasons.length ? `*Why it waits* (scheduler):\n${reasons.join('\n')}` : '*Why it waits*: the scheduler has not said yet (no scheduling events about it).'));
    summary = plainReasons[0]?.plain ?? (reasons.length ? `${schedulerReasons.at(-1)?.reason ?? 'Waiting'}: ${schedulerReasons.at(-1)?.message ?? w.phaseMessage ?? ''}` : 'no scheduler reasons yet');
  } else if (triage?.firstError) {
    const fe = triage.firstError;
    blocks.push(section(`*${errorLineTitle(fe)}*${where ? ` (${forMrkdwn(where)})` : ''}, log line ${fe.lineNumber}:\n\`\`\`${forCodeBlock(fe.line, 2500) || ' '}\`\`\``));
    summary = triage.recognised ? `${triage.categoryLabel}: ${truncate(fe.line, 300)}` : truncate(fe.line, 300);
  } else if (triage && triage.decidedBy !== 'none') {
    blocks.push(section(`*No error line in the log*${where ? ` (${forMrkdwn(where)})` : ''}; ${forMrkdwn(triage.summary)}.`));
    summary = triage.summary;
  } else {
    blocks.push(section(w.state === 'Failed' ? '*I found no error* in the log or the pod state.' : `Nothing has gone wrong: the workload is ${w.state}.`));
    summary = 'no error found';
  }
  if (triage && triage.decidedBy !== 'none' && w.state !== 'Pending') blocks.push(verdictSection(triage));
  if (logProblem) blocks.push(context(`Logs: ${forMrkdwn(logProblem)}`));
  const findings = logFindingsSection(logFindings);
  if (findings) blocks.push(section(findings));
  blocks.push(section(`*Next step* (cluster guide): ${GUIDE[w.state].nextAction}`));
  return { text: forMrkdwn(truncate(`${qualifiedName(w)} is ${w.state}: ${summary}`, 3000)), blocks };
}

export function maintenanceMessage(windows: MaintenanceWindow[] | undefined, now: Date): SlackMessage {
  if (!windows) {
    const text = 'No maintenance calendar configured, so I know of no planned maintenance.';
    return { text, blocks: [section(text)] };
  }
  const advice = context(`${MAINTENANCE_ADVICE.plan} ${MAINTENANCE_ADVICE.stoppingPoint}`);
  if (!windows.length) {
    const text = 'No maintenance windows are planned.';
    return { text, blocks: [section(text), advice] };
  }
  const lines = windows.slice(0, 10).map((w) => `• ${windowLine(w, now)}`);
  return {
    text: forMrkdwn(`Next maintenance: ${windows[0].summary} from ${windows[0].start.toISOString()} to ${windows[0].end.toISOString()}`),
    blocks: [section(`*Upcoming maintenance*\n${lines.join('\n')}`), advice, context(MAINTENANCE_ADVICE.persist)],
  };
}

export function windowLine(w: MaintenanceWindow, now: Date): string {
  const status = w.status === 'confirmed' ? '' : ` _(${w.status})_`;
  const when = `${slackDate(w.start, w.start.toISOString())} – ${slackDate(w.end, w.end.toISOString())}`;
  return `*${forMrkdwn(truncate(w.summary, 200))}*${status}: ${when} (${relative(w.start, now)})`;
}

export function confirmationMessage(text: string): SlackMessage {
  return { text, blocks: [section(`:white_check_mark: ${text}`)] };
}

export function settingsMessage(settings: UserSettings, mutes: { scope: string; until?: string }[], now: Date, changed?: string): SlackMessage {
  const quiet = settings.quietHours ? `${settings.quietHours.from}–${settings.quietHours.to} ${forMrkdwn(settings.quietHours.timezone)}` : 'off';
  const lines = [
    '• Failed and Stopped workloads: *always* (that is what I am for)',
    `• Completed workloads: *${settings.completed ? 'on' : 'off'}* (\`settings completed on|off\`)`,
    `• Pending and Initializing warnings: *${settings.pending ? 'on' : 'off'}* (\`settings pending on|off\`)`,
    `• Log-saving tips, at most one a week per kind: *${settings.tips ? 'on' : 'off'}* (\`settings tips on|off\`)`,
    `• Quiet hours: *${quiet}* (\`settings quiet 22:00-07:00 [TZ]\`, \`settings quiet off\`); messages wait until they end`,
  ];
  const blocks: Block[] = [];
  if (changed) blocks.push(section(`:white_check_mark: ${changed}`));
  blocks.push(section(`*What I tell you*\n${lines.join('\n')}`));
  blocks.push(section(`*Mutes*\n${mutesText(mutes, now)}`));
  return { text: `${changed ? `${changed} ` : ''}Completed: ${settings.completed ? 'on' : 'off'}, Pending: ${settings.pending ? 'on' : 'off'}, tips: ${settings.tips ? 'on' : 'off'}, quiet hours: ${quiet}.`, blocks };
}

export function mutesText(mutes: { scope: string; until?: string }[], now: Date): string {
  if (!mutes.length) return 'none';
  return mutes
    .slice(0, 20)
    .map((m) => `• ${forMrkdwn(m.scope.replace(/^workload:/, 'workload ').replace(/^project:/, 'project '))} ${m.until ? `until ${slackDate(new Date(m.until), m.until)} (${relative(new Date(m.until), now)})` : 'until unmuted'}`)
    .join('\n');
}

function timeText(iso: string, now: Date): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? forMrkdwn(iso) : `${slackDate(date, iso)} (${relative(date, now)})`;
}

/** "3 h ago", "in 2 d": coarse on purpose, the exact time is next to it. */
export function relative(date: Date, now: Date): string {
  const ms = date.getTime() - now.getTime();
  const abs = Math.abs(ms);
  const [n, unit] = abs < 90_000 ? [Math.round(abs / 1000), 's'] : abs < 90 * 60_000 ? [Math.round(abs / 60_000), 'min'] : abs < 36 * 3_600_000 ? [Math.round(abs / 3_600_000), 'h'] : [Math.round(abs / 86_400_000), 'd'];
  return ms < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}
