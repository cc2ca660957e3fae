/** The `maintenance:` config section, as the maintenance code uses it (durations in ms). */
import type { FeedMatch } from './parse.js';

export interface MaintenanceConfig {
  /** https://, http://, webcal://, file:// URL or a plain path. */
  feed: string;
  /** Channel for announcements; without it only owner DMs are sent. */
  channel?: string;
  /** Operators' channel for feed failures; without it failures are only logged. */
  opsChannel?: string;
  /** When the feed is fetched (node-cron syntax). */
  refreshCron: string;
  /** Reminder offsets before a window starts. */
  remindBefore: number[];
  /** When owners of running workloads get their DM, before a window starts; 0 turns it off. */
  notifyOwnersBefore: number;
  /** IANA zone for floating and all-day times, and for the times shown in messages. */
  timezone: string;
  match?: FeedMatch;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const MAINTENANCE_DEFAULTS = {
  refreshCron: '*/15 * * * *',
  remindBefore: [14 * DAY, 7 * DAY, DAY, 2 * HOUR],
  notifyOwnersBefore: DAY,
  timezone: 'UTC',
} as const satisfies Partial<MaintenanceConfig>;
