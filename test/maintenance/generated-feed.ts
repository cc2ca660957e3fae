/**
 * A big maintenance feed, generated rather than committed: every tenth event is a weekly series
 * of four (Europe/Berlin, no VTIMEZONE), the rest are single UTC windows spread over 2026.
 */
export function generatedFeed(events: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//runai-slack-bot//generated//EN'];
  const pad = (n: number) => String(n).padStart(2, '0');
  for (let i = 0; i < events; i++) {
    const day = new Date(Date.UTC(2026, 0, 1) + (i % 330) * 86_400_000);
    const date = `${day.getUTCFullYear()}${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}`;
    const hour = pad(2 + (i % 20));
    lines.push('BEGIN:VEVENT', `UID:generated-${i}@cluster.example`, 'DTSTAMP:20260101T000000Z');
    if (i % 10 === 0) {
      lines.push(
        `DTSTART;TZID=Europe/Berlin:${date}T${hour}0000`,
        `DTEND;TZID=Europe/Berlin:${date}T${hour}3000`,
        'RRULE:FREQ=WEEKLY;COUNT=4',
      );
    } else {
      lines.push(`DTSTART:${date}T${hour}0000Z`, 'DURATION:PT4H');
    }
    lines.push(`SUMMARY:Maintenance ${i}`, `DESCRIPTION:Generated window number ${i}\\, for scale.`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}
