/**
 * The windows of a short range do not depend on how far the feed's series reach back: the
 * expansion starts old series near the range (and drops those that ended before it), and must
 * give the same windows as reading the series from its first instance. Each series below is read
 * over many 69-day ranges (the service's) and compared with one read from before its DTSTART.
 */
import { parseFeed, type MaintenanceWindow } from '../../src/maintenance/parse.js';

const DAY = 86_400_000;
const SITE = 'Europe/Berlin';
const BERLIN = [
  'BEGIN:VTIMEZONE', 'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'DTSTART:19700329T020000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT',
  'BEGIN:STANDARD', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'DTSTART:19701025T030000', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD',
  'END:VTIMEZONE',
];

function calendar(...events: string[][]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', ...BERLIN, ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']), 'END:VCALENDAR', ''].join('\r\n');
}

function read(feed: string, from: Date, to: Date): MaintenanceWindow[] {
  const { windows, problems } = parseFeed(feed, { timezone: SITE, from, to });
  expect(problems).toEqual([]);
  return windows;
}

const overlaps = (w: MaintenanceWindow, from: Date, to: Date) =>
  w.start < to && (w.end > from || w.start >= from);

/** Every 69-day range starting each `stepDays` between the two dates gives the windows of one long read. */
function expectRangeIndependent(feed: string, first: string, last: string, stepDays = 17): void {
  const whole = read(feed, new Date('2015-01-01T00:00:00Z'), new Date('2032-01-01T00:00:00Z'));
  expect(whole.length).toBeGreaterThan(0);
  for (let ms = Date.parse(first); ms <= Date.parse(last); ms += stepDays * DAY) {
    const from = new Date(ms);
    const to = new Date(ms + 69 * DAY);
    expect(read(feed, from, to)).toEqual(whole.filter((w) => overlaps(w, from, to)));
  }
}

const RANGE_2026 = { from: new Date('2026-11-22T00:00:00Z'), to: new Date('2027-01-30T00:00:00Z') };
const startsIn2026 = (feed: string) => read(feed, RANGE_2026.from, RANGE_2026.to).map((w) => w.start.toISOString());

describe('parseFeed over a short range of old series', () => {
  it('lists a monthly first-Saturday series begun years ago, with a moved instance in the range', () => {
    const feed = calendar(
      ['UID:m', 'DTSTART:20200104T060000Z', 'DTEND:20200104T120000Z', 'RRULE:FREQ=MONTHLY;BYDAY=1SA', 'SUMMARY:Storage'],
      ['UID:m', 'RECURRENCE-ID:20261205T060000Z', 'DTSTART:20261206T090000Z', 'DTEND:20261206T150000Z', 'SUMMARY:Storage (moved)'],
    );
    const windows = read(feed, RANGE_2026.from, RANGE_2026.to);
    expect(windows.map((w) => [w.occurrenceStart, w.start.toISOString(), w.summary])).toEqual([
      ['2026-12-05T06:00:00.000Z', '2026-12-06T09:00:00.000Z', 'Storage (moved)'],
      ['2027-01-02T06:00:00.000Z', '2027-01-02T06:00:00.000Z', 'Storage'],
    ]);
    expectRangeIndependent(feed, '2019-11-01', '2027-06-01', 23);
  });

  it('lists an instance moved into the range from a slot long before it', () => {
    const feed = calendar(
      ['UID:w', 'DTSTART;TZID=Europe/Berlin:20210105T220000', 'DTEND;TZID=Europe/Berlin:20210106T000000', 'RRULE:FREQ=WEEKLY;BYDAY=TU', 'SUMMARY:Patch'],
      ['UID:w', 'RECURRENCE-ID;TZID=Europe/Berlin:20220301T220000', 'DTSTART;TZID=Europe/Berlin:20261210T220000', 'DTEND;TZID=Europe/Berlin:20261211T000000', 'SUMMARY:Patch (postponed)'],
    );
    const moved = read(feed, RANGE_2026.from, RANGE_2026.to).filter((w) => w.summary === 'Patch (postponed)');
    expect(moved.map((w) => [w.occurrenceStart, w.start.toISOString()])).toEqual([['2022-03-01T21:00:00.000Z', '2026-12-10T21:00:00.000Z']]);
    expectRangeIndependent(feed, '2020-12-01', '2027-03-01', 29);
  });

  it('applies a RANGE=THISANDFUTURE override made years before the range to the instances in it', () => {
    const feed = calendar(
      ['UID:f', 'DTSTART:20200106T080000Z', 'DTEND:20200106T100000Z', 'RRULE:FREQ=WEEKLY;BYDAY=MO', 'SUMMARY:Patch'],
      ['UID:f', 'RECURRENCE-ID;RANGE=THISANDFUTURE:20220103T080000Z', 'DTSTART:20220104T090000Z', 'DTEND:20220104T120000Z', 'SUMMARY:Patch (Tuesdays)'],
    );
    const windows = read(feed, RANGE_2026.from, RANGE_2026.to);
    expect(windows[0]).toMatchObject({ occurrenceStart: '2026-11-23T08:00:00.000Z', start: new Date('2026-11-24T09:00:00Z'), end: new Date('2026-11-24T12:00:00Z'), summary: 'Patch (Tuesdays)' });
    expect(windows).toHaveLength(10);
    expectRangeIndependent(feed, '2019-12-01', '2027-01-01', 31);
  });

  it('lists nothing for a series whose UNTIL is before the range, but its moved instance in it', () => {
    const feed = calendar(
      ['UID:u', 'DTSTART:20220101T080000Z', 'DTEND:20220101T090000Z', 'RRULE:FREQ=DAILY;UNTIL=20250101T000000Z', 'SUMMARY:Nightly'],
      ['UID:u', 'RECURRENCE-ID:20241231T080000Z', 'DTSTART:20261201T080000Z', 'DTEND:20261201T090000Z', 'SUMMARY:Nightly (last, late)'],
    );
    expect(startsIn2026(feed)).toEqual(['2026-12-01T08:00:00.000Z']);
    expectRangeIndependent(feed, '2021-12-01', '2025-03-01', 37);
  });

  it('ends a COUNT series at its last instance, wherever the range begins', () => {
    const feed = calendar(
      ['UID:c', 'DTSTART;TZID=Europe/Berlin:20260707T200000', 'DTEND;TZID=Europe/Berlin:20260707T220000', 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=22', 'SUMMARY:Patch'],
    );
    expect(startsIn2026(feed)).toEqual(['2026-11-24T19:00:00.000Z', '2026-12-01T19:00:00.000Z']);
    expectRangeIndependent(feed, '2026-05-01', '2027-01-01', 11);
  });

  it('keeps old EXDATEs and late ones, across daylight-saving changes', () => {
    const feed = calendar(
      ['UID:x', 'DTSTART;TZID=Europe/Berlin:20230103T020000', 'DTEND;TZID=Europe/Berlin:20230103T030000', 'RRULE:FREQ=DAILY;INTERVAL=3',
        'EXDATE;TZID=Europe/Berlin:20230106T020000,20261204T020000', 'SUMMARY:Backup'],
      ['UID:y', 'DTSTART;TZID=Europe/Berlin:20230327T020000', 'DTEND;TZID=Europe/Berlin:20230327T030000', 'RRULE:FREQ=DAILY;INTERVAL=2',
        'EXDATE;TZID=Europe/Berlin:20270101T020000', 'SUMMARY:Scrub'],
    );
    const backups = read(feed, RANGE_2026.from, RANGE_2026.to).filter((w) => w.uid === 'x').map((w) => w.start.toISOString());
    expect(backups).not.toContain('2026-12-04T01:00:00.000Z');
    expect(backups).toContain('2026-12-01T01:00:00.000Z');
    expectRangeIndependent(feed, '2022-12-01', '2027-04-01', 19);
  });

  it('ends COUNT series where stepping from DTSTART ends them', () => {
    const daily = calendar(['UID:d', 'DTSTART;TZID=Europe/Berlin:20260110T090000', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;INTERVAL=2;BYHOUR=5;COUNT=200', 'SUMMARY:Scrub']);
    // DTSTART itself, then 200 instances at 05:00 from 2026-01-12 (09:00 on the 10th is past 05:00).
    const lastDaily = read(daily, new Date('2027-01-01T00:00:00Z'), new Date('2027-03-30T00:00:00Z')).map((w) => w.start.toISOString());
    expect(lastDaily).toHaveLength(23);
    expect(lastDaily.at(-1)).toBe('2027-02-14T04:00:00.000Z');
    const monthly = calendar(['UID:m', 'DTSTART:20250109T200000Z', 'DURATION:PT2H', 'RRULE:FREQ=MONTHLY;BYDAY=2TU,-1TH;COUNT=48', 'SUMMARY:Firmware']);
    expect(startsIn2026(monthly)).toEqual(['2026-11-26T20:00:00.000Z', '2026-12-08T20:00:00.000Z', '2026-12-31T20:00:00.000Z']);
  });

  it.each([
    ['every other month, last Friday and first Monday', 'RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR,1MO', 'DTSTART:20210115T230000Z', 'DTEND:20210116T010000Z'],
    ['fifth Sunday of the month', 'RRULE:FREQ=MONTHLY;BYDAY=5SU', 'DTSTART;TZID=Europe/Berlin:20200301T030000', 'DURATION:PT3H'],
    ['every third week, Monday and Thursday, weeks from Monday', 'RRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=TH,MO;WKST=MO', 'DTSTART;TZID=Europe/Berlin:20201231T180000', 'DURATION:P1DT2H'],
    ['weekdays of a weekly rule written without BYDAY', 'RRULE:FREQ=WEEKLY;INTERVAL=2', 'DTSTART;VALUE=DATE:20201229', 'DTEND;VALUE=DATE:20201231'],
    ['daily in winter months only', 'RRULE:FREQ=DAILY;INTERVAL=5;BYMONTH=12,1,2', 'DTSTART:20191130T120000Z', 'DURATION:PT30M'],
    ['weekdays at a fixed hour', 'RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=6', 'DTSTART;TZID=Europe/Berlin:20241028T060000', 'DURATION:PT1H'],
    ['monthly until a date', 'RRULE:FREQ=MONTHLY;BYDAY=2WE;UNTIL=20261216T000000Z', 'DTSTART:20220112T070000Z', 'DURATION:PT8H'],
    ['twice a day (stepped from its start)', 'RRULE:FREQ=DAILY;BYHOUR=6,18', 'DTSTART:20260601T060000Z', 'DURATION:PT1H'],
    ['daily COUNT at an hour earlier than DTSTART', 'RRULE:FREQ=DAILY;INTERVAL=2;BYHOUR=5;COUNT=200', 'DTSTART;TZID=Europe/Berlin:20260110T090000', 'DURATION:PT1H'],
    ['fortnightly COUNT on a weekday before DTSTART', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=40', 'DTSTART;VALUE=DATE:20250507', 'DURATION:P1D'],
    ['monthly COUNT on two weekdays', 'RRULE:FREQ=MONTHLY;BYDAY=2TU,-1TH;COUNT=48', 'DTSTART:20250109T200000Z', 'DURATION:PT2H'],
  ])('gives the same windows for any range: %s', (_name, rule, start, length) => {
    const feed = calendar(['UID:r', start, length, rule, 'SUMMARY:Window']);
    expectRangeIndependent(feed, '2025-10-01', '2027-03-01', 13);
  });
});
