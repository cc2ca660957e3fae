/**
 * The demo's maintenance calendar: one window two days from now, as an iCalendar file like the
 * ones a site's shared calendar exports. Pure: the start comes in.
 */

const HOUR_MS = 3_600_000;

/** When the demo's window starts: two days ahead, on the next full hour. */
export function demoWindowStart(now: Date): Date {
  return new Date(Math.ceil((now.getTime() + 48 * HOUR_MS) / HOUR_MS) * HOUR_MS);
}

function icsUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function maintenanceCalendar(start: Date, hours: number, stamp: Date): string {
  const end = new Date(start.getTime() + hours * HOUR_MS);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Lab//GPU cluster operations//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:gpu-maintenance-${icsUtc(start)}@example.org`,
    `DTSTAMP:${icsUtc(stamp)}`,
    `DTSTART:${icsUtc(start)}`,
    `DTEND:${icsUtc(end)}`,
    'SUMMARY:GPU cluster maintenance: NVIDIA driver and firmware upgrade',
    'DESCRIPTION:All DGX nodes are drained and rebooted. Running workloads are stopped when the window starts\\; checkpoint before it.',
    'LOCATION:Data centre B',
    'CATEGORIES:MAINTENANCE',
    'STATUS:CONFIRMED',
    'SEQUENCE:0',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
