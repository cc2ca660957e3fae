/**
 * Block Kit for maintenance: channel announcements (advance, change, cancellation, start, "the
 * cluster is back"), the owner DM listing running workloads, and the operators' feed notices.
 * Pure. Text from the feed is untrusted: HTML is stripped and &, <, > escaped, so a calendar
 * entry cannot ping the channel or smuggle links. Advice is quoted from the guide.
 */
import { GUIDE, MAINTENANCE_ADVICE, SAFE_RECOVERY } from '../lifecycle/states.js';
import type { DueReminder, MaintenanceWindow, Workload } from '../model.js';
import { context, divider, header, section, type Block, type ContextBlock, type SlackMessage } from './blocks.js';
import { forMrkdwn, forInlineCode, slackDate, truncate } from './mrkdwn.js';
import { onCluster, qualifiedName } from './cluster.js';
import type { CheckpointReading } from '../recovery/checkpoint.js';
import { checkpointNote } from './status-notes.js';

export type { SlackMessage };

export interface MessageContext {
  /** The site's IANA zone, shown next to Slack's per-reader local time. */
  timezone: string;
  now: Date;
}

/** Slack's limits (block-kit reference): 50 blocks; sections and headers are cut in blocks.ts. */
const MAX_BLOCKS = 50;
const MAX_HEADER = 150;
const MAX_DESCRIPTION = 1500;
const WORKLOADS_PER_SECTION = 25;

const ADVICE = [MAINTENANCE_ADVICE.plan, MAINTENANCE_ADVICE.stoppingPoint, MAINTENANCE_ADVICE.persist];
const OWNER_ADVICE = [GUIDE.Running.nextAction, MAINTENANCE_ADVICE.stoppingPoint, MAINTENANCE_ADVICE.persist];

/** Feed text as plain, escaped mrkdwn: tags dropped, entities decoded, then escaped. */
export function feedText(text: string, max: number): string {
  const stripped = text
    .replace(/<\s*(br|\/p|\/div|\/li)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return forMrkdwn(truncate(stripped, max));
}

function siteFormat(timezone: string, withTime: boolean): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short', day: 'numeric', month: 'short', year: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' } : {}),
  });
}

/** An all-day window's DTEND is exclusive: the last day shown is the one before. */
function lastMoment(w: MaintenanceWindow): Date {
  return w.allDay && w.end > w.start ? new Date(w.end.getTime() - 1) : w.end;
}

/** "Tue 7 Jul 2026, 09:00 CEST – Tue 7 Jul 2026, 17:00 CEST" in the site zone. */
export function siteTimeRange(w: MaintenanceWindow, timezone: string): string {
  const format = siteFormat(timezone, !w.allDay);
  const from = format.format(w.start);
  const to = format.format(lastMoment(w));
  if (w.allDay) return from === to ? `${from} (all day)` : `${from} – ${to} (all days)`;
  return `${from} – ${to}`;
}

/** Start and end in Slack date formatting, so that each reader sees their own local time. */
export function readerTimeRange(w: MaintenanceWindow, timezone: string): string {
  const format = siteFormat(timezone, !w.allDay);
  const pattern = w.allDay ? '{date_short_pretty}' : '{date_short_pretty} {time}';
  return `${slackDate(w.start, format.format(w.start), pattern)} – ${slackDate(lastMoment(w), format.format(lastMoment(w)), pattern)}`;
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** "8 hours", "1 day 4 hours", "45 minutes". */
export function humanDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [days && plural(days, 'day'), hours && plural(hours, 'hour'), rest && !days && plural(rest, 'minute')];
  return parts.filter(Boolean).join(' ') || 'no time';
}

/** "in 7 days", "in 5 hours", "in 40 minutes", from the exact time left. */
function timeUntil(start: Date, now: Date): string {
  const ms = start.getTime() - now.getTime();
  if (ms >= 2 * 86_400_000) return `in ${plural(Math.round(ms / 86_400_000), 'day')}`;
  if (ms >= 2 * 3_600_000) return `in ${plural(Math.round(ms / 3_600_000), 'hour')}`;
  return `in ${plural(Math.max(1, Math.round(ms / 60_000)), 'minute')}`;
}

function detailLines(w: MaintenanceWindow, ctx: MessageContext): string {
  const lines = [
    `*When:* ${readerTimeRange(w, ctx.timezone)}`,
    `*Site time (${forMrkdwn(ctx.timezone)}):* ${forMrkdwn(siteTimeRange(w, ctx.timezone))}`,
    `*How long:* ${humanDuration(w.end.getTime() - w.start.getTime())}`,
  ];
  if (w.status === 'tentative') lines.push('*Status:* tentative, the date may still change');
  if (w.location) lines.push(`*Where:* ${feedText(w.location, 300)}`);
  return lines.join('\n');
}

function affected(w: MaintenanceWindow): Block[] {
  return w.description ? [section(`*What is affected:*\n${feedText(w.description, MAX_DESCRIPTION)}`)] : [];
}

function adviceBlock(lines: readonly string[]): ContextBlock {
  return context(lines.map((l) => `• ${l}`).join('\n'));
}

const HEADLINE: Readonly<Record<Exclude<DueReminder['kind'], 'owners'>, (w: MaintenanceWindow, ctx: MessageContext) => string>> = {
  advance: (w, ctx) => `🔧 Planned maintenance ${timeUntil(w.start, ctx.now)}: ${w.summary}`,
  changed: (w) => `🔁 Maintenance changed: ${w.summary}`,
  cancelled: (w) => `✅ Maintenance cancelled: ${w.summary}`,
  start: (w) => `🚧 Maintenance has started: ${w.summary}`,
  end: (w) => `🟢 Maintenance is over, the cluster is back: ${w.summary}`,
};

function previously(r: DueReminder, ctx: MessageContext): string {
  if (!r.previous) return '';
  const before: MaintenanceWindow = { ...r.window, start: new Date(r.previous.start), end: new Date(r.previous.end) };
  return `*Previously:* ${readerTimeRange(before, ctx.timezone)}`;
}

/** The channel message for a due reminder (every kind but 'owners'). */
export function buildWindowMessage(r: DueReminder, ctx: MessageContext): SlackMessage {
  if (r.kind === 'owners') throw new Error('owner notices are built per owner with buildOwnerNotice');
  const w = r.window;
  const title = HEADLINE[r.kind](w, ctx);
  const blocks: Block[] = [header(title)];
  if (r.kind === 'cancelled') {
    blocks.push(section(`${previously(r, ctx) || `*Was planned for:* ${readerTimeRange(w, ctx.timezone)}`}\nNo maintenance will take place in this window.`));
  } else if (r.kind === 'end') {
    blocks.push(section(`Ended ${slackDate(w.end, siteFormat(ctx.timezone, true).format(w.end))}.`));
    blocks.push(adviceBlock([SAFE_RECOVERY.retryTransient]));
  } else {
    const changedFrom = r.kind === 'changed' ? `\n${previously(r, ctx)}` : '';
    blocks.push(section(`${detailLines(w, ctx)}${changedFrom}`), ...affected(w), divider, adviceBlock(ADVICE));
  }
  const when = forMrkdwn(siteTimeRange(w, ctx.timezone));
  return { text: forMrkdwn(truncate(title, MAX_HEADER)) + ` (${when}, ${forMrkdwn(ctx.timezone)})`, blocks };
}

function workloadLine(w: Workload): string {
  return `• ${forInlineCode(w.name, 120)} in ${forMrkdwn(w.project)}${onCluster(w)} (${forMrkdwn(w.kind)})`;
}

/** A section's text stays under Slack's 3,000 characters with room for the escaping's growth. */
const SECTION_BUDGET = 2800;

/**
 * One DM for one owner, listing all their running workloads; `checkpoints[i]`, when given, is
 * what the log of `workloads[i]` says of its last checkpoint (notify/checkpoints.ts).
 */
export function buildOwnerNotice(window: MaintenanceWindow, workloads: Workload[], ctx: MessageContext, checkpoints: ReadonlyArray<CheckpointReading | undefined> = []): SlackMessage {
  const title = `⚠️ Maintenance ${timeUntil(window.start, ctx.now)}: your running workloads`;
  const intro = `${plural(workloads.length, 'workload')} of yours ${workloads.length === 1 ? 'is' : 'are'} running and will be affected by *${forMrkdwn(window.summary)}*.`;
  const blocks: Block[] = [header(title), section(`${intro}\n${detailLines(window, ctx)}`)];
  // Room left for list sections: the header, the intro, a divider, the advice, maybe a "more" line.
  const listRoom = MAX_BLOCKS - blocks.length - 3;
  let shown = 0;
  let lines: string[] = [];
  let size = 0;
  const room = () => blocks.length < 2 + listRoom;
  for (let i = 0; i < workloads.length && room(); i++) {
    const reading = checkpoints[i];
    const line = `${workloadLine(workloads[i])}${reading ? `\n      ${truncate(checkpointNote(reading, ctx.now), 400)}` : ''}`;
    if (lines.length && (lines.length === WORKLOADS_PER_SECTION || size + line.length + 1 > SECTION_BUDGET)) {
      blocks.push(section(lines.join('\n')));
      lines = [];
      size = 0;
      if (!room()) break;
    }
    lines.push(line);
    size += line.length + 1;
    shown = i + 1;
  }
  if (lines.length && room()) blocks.push(section(lines.join('\n')));
  else if (lines.length) shown -= lines.length;
  if (shown < workloads.length) blocks.push(context(`…and ${workloads.length - shown} more.`));
  blocks.push(divider, adviceBlock(OWNER_ADVICE));
  const text = `${forMrkdwn(title)}: ${workloads.slice(0, 5).map((w) => forMrkdwn(qualifiedName(w))).join(', ')}${workloads.length > 5 ? ', …' : ''}`;
  return { text, blocks };
}

/**
 * The feed named without its path or query: calendar addresses often carry a secret token
 * (Google's "secret address in iCal format"), and the notice goes to a channel.
 */
export function feedLabel(feed: string): string {
  try {
    const url = new URL(feed);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.protocol}//${url.host}/…`;
  } catch {
    // a plain file path
  }
  return feed;
}

/** Operators' notice: the feed broke; the last good copy is in use. */
export function buildFeedFailureNotice(feed: string, error: string, since: Date, lastGood: string | undefined, ctx: MessageContext): SlackMessage {
  const time = siteFormat(ctx.timezone, true);
  const kept = lastGood
    ? `Reminders continue from the last good copy, fetched ${slackDate(new Date(lastGood), time.format(new Date(lastGood)))}.`
    : 'No good copy has been fetched yet, so no reminders can be sent.';
  const text = `The maintenance calendar feed is failing: ${forMrkdwn(truncate(error, 500))}`;
  return {
    text,
    blocks: [
      section(`:warning: ${text}\n*Feed:* ${forInlineCode(feedLabel(feed), 300)}\n*Failing since:* ${slackDate(since, time.format(since))}\n${kept}`),
      context('This is said once; the next notice comes when the feed works again.'),
    ],
  };
}

export function buildFeedRecoveredNotice(feed: string, ctx: MessageContext): SlackMessage {
  const text = 'The maintenance calendar feed works again.';
  return { text, blocks: [section(`:white_check_mark: ${text}\n*Feed:* ${forInlineCode(feedLabel(feed), 300)}\n*Checked:* ${slackDate(ctx.now, siteFormat(ctx.timezone, true).format(ctx.now))}`)] };
}
