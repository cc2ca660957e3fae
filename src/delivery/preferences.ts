/**
 * What a person's settings mean, as values (notify/settings.ts reads them from the store).
 * Failed and Stopped always reach the owner (that is the product); the rest is opt-in or
 * opt-out per person.
 */
import type { UserSettings } from '../model.js';

export const DEFAULT_SETTINGS: UserSettings = { completed: false, pending: true, tips: true };

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isValidHhmm(text: string): boolean {
  return HHMM.test(text);
}

/** When quiet hours that contain `now` end, or undefined when `now` is outside them. */
export function quietUntil(quiet: UserSettings['quietHours'], now: Date): Date | undefined {
  if (!quiet || !HHMM.test(quiet.from) || !HHMM.test(quiet.to)) return undefined;
  const local = minutesOfDay(now, quiet.timezone);
  const from = toMinutes(quiet.from);
  const to = toMinutes(quiet.to);
  const inside = from <= to ? local >= from && local < to : local >= from || local < to;
  if (!inside) return undefined;
  const wait = (to - local + 24 * 60) % (24 * 60);
  return new Date(now.getTime() + wait * 60_000 - (now.getTime() % 60_000));
}

function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

function minutesOfDay(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}
