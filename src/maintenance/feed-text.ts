/**
 * The raw text of a feed before ical.js sees it: what makes the whole file unreadable (a
 * FeedError), what ical.js chokes on but is harmless (BOM, junk after END:VCALENDAR), and the
 * per-event salvage used when one broken line would otherwise lose every event
 * (ical-reference §4).
 */
import ICAL from 'ical.js';

type Component = InstanceType<typeof ICAL.Component>;

/** The feed as a whole is not a usable calendar; the message says what is wrong. */
export class FeedError extends Error {
  readonly code = 'maintenance_feed_invalid';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FeedError';
  }
}

const BEGIN_CALENDAR = /^[ \t]*BEGIN:VCALENDAR[ \t]*\r?$/im;
const END_CALENDAR = /^[ \t]*END:VCALENDAR[ \t]*\r?$/gim;
const BEGIN_EVENT = /^[ \t]*BEGIN:VEVENT[ \t]*\r?$/im;
const END_EVENT = /^[ \t]*END:VEVENT[ \t]*\r?$/gim;

/**
 * What the text looks like, without quoting it: a feed that is not a calendar may be anything
 * (a login page, a secret file), and this message is posted to the operators' channel.
 */
function describeStart(text: string): string {
  const head = text.trimStart().slice(0, 512);
  if (!head) return 'the feed is empty';
  if (head.startsWith('<')) return 'it looks like HTML or XML (a login or error page?)';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0e-\x1f\ufffd]/.test(head)) return 'it looks like binary data';
  return 'it starts with text that is not iCalendar';
}

/** End index of the last match of a global line pattern, or -1. */
function endOfLastMatch(text: string, pattern: RegExp): number {
  let end = -1;
  for (const m of text.matchAll(pattern)) end = m.index + m[0].length;
  return end;
}

/**
 * Text ical.js can parse: BOM removed, anything before the first BEGIN and after the last
 * END:VCALENDAR (or END:VEVENT for a bare event) cut off. Throws FeedError when there is no
 * calendar at all or it was cut short (a truncated download).
 */
export function normalizeFeedText(raw: string): string {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n|\r|\n/g, '\r\n');
  const calendarAt = text.search(BEGIN_CALENDAR);
  if (calendarAt >= 0) {
    const end = endOfLastMatch(text, END_CALENDAR);
    if (end < calendarAt) {
      throw new FeedError('the feed is truncated: BEGIN:VCALENDAR has no matching END:VCALENDAR');
    }
    return text.slice(calendarAt, end).trimStart() + '\r\n';
  }
  const eventAt = text.search(BEGIN_EVENT);
  if (eventAt >= 0) {
    const end = endOfLastMatch(text, END_EVENT);
    if (end < eventAt) throw new FeedError('the feed is truncated: BEGIN:VEVENT has no matching END:VEVENT');
    return text.slice(eventAt, end).trimStart() + '\r\n';
  }
  throw new FeedError(`not an iCalendar feed: no BEGIN:VCALENDAR line, and ${describeStart(text)}`);
}

/** Root components of normalised text; throws what ical.js throws. */
export function parseRoots(text: string): Component[] {
  const jcal = ICAL.parse(text) as unknown[];
  const roots = (Array.isArray(jcal[0]) ? jcal : [jcal]) as unknown[][];
  return roots.map((root) => new ICAL.Component(root as never));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

interface Block {
  name: string;
  lines: string[];
}

/** Top-level blocks (VEVENT, VTIMEZONE, …) of an unfolded calendar, and its own properties. */
function splitBlocks(unfolded: string[]): { header: string[]; blocks: Block[] } {
  const header: string[] = [];
  const blocks: Block[] = [];
  let current: Block | undefined;
  let depth = 0;
  for (const line of unfolded) {
    const begin = /^BEGIN:(\S+)/i.exec(line);
    const end = /^END:(\S+)/i.exec(line);
    if (begin && begin[1].toUpperCase() === 'VCALENDAR') continue;
    if (end && end[1].toUpperCase() === 'VCALENDAR') continue;
    if (depth === 0 && !begin) {
      if (line.trim()) header.push(line);
      continue;
    }
    if (begin) {
      if (depth === 0) current = { name: begin[1].toUpperCase(), lines: [] };
      depth++;
    }
    current!.lines.push(line);
    if (end) {
      depth--;
      if (depth === 0) blocks.push(current!);
    }
  }
  return { header, blocks };
}

function uidOf(block: Block): string | undefined {
  const line = block.lines.find((l) => /^UID[;:]/i.test(l));
  return line?.slice(line.indexOf(':') + 1).trim();
}

/**
 * When ical.js rejects the whole file, parse each UID's events on their own (with the calendar's
 * header and its readable time zones) so that one malformed line loses only its own event.
 */
export function salvageRoots(text: string, problems: string[]): Component[] {
  const unfolded = text.replace(/\r\n[ \t]/g, '').split('\r\n');
  const { header, blocks } = splitBlocks(unfolded);
  const wrap = (body: string[]) =>
    ['BEGIN:VCALENDAR', ...header, ...body, 'END:VCALENDAR', ''].join('\r\n');

  const zones: string[] = [];
  for (const block of blocks.filter((b) => b.name === 'VTIMEZONE')) {
    try {
      parseRoots(wrap(block.lines));
      zones.push(...block.lines);
    } catch (err) {
      problems.push(`skipped an unreadable VTIMEZONE: ${errorText(err)}`);
    }
  }

  const groups = new Map<string, string[]>();
  blocks
    .filter((b) => b.name === 'VEVENT')
    .forEach((block, index) => {
      const key = uidOf(block) ?? `#${index}`;
      groups.set(key, [...(groups.get(key) ?? []), ...block.lines]);
    });

  const roots: Component[] = [];
  for (const [key, lines] of groups) {
    try {
      roots.push(...parseRoots(wrap([...zones, ...lines])));
    } catch (err) {
      const who = key.startsWith('#') ? `event number ${Number(key.slice(1)) + 1}` : `event UID ${key}`;
      problems.push(`skipped ${who}: ${errorText(err)}`);
    }
  }
  return roots;
}
