/**
 * Every file of test/fixtures/ics-corpus, with the result the bot must produce. Where ical.js 2.2.1 on
 * its own gets a file wrong (MANIFEST.md, "ical.js 2.2.1 result"), the row says so.
 * Site zone Europe/Berlin throughout, so floating and all-day values have a visible effect.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { parseFeed, type MaintenanceWindow } from '../../src/maintenance/parse.js';

const corpus = new URL('../fixtures/ics-corpus/', import.meta.url);
const SITE = { timezone: 'Europe/Berlin', from: new Date('1990-01-01T00:00:00Z'), to: new Date('2030-01-01T00:00:00Z') };

function read(file: string): string {
  return readFileSync(new URL(file, corpus), 'utf8');
}

function parseCorpus(file: string) {
  return parseFeed(read(file), SITE);
}

interface Expected {
  count: number;
  first: { start: string; end: string; summary: string; status?: string; allDay?: boolean };
  problems?: RegExp[];
  check?: (windows: MaintenanceWindow[]) => void;
}

const iso = (w: MaintenanceWindow) => [w.start.toISOString(), w.end.toISOString()];
const startsOf = (ws: MaintenanceWindow[]) => ws.map((w) => w.start.toISOString());

const EXPECTED: Record<string, Expected> = {
  'kewisch-ical.js/recur_instances.ics': {
    // ical.js alone throws at the RDATE;VALUE=PERIOD instance (2023-11-25).
    count: 209,
    first: { start: '2012-10-02T22:00:00.000Z', end: '2012-10-02T22:30:00.000Z', summary: 'Crazy Event Thingy!' },
    check: (ws) => {
      const period = ws.find((w) => w.start.toISOString() === '2023-11-25T09:00:00.000Z')!;
      expect(period.end.toISOString()).toBe('2023-11-25T12:30:00.000Z');
      // The UTC-keyed override (iCloud style) moves the 2012-11-05 RDATE instance.
      const moved = ws.find((w) => w.occurrenceStart === '2012-11-05T18:00:00.000Z')!;
      expect(iso(moved)).toEqual(['2012-11-07T04:00:00.000Z', '2012-11-07T04:30:00.000Z']);
      // EXDATEs 2012-12-04, 2013-02-05, 2013-04-02 are gone; 10:00 LA is 18:00Z in winter, 17:00Z in summer.
      const early = startsOf(ws).filter((s) => s < '2013-07-01');
      expect(early).toEqual([
        '2012-10-02T22:00:00.000Z', '2012-11-06T18:00:00.000Z', '2012-11-07T04:00:00.000Z',
        '2012-11-10T18:00:00.000Z', '2012-11-30T18:00:00.000Z', '2013-01-01T18:00:00.000Z',
        '2013-03-05T18:00:00.000Z', '2013-05-07T17:00:00.000Z', '2013-06-04T17:00:00.000Z',
      ]);
    },
  },
  'kewisch-ical.js/google_birthday.ics': {
    // ical.js alone wires the three BIRTHDAY_… overrides into the 2014_BIRTHDAY_… master.
    count: 6,
    first: { start: '2012-12-09T23:00:00.000Z', end: '2012-12-10T23:00:00.000Z', summary: "PErson #2's birthday", allDay: true },
    check: (ws) => {
      const byUid = (uid: string) => ws.filter((w) => w.uid === uid).map((w) => w.start.toISOString());
      const days = ['2012-12-09T23:00:00.000Z', '2013-12-09T23:00:00.000Z', '2014-12-09T23:00:00.000Z'];
      expect(byUid('2014_BIRTHDAY_79d389868f96182e@google.com')).toEqual(days);
      expect(byUid('BIRTHDAY_79d389868f96182e@google.com')).toEqual(days);
    },
  },
  'kewisch-ical.js/duration_instead_of_dtend.ics': {
    count: 1,
    first: { start: '2012-06-30T13:00:00.000Z', end: '2012-07-01T13:00:00.000Z', summary: 'Really long event name thing' },
  },
  'kewisch-ical.js/rdate_exdate.ics': {
    count: 3,
    first: { start: '2024-06-09T03:00:00.000Z', end: '2024-06-09T03:00:00.000Z', summary: '(untitled maintenance)' },
    check: (ws) => expect(startsOf(ws)).toEqual(['2024-06-09T03:00:00.000Z', '2024-06-10T03:00:00.000Z', '2024-06-12T03:00:00.000Z']),
  },
  'kewisch-ical.js/timezone_from_file.ics': {
    count: 1,
    first: { start: '2023-03-06T21:23:00.000Z', end: '2023-03-06T22:23:00.000Z', summary: 'A test event' },
  },
  'jens-maus-node-ical/Office-2012-owa.ics': {
    // ical.js alone reads the display-name TZIDs as floating.
    count: 90,
    first: { start: '2020-10-28T02:30:00.000Z', end: '2020-10-28T04:00:00.000Z', summary: 'TEST Syd' },
    check: (ws) => {
      expect(ws.find((w) => w.summary === 'TEST')!.start.toISOString()).toBe('2020-10-28T17:30:00.000Z');
      // DTSTART on a Monday with BYDAY=TH,FR still counts as the first instance (RFC 5545).
      const weekly = ws.filter((w) => w.summary === 'TEST2');
      expect(startsOf(weekly).slice(0, 3)).toEqual(['2020-11-02T18:30:00.000Z', '2020-11-05T18:30:00.000Z', '2020-11-06T18:30:00.000Z']);
      expect(new Set(ws.map((w) => w.uid)).size).toBe(4);
    },
  },
  'jens-maus-node-ical/ms_timezones.ics': {
    // ical.js alone rejects the whole file over one unbalanced quote.
    count: 137,
    first: { start: '2020-07-07T19:00:00.000Z', end: '2020-07-07T19:30:00.000Z', summary: 'Not the actual summary either' },
    problems: [/malformed line \(Missing parameter value/, /skipped event UID 0400.*Missing parameter value/],
    check: (ws) => {
      expect(new Set(ws.map((w) => w.uid)).size).toBe(3);
      const berlin = ws.find((w) => w.start.toISOString().startsWith('2020-09-10'))!;
      expect(iso(berlin)).toEqual(['2020-09-10T07:00:00.000Z', '2020-09-10T07:30:00.000Z']);
    },
  },
  'jens-maus-node-ical/exchange_whole_day_moved_recurrence.ics': {
    // ical.js alone does not match the DATE-TIME RECURRENCE-ID, so 02-26 stays and 02-27 is lost.
    count: 51,
    first: { start: '2026-02-18T23:00:00.000Z', end: '2026-02-19T23:00:00.000Z', summary: 'Exchange Recurring Test', allDay: true },
    check: (ws) => {
      const moved = ws.find((w) => w.occurrenceStart === '2026-02-25T23:00:00.000Z')!;
      expect(iso(moved)).toEqual(['2026-02-26T23:00:00.000Z', '2026-02-27T23:00:00.000Z']);
      expect(startsOf(ws)).not.toContain('2026-02-25T23:00:00.000Z');
    },
  },
  'jens-maus-node-ical/whole_day_moved_over_dst_change_berlin.ics': {
    count: 3,
    first: { start: '2024-10-26T22:00:00.000Z', end: '2024-10-27T23:00:00.000Z', summary: 'test whole day moved', allDay: true },
    check: (ws) => expect(startsOf(ws)).toEqual(['2024-10-26T22:00:00.000Z', '2024-10-28T23:00:00.000Z', '2024-10-29T23:00:00.000Z']),
  },
  'jens-maus-node-ical/daily-count-exdate-recurrence-id.ics': {
    // COUNT=10 minus two EXDATEs; the override's DTEND before its DTSTART is clamped.
    count: 8,
    first: { start: '2015-07-06T19:00:00.000Z', end: '2015-07-06T20:00:00.000Z', summary: 'Treasure Hunting' },
    check: (ws) => {
      const moved = ws.find((w) => w.summary === 'More Treasure Hunting')!;
      expect(moved.occurrenceStart).toBe('2015-07-07T19:00:00.000Z');
      expect(iso(moved)).toEqual(['2015-07-09T22:00:00.000Z', '2015-07-09T22:00:00.000Z']);
      expect(startsOf(ws)).not.toContain('2015-07-08T19:00:00.000Z');
    },
  },
  'jens-maus-node-ical/google-recurrence-order.ics': {
    // America/Denver has no VTIMEZONE: ical.js alone leaves it floating.
    count: 3,
    first: { start: '2026-02-10T17:00:00.000Z', end: '2026-02-10T17:30:00.000Z', summary: 'TEST RECURR 3' },
    check: (ws) => expect(ws[1]).toMatchObject({ summary: 'TEST RECURR 3 - MODIFIED', sequence: 1, start: new Date('2026-02-11T17:30:00Z') }),
  },
  'jens-maus-node-ical/windows-quoted-tz-rrule.ics': {
    // The EXDATEs are labelled America/Los_Angeles, DTSTART a Windows display name for New York:
    // the producer meant the same local times, so 07-08 and 07-10 are excluded.
    count: 8,
    first: { start: '2015-07-06T16:00:00.000Z', end: '2015-07-06T20:00:00.000Z', summary: 'Treasure Hunting' },
    check: (ws) => expect(startsOf(ws).map((s) => s.slice(8, 10))).toEqual(['06', '07', '09', '11', '12', '13', '14', '15']),
  },
  'jens-maus-node-ical/tripit-location-escaping.ics': {
    count: 47,
    first: { start: '2011-10-10T22:00:00.000Z', end: '2011-10-13T22:00:00.000Z', summary: 'South San Francisco, CA, October 2011;', allDay: true },
    check: (ws) => {
      expect(ws[0].location).toBe('South San Francisco, CA');
      expect(ws[0].description).toContain('2011\nView and/or edit details in TripIt : http://www.tripit.com/trip/show/id/23710889');
    },
  },
  'jens-maus-node-ical/large-file-with-late-error.ics': {
    // The last event has two DTSTARTs; the first counts. node-ical throws for the whole file.
    count: 401,
    first: { start: '2024-01-01T10:00:00.000Z', end: '2024-01-01T10:00:00.000Z', summary: 'This event should trigger an error after 2000+ lines' },
  },
  'jens-maus-node-ical/mixed-timezone-handling.ics': {
    // ical.js alone throws for "DTSTART:20021028" without VALUE=DATE.
    count: 5,
    first: { start: '2002-10-27T23:00:00.000Z', end: '2002-10-28T23:00:00.000Z', summary: 'Date Only (Explicit)', allDay: true },
    check: (ws) => {
      const at = (summary: string) => ws.find((w) => w.summary === summary)!.start.toISOString();
      expect(at('Date Only (Implicit)')).toBe('2002-10-27T23:00:00.000Z');
      expect(at('No Timezone')).toBe('2002-10-28T00:20:30.000Z'); // floating, read in Berlin
      expect(at('UTC Timezone')).toBe('2002-10-28T01:20:30.000Z');
      expect(at('Inline Timezone')).toBe('2002-10-28T06:20:30.000Z'); // New York, no VTIMEZONE
    },
  },
  'jens-maus-node-ical/recurrence-sequence.ics': {
    // ical.js alone keeps the last override in the file, not the highest SEQUENCE.
    count: 5,
    first: { start: '2024-01-01T10:00:00.000Z', end: '2024-01-01T11:00:00.000Z', summary: 'Daily Meeting' },
    check: (ws) => {
      expect(ws[1]).toMatchObject({ summary: 'Moved to afternoon (SEQUENCE 3)', sequence: 3 });
      expect(ws[2]).toMatchObject({ summary: 'Newer override (SEQUENCE 5) - should win', sequence: 5 });
    },
  },
  'jens-maus-node-ical/tentative-apple-calendar.ics': {
    count: 4,
    first: { start: '2022-07-04T23:00:00.000Z', end: '2022-07-04T23:50:00.000Z', summary: 'Tentative', status: 'tentative' },
    check: (ws) => expect(ws.map((w) => `${w.summary}:${w.status}`)).toEqual([
      'Tentative:tentative', 'Confirmed:confirmed', 'Cancelled:cancelled', 'No Status:confirmed',
    ]),
  },
  'jens-maus-node-ical/test_date_duration.ics': {
    // ical.js alone throws for the date without VALUE=DATE.
    count: 1,
    first: { start: '2024-02-14T23:00:00.000Z', end: '2024-02-21T23:00:00.000Z', summary: 'period test2', allDay: true },
  },
  'jens-maus-node-ical/dst-transition-rules.ics': {
    count: 1,
    first: { start: '2022-10-09T08:00:00.000Z', end: '2022-10-09T09:00:00.000Z', summary: 'Morgendienst' },
  },
  'jens-maus-node-ical/test_with_int_tzid.ics': {
    count: 2,
    first: { start: '2023-12-15T14:00:00.000Z', end: '2023-12-15T15:00:00.000Z', summary: 'test export import' },
    check: (ws) => expect(ws[1]).toMatchObject({ summary: 'Atelier groupes portail/Nuage', start: new Date('2024-01-08T10:00:00Z') }),
  },
  'jens-maus-node-ical/festival-multiday-rrule.ics': {
    // ical.js in strict mode drops the 12:00 of "VALUE=DATE:20110804T120000".
    count: 159,
    first: { start: '2011-08-04T10:00:00.000Z', end: '2011-08-04T10:00:00.000Z', summary: 'Loading doors are opened', allDay: false },
    check: (ws) => expect(new Set(ws.map((w) => w.key)).size).toBe(159),
  },
  'collective-icalendar/bom_calendar.ics': {
    // ical.js alone throws a TypeError on the BOM.
    count: 0,
    first: undefined as never,
  },
  'collective-icalendar/issue_350.ics': {
    // ical.js alone throws on the property after END:VCALENDAR.
    count: 1,
    first: { start: '2022-02-22T18:30:00.000Z', end: '2022-02-22T19:30:00.000Z', summary: 'Termin 4353 und"so"' },
  },
  'collective-icalendar/issue_722_missing_timezones.ics': {
    count: 2,
    first: { start: '2014-08-29T12:00:00.000Z', end: '2014-08-29T15:00:00.000Z', summary: 'an event with a custom tz name' },
    problems: [/skipped event UID generated-\w+: it has no DTSTART/, /skipped event UID generated-\w+-2: it has no readable DTSTART/],
    check: (ws) => expect(iso(ws[1])).toEqual(['2024-09-13T10:00:00.000Z', '2024-09-13T12:00:00.000Z']),
  },
  'collective-icalendar/issue_313_globally_unique_tzid.ics': {
    count: 3,
    first: { start: '2020-04-26T12:00:00.000Z', end: '2020-04-26T13:00:00.000Z', summary: 'libical / Evolution globally unique TZID' },
    check: (ws) => expect(startsOf(ws)).toEqual(['2020-04-26T12:00:00.000Z', '2020-04-26T17:00:00.000Z', '2020-04-26T18:00:00.000Z']),
  },
  'collective-icalendar/issue_53_description_parsed_properly.ics': {
    // A bare VEVENT with no VCALENDAR around it.
    count: 1,
    first: { start: '2012-07-12T22:30:00.000Z', end: '2012-07-13T01:30:00.000Z', summary: 'DevOps DC Meetup' },
    check: (ws) => {
      // \, and \n unescaped; a continuation line with two leading spaces keeps one.
      expect(ws[0].description).toMatch(/^DevOpsDC\nThursday, July 12 at 6:30 PM\n\nThis will be a joint meetup/);
      expect(ws[0].description).toContain('The idea behind the hack night:');
    },
  },
};

describe('parseFeed on the ICS corpus', () => {
  it('has an expectation for every corpus file', () => {
    const files = readdirSync(corpus, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(new URL(`${d.name}/`, corpus)).filter((f) => f.endsWith('.ics')).map((f) => `${d.name}/${f}`));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('reads %s as the producer meant', (file, expected) => {
    const { windows, problems } = parseCorpus(file);
    expect(windows).toHaveLength(expected.count);
    if (expected.first) {
      expect(windows[0]).toMatchObject({
        start: new Date(expected.first.start),
        end: new Date(expected.first.end),
        summary: expected.first.summary,
        status: expected.first.status ?? 'confirmed',
        ...(expected.first.allDay === undefined ? {} : { allDay: expected.first.allDay }),
      });
    }
    expect(problems).toHaveLength(expected.problems?.length ?? 0);
    expected.problems?.forEach((pattern, i) => expect(problems[i]).toMatch(pattern));
    expected.check?.(windows);
  });

  it.each(['kewisch-ical.js/recur_instances.ics', 'jens-maus-node-ical/tripit-location-escaping.ics', 'jens-maus-node-ical/ms_timezones.ics'])(
    'reads %s the same with CRLF line endings and a BOM',
    (file) => {
      const plain = parseCorpus(file);
      const variant = parseFeed(`\uFEFF${read(file).replace(/\r?\n/g, '\r\n')}`, SITE);
      expect(variant).toEqual(plain);
    },
  );

  it('gives the same instants whatever the server time zone, because none depends on it', () => {
    // The process zone is fixed for a jest run; a floating time must come out in the site zone.
    const { windows } = parseCorpus('jens-maus-node-ical/dst-transition-rules.ics');
    const inUtcSite = parseFeed(read('jens-maus-node-ical/dst-transition-rules.ics'), { ...SITE, timezone: 'UTC' }).windows;
    expect(inUtcSite[0].start.getTime() - windows[0].start.getTime()).toBe(2 * 3600_000); // CEST is UTC+2
  });

  it('keeps only the windows overlapping the requested range', () => {
    const { windows } = parseFeed(read('kewisch-ical.js/recur_instances.ics'), {
      timezone: 'UTC', from: new Date('2023-11-01T00:00:00Z'), to: new Date('2023-12-31T00:00:00Z'),
    });
    expect(startsOf(windows)).toEqual([
      '2023-11-07T18:00:00.000Z', '2023-11-23T09:00:00.000Z', '2023-11-25T09:00:00.000Z', '2023-12-05T18:00:00.000Z',
    ]);
  });
});
