/**
 * A big maintenance feed, as a site calendar exported after years of use: mostly one-off
 * windows (past and planned), and a tenth recurring series (weekly and monthly slots, nightly
 * runs with exceptions, moved instances), in Europe/Berlin with its VTIMEZONE, and in UTC.
 * Parsed and expanded over the range the maintenance service uses: 7 days back, 62 ahead.
 */
import { parseFeed } from '../src/maintenance/parse.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** A fixed "now" so every run parses the same feed over the same range. */
export const FEED_NOW = new Date('2026-11-29T08:00:00Z');

const BERLIN = [
  'BEGIN:VTIMEZONE', 'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'TZNAME:CEST', 'DTSTART:19700329T020000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT',
  'BEGIN:STANDARD', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'TZNAME:CET', 'DTSTART:19701025T030000', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD',
  'END:VTIMEZONE',
];

function utc(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** Wall-clock text of an instant (for TZID=Europe/Berlin values: the UTC digits, read as Berlin). */
function wall(ms: number): string {
  return utc(ms).replace(/Z$/, '');
}

function event(uid: string, lines: string[]): string[] {
  return ['BEGIN:VEVENT', `UID:${uid}@ops.example.org`, `DTSTAMP:${utc(FEED_NOW.getTime())}`, ...lines, 'CATEGORIES:MAINTENANCE', 'STATUS:CONFIRMED', 'END:VEVENT'];
}

/** The first Saturday of the month after `ms`, at the same time of day: an instance of BYDAY=1SA. */
function firstSaturdayAfter(ms: number): number {
  const d = new Date(ms);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) + (ms % DAY);
  return first + ((6 - new Date(first).getUTCDay() + 7) % 7) * DAY;
}

export function generateFeed(events: number): string {
  const out = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Example Lab//GPU cluster operations//EN', 'CALSCALE:GREGORIAN', ...BERLIN];
  const now = Math.floor(FEED_NOW.getTime() / HOUR) * HOUR;
  for (let i = 0; i < events; i++) {
    const summary = `SUMMARY:Maintenance ${i}: ${['driver upgrade', 'storage firmware', 'network switch swap', 'OS patching', 'Run:ai upgrade'][i % 5]}`;
    const kind = i % 20;
    if (kind === 0 || kind === 10) {
      // Weekly slot, half a year of Tuesdays, begun within the last year.
      const start = now - ((i * 37) % 365) * DAY;
      out.push(...event(`weekly-${i}`, [summary, `DTSTART;TZID=Europe/Berlin:${wall(start)}`, `DTEND;TZID=Europe/Berlin:${wall(start + 2 * HOUR)}`, 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=26']));
    } else if (kind === 5) {
      // Monthly first Saturday, open-ended, begun two years ago, with one moved instance.
      const start = now - 730 * DAY + (i % 28) * DAY;
      out.push(...event(`monthly-${i}`, [summary, `DTSTART:${utc(start)}`, `DTEND:${utc(start + 6 * HOUR)}`, 'RRULE:FREQ=MONTHLY;BYDAY=1SA']));
      const moved = firstSaturdayAfter(now);
      out.push(...event(`monthly-${i}`, [summary, `RECURRENCE-ID:${utc(moved)}`, `DTSTART:${utc(moved + 3 * HOUR)}`, `DTEND:${utc(moved + 9 * HOUR)}`]));
      i++;
    } else if (kind === 15) {
      // Nightly runs for two weeks, two nights skipped.
      const start = now - ((i * 13) % 60) * DAY;
      out.push(...event(`nightly-${i}`, [summary, `DTSTART:${utc(start)}`, `DTEND:${utc(start + HOUR)}`, 'RRULE:FREQ=DAILY;COUNT=14', `EXDATE:${utc(start + 3 * DAY)},${utc(start + 7 * DAY)}`]));
    } else {
      // A one-off window somewhere in the last three years or the next one.
      const start = now - 3 * 365 * DAY + ((i * 7919) % (4 * 365 * 24)) * HOUR;
      const zoned = i % 2 === 0;
      out.push(...event(`once-${i}`, zoned
        ? [summary, `DTSTART;TZID=Europe/Berlin:${wall(start)}`, `DTEND;TZID=Europe/Berlin:${wall(start + 4 * HOUR)}`]
        : [summary, `DTSTART:${utc(start)}`, `DTEND:${utc(start + 4 * HOUR)}`]));
    }
  }
  out.push('END:VCALENDAR', '');
  return out.join('\r\n');
}

export interface IcsFigures {
  /** Median of the runs, and the first (cold) run. */
  medianMs: number;
  firstMs: number;
  windows: number;
  problems: number;
}

export function benchIcs(events: number, runs = 3): IcsFigures {
  const text = generateFeed(events);
  const day = Math.floor(FEED_NOW.getTime() / DAY) * DAY;
  const times: number[] = [];
  let windows = 0;
  let problems = 0;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    const result = parseFeed(text, { timezone: 'Europe/Berlin', from: new Date(day - 7 * DAY), to: new Date(day + 62 * DAY) });
    times.push(performance.now() - started);
    windows = result.windows.length;
    problems = result.problems.length;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)], firstMs: times[0], windows, problems };
}
