/**
 * Moves the rule iterators of an ical.js 2.2.1 expansion forward to just before a date range,
 * so that a series begun years ago is not stepped through from DTSTART, and lets a monthly
 * BYDAY scan jump between the days it can stop on (hopMonthlyScans; ical.js tests every day of
 * every month, at about 10 µs a day).
 *
 * An iterator must come out in the very state stepping would have reached, so that everything
 * it yields from there on is the same. That state is known only where it is `last` alone (plus
 * the BYDAY index of a weekly rule, 0 at the start of a week): DAILY, WEEKLY without BYWEEKNO,
 * MONTHLY with BYDAY but no BYMONTHDAY, BYMONTH or BYSETPOS, each with at most one BYHOUR,
 * BYMINUTE and BYSECOND. With COUNT it must also be known how many instances came before, which
 * holds only for a dense rule (one instance per step). Other rules are stepped from DTSTART as
 * before. The anchor states, which stepping passes through:
 *  - DAILY: a day on the INTERVAL grid from DTSTART;
 *  - WEEKLY: the first BYDAY day of a week on the INTERVAL grid of DTSTART's week;
 *  - MONTHLY: any day of a month on the INTERVAL grid of DTSTART's month (the scan stands on
 *    each day in turn), or the last day of the grid month before.
 *
 * All of this reads and sets ical.js's private iterator state, which a new ical.js may rename or
 * change (the version is pinned in package.json for that reason). skipAheadStatus() checks, once,
 * that the fields exist and that patched and plain expansion agree on probe rules; when they do
 * not, callers iterate plainly (slower, same windows), and every fallback is counted and reported
 * to the listeners of onSkipAheadFallback.
 */
import ICAL from 'ical.js';

type Time = InstanceType<typeof ICAL.Time>;
type Recur = InstanceType<typeof ICAL.Recur>;
type Expansion = InstanceType<typeof ICAL.RecurExpansion>;

/** The ical.js internals this module reads and sets (private in its typings). */
interface IteratorState {
  rule: Recur;
  dtstart: Time;
  last: Time;
  completed: boolean;
  by_data: Record<string, Array<string | number>>;
  by_indices: Record<string, number>;
  occurrence_number: number;
  next(again?: boolean): Time | null;
  /** One scan of a MONTHLY rule: from the day after `last` to the next BYDAY day or into the next month. */
  next_month(): number;
  ruleDayOfWeek(code: string | number): unknown[];
}

interface ExpansionState {
  ruleIterators: IteratorState[];
  /** The next EXDATE the expansion compares instances with. */
  exDate: Time | null | undefined;
}

const DAY = 86_400_000;
/** Wall-clock days around an instant that cover any zone's offset and a DATE's whole day. */
const ZONE_MARGIN_DAYS = 2;

function wallDay(time: Time): number {
  return Date.UTC(time.year, time.month - 1, time.day) / DAY;
}

/** The rule's iterator state right after its set-up from DTSTART, before any stepping. */
function initialState(iterator: IteratorState): IteratorState {
  return new ICAL.RecurIterator({ rule: iterator.rule, dtstart: iterator.dtstart }) as unknown as IteratorState;
}

const TIME_OF_DAY_PARTS = ['BYSECOND', 'BYMINUTE', 'BYHOUR'];

function oneTimeOfDay(iterator: IteratorState): boolean {
  return TIME_OF_DAY_PARTS.every((part) => (iterator.by_data[part]?.length ?? 1) === 1);
}

/**
 * Days between instances of a rule that gives exactly one instance per INTERVAL step (DAILY, or
 * WEEKLY on one day, with nothing else to filter by): only for such a rule is the number of
 * instances before a day, and so how much of a COUNT is used, known without stepping.
 */
function densePeriod(iterator: IteratorState): number | undefined {
  const { rule } = iterator;
  if (!oneTimeOfDay(iterator)) return undefined;
  const filters = Object.keys(rule.parts).filter((part) => !TIME_OF_DAY_PARTS.includes(part));
  const interval = rule.interval || 1;
  if (rule.freq === 'DAILY' && filters.length === 0) return interval;
  if (rule.freq === 'WEEKLY' && filters.every((part) => part === 'BYDAY') && (rule.parts.BYDAY?.length ?? 1) === 1) {
    return 7 * interval;
  }
  return undefined;
}

function countEndsBefore(iterator: IteratorState, origin: Time, lastDay: number): boolean {
  const period = densePeriod(iterator);
  if (!iterator.rule.count || iterator.completed || period === undefined) return false;
  return wallDay(origin) + iterator.rule.count * period < lastDay;
}

/**
 * Whether a COUNT rule of a dense shape has given all its instances before `beforeMs`, read
 * from the rule alone: its set-up day is within a week of DTSTART, then one instance a step.
 * Spares building an expansion for the many short series of a long-lived feed that are over.
 */
export function countedOutBefore(rule: Recur, dtstart: Time, beforeMs: number): boolean {
  const parts = rule.parts as Record<string, unknown[] | undefined>;
  if (!rule.count || TIME_OF_DAY_PARTS.some((part) => (parts[part]?.length ?? 1) !== 1)) return false;
  const filters = Object.keys(parts).filter((part) => !TIME_OF_DAY_PARTS.includes(part));
  const interval = rule.interval || 1;
  let period: number;
  if (rule.freq === 'DAILY' && filters.length === 0) period = interval;
  else if (rule.freq === 'WEEKLY' && filters.every((part) => part === 'BYDAY') && (parts.BYDAY?.length ?? 1) === 1) {
    period = 7 * interval;
  } else return false;
  return wallDay(dtstart) + 7 + rule.count * period < Math.floor(beforeMs / DAY) - ZONE_MARGIN_DAYS;
}

/** A MONTHLY rule whose iterator scans a month day by day for BYDAY, keeping nothing but `last`. */
function scansMonthByDay(iterator: IteratorState): boolean {
  const { parts } = iterator.rule;
  return (
    iterator.rule.freq === 'MONTHLY' &&
    'BYDAY' in parts &&
    !['BYMONTHDAY', 'BYMONTH', 'BYSETPOS'].some((part) => part in parts) &&
    oneTimeOfDay(iterator)
  );
}

function stepsByOnlyLast(iterator: IteratorState): boolean {
  const { rule } = iterator;
  if (iterator.completed || 'BYSETPOS' in rule.parts || !oneTimeOfDay(iterator)) return false;
  if (rule.count && densePeriod(iterator) === undefined) return false;
  switch (rule.freq) {
    case 'DAILY':
      return true;
    case 'WEEKLY':
      return !('BYWEEKNO' in rule.parts);
    case 'MONTHLY':
      return scansMonthByDay(iterator);
    default:
      return false;
  }
}

/**
 * The day before the next day of `last`'s month that BYDAY names, or the month's last day: the
 * days a monthly scan can stop on, found the way ical.js tests each day (is_day_in_byday: the
 * weekday for a bare one, nthWeekDay of the month for a numbered one).
 */
function dayBeforeNextCandidate(iterator: IteratorState): number {
  const { last } = iterator;
  const daysInMonth = ICAL.Time.daysInMonth(last.month, last.year);
  let next = daysInMonth + 1;
  for (const code of iterator.by_data.BYDAY) {
    const [pos, dow] = iterator.ruleDayOfWeek(code) as [number, number];
    const first = last.nthWeekDay(dow, pos);
    for (let day = first; day <= daysInMonth && day < next; day += pos === 0 ? 7 : daysInMonth) {
      if (day > last.day) next = day;
    }
  }
  return next - 1;
}

/**
 * Lets a monthly BYDAY iterator jump over the days that cannot match instead of testing each
 * (about 10 µs a day in ical.js). It stops on the same days, so COUNT and UNTIL are kept.
 */
function hopBetweenCandidates(iterator: IteratorState): void {
  const scanMonth = iterator.next_month.bind(iterator);
  let hopping = true;
  iterator.next_month = () => {
    if (hopping) {
      // A failed hop only costs the day-by-day scan, which stops on the same days.
      try {
        const day = dayBeforeNextCandidate(iterator);
        if (day > iterator.last.day) iterator.last.day = day;
      } catch (err) {
        hopping = false;
        reportFallback('failed', `monthly scan hop: ${errorText(err)}`);
      }
    }
    return scanMonth();
  };
}

/**
 * Makes the iterators that ical.js creates for a monthly BYDAY rule hop between candidate days,
 * from their first scan on (an expansion steps its iterators once as it is built). Returns the
 * undo, for a series that falls back to plain iteration.
 */
export function hopMonthlyScans(rule: Recur): () => void {
  const iterate = rule.iterator.bind(rule);
  rule.iterator = (dtstart: Time) => {
    const iterator = iterate(dtstart);
    const state = iterator as unknown as IteratorState;
    if (scansMonthByDay(state)) hopBetweenCandidates(state);
    return iterator;
  };
  // The patch is an own property over the prototype's method; removing it restores ical.js's.
  return () => {
    delete (rule as { iterator?: unknown }).iterator;
  };
}

function atWallDay(template: Time, day: number, dayOfMonth?: (year: number, month: number) => number): Time {
  const date = new Date(day * DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  // Set field by field: ical.js normalizes only when a field is read, and resetTo would turn
  // a DATE into a DATE-TIME.
  const anchor = template.clone();
  anchor.year = year;
  anchor.month = month;
  anchor.day = dayOfMonth ? dayOfMonth(year, month) : date.getUTCDate();
  return anchor;
}

interface Anchor {
  last: Time;
  /** Instances given up to and including the anchor, for a dense rule. */
  instances?: number;
}

/** The latest anchor state on or before wall day `lastDay`, or undefined when there is none after the set-up. */
function anchorFor(iterator: IteratorState, origin: Time, lastDay: number): Anchor | undefined {
  const interval = iterator.rule.interval || 1;
  switch (iterator.rule.freq) {
    case 'DAILY':
    case 'WEEKLY': {
      const period = iterator.rule.freq === 'DAILY' ? interval : 7 * interval;
      const periods = Math.floor((lastDay - wallDay(origin)) / period);
      if (periods <= 0) return undefined;
      const last = atWallDay(origin, wallDay(origin) + periods * period);
      if (densePeriod(iterator) === undefined) return { last };
      // Every grid day is an instance, but the set-up day may be before DTSTART (BYHOUR or BYDAY).
      return { last, instances: periods + 1 - (origin.compare(iterator.dtstart) < 0 ? 1 : 0) };
    }
    case 'MONTHLY': {
      const last = new Date(lastDay * DAY);
      const lastMonth = last.getUTCFullYear() * 12 + last.getUTCMonth();
      const originMonth = origin.year * 12 + origin.month - 1;
      const offset = lastMonth - originMonth;
      if (offset < 0) return undefined;
      if (offset % interval === 0) return { last: atWallDay(origin, lastDay) };
      const month = originMonth + Math.floor(offset / interval) * interval;
      const firstOfMonth = Date.UTC(Math.floor(month / 12), month % 12, 1) / DAY;
      return { last: atWallDay(origin, firstOfMonth, (year, m) => ICAL.Time.daysInMonth(m, year)) };
    }
    default:
      return undefined;
  }
}

/**
 * Moves each rule iterator that allows it to its last anchor state before `beforeMs`, then to
 * its next instance, as stepping would, and ends those whose COUNT is used up before then.
 * Nothing moves when an EXDATE the expansion has not yet passed lies before that point: ical.js
 * advances its EXDATE cursor one instance at a time, and where that cursor stands after stepping
 * cannot be known without stepping.
 */
export function skipAhead(expansion: Expansion, beforeMs: number): void {
  const state = expansion as unknown as ExpansionState;
  const lastDay = Math.floor(beforeMs / DAY) - ZONE_MARGIN_DAYS;
  if (state.exDate && wallDay(state.exDate) <= lastDay + 2 * ZONE_MARGIN_DAYS) return;
  for (const iterator of state.ruleIterators) {
    if (!stepsByOnlyLast(iterator)) continue;
    const origin = initialState(iterator).last;
    if (countEndsBefore(iterator, origin, lastDay)) {
      iterator.completed = true;
      continue;
    }
    const anchor = anchorFor(iterator, origin, lastDay);
    if (!anchor || anchor.last.compare(iterator.last) <= 0) continue;
    if (iterator.rule.count) {
      if (anchor.instances === undefined) continue;
      iterator.occurrence_number = anchor.instances;
    }
    iterator.last = anchor.last;
    iterator.by_indices.BYDAY = 0;
    iterator.next();
  }
}

// --- Feature detection and fallback reporting ---

export type SkipAheadFallbackKind = 'unavailable' | 'failed';

export interface SkipAheadFallback {
  /** unavailable: the probe found ical.js's internals changed, so no series uses the helpers;
   *  failed: the helpers threw on one series, which was then iterated plainly. */
  kind: SkipAheadFallbackKind;
  reason: string;
}

export type SkipAheadStatus = { available: true } | { available: false; reason: string };

const fallbackCounts: Record<SkipAheadFallbackKind, number> = { unavailable: 0, failed: 0 };
const listeners = new Set<(fallback: SkipAheadFallback) => void>();

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Counts a fallback and tells the listeners (the maintenance service logs it, metrics count it). */
export function reportFallback(kind: SkipAheadFallbackKind, reason: string): void {
  fallbackCounts[kind]++;
  for (const listener of listeners) listener({ kind, reason });
}

/** Calls `listener` on every fallback from now on; returns the unsubscribe. */
export function onSkipAheadFallback(listener: (fallback: SkipAheadFallback) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Fallbacks since the process started, by kind: series iterated plainly instead of skipped. */
export function skipAheadFallbacks(): Readonly<Record<SkipAheadFallbackKind, number>> {
  return { ...fallbackCounts };
}

const ITERATOR_FIELDS: Array<[keyof IteratorState, string]> = [
  ['rule', 'object'], ['dtstart', 'object'], ['last', 'object'], ['completed', 'boolean'],
  ['by_data', 'object'], ['by_indices', 'object'], ['occurrence_number', 'number'],
  ['next', 'function'], ['next_month', 'function'], ['ruleDayOfWeek', 'function'],
];

/** The private members skipAhead and hopMonthlyScans use, on a real expansion; a list of what is missing. */
function missingInternals(expansion: Expansion): string[] {
  const missing: string[] = [];
  const state = expansion as unknown as Partial<ExpansionState>;
  if (!('exDate' in expansion)) missing.push('RecurExpansion.exDate');
  if (!Array.isArray(state.ruleIterators) || state.ruleIterators.length === 0) {
    missing.push('RecurExpansion.ruleIterators');
    return missing;
  }
  const iterator = state.ruleIterators[0] as unknown as Record<string, unknown>;
  for (const [field, type] of ITERATOR_FIELDS) {
    if (typeof iterator[field] !== type || iterator[field] === null) missing.push(`RecurIterator.${field}`);
  }
  if (!(iterator.last instanceof ICAL.Time)) missing.push('RecurIterator.last (an ICAL.Time)');
  if (typeof ICAL.RecurIterator !== 'function') missing.push('ICAL.RecurIterator');
  if (typeof ICAL.Time.daysInMonth !== 'function') missing.push('ICAL.Time.daysInMonth');
  if (typeof ICAL.Time.prototype.nthWeekDay !== 'function') missing.push('ICAL.Time#nthWeekDay');
  return missing;
}

/**
 * Rules that take every path of skipAhead and hopMonthlyScans: a monthly BYDAY scan with a
 * numbered and a last weekday, a dense COUNT rule skipped by count, an INTERVAL weekly grid, an
 * hour before DTSTART's, and a DATE series. Begun well before the probed range, so the skip
 * has ground to cover; short, because the plain side is stepped from DTSTART at every start.
 */
const PROBES: Array<{ dtstart: string; rrule: string }> = [
  { dtstart: 'DTSTART:20210104T060000Z', rrule: 'FREQ=MONTHLY;BYDAY=1SA,-1TH' },
  { dtstart: 'DTSTART:20210104T060000Z', rrule: 'FREQ=MONTHLY;INTERVAL=2;BYDAY=5SU,2TU;COUNT=40' },
  // COUNTs that run out inside the probed range, so the instance count set by the skip matters.
  { dtstart: 'DTSTART:20210110T090000Z', rrule: 'FREQ=DAILY;INTERVAL=3;BYHOUR=5;COUNT=230' },
  { dtstart: 'DTSTART:20201231T180000Z', rrule: 'FREQ=WEEKLY;INTERVAL=3;BYDAY=TH,MO;WKST=MO' },
  { dtstart: 'DTSTART;VALUE=DATE:20210507', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=50' },
];
const PROBE_FROM_MS = Date.UTC(2022, 8, 15);
const PROBE_TO_MS = Date.UTC(2023, 5, 1);

/** Instances of a fresh copy of the probe series in [PROBE_FROM_MS, PROBE_TO_MS), with or without the helpers. */
function probeOccurrences(probe: { dtstart: string; rrule: string }, patched: boolean): string[] {
  const text = ['BEGIN:VEVENT', 'UID:probe', probe.dtstart, `RRULE:${probe.rrule}`, 'END:VEVENT'].join('\r\n');
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)), { exceptions: [] });
  if (patched) {
    const rule = event.component.getFirstPropertyValue('rrule');
    if (rule instanceof ICAL.Recur) hopMonthlyScans(rule);
  }
  const expansion = event.iterator();
  if (patched) {
    const missing = missingInternals(expansion);
    if (missing.length) throw new Error(`ical.js internals missing: ${missing.join(', ')}`);
    skipAhead(expansion, PROBE_FROM_MS);
  }
  const found: string[] = [];
  for (let next = expansion.next(); next; next = expansion.next()) {
    const ms = next.toUnixTime() * 1000;
    if (ms >= PROBE_TO_MS) break;
    if (ms >= PROBE_FROM_MS) found.push(next.toString());
  }
  return found;
}

/**
 * Checks, without caching, that the ical.js loaded has the internals the helpers rely on and
 * that they change nothing: each probe series gives the same instances patched and plain.
 */
export function probeSkipAhead(): SkipAheadStatus {
  for (const probe of PROBES) {
    let patched: string[];
    let plain: string[];
    try {
      patched = probeOccurrences(probe, true);
      plain = probeOccurrences(probe, false);
    } catch (err) {
      return { available: false, reason: `RRULE:${probe.rrule}: ${errorText(err)}` };
    }
    if (patched.length === 0 || patched.join() !== plain.join()) {
      return {
        available: false,
        reason: `RRULE:${probe.rrule}: skipping ahead gives ${patched.length} instances, plain iteration ${plain.length}` +
          (patched.length && plain.length ? `, from ${patched[0]} vs ${plain[0]}` : ''),
      };
    }
  }
  return { available: true };
}

let status: SkipAheadStatus | undefined;

/** probeSkipAhead, run once per process; an unavailable result is reported as a fallback once. */
export function skipAheadStatus(): SkipAheadStatus {
  if (!status) {
    status = probeSkipAhead();
    if (!status.available) reportFallback('unavailable', status.reason);
  }
  return status;
}

/** Forgets the probe's result, for when the ical.js in use has changed (tests that simulate it). */
export function reprobeSkipAhead(): SkipAheadStatus {
  status = undefined;
  return skipAheadStatus();
}

/**
 * Runs the probe now (at start, not on the first parse) and logs a warning the first time each
 * kind of fallback happens: one line tells the operator, per-series lines would flood the log.
 * Returns the unsubscribe.
 */
export function warnOnSkipAheadFallback(log: { warn(obj: object, msg?: string): void }): () => void {
  const warned = new Set<SkipAheadFallbackKind>();
  const warn = ({ kind, reason }: SkipAheadFallback) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    log.warn(
      { kind, reason },
      kind === 'unavailable'
        ? 'ical.js internals differ from what the maintenance skip-ahead expects; every series is stepped from its start (slower, same windows)'
        : 'the maintenance skip-ahead failed on a series; it was stepped from its start (slower, same windows)',
    );
  };
  const unsubscribe = onSkipAheadFallback(warn);
  const current = skipAheadStatus();
  if (!current.available) warn({ kind: 'unavailable', reason: current.reason });
  return unsubscribe;
}
