/**
 * The skip-ahead helpers set ical.js's private iterator state. They must change nothing but the
 * speed: the instances the bot's expansion gives from a point on are compared with those of a
 * fresh, unpatched ical.js expansion stepped from DTSTART, over every recurring event of the ICS
 * corpus and over generated rules. And when ical.js's internals change, the bot must notice and
 * iterate plainly instead of losing windows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { prng } from '../../bench/prng.js';
import { expansionFrom } from '../../src/maintenance/expand.js';
import { normalizeFeedText } from '../../src/maintenance/feed-text.js';
import { parseFeed } from '../../src/maintenance/parse.js';
import { Metrics } from '../../src/ops/metrics.js';
import {
  onSkipAheadFallback, probeSkipAhead, reprobeSkipAhead, skipAheadFallbacks, skipAheadStatus, warnOnSkipAheadFallback,
  type SkipAheadFallback,
} from '../../src/maintenance/skip-ahead.js';

type Component = InstanceType<typeof ICAL.Component>;

const DAY = 86_400_000;
const STEP_CAP = 50_000;
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

const BERLIN = [
  'BEGIN:VTIMEZONE', 'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'DTSTART:19700329T020000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT',
  'BEGIN:STANDARD', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'DTSTART:19701025T030000', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD',
  'END:VTIMEZONE',
];

/** A VEVENT of its own calendar parse, so that no state is shared between the two sides. */
function freshEvent(calendarText: string, index: number): InstanceType<typeof ICAL.Event> {
  const root = new ICAL.Component(ICAL.parse(calendarText));
  const events = root.name === 'vevent' ? [root] : root.getAllSubcomponents('vevent');
  return new ICAL.Event(events[index], { exceptions: [] });
}

/** An instance as a comparable string: its instant and its value as written. */
const key = (time: InstanceType<typeof ICAL.Time>) => `${time.toUnixTime()}|${time.toString()}`;

/** What a fresh ical.js expansion yields, with no helper applied, up to `toMs` (or an error). */
function unpatched(calendarText: string, index: number, toMs: number): Array<{ ms: number; key: string }> {
  const expansion = freshEvent(calendarText, index).iterator();
  const found: Array<{ ms: number; key: string }> = [];
  try {
    for (let next = expansion.next(), steps = 0; next && steps < STEP_CAP; next = expansion.next(), steps++) {
      const ms = next.toUnixTime() * 1000;
      if (ms >= toMs) break;
      found.push({ ms, key: key(next) });
    }
  } catch (err) {
    found.push({ ms: Infinity, key: `error: ${(err as Error).message}` });
  }
  return found;
}

/** What the bot's expansion (expand.ts, with the helpers) yields in [fromMs, toMs). */
function patched(calendarText: string, index: number, fromMs: number, toMs: number): string[] {
  const expansion = expansionFrom(freshEvent(calendarText, index), fromMs, { maxIterations: STEP_CAP });
  const found: string[] = [];
  if (!expansion) return found;
  try {
    for (let next = expansion.next(), steps = 0; next && steps < STEP_CAP; next = expansion.next(), steps++) {
      const ms = next.toUnixTime() * 1000;
      if (ms >= toMs) break;
      if (ms >= fromMs) found.push(key(next));
    }
  } catch (err) {
    found.push(`error: ${(err as Error).message}`);
  }
  return found;
}

interface Case {
  name: string;
  text: string;
  index: number;
  dtstartMs: number;
}

/** Compares both sides from several points of the series' life; returns how many instances were compared. */
function expectSameInstances(c: Case): number {
  const points = [c.dtstartMs - 30 * DAY, c.dtstartMs + 200 * DAY, c.dtstartMs + 3 * 365 * DAY];
  const horizon = 400 * DAY;
  const plain = unpatched(c.text, c.index, points.at(-1)! + horizon);
  // Near its last instance too, where COUNT and UNTIL end a series that was skipped ahead.
  const last = plain.filter((p) => p.ms !== Infinity).at(-1);
  if (last && last.ms < points.at(-1)!) points.push(last.ms - DAY, last.ms - 20 * DAY);
  let compared = 0;
  for (const fromMs of points) {
    const toMs = fromMs + horizon;
    // The bot stops at the first instance at or after the range's end, as here: ical.js yields
    // a rule with an unsorted BYMONTH out of order, and what follows is not looked at.
    const end = plain.findIndex((p) => p.ms >= toMs && p.ms !== Infinity);
    const expected = (end < 0 ? plain : plain.slice(0, end)).filter((p) => p.ms >= fromMs).map((p) => p.key);
    const actual = patched(c.text, c.index, fromMs, toMs);
    // An error of the plain side is expected on the patched side only when it lies before toMs.
    const plainError = expected.at(-1)?.startsWith('error: ');
    if (plainError && actual.at(-1)?.startsWith('error: ') !== true) expected.pop();
    if (actual.join('\n') !== expected.join('\n')) {
      throw new Error(`${c.name}, from ${new Date(fromMs).toISOString()}:\nexpected ${JSON.stringify(expected.slice(0, 6))}…\nreceived ${JSON.stringify(actual.slice(0, 6))}…`);
    }
    compared += actual.length;
  }
  return compared;
}

function icsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? icsFiles(join(dir, e.name)) : e.name.endsWith('.ics') ? [join(dir, e.name)] : [],
  );
}

/** Every recurring master (RRULE, no RECURRENCE-ID) of the fixture feeds that ical.js can parse. */
function corpusCases(): Case[] {
  const cases: Case[] = [];
  for (const file of [...icsFiles(join(FIXTURES, 'ics-corpus')), ...icsFiles(join(FIXTURES, 'ics'))]) {
    const text = normalizeFeedText(readFileSync(file, 'utf8'));
    let root: Component;
    try {
      root = new ICAL.Component(ICAL.parse(text));
    } catch {
      continue; // a file ical.js cannot parse whole has no expansion to compare
    }
    const events = root.name === 'vevent' ? [root] : root.getAllSubcomponents('vevent');
    events.forEach((vevent, index) => {
      if (!vevent.hasProperty('rrule') || vevent.hasProperty('recurrence-id')) return;
      let dtstartMs: number;
      try {
        const start = vevent.getFirstPropertyValue('dtstart');
        if (!(start instanceof ICAL.Time)) return;
        dtstartMs = start.toUnixTime() * 1000;
      } catch {
        return;
      }
      cases.push({ name: `${file.slice(FIXTURES.length)} event ${index}`, text, index, dtstartMs });
    });
  }
  return cases;
}

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const pad = (n: number) => String(n).padStart(2, '0');

/** One random series: a rule of any shape the helpers handle or refuse, in UTC, floating, a zone or all-day. */
function randomCase(random: () => number, n: number): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(items: T[]) => items[int(0, items.length - 1)];
  const chance = (p: number) => random() < p;
  const days = (count: number) => [...new Set(Array.from({ length: count }, () => pick(WEEKDAYS)))];

  const startMs = Date.UTC(2017, 0, 1) + int(0, 8 * 365) * DAY;
  const start = new Date(startMs);
  const ymd = `${start.getUTCFullYear()}${pad(start.getUTCMonth() + 1)}${pad(start.getUTCDate())}`;
  const form = pick(['utc', 'floating', 'zone', 'date']);
  const hms = `T${pad(int(0, 23))}${pad(pick([0, 15, 30]))}00`;
  const dtstart = {
    utc: `DTSTART:${ymd}${hms}Z`,
    floating: `DTSTART:${ymd}${hms}`,
    zone: `DTSTART;TZID=Europe/Berlin:${ymd}${hms}`,
    date: `DTSTART;VALUE=DATE:${ymd}`,
  }[form];

  const freq = pick(['DAILY', 'WEEKLY', 'WEEKLY', 'MONTHLY', 'MONTHLY', 'MONTHLY', 'YEARLY']);
  const parts = [`FREQ=${freq}`];
  if (chance(0.6)) parts.push(`INTERVAL=${int(1, 4)}`);
  if (freq === 'DAILY') {
    if (chance(0.2)) parts.push(`BYDAY=${days(int(1, 5)).join(',')}`);
    if (chance(0.1)) parts.push(`BYMONTH=${[...new Set([int(1, 12), int(1, 12)])].join(',')}`);
  } else if (freq === 'WEEKLY') {
    if (chance(0.8)) parts.push(`BYDAY=${days(int(1, 3)).join(',')}`);
    if (chance(0.3)) parts.push(`WKST=${pick(WEEKDAYS)}`);
  } else if (freq === 'MONTHLY') {
    if (chance(0.8)) {
      const ordinal = () => pick(['', '', '1', '2', '3', '4', '5', '-1', '-2']);
      parts.push(`BYDAY=${[...new Set(Array.from({ length: int(1, 2) }, () => `${ordinal()}${pick(WEEKDAYS)}`))].join(',')}`);
      if (chance(0.1)) parts.push(`BYSETPOS=${pick(['1', '-1', '2'])}`);
    } else parts.push(`BYMONTHDAY=${pick([1, 13, 28, -1])}`);
    if (chance(0.1)) parts.push(`BYMONTH=${[...new Set([int(1, 12), int(1, 12), int(1, 12)])].join(',')}`);
  } else {
    parts.push(`BYMONTH=${int(1, 12)}`);
    if (chance(0.7)) parts.push(`BYDAY=${pick(['1', '2', '-1'])}${pick(WEEKDAYS)}`);
  }
  if (form !== 'date' && chance(0.3)) parts.push(`BYHOUR=${[...new Set([int(0, 23), ...(chance(0.3) ? [int(0, 23)] : [])])].join(',')}`);
  const end = random();
  if (end < 0.3) parts.push(`COUNT=${int(1, 300)}`);
  else if (end < 0.5) {
    const until = new Date(startMs + int(10, 6 * 365) * DAY);
    const untilYmd = `${until.getUTCFullYear()}${pad(until.getUTCMonth() + 1)}${pad(until.getUTCDate())}`;
    parts.push(form === 'date' ? `UNTIL=${untilYmd}` : `UNTIL=${untilYmd}T000000Z`);
  }

  const lines = ['UID:r', dtstart, `RRULE:${parts.join(';')}`];
  if (chance(0.2)) {
    // EXDATEs on DTSTART's grid, so that some of them remove instances.
    const exdates = Array.from({ length: int(1, 3) }, () => {
      const d = new Date(startMs + int(1, 6 * 365) * 7 * DAY / 7);
      return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${form === 'date' ? '' : hms}${form === 'utc' ? 'Z' : ''}`;
    });
    const param = { utc: '', floating: '', zone: ';TZID=Europe/Berlin', date: ';VALUE=DATE' }[form];
    lines.push(`EXDATE${param}:${exdates.join(',')}`);
  }
  const text = ['BEGIN:VCALENDAR', 'VERSION:2.0', ...BERLIN, 'BEGIN:VEVENT', ...lines, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
  return { name: `random #${n}: ${lines.slice(1).join(' ')}`, text, index: 0, dtstartMs: startMs };
}

describe('the skip-ahead helpers against plain ical.js expansion', () => {
  it('are available on the pinned ical.js (else every series is stepped from DTSTART)', () => {
    const pinned = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')).dependencies['ical.js'];
    expect(pinned).toBe('2.2.1');
    expect(probeSkipAhead()).toEqual({ available: true });
    expect(skipAheadStatus()).toEqual({ available: true });
  });

  it('give the same instances as an unpatched expansion for every recurring event of the ICS corpus', () => {
    const before = skipAheadFallbacks();
    const cases = corpusCases();
    expect(cases.length).toBeGreaterThanOrEqual(10);
    let compared = 0;
    for (const c of cases) compared += expectSameInstances(c);
    expect(compared).toBeGreaterThan(100);
    expect(skipAheadFallbacks()).toEqual(before);
  });

  it('give the same instances as an unpatched expansion for 150 generated rules', () => {
    const before = skipAheadFallbacks();
    const random = prng(20261130);
    let compared = 0;
    for (let n = 0; n < 150; n++) compared += expectSameInstances(randomCase(random, n));
    expect(compared).toBeGreaterThan(3_000);
    expect(skipAheadFallbacks()).toEqual(before);
  });
});

describe('when ical.js internals change', () => {
  const RecurIterator = ICAL.RecurIterator;
  const feed = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:m', 'DTSTART:20200104T060000Z', 'DTEND:20200104T120000Z',
    'RRULE:FREQ=MONTHLY;BYDAY=1SA', 'SUMMARY:Storage', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
  const range = { timezone: 'Europe/Berlin', from: new Date('2026-11-22T00:00:00Z'), to: new Date('2027-01-30T00:00:00Z') };
  const expected = ['2026-12-05T06:00:00.000Z', '2027-01-02T06:00:00.000Z'];
  const starts = () => parseFeed(feed, range);
  let seen: SkipAheadFallback[];
  let unsubscribe: () => void;

  beforeEach(() => {
    seen = [];
    unsubscribe = onSkipAheadFallback((f) => seen.push(f));
  });
  afterEach(() => {
    unsubscribe();
    (ICAL as { RecurIterator: unknown }).RecurIterator = RecurIterator;
    expect(reprobeSkipAhead()).toEqual({ available: true });
  });

  it('notices a changed iterator set-up, reports it once and steps every series plainly, losing no window', () => {
    // As if a new ical.js set an iterator up differently: the anchors skipAhead computes move.
    (ICAL as { RecurIterator: unknown }).RecurIterator = class extends RecurIterator {
      constructor(options: ConstructorParameters<typeof RecurIterator>[0]) {
        super(options);
        this.last.day += 1;
      }
    };
    const before = skipAheadFallbacks().unavailable;
    const status = reprobeSkipAhead();
    expect(status).toMatchObject({ available: false, reason: expect.stringMatching(/skipping ahead gives/) });
    expect(seen).toEqual([{ kind: 'unavailable', reason: (status as { reason: string }).reason }]);
    const { windows, problems } = starts();
    expect(problems).toEqual([]);
    expect(windows.map((w) => w.start.toISOString())).toEqual(expected);
    starts();
    expect(skipAheadFallbacks().unavailable).toBe(before + 1);
    expect(seen).toHaveLength(1);
  });

  it('notices a missing internal and names it', () => {
    (ICAL as { RecurIterator: unknown }).RecurIterator = undefined;
    expect(reprobeSkipAhead()).toMatchObject({ available: false, reason: expect.stringContaining('ICAL.RecurIterator') });
    expect(starts().windows.map((w) => w.start.toISOString())).toEqual(expected);
  });

  it('steps one series plainly when the helpers throw on it after the probe passed, and counts it', async () => {
    expect(reprobeSkipAhead()).toEqual({ available: true });
    (ICAL as { RecurIterator: unknown }).RecurIterator = class {
      constructor() {
        throw new Error('RecurIterator changed');
      }
    };
    const before = skipAheadFallbacks().failed;
    const { windows, problems } = starts();
    expect(problems).toEqual([]);
    expect(windows.map((w) => w.start.toISOString())).toEqual(expected);
    expect(skipAheadFallbacks().failed).toBe(before + 1);
    expect(seen).toEqual([{ kind: 'failed', reason: 'UID m: RecurIterator changed' }]);
    const scraped = await new Metrics().registry.getSingleMetricAsString('runai_bot_ical_skip_ahead_fallbacks');
    expect(scraped).toContain(`runai_bot_ical_skip_ahead_fallbacks{kind="failed"} ${before + 1}`);
  });

  it('logs one warning at start when the internals changed, and one on the first failing series, not one per series', () => {
    const warnings: Array<{ obj: object; msg?: string }> = [];
    const log = { warn: (obj: object, msg?: string) => void warnings.push({ obj, msg }) };
    (ICAL as { RecurIterator: unknown }).RecurIterator = undefined;
    reprobeSkipAhead();
    const stop = warnOnSkipAheadFallback(log);
    expect(warnings).toEqual([{ obj: { kind: 'unavailable', reason: expect.stringContaining('ICAL.RecurIterator') }, msg: expect.stringMatching(/stepped from its start/) }]);
    starts();
    starts();
    expect(warnings).toHaveLength(1);
    stop();

    (ICAL as { RecurIterator: unknown }).RecurIterator = RecurIterator;
    expect(reprobeSkipAhead()).toEqual({ available: true });
    const stopAgain = warnOnSkipAheadFallback(log);
    expect(warnings).toHaveLength(1);
    (ICAL as { RecurIterator: unknown }).RecurIterator = class {
      constructor() {
        throw new Error('RecurIterator changed');
      }
    };
    starts();
    starts();
    stopAgain();
    starts();
    expect(warnings.slice(1)).toEqual([{ obj: { kind: 'failed', reason: 'UID m: RecurIterator changed' }, msg: expect.stringMatching(/failed on a series/) }]);
    expect(seen.filter((f) => f.kind === 'failed')).toHaveLength(3);
  });
});
