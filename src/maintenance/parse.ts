/**
 * iCalendar text → the maintenance windows in a date range. Pure: the clock, the site's time
 * zone and the range come in as options. A feed that is not a calendar at all throws FeedError;
 * one unreadable event is reported in `problems` and the others survive.
 */
import ICAL from 'ical.js';
import { windowsOfSeries } from './expand.js';
import { FeedError, normalizeFeedText, parseRoots, salvageRoots } from './feed-text.js';
import { groupIntoSeries } from './series.js';
import { IntlTimezone, resolveTimeZoneName } from './timezones.js';
import type { MaintenanceWindow } from './window.js';

export { FeedError } from './feed-text.js';
export type { MaintenanceWindow, WindowStatus } from './window.js';

type Component = InstanceType<typeof ICAL.Component>;
type Timezone = InstanceType<typeof ICAL.Timezone>;
type Time = InstanceType<typeof ICAL.Time>;

// Real feeds carry DATE-TIME slots holding a bare date ("DTSTART:20240215") and VALUE=DATE with a
// time; strict mode throws on the first and silently drops the time of the second (reference §4).
// The switch is global to ical.js, and this module is its only user.
ICAL.design.strict = false;

export interface FeedMatch {
  /** Case-insensitive substring of SUMMARY. */
  summary?: string;
  /** Any of these CATEGORIES (case-insensitive). */
  categories?: string[];
}

export interface ParseOptions {
  /** IANA zone for floating times and all-day dates. */
  timezone: string;
  from: Date;
  to: Date;
  /** When set, only events matching the summary or one of the categories count. */
  match?: FeedMatch;
  /** Recurrence steps per series before giving up (default 20,000). */
  maxIterations?: number;
}

export interface ParseResult {
  windows: MaintenanceWindow[];
  problems: string[];
}

// ical.js 2.2.1 needs about 0.1–0.2 ms per recurrence step (it clones several Time objects per step), so
// 20,000 steps (a daily series begun 50 years ago) cost a few seconds at worst.
const DEFAULT_MAX_ITERATIONS = 20_000;
const TIME_PROPERTIES = ['dtstart', 'dtend', 'due', 'rdate', 'exdate', 'recurrence-id'];

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function eventsOf(root: Component): Component[] {
  return root.name === 'vevent' ? [root] : root.getAllSubcomponents('vevent');
}

/** A VTIMEZONE in the file with real rules (an empty one would read every time as UTC). */
function hasUsableZone(root: Component, tzid: string): boolean {
  return root
    .getAllSubcomponents('vtimezone')
    .some(
      (zone) =>
        zone.getFirstPropertyValue('tzid') === tzid &&
        (zone.getAllSubcomponents('standard').length > 0 || zone.getAllSubcomponents('daylight').length > 0),
    );
}

/**
 * ical.js works out a VTIMEZONE's offset afresh on every call, deep-copying its transitions
 * (tens of µs), and recurrence expansion asks for it several times per instance. The offset
 * depends only on the wall-clock fields, so it is kept per zone for the feed being read.
 */
function memoizeOffsets(zone: Timezone): void {
  const computeOffset = zone.utcOffset.bind(zone);
  const offsets = new Map<string, number>();
  zone.utcOffset = (tt: Time) => {
    const key = `${tt.year}-${tt.month}-${tt.day}T${tt.hour}:${tt.minute}:${tt.second}`;
    let seconds = offsets.get(key);
    if (seconds === undefined) offsets.set(key, (seconds = computeOffset(tt)));
    return seconds;
  };
}

/**
 * Makes every TZID the events use resolvable. ical.js looks a TZID up in the calendar's own
 * VTIMEZONEs, lazily, through the root's cache; missing ones are put there, so nothing global
 * changes. Unknown names stay floating, which the site zone then applies to.
 */
function provideZones(root: Component, events: Component[], siteZone: string, problems: string[]): void {
  const internals = root as unknown as { _timezoneCache: Map<string, unknown> | null };
  internals._timezoneCache ??= new Map();
  const tzids = new Set<string>();
  for (const event of events) {
    for (const name of TIME_PROPERTIES) {
      for (const property of event.getAllProperties(name)) {
        const tzid = property.getParameter('tzid');
        if (typeof tzid === 'string') tzids.add(tzid);
      }
    }
  }
  for (const tzid of tzids) {
    if (hasUsableZone(root, tzid)) {
      const zone = root.getTimeZoneByID(tzid);
      if (zone) memoizeOffsets(zone);
      continue;
    }
    const resolved = resolveTimeZoneName(tzid);
    if (resolved) {
      internals._timezoneCache.set(tzid, new IntlTimezone(tzid, resolved.iana));
      if (resolved.how === 'fixed-offset') {
        problems.push(`time zone "${tzid}" is read as the fixed offset ${resolved.iana}, without daylight saving`);
      }
    } else {
      problems.push(`unknown time zone "${tzid}": its times are read in ${siteZone}`);
    }
  }
}

function matches(window: MaintenanceWindow, categories: string[], match: FeedMatch | undefined): boolean {
  if (!match || (!match.summary && !match.categories?.length)) return true;
  if (match.summary && window.summary.toLowerCase().includes(match.summary.toLowerCase())) return true;
  const wanted = new Set((match.categories ?? []).map((c) => c.toLowerCase()));
  return categories.some((c) => wanted.has(c.toLowerCase()));
}

function categoriesOf(component: Component): string[] {
  return component
    .getAllProperties('categories')
    .flatMap((p) => p.getValues())
    .map((v) => String(v).trim())
    .filter(Boolean);
}

function readRoots(text: string, problems: string[]): Component[] {
  try {
    return parseRoots(text);
  } catch (err) {
    problems.push(`the feed has a malformed line (${errorText(err)}); its events were read one by one`);
    const roots = salvageRoots(text, problems);
    if (roots.length === 0 && /^BEGIN:VEVENT/im.test(text)) {
      throw new FeedError(`no event in the feed could be read: ${problems.slice(1).join('; ')}`, { cause: err });
    }
    return roots;
  }
}

export function parseFeed(text: string, opts: ParseOptions): ParseResult {
  const problems: string[] = [];
  const roots = readRoots(normalizeFeedText(text), problems);
  const calendars = roots.filter((r) => r.name === 'vcalendar' || r.name === 'vevent');
  if (roots.length > 0 && calendars.length === 0) {
    throw new FeedError(`not an iCalendar feed: it holds ${roots.map((r) => r.name.toUpperCase()).join(', ')}`);
  }

  const ctx = {
    siteZone: opts.timezone,
    fromMs: opts.from.getTime(),
    toMs: opts.to.getTime(),
    maxIterations: opts.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    problems,
  };
  const windows: MaintenanceWindow[] = [];
  for (const root of calendars) {
    const events = eventsOf(root);
    provideZones(root, events, opts.timezone, problems);
    for (const series of groupIntoSeries(events, problems)) {
      try {
        const found = windowsOfSeries(series, ctx);
        // Read only for series with windows in the range: most of a long feed's have none.
        const categories = found.length ? categoriesOf(series.master ?? series.overrides[0]) : [];
        windows.push(...found.filter((w) => matches(w, categories, opts.match)));
      } catch (err) {
        problems.push(`skipped event UID ${series.uid}: ${errorText(err)}`);
      }
    }
  }
  windows.sort((a, b) => a.start.getTime() - b.start.getTime() || a.key.localeCompare(b.key));
  return { windows, problems };
}
