/**
 * Time-zone names as calendar producers write them → IANA zones, and wall-clock times in an
 * IANA zone → instants. ical.js ships no zone data and silently treats an unknown TZID as
 * floating (ical-reference §3.1), so every TZID a feed uses is resolved here, from Node's own
 * ICU data through Intl, instead of from bundled VTIMEZONE text.
 */
import ICAL from 'ical.js';
import { WINDOWS_TO_IANA_MAP } from 'windows-iana';

export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface ResolvedZone {
  iana: string;
  /** How the name was understood, for the problem report when it was a guess. */
  how: 'iana' | 'windows' | 'vendor-prefix' | 'display-name' | 'fixed-offset';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(iana: string): Intl.DateTimeFormat {
  let dtf = formatters.get(iana);
  if (!dtf) {
    dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: iana,
      hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(iana, dtf);
  }
  return dtf;
}

/** The IANA zone's canonical name, or undefined when Intl does not know it. */
export function canonicalIana(name: string): string | undefined {
  // Intl also accepts bare abbreviations and offsets; only region/city names count here,
  // plus UTC/GMT, so that "1" or "Standard" are never taken for zones.
  if (!/^[A-Za-z_+\-0-9]+(\/[A-Za-z_+\-0-9]+)+$/.test(name) && !/^(UTC|GMT|Etc\/\S+)$/i.test(name)) {
    return undefined;
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** UTC offset of `iana` at an instant, in milliseconds. */
export function offsetAt(iana: string, epochMs: number): number {
  const parts = formatterFor(iana).formatToParts(new Date(epochMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - (epochMs - (epochMs % 1000 + 1000) % 1000);
}

/**
 * The instant a wall-clock time in `iana` denotes, as RFC 5545 §3.3.5 says: a repeated local
 * time (fall back) is its first occurrence, and a skipped one (spring forward) is read with the
 * offset from before the gap.
 */
export function wallTimeToEpochMs(wall: WallTime, iana: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const DAY = 86_400_000;
  const before = offsetAt(iana, asUtc - DAY);
  if (offsetAt(iana, asUtc - before) === before) return asUtc - before;
  const after = offsetAt(iana, asUtc + DAY);
  if (offsetAt(iana, asUtc - after) === after) return asUtc - after;
  return asUtc - before;
}

/**
 * An ical.js zone backed by Intl. ical.js asks a zone only for `utcOffset(time)` (seconds, for a
 * wall-clock time in that zone) when it computes instants, compares or converts times.
 */
export class IntlTimezone extends ICAL.Timezone {
  private readonly offsets = new Map<string, number>();

  constructor(tzid: string, readonly iana: string) {
    super({ tzid });
  }

  override utcOffset(tt: WallTime): number {
    const memoKey = `${tt.year}-${tt.month}-${tt.day}T${tt.hour}:${tt.minute}:${tt.second}`;
    let seconds = this.offsets.get(memoKey);
    if (seconds === undefined) {
      const asUtc = Date.UTC(tt.year, tt.month - 1, tt.day, tt.hour, tt.minute, tt.second);
      seconds = (asUtc - wallTimeToEpochMs(tt, this.iana)) / 1000;
      this.offsets.set(memoKey, seconds);
    }
    return seconds;
  }
}

/** Windows zone id (lower case) → IANA, from CLDR's windowsZones (territory 001 = primary). */
const WINDOWS_ZONES: ReadonlyMap<string, string> = new Map(
  WINDOWS_TO_IANA_MAP.filter((row) => row.territory === '001').map((row) => [
    row.windowsName.toLowerCase(),
    row.iana[0],
  ]),
);

/** IANA city (last segment, lower case, spaces for underscores) → zone, for display names. */
let cities: Map<string, string> | undefined;
function ianaForCity(city: string): string | undefined {
  if (!cities) {
    cities = new Map();
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      const last = zone.split('/').pop()!.replace(/_/g, ' ').toLowerCase();
      if (!cities.has(last)) cities.set(last, zone);
    }
  }
  return cities.get(city.trim().toLowerCase());
}

function windowsToIana(name: string): string | undefined {
  // Exchange appends " 1", " 2" to ids it has copied ("Eastern Standard Time 1").
  const id = name.trim().replace(/\s+\d+$/, '').toLowerCase();
  return WINDOWS_ZONES.get(id) ?? WINDOWS_ZONES.get(id.replace(/ time$/, ' standard time'));
}

/** "(UTC-05:00) Eastern Time (US & Canada)", "(GMT+10:00) Canberra, Melbourne, Sydney". */
function displayNameToZone(name: string): ResolvedZone | undefined {
  const m = /^\((?:UTC|GMT)\s*(?:([+-])(\d{1,2}):?(\d{2}))?\)\s*(.*)$/i.exec(name.trim());
  if (!m) return undefined;
  const rest = m[4];
  // Outlook's display names are the Windows id with "Standard" dropped and a region added.
  const region = rest.replace(/\s*\(.*\)\s*$/, '');
  const windows = windowsToIana(region);
  if (windows) return { iana: windows, how: 'display-name' };
  for (const city of rest.split(/,|\band\b/)) {
    const zone = ianaForCity(city);
    if (zone) return { iana: zone, how: 'display-name' };
  }
  if (m[1] && m[3] === '00') {
    // Etc/GMT signs are inverted: Etc/GMT+5 is UTC-05:00.
    const hours = Number(m[2]);
    const iana = hours === 0 ? 'Etc/UTC' : `Etc/GMT${m[1] === '-' ? '+' : '-'}${hours}`;
    if (canonicalIana(iana)) return { iana, how: 'fixed-offset' };
  }
  return undefined;
}

/**
 * The IANA zone a TZID means, or undefined when nothing sensible matches. Handles IANA names,
 * Windows ids (with Exchange suffixes or without "Standard"), vendor-prefixed ids such as
 * "/mozilla.org/20070129_1/America/New_York", and Outlook display names.
 */
export function resolveTimeZoneName(tzid: string): ResolvedZone | undefined {
  const name = tzid.trim().replace(/^"(.*)"$/, '$1').trim();
  if (!name) return undefined;
  const iana = canonicalIana(name);
  if (iana) return { iana, how: 'iana' };
  const windows = windowsToIana(name);
  if (windows) return { iana: windows, how: 'windows' };
  const segments = name.split('/').filter(Boolean);
  for (let i = 0; i < segments.length - 1; i++) {
    const suffix = canonicalIana(segments.slice(i).join('/'));
    if (suffix) return { iana: suffix, how: 'vendor-prefix' };
  }
  return displayNameToZone(name);
}
