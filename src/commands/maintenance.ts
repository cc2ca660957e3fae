/**
 * `runai-slack-bot maintenance --feed URL|FILE [--from ISO] [--days N] [--timezone TZ] [--json]`:
 * list the maintenance windows of a feed in a date range (default: from now, 60 days), cancelled
 * occurrences included. A feed that cannot be read exits 1 with what is wrong.
 */
import type { Command } from 'commander';
import { proxyProblems, proxySettingsFromEnv } from '../config.js';
import { fetchThrough, proxyDispatcher } from '../lib/proxy.js';
import { FeedFetcher, MemoryFeedCache } from '../maintenance/feed.js';
import { siteTimeRange } from '../messages/maintenance.js';
import { FeedError, parseFeed, type MaintenanceWindow } from '../maintenance/parse.js';
import { canonicalIana } from '../maintenance/timezones.js';

export interface ListingOptions {
  feed: string;
  from?: string;
  days?: string;
  timezone?: string;
  json?: boolean;
}

export interface Listing {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const DEFAULT_DAYS = 60;

function jsonRow(w: MaintenanceWindow) {
  return { uid: w.uid, summary: w.summary, start: w.start.toISOString(), end: w.end.toISOString(), allDay: w.allDay, status: w.status };
}

function textRow(w: MaintenanceWindow, timezone: string): string {
  return `${siteTimeRange(w, timezone)}  ${w.status.padEnd(9)}  ${w.summary.replace(/\s+/g, ' ')}`;
}

const fail = (message: string): Listing => ({ stdout: '', stderr: `${message}\n`, exitCode: 1 });

/** The listing for the given options; `now`, the host zone and the way out (a proxy's fetch) come from the caller. */
export async function maintenanceListing(opts: ListingOptions, now: Date, hostZone: string, fetchVia?: typeof fetch): Promise<Listing> {
  const from = opts.from ? new Date(opts.from) : now;
  if (Number.isNaN(from.getTime())) return fail(`--from: "${opts.from}" is not an ISO 8601 date such as 2026-07-01 or 2026-07-01T08:00:00Z`);
  const days = opts.days === undefined ? DEFAULT_DAYS : Number(opts.days);
  if (!Number.isFinite(days) || days <= 0) return fail(`--days: "${opts.days}" is not a positive number of days`);
  const timezone = opts.timezone ? canonicalIana(opts.timezone) : hostZone;
  if (!timezone) return fail(`--timezone: "${opts.timezone}" is not an IANA time zone such as Europe/Berlin`);

  const fetched = await new FeedFetcher({ feed: opts.feed, cache: new MemoryFeedCache(), ...(fetchVia ? { fetch: fetchVia } : {}) }).refresh();
  if (fetched.error || fetched.body === undefined) {
    return fail(`cannot read the maintenance feed ${opts.feed}: ${fetched.error?.message ?? 'no content'}`);
  }
  try {
    const to = new Date(from.getTime() + days * 86_400_000);
    const { windows, problems } = parseFeed(fetched.body, { timezone, from, to });
    const stderr = problems.map((p) => `warning: ${p}\n`).join('');
    if (opts.json) return { stdout: `${JSON.stringify(windows.map(jsonRow), null, 2)}\n`, stderr, exitCode: 0 };
    const rows = windows.map((w) => textRow(w, timezone));
    const empty = `No maintenance windows from ${from.toISOString()} for ${days} days.`;
    return { stdout: `${rows.length ? rows.join('\n') : empty}\n`, stderr, exitCode: 0 };
  } catch (err) {
    if (err instanceof FeedError) return fail(`the maintenance feed ${opts.feed} is malformed: ${err.message}`);
    throw err;
  }
}

export function register(program: Command): void {
  program
    .command('maintenance')
    .description('list the maintenance windows of an iCalendar feed')
    .requiredOption('--feed <url|file>', 'https://, http://, webcal://, file:// URL or a path')
    .option('--from <iso>', 'start of the range (default: now)')
    .option('--days <n>', `length of the range in days (default: ${DEFAULT_DAYS})`)
    .option('--timezone <tz>', 'IANA zone for floating and all-day times (default: this machine\'s)')
    .option('--json', 'print a JSON array sorted by start')
    .action(async (opts: ListingOptions) => {
      const hostZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const proxy = proxySettingsFromEnv(process.env);
      const problems = proxyProblems(proxy);
      if (problems.length) {
        process.stderr.write(problems.map((p) => `${p}\n`).join(''));
        process.exitCode = 1;
        return;
      }
      const egress = proxyDispatcher(proxy);
      const listing = await maintenanceListing(opts, new Date(), hostZone, egress && fetchThrough(egress));
      process.stdout.write(listing.stdout);
      process.stderr.write(listing.stderr);
      process.exitCode = listing.exitCode;
    });
}
