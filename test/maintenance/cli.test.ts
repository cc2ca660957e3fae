import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maintenanceListing } from '../../src/commands/maintenance.js';

const weekly = fileURLToPath(new URL('../fixtures/ics/weekly-cancelled-and-moved.ics', import.meta.url));
const NOW = new Date('2026-03-01T00:00:00Z');

describe('runai-slack-bot maintenance', () => {
  it('prints the windows as a JSON array sorted by start, cancelled occurrences included', async () => {
    const listing = await maintenanceListing({ feed: weekly, days: '30', timezone: 'Europe/Berlin', json: true }, NOW, 'UTC');
    expect(listing.exitCode).toBe(0);
    const rows = JSON.parse(listing.stdout);
    expect(rows).toHaveLength(4); // 30 days from 1 March end before the 31 March instance
    expect(rows[0]).toEqual({
      uid: 'weekly-maintenance@cluster.example', summary: 'Weekly GPU node patching',
      start: '2026-03-03T21:00:00.000Z', end: '2026-03-04T01:00:00.000Z', allDay: false, status: 'confirmed',
    });
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['confirmed', 'confirmed', 'cancelled', 'confirmed']);
    expect(rows[3]).toMatchObject({ start: '2026-03-26T19:00:00.000Z', summary: 'Weekly GPU node patching (moved to Thursday)' });
  });

  it('honours --from and --days, and lists readable lines in the given zone', async () => {
    const listing = await maintenanceListing({ feed: weekly, from: '2026-04-01', days: '10', timezone: 'Europe/Berlin' }, NOW, 'UTC');
    expect(listing.stdout).toBe('Tue, 7 Apr 2026, 22:00 CEST – Wed, 8 Apr 2026, 02:00 CEST  confirmed  Weekly GPU node patching\n');
  });

  it('says so when the range holds no window', async () => {
    const listing = await maintenanceListing({ feed: weekly, from: '2027-01-01' }, NOW, 'UTC');
    expect(listing).toEqual({ stdout: 'No maintenance windows from 2027-01-01T00:00:00.000Z for 60 days.\n', stderr: '', exitCode: 0 });
  });

  it('exits 1 naming what is wrong with a malformed feed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    try {
      const path = join(dir, 'broken.ics');
      writeFileSync(path, 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n');
      const listing = await maintenanceListing({ feed: path }, NOW, 'UTC');
      expect(listing.exitCode).toBe(1);
      expect(listing.stderr).toBe(`cannot read the maintenance feed ${path}: the feed is not usable: the feed is truncated: BEGIN:VCALENDAR has no matching END:VCALENDAR\n`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it.each([
    [{ from: 'next tuesday' }, /^--from: "next tuesday" is not an ISO 8601 date/],
    [{ days: '-3' }, /^--days: "-3" is not a positive number of days/],
    [{ timezone: 'Berlin' }, /^--timezone: "Berlin" is not an IANA time zone/],
  ])('rejects bad options %o', async (opts, message) => {
    const listing = await maintenanceListing({ feed: weekly, ...opts }, NOW, 'UTC');
    expect(listing.exitCode).toBe(1);
    expect(listing.stderr).toMatch(message);
  });
});
