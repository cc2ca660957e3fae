/**
 * How long an occurrence lasts, by RFC 5545 rather than by ical.js, which adds every duration to
 * the wall clock: DURATION weeks and days are nominal (same local time), hours and less are
 * exact (§3.3.6), and a recurring event whose length is given by DTEND repeats that exact length
 * (§3.8.5.3). All-day events keep whole days.
 */
import ICAL from 'ical.js';

type Time = InstanceType<typeof ICAL.Time>;
type Duration = InstanceType<typeof ICAL.Duration>;
type Component = InstanceType<typeof ICAL.Component>;
type Event = InstanceType<typeof ICAL.Event>;

/** Instant of a time, with floating and DATE values read in the site zone. */
export type InstantOf = (time: Time) => number;

/** The end instant of an occurrence that starts at `start`. */
export type Span = (start: Time) => number;

export function addDuration(start: Time, duration: Duration, instantOf: InstantOf): number {
  const nominal = start.clone();
  nominal.addDuration(
    ICAL.Duration.fromData({ weeks: duration.weeks, days: duration.days, isNegative: duration.isNegative }),
  );
  const exactSeconds = (duration.hours * 60 + duration.minutes) * 60 + duration.seconds;
  return instantOf(nominal) + (duration.isNegative ? -1 : 1) * exactSeconds * 1000;
}

function addDays(start: Time, days: number, instantOf: InstantOf): number {
  const end = start.clone();
  end.addDuration(ICAL.Duration.fromData({ days }));
  return instantOf(end);
}

function wholeDaysBetween(a: Time, b: Time): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

function has(component: Component, name: string): boolean {
  return component.hasProperty(name);
}

/**
 * The span of an event's occurrences, from its own DTSTART/DTEND/DURATION. Undefined when the
 * event gives neither DTEND nor DURATION, so that an override can inherit its master's length.
 */
export function ownSpan(event: Event, instantOf: InstantOf): Span | undefined {
  const start = event.startDate;
  const component = event.component;
  if (has(component, 'dtend')) {
    const end = component.getFirstPropertyValue('dtend');
    if (!(end instanceof ICAL.Time)) return undefined;
    if (start.isDate) {
      const days = wholeDaysBetween(start, end);
      return (from) => addDays(from, days, instantOf);
    }
    const exactMs = instantOf(end) - instantOf(start);
    return (from) => instantOf(from) + exactMs;
  }
  if (has(component, 'duration')) {
    const duration = component.getFirstPropertyValue('duration');
    if (duration instanceof ICAL.Duration) return (from) => addDuration(from, duration, instantOf);
  }
  return undefined;
}

/** RFC 5545 §3.6.1: no DTEND or DURATION means one day for a date, no time for a date-time. */
export function defaultSpan(instantOf: InstantOf): Span {
  return (from) => (from.isDate ? addDays(from, 1, instantOf) : instantOf(from));
}
