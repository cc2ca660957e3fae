/**
 * Feeds written for the cases the corpus lacks (MANIFEST.md, "Gaps"): a weekly window with a
 * cancelled and a moved instance, windows across DST changes, Windows zone names, a big feed,
 * and whole-feed failures.
 */
import { readFileSync } from 'node:fs';
import { FeedError, parseFeed } from '../../src/maintenance/parse.js';
import { generatedFeed } from './generated-feed.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/ics/${name}`, import.meta.url), 'utf8');
const YEAR_2026 = { timezone: 'Europe/Berlin', from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };

describe('parseFeed on generated feeds', () => {
  describe('a weekly window with one cancelled and one moved instance', () => {
    const { windows, problems } = parseFeed(fixture('weekly-cancelled-and-moved.ics'), YEAR_2026);

    it('lists all eight Tuesdays, keyed by their original slot', () => {
      expect(problems).toEqual([]);
      expect(windows.map((w) => w.occurrenceStart)).toEqual([
        '2026-03-03T21:00:00.000Z', '2026-03-10T21:00:00.000Z', '2026-03-17T21:00:00.000Z', '2026-03-24T21:00:00.000Z',
        // Berlin moves to summer time on 2026-03-29: 22:00 local is now 20:00Z.
        '2026-03-31T20:00:00.000Z', '2026-04-07T20:00:00.000Z', '2026-04-14T20:00:00.000Z', '2026-04-21T20:00:00.000Z',
      ]);
      expect(windows[0].key).toBe('weekly-maintenance@cluster.example|2026-03-03T21:00:00.000Z');
    });

    it('marks the cancelled override as cancelled instead of dropping it', () => {
      expect(windows[2]).toMatchObject({ status: 'cancelled', sequence: 1 });
    });

    it('moves the overridden instance to its new time and takes its own summary and sequence', () => {
      expect(windows[3]).toMatchObject({
        start: new Date('2026-03-26T19:00:00Z'),
        end: new Date('2026-03-26T22:00:00Z'),
        summary: 'Weekly GPU node patching (moved to Thursday)',
        sequence: 2,
        status: 'confirmed',
      });
    });

    it('unescapes the description and keeps location', () => {
      expect(windows[0].description).toBe(
        'Rolling reboot of the GPU nodes.\nAffected: all training and inference workloads; the login nodes stay up.',
      );
      expect(windows[0].location).toBe('Spike cluster');
    });

    it('keeps only events matching the configured category or summary', () => {
      const byCategory = parseFeed(fixture('weekly-cancelled-and-moved.ics'), { ...YEAR_2026, match: { categories: ['maintenance'] } });
      expect(byCategory.windows).toHaveLength(8);
      const bySummary = parseFeed(fixture('weekly-cancelled-and-moved.ics'), { ...YEAR_2026, match: { summary: 'outage' } });
      expect(bySummary.windows).toHaveLength(0);
    });
  });

  describe('windows across a daylight-saving change', () => {
    const { windows } = parseFeed(fixture('across-dst.ics'), YEAR_2026);
    const bySummary = (prefix: string) => windows.find((w) => w.summary.startsWith(prefix))!;

    it('lasts nine real hours overnight into the autumn change, with the zone from the file', () => {
      const w = bySummary('Storage upgrade');
      expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2026-10-24T20:00:00.000Z', '2026-10-25T05:00:00.000Z']);
    });

    it('lasts nine real hours with an IANA zone the file does not define', () => {
      const w = bySummary('Network upgrade');
      expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2026-11-01T02:00:00.000Z', '2026-11-01T11:00:00.000Z']);
    });

    it('treats DURATION:P1D as one nominal day: the same local time next day, 25 hours later', () => {
      const w = bySummary('One nominal day');
      expect(w.end.getTime() - w.start.getTime()).toBe(25 * 3600_000);
    });

    it('reads a time in the repeated hour as its first occurrence (RFC 5545; ical.js picks the second)', () => {
      const w = bySummary('Starts in the repeated hour');
      expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-01T07:30:00.000Z']);
    });

    it('reads a time in the skipped hour with the offset from before the gap, and PT1H as one real hour', () => {
      const w = bySummary('Starts in the skipped hour');
      expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-08T08:30:00.000Z']);
    });
  });

  describe('a feed with Windows time-zone names and no VTIMEZONE', () => {
    const { windows, problems } = parseFeed(fixture('windows-zones.ics'), YEAR_2026);
    const startOf = (summary: string) => windows.find((w) => w.summary === summary)!.start.toISOString();

    it.each([
      ['Windows id', '2026-07-07T07:00:00.000Z'],
      ['Windows id with an Exchange suffix', '2026-07-07T13:00:00.000Z'],
      ['Outlook display name', '2026-07-07T07:00:00.000Z'],
      ['Webex drops Standard', '2026-07-07T16:00:00.000Z'],
    ])('resolves "%s" to the IANA zone it names', (summary, start) => {
      expect(startOf(summary)).toBe(start);
    });

    it('reads an unknown zone in the site zone and says so', () => {
      expect(startOf('Unknown zone')).toBe('2026-07-07T07:00:00.000Z');
      expect(problems).toEqual(['unknown time zone "Mars Standard Time": its times are read in Europe/Berlin']);
    });
  });

  it('reads a feed of 5,000 events, recurring ones included', () => {
    const { windows, problems } = parseFeed(generatedFeed(5000), YEAR_2026);
    expect(problems).toEqual([]);
    // 4,500 single events, all in 2026, plus 500 weekly series of 4 instances each.
    expect(windows).toHaveLength(4500 + 500 * 4);
    expect(new Set(windows.map((w) => w.key)).size).toBe(windows.length);
  });

  it('stops an unbounded rule at the iteration cap and says so', () => {
    const feed = [
      'BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:every-second', 'DTSTART:20000101T000000Z', 'DURATION:PT1S',
      'RRULE:FREQ=SECONDLY', 'SUMMARY:Runaway', 'END:VEVENT', 'END:VCALENDAR',
    ].join('\r\n');
    const { windows, problems } = parseFeed(feed, { ...YEAR_2026, maxIterations: 5000 });
    expect(windows).toEqual([]);
    expect(problems).toEqual(['stopped expanding UID every-second after 5000 occurrences']);
  });

  it('applies a RANGE=THISANDFUTURE override to the later instances', () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT', 'UID:s', 'DTSTART:20260105T080000Z', 'DTEND:20260105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=4', 'SUMMARY:Patch', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:s', 'RECURRENCE-ID;RANGE=THISANDFUTURE:20260119T080000Z', 'DTSTART:20260119T090000Z',
      'DTEND:20260119T110000Z', 'SEQUENCE:1', 'SUMMARY:Patch (later)', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const { windows } = parseFeed(feed, YEAR_2026);
    expect(windows.map((w) => [w.start.toISOString().slice(5, 16), w.end.toISOString().slice(11, 16)])).toEqual([
      ['01-05T08:00', '10:00'], ['01-12T08:00', '10:00'], ['01-19T09:00', '11:00'], ['01-26T09:00', '11:00'],
    ]);
  });

  it('treats a whole series with STATUS:CANCELLED as cancelled occurrences', () => {
    const feed = fixture('weekly-cancelled-and-moved.ics').replace('SEQUENCE:0\n', 'SEQUENCE:3\nSTATUS:CANCELLED\n');
    const { windows } = parseFeed(feed, YEAR_2026);
    expect(new Set(windows.map((w) => w.status))).toEqual(new Set(['cancelled']));
  });

  describe('a feed that is not a calendar at all', () => {
    it.each([
      ['an HTML error page', '<!DOCTYPE html><html><body>Sign in</body></html>', /not an iCalendar feed: .*looks like HTML/],
      ['an empty body', '', /not an iCalendar feed: .*the feed is empty/],
      ['a truncated download', fixture('weekly-cancelled-and-moved.ics').slice(0, 400), /truncated: BEGIN:VCALENDAR has no matching END:VCALENDAR/],
      ['a vCard', 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ops\r\nEND:VCARD\r\n', /not an iCalendar feed/],
    ])('throws a FeedError naming the problem for %s', (_name, text, message) => {
      expect(() => parseFeed(text, YEAR_2026)).toThrow(FeedError);
      expect(() => parseFeed(text, YEAR_2026)).toThrow(message);
    });

    it('throws when a calendar holds events but none can be read', () => {
      const feed = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;TZID="broken:20260101T000000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
      expect(() => parseFeed(feed, YEAR_2026)).toThrow(/no event in the feed could be read: skipped event number 1: invalid line/);
    });
  });

  it('keeps the other events when one has an unparseable line, and ignores junk after END:VCALENDAR', () => {
    const good = fixture('weekly-cancelled-and-moved.ics').replace(/\r?\n/g, '\r\n');
    const feed = good.replace('END:VCALENDAR', [
      'BEGIN:VEVENT', 'UID:bad', 'DTSTART:20260601T000000Z', 'this line has no colon', 'END:VEVENT', 'END:VCALENDAR',
    ].join('\r\n')) + 'X-TRAILING-JUNK:after the end\r\n';
    const { windows, problems } = parseFeed(feed, YEAR_2026);
    expect(windows).toHaveLength(8);
    expect(problems).toEqual([
      expect.stringMatching(/^the feed has a malformed line \(invalid line/),
      expect.stringMatching(/^skipped event UID bad: invalid line/),
    ]);
  });
});
