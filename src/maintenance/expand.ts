/**
 * A series → its occurrences inside [from, to), with the ical.js 2.2.1 recurrence quirks
 * worked around (ical-reference §2.3–2.5): iterate from DTSTART (iterator(start) re-anchors the
 * rule), count DTSTART as an instance, map RDATE periods to their start, drop RDATEs that repeat
 * an RRULE instance, read the cancelled status of an override, bound the work.
 */
import ICAL from 'ical.js';
import type { Series } from './series.js';
import { countedOutBefore, hopMonthlyScans, reportFallback, skipAhead, skipAheadStatus } from './skip-ahead.js';
import { addDuration, defaultSpan, ownSpan, type Span } from './span.js';
import { wallTimeToEpochMs } from './timezones.js';
import { windowKey, type MaintenanceWindow, type WindowStatus } from './window.js';

type Event = InstanceType<typeof ICAL.Event>;
type Time = InstanceType<typeof ICAL.Time>;
type Period = InstanceType<typeof ICAL.Period>;
type Component = InstanceType<typeof ICAL.Component>;
type Expansion = InstanceType<typeof ICAL.RecurExpansion>;
type Recur = InstanceType<typeof ICAL.Recur>;

export interface ExpandContext {
  /** Zone for floating and all-day values: the site's, not the server's. */
  siteZone: string;
  fromMs: number;
  toMs: number;
  /** Hard cap on recurrence steps per series: an unbounded rule must not hang the bot. */
  maxIterations: number;
  problems: string[];
}

const STATUS: Readonly<Record<string, WindowStatus>> = {
  CANCELLED: 'cancelled',
  TENTATIVE: 'tentative',
  CONFIRMED: 'confirmed',
};

function statusOf(component: Component): WindowStatus {
  const raw = component.getFirstPropertyValue('status');
  return STATUS[String(raw ?? '').trim().toUpperCase()] ?? 'confirmed';
}

/** The instant of an ical.js time; floating and DATE values are read in the site zone. */
export function instantMs(time: Time, siteZone: string): number {
  if (time.isDate || time.zone === ICAL.Timezone.localTimezone) {
    const wall = time.isDate
      ? { year: time.year, month: time.month, day: time.day, hour: 0, minute: 0, second: 0 }
      : time;
    return wallTimeToEpochMs(wall, siteZone);
  }
  return time.toUnixTime() * 1000;
}

/** Text as posted: ical.js unescapes \, \; \n but keeps an invalid \" literally. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/\\(["'])/g, '$1').trim();
  return cleaned || undefined;
}

function toWindow(
  uid: string,
  slotMs: number | 'single',
  source: Event,
  start: Time,
  endMs: number,
  status: WindowStatus,
  ctx: ExpandContext,
): MaintenanceWindow {
  const startMs = instantMs(start, ctx.siteZone);
  const occurrenceStart = new Date(slotMs === 'single' ? startMs : slotMs).toISOString();
  return {
    uid,
    occurrenceStart,
    // A single event is one window whatever its time, so that moving it is a change.
    key: slotMs === 'single' ? uid : windowKey(uid, occurrenceStart),
    summary: text(source.summary) ?? '(untitled maintenance)',
    description: text(source.description),
    location: text(source.location),
    start: new Date(startMs),
    // A DTEND before its DTSTART occurs in the wild (ical-reference §2.5): clamp to zero length.
    end: new Date(Math.max(startMs, endMs)),
    allDay: start.isDate,
    status,
    sequence: Number(source.sequence ?? 0) || 0,
  };
}

/** Whether an occurrence overlaps [from, to); one of zero length counts when it starts inside. */
function overlaps(startMs: number, endMs: number, ctx: ExpandContext): boolean {
  return startMs < ctx.toMs && (endMs > ctx.fromMs || startMs >= ctx.fromMs);
}

function isExcluded(master: Component, time: Time, siteZone: string): boolean {
  for (const property of master.getAllProperties('exdate')) {
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Time)) continue;
      const same = value.isDate
        ? value.year === time.year && value.month === time.month && value.day === time.day
        : instantMs(value, siteZone) === instantMs(time, siteZone);
      if (same) return true;
    }
  }
  return false;
}

/**
 * EXDATEs labelled with another TZID than DTSTART's, by wall-clock time. Outlook writes DTSTART
 * with a Windows display name and EXDATE with an IANA name for the same local time
 * (windows-quoted-tz-rrule.ics); once both zones resolve, the instants no longer match, but the
 * producer meant those days.
 */
function exdatesByWallClock(master: Component): Set<string> {
  const startZone = master.getFirstProperty('dtstart')?.getParameter('tzid');
  const walls = new Set<string>();
  for (const property of master.getAllProperties('exdate')) {
    const zone = property.getParameter('tzid');
    if (!zone || zone === startZone) continue;
    for (const value of property.getValues()) if (value instanceof ICAL.Time) walls.add(value.toString());
  }
  return walls;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function spanOf(event: Event, ctx: ExpandContext, inherited?: Span): Span {
  const instantOf = (time: Time) => instantMs(time, ctx.siteZone);
  return ownSpan(event, instantOf) ?? inherited ?? defaultSpan(instantOf);
}

function singleEvent(uid: string, component: Component, ctx: ExpandContext): MaintenanceWindow[] {
  const event = new ICAL.Event(component, { exceptions: [] });
  if (!event.startDate) throw new Error('it has no DTSTART');
  const endMs = spanOf(event, ctx)(event.startDate);
  // Most events of a long-lived feed are outside the range: decide before building the window.
  if (!overlaps(instantMs(event.startDate, ctx.siteZone), endMs, ctx)) return [];
  const slot = event.recurrenceId ? instantMs(event.recurrenceId, ctx.siteZone) : 'single';
  return [toWindow(uid, slot, event, event.startDate, endMs, statusOf(component), ctx)];
}

/**
 * How far back the iteration of a series must begin for the range: early enough for an
 * occurrence that starts before the range and lasts into it (also when a RANGE=THISANDFUTURE
 * override shifts it later), and before the slot of any override whose own time falls in it.
 */
function earliestNeededSlotMs(event: Event, masterSpan: Span, spanOfOverride: (o: Event) => Span, ctx: ExpandContext): number {
  const instantOf = (time: Time) => instantMs(time, ctx.siteZone);
  let lookback = Math.max(0, masterSpan(event.startDate) - instantOf(event.startDate));
  let earliest = Infinity;
  for (const override of Object.values(event.exceptions)) {
    if (!override.startDate) return -Infinity;
    const startMs = instantOf(override.startDate);
    const endMs = spanOfOverride(override)(override.startDate);
    const slotMs = instantOf(override.recurrenceId);
    if (override.modifiesFuture()) lookback = Math.max(lookback, startMs - slotMs + Math.max(0, endMs - startMs));
    if (endMs > ctx.fromMs || startMs >= ctx.fromMs) earliest = Math.min(earliest, slotMs);
  }
  return Math.min(earliest, ctx.fromMs - lookback);
}

/**
 * The series' instances from just before `neededFromMs` on; none when each rule is a COUNT rule
 * used up by then and no RDATE adds instances, as for most short series of a long-lived feed.
 * The skip-ahead helpers set ical.js's private state: when the probe found that state changed,
 * or they throw on this series, the series is stepped plainly from DTSTART (slower, same
 * instances) rather than losing its windows.
 */
export function expansionFrom(event: Event, neededFromMs: number, ctx: Pick<ExpandContext, 'maxIterations'>): Expansion | undefined {
  const master = event.component;
  const rules = master.getAllProperties('rrule').map((property) => property.getFirstValue());
  if (!skipAheadStatus().available) return event.iterator();
  const undo: Array<() => void> = [];
  try {
    const counted = rules.filter(
      (rule): rule is Recur => rule instanceof ICAL.Recur && countedOutBefore(rule, event.startDate, neededFromMs),
    );
    // Rules longer than the cap together are stepped, so that the cap is reported as before.
    const steps = counted.reduce((sum, rule) => sum + (rule.count ?? 0), 0);
    if (!master.hasProperty('rdate') && counted.length === rules.length && steps <= ctx.maxIterations) return undefined;
    for (const rule of rules) if (rule instanceof ICAL.Recur) undo.push(hopMonthlyScans(rule));
    const expansion = event.iterator();
    skipAhead(expansion, neededFromMs);
    return expansion;
  } catch (err) {
    for (const restore of undo) restore();
    // A fresh expansion: the one that failed may have been moved halfway. When ical.js fails
    // here too the fault is the event's, not the helpers', and it is reported as before.
    const plain = event.iterator();
    reportFallback('failed', `UID ${String(master.getFirstPropertyValue('uid') ?? '(none)')}: ${errorText(err)}`);
    return plain;
  }
}

function recurringEvent(series: Series & { master: Component }, ctx: ExpandContext): MaintenanceWindow[] {
  const { uid, master } = series;
  const event = new ICAL.Event(master, { exceptions: series.overrides });
  const masterStatus = statusOf(master);
  const seriesCancelled = masterStatus === 'cancelled';
  const masterSpan = spanOf(event, ctx);
  const overrideSpans = new Map<Event, Span>();
  const spanOfOverride = (override: Event) => {
    let span = overrideSpans.get(override);
    if (!span) overrideSpans.set(override, (span = spanOf(override, ctx, masterSpan)));
    return span;
  };
  const instantOf = (time: Time) => instantMs(time, ctx.siteZone);
  const seen = new Set<number>();
  const excludedWalls = exdatesByWallClock(master);
  const windows: MaintenanceWindow[] = [];

  // The lookup of getOccurrenceDetails: a direct override by local or UTC id, else a
  // RANGE=THISANDFUTURE one at or before the slot.
  const hasOverrides = Object.keys(event.exceptions).length > 0;
  const overridden = (slot: Time) =>
    hasOverrides &&
    (slot.toString() in event.exceptions ||
      slot.convertToZone(ICAL.Timezone.utcTimezone).toString() in event.exceptions ||
      event.findRangeException(slot) !== null);

  const consider = (slot: Time, period?: Period) => {
    const slotMs = instantMs(slot, ctx.siteZone);
    if (seen.has(slotMs)) return; // an RDATE equal to an RRULE instance is yielded twice
    seen.add(slotMs);
    if (excludedWalls.has(slot.toString())) return;
    // getOccurrenceDetails copies several Times per call; a slot without an override is the
    // master's own occurrence, and most of an old series' slots end before the range.
    if (!overridden(slot)) {
      let endMs: number;
      if (period?.end) endMs = instantOf(period.end);
      else if (period?.duration) endMs = addDuration(slot, period.duration, instantOf);
      else endMs = masterSpan(slot);
      if (overlaps(slotMs, endMs, ctx)) windows.push(toWindow(uid, slotMs, event, slot, endMs, masterStatus, ctx));
      return;
    }
    const details = event.getOccurrenceDetails(slot);
    // details.item is the override when there is one (also for later instances of a
    // RANGE=THISANDFUTURE override), else the master itself.
    const source = (details.item as Event | undefined) ?? event;
    const start = details.startDate;
    let endMs: number;
    if (source !== event) endMs = spanOfOverride(source)(start);
    else if (period?.end) endMs = instantOf(period.end);
    else if (period?.duration) endMs = addDuration(start, period.duration, instantOf);
    else endMs = masterSpan(start);
    const status = seriesCancelled ? 'cancelled' : statusOf(source.component);
    const window = toWindow(uid, slotMs, source, start, endMs, status, ctx);
    if (overlaps(window.start.getTime(), window.end.getTime(), ctx)) windows.push(window);
  };

  // RFC 5545 counts DTSTART as the first instance; ical.js drops it with RDATE-only events and
  // when it does not match the RRULE (ical-reference §2.3).
  if (!isExcluded(master, event.startDate, ctx.siteZone)) consider(event.startDate);

  const expansion = expansionFrom(event, earliestNeededSlotMs(event, masterSpan, spanOfOverride, ctx), ctx);
  let steps = 0;
  try {
    for (let next = expansion?.next(); next; next = expansion?.next()) {
      if (++steps > ctx.maxIterations) {
        ctx.problems.push(`stopped expanding UID ${uid} after ${ctx.maxIterations} occurrences`);
        break;
      }
      const period = next instanceof ICAL.Period ? next : undefined;
      const slot = period ? period.start : (next as Time);
      if (instantMs(slot, ctx.siteZone) >= ctx.toMs) break;
      consider(slot, period);
    }
  } catch (err) {
    ctx.problems.push(`stopped expanding UID ${uid}: ${errorText(err)}`);
  }

  // An override can move an instance from beyond the range into it.
  for (const exception of Object.values(event.exceptions)) {
    const slot = exception.recurrenceId;
    if (slot && instantMs(slot, ctx.siteZone) >= ctx.toMs) consider(slot);
  }
  return windows;
}

/** The occurrences of one series that overlap [from, to). Throws when the event is unreadable. */
export function windowsOfSeries(series: Series, ctx: ExpandContext): MaintenanceWindow[] {
  const { master } = series;
  if (!master) return series.overrides.flatMap((o) => singleEvent(series.uid, o, ctx));
  const start = master.getFirstPropertyValue('dtstart');
  if (!(start instanceof ICAL.Time)) throw new Error('it has no readable DTSTART');
  const recurring = master.hasProperty('rrule') || master.hasProperty('rdate');
  return recurring ? recurringEvent({ ...series, master }, ctx) : singleEvent(series.uid, master, ctx);
}
