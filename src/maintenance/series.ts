/**
 * VEVENTs grouped into series by UID, the way RFC 5545 relates them, instead of ical.js's
 * default of attaching every RECURRENCE-ID sibling to every master whatever its UID (which is
 * also O(N²) over a feed; ical-reference §2.4, §2.6). Duplicates are settled by revision.
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

export interface Series {
  uid: string;
  /** The recurring or single event; absent for overrides exported without their master. */
  master?: Component;
  overrides: Component[];
}

function timeValue(component: Component, name: string): Time | undefined {
  try {
    const value = component.getFirstPropertyValue(name);
    return value instanceof ICAL.Time ? value : undefined;
  } catch {
    return undefined; // values decode lazily; an unreadable stamp only loses its tie-break
  }
}

/** Newer revision first: higher SEQUENCE, then later LAST-MODIFIED/DTSTAMP, then later in file. */
function revision(component: Component, position: number): number[] {
  const sequence = Number(component.getFirstPropertyValue('sequence') ?? 0) || 0;
  const stamp = timeValue(component, 'last-modified') ?? timeValue(component, 'dtstamp');
  return [sequence, stamp ? stamp.toUnixTime() : 0, position];
}

function newer(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

/** Keeps the newest revision per key; reports how many older copies were dropped. */
function newestPerKey(
  entries: Array<{ key: string; component: Component; position: number }>,
): { kept: Component[]; dropped: number } {
  // Ranks are read only where a key repeats: reading the stamps decodes them, which adds up over
  // thousands of events that each appear once.
  const best = new Map<string, { component: Component; position: number; rank?: number[] }>();
  for (const { key, component, position } of entries) {
    const current = best.get(key);
    if (!current) {
      best.set(key, { component, position });
      continue;
    }
    const rank = revision(component, position);
    current.rank ??= revision(current.component, current.position);
    if (newer(rank, current.rank)) best.set(key, { component, position, rank });
  }
  return { kept: [...best.values()].map((b) => b.component), dropped: entries.length - best.size };
}

/** A stable made-up UID for producers that omit it, so reminders keep their identity. */
function generatedUid(event: Component, taken: Set<string>): string {
  const dtstart = event.getFirstProperty('dtstart')?.toJSON() ?? null;
  const digest = createHash('sha1')
    .update(JSON.stringify([dtstart, event.getFirstPropertyValue('summary')]))
    .digest('hex')
    .slice(0, 16);
  let uid = `generated-${digest}`;
  for (let n = 2; taken.has(uid); n++) uid = `generated-${digest}-${n}`;
  taken.add(uid);
  return uid;
}

/**
 * Exchange writes an all-day series with DATE values but its moved instance with a DATE-TIME
 * RECURRENCE-ID at local midnight, which ical.js does not match (ical-reference §2.4).
 */
function alignRecurrenceIdWithDateSeries(master: Component, override: Component): void {
  const start = timeValue(master, 'dtstart');
  const property = override.getFirstProperty('recurrence-id');
  const id = property?.getFirstValue();
  if (!start?.isDate || !(id instanceof ICAL.Time) || id.isDate) return;
  if (id.hour !== 0 || id.minute !== 0 || id.second !== 0) return;
  property!.removeParameter('tzid');
  property!.resetType('date');
  property!.setValue(ICAL.Time.fromData({ year: id.year, month: id.month, day: id.day, isDate: true }));
}

function recurrenceIdKey(override: Component): string {
  const id = timeValue(override, 'recurrence-id');
  if (!id) return String(override.getFirstPropertyValue('recurrence-id'));
  return id.isDate ? id.toString() : String(id.toUnixTime());
}

export function groupIntoSeries(events: Component[], problems: string[]): Series[] {
  const byUid = new Map<string, Array<{ component: Component; position: number }>>();
  const taken = new Set<string>();
  events.forEach((component, position) => {
    const raw = component.getFirstPropertyValue('uid');
    const uid = typeof raw === 'string' && raw.trim() ? raw.trim() : generatedUid(component, taken);
    byUid.set(uid, [...(byUid.get(uid) ?? []), { component, position }]);
  });

  const series: Series[] = [];
  for (const [uid, members] of byUid) {
    const masters = newestPerKey(
      members.filter((m) => !m.component.hasProperty('recurrence-id')).map((m) => ({ ...m, key: uid })),
    );
    if (masters.dropped) problems.push(`UID ${uid} appears ${masters.dropped + 1} times; kept the newest revision`);
    const master = masters.kept[0];
    const candidates = members.filter((m) => m.component.hasProperty('recurrence-id'));
    if (master) for (const m of candidates) alignRecurrenceIdWithDateSeries(master, m.component);
    const overrides = newestPerKey(candidates.map((m) => ({ ...m, key: recurrenceIdKey(m.component) })));
    series.push({ uid, master, overrides: overrides.kept });
  }
  return series;
}
