/**
 * Whether the maintenance feed can be used: fetched, a calendar, and how many windows it
 * announces. Pure: the fetched text (or why it could not be fetched) comes in.
 */
import type { Config } from '../config.js';
import { FeedError, parseFeed } from '../maintenance/parse.js';
import { fail, pass, type CheckRow } from './report.js';

const LABEL = 'maintenance feed';
/** Far enough ahead to see the next few windows of a typical calendar. */
const LOOKAHEAD_DAYS = 90;

export type FetchedFeed = { body: string } | { error: string };

export function maintenanceRow(maintenance: Config['maintenance'], fetched: FetchedFeed | undefined, now: Date): CheckRow {
  if (!maintenance) return pass(LABEL, 'not configured (maintenance.feed is unset): no maintenance announcements');
  const where = maintenance.feed;
  if (!fetched || 'error' in fetched) {
    return fail(LABEL, `${where}: ${fetched?.error ?? 'nothing fetched'}; set maintenance.feed to the calendar's iCal (.ics) URL or file path, reachable from the bot`);
  }
  try {
    const { windows, problems } = parseFeed(fetched.body, {
      timezone: maintenance.timezone,
      from: now,
      to: new Date(now.getTime() + LOOKAHEAD_DAYS * 86_400_000),
      match: maintenance.match,
    });
    const upcoming = windows.filter((w) => w.status !== 'cancelled');
    const next = upcoming[0] ? `; next: "${upcoming[0].summary}" at ${upcoming[0].start.toISOString()}` : '';
    const skipped = problems.length ? `; ${problems.length} problem${problems.length === 1 ? '' : 's'} skipped: ${problems.slice(0, 2).join('; ')}` : '';
    return pass(LABEL, `${where}: ${upcoming.length} window${upcoming.length === 1 ? '' : 's'} in the next ${LOOKAHEAD_DAYS} days${next}${skipped}`);
  } catch (err) {
    if (!(err instanceof FeedError)) throw err;
    return fail(LABEL, `${where} is not a usable calendar: ${err.message}; point maintenance.feed at the calendar's iCal (.ics) export`);
  }
}
