/**
 * Moves the rule iterators of an ical.js 2.2.1 expansion forward to just before a date range,
 * so that a series begun years ago is not stepped through from DTSTART (a monthly BYDAY rule
 * checks every day of every month, at about 10 µs a day).
 *
 * The iterator must come out in the very state it would have reached by stepping, so that
 * everything it yields from there on is the same. That state is known only for the rule shapes
 * where it is `last` alone (plus the BYDAY index of a weekly rule, which is 0 at the start of a
 * week): DAILY, WEEKLY without BYWEEKNO, MONTHLY with BYDAY but no BYMONTHDAY, BYMONTH or
 * BYSETPOS, each without COUNT and with at most one BYHOUR, BYMINUTE and BYSECOND. Other rules
 * are stepped from DTSTART as before, except that a COUNT rule known to end before the range is
 * ended at once. An anchor state is one that stepping passes through:
 *  - DAILY: a day on the INTERVAL grid from DTSTART;
 *  - WEEKLY: the first BYDAY day of a week on the INTERVAL grid of DTSTART's week;
 *  - MONTHLY: the last day of a month on the INTERVAL grid of DTSTART's month (the scan of a
 *    month ends there and moves to the next grid month).
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
  next(): Time | null;
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
 * A COUNT rule that gives exactly one instance per INTERVAL step (DAILY, or WEEKLY on one day,
 * with nothing else to filter by) has its last instance within COUNT steps of its set-up.
 */
function countEndsBefore(iterator: IteratorState, lastDay: number): boolean {
  const { rule } = iterator;
  if (!rule.count || iterator.completed || !oneTimeOfDay(iterator)) return false;
  const filters = Object.keys(rule.parts).filter((part) => !TIME_OF_DAY_PARTS.includes(part));
  const interval = rule.interval || 1;
  let period: number;
  if (rule.freq === 'DAILY' && filters.length === 0) period = interval;
  else if (rule.freq === 'WEEKLY' && filters.every((part) => part === 'BYDAY') && (rule.parts.BYDAY?.length ?? 1) === 1) {
    period = 7 * interval;
  } else return false;
  return wallDay(initialState(iterator).last) + rule.count * period < lastDay;
}

function stepsByOnlyLast(iterator: IteratorState): boolean {
  const { rule } = iterator;
  if (rule.count || iterator.completed || 'BYSETPOS' in rule.parts || !oneTimeOfDay(iterator)) return false;
  switch (rule.freq) {
    case 'DAILY':
      return true;
    case 'WEEKLY':
      return !('BYWEEKNO' in rule.parts);
    case 'MONTHLY':
      return 'BYDAY' in rule.parts && !['BYMONTHDAY', 'BYMONTH'].some((part) => part in rule.parts);
    default:
      return false;
  }
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

/** The latest anchor state on or before wall day `lastDay`, or undefined when there is none after the origin. */
function anchorFor(iterator: IteratorState, lastDay: number): Time | undefined {
  const origin = initialState(iterator).last;
  const interval = iterator.rule.interval || 1;
  switch (iterator.rule.freq) {
    case 'DAILY':
    case 'WEEKLY': {
      const period = iterator.rule.freq === 'DAILY' ? interval : 7 * interval;
      const periods = Math.floor((lastDay - wallDay(origin)) / period);
      return periods > 0 ? atWallDay(origin, wallDay(origin) + periods * period) : undefined;
    }
    case 'MONTHLY': {
      const last = new Date(lastDay * DAY);
      const lastMonth = last.getUTCFullYear() * 12 + last.getUTCMonth();
      const originMonth = origin.year * 12 + origin.month - 1;
      const offset = lastMonth - originMonth;
      if (offset < 0) return undefined;
      // Within a grid month the scan stands on each day in turn, so any day is an anchor;
      // otherwise the last day of the grid month before.
      if (offset % interval === 0) return atWallDay(origin, lastDay);
      const month = originMonth + Math.floor(offset / interval) * interval;
      const firstOfMonth = Date.UTC(Math.floor(month / 12), month % 12, 1) / DAY;
      return atWallDay(origin, firstOfMonth, (year, m) => ICAL.Time.daysInMonth(m, year));
    }
    default:
      return undefined;
  }
}

/**
 * Moves each rule iterator that allows it to its last anchor state before `beforeMs`, then to
 * its next instance, as stepping would, and ends those whose COUNT is used up before then. Nothing moves when an EXDATE the expansion has not yet
 * passed lies before that point: ical.js advances its EXDATE cursor one instance at a time, and
 * where that cursor stands after stepping cannot be known without stepping.
 */
export function skipAhead(expansion: Expansion, beforeMs: number): void {
  const state = expansion as unknown as ExpansionState;
  const lastDay = Math.floor(beforeMs / DAY) - ZONE_MARGIN_DAYS;
  if (state.exDate && wallDay(state.exDate) <= lastDay + 2 * ZONE_MARGIN_DAYS) return;
  for (const iterator of state.ruleIterators) {
    if (countEndsBefore(iterator, lastDay)) {
      iterator.completed = true;
      continue;
    }
    if (!stepsByOnlyLast(iterator)) continue;
    const anchor = anchorFor(iterator, lastDay);
    if (!anchor || anchor.compare(iterator.last) <= 0) continue;
    iterator.last = anchor;
    iterator.by_indices.BYDAY = 0;
    iterator.next();
  }
}
