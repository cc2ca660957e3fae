import { MAINTENANCE_ADVICE, SAFE_RECOVERY } from '../../src/lifecycle/states.js';
import {
  buildFeedFailureNotice, buildOwnerNotice, buildWindowMessage, feedText, humanDuration,
} from '../../src/messages/maintenance.js';
import type { DueReminder } from '../../src/maintenance/plan.js';
import type { MaintenanceWindow } from '../../src/maintenance/window.js';
import type { Workload } from '../../src/model.js';

const ctx = { timezone: 'Europe/Berlin', now: new Date('2026-06-30T07:00:00Z') };
const window: MaintenanceWindow = {
  uid: 'w1', occurrenceStart: '2026-07-07T07:00:00.000Z', key: 'w1|2026-07-07T07:00:00.000Z',
  summary: 'Storage <!channel> upgrade & reboot', description: '<p>All <b>GPU</b> nodes.</p><br>Login &amp; <@U123> stay up.',
  location: 'Spike', start: new Date('2026-07-07T07:00:00Z'), end: new Date('2026-07-07T15:00:00Z'),
  allDay: false, status: 'confirmed', sequence: 0,
};
const due = (kind: DueReminder['kind'], extra: Partial<DueReminder> = {}): DueReminder => ({ key: `k#${kind}`, kind, window, settles: [], ...extra });
const allText = (m: { text: string; blocks: unknown[] }) => JSON.stringify(m);

function workload(i: number, owner = 'alice'): Workload {
  return { uid: `u${i}`, kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: `train-${i}`, namespace: 'runai-p', project: 'p', owner, state: 'Running', pods: [] };
}

describe('maintenance messages', () => {
  it('announces when (Slack date formatting and the site zone), how long, what is affected, and the guide advice', () => {
    const m = buildWindowMessage(due('advance', { offsetMs: 7 * 86_400_000 }), ctx);
    const json = allText(m);
    expect(m.blocks[0]).toMatchObject({ type: 'header', text: { text: '🔧 Planned maintenance in 7 days: Storage <!channel> upgrade & reboot' } });
    expect(json).toContain('<!date^1783407600^{date_short_pretty} {time}|Tue, 7 Jul 2026, 09:00 CEST>');
    expect(json).toContain('*Site time (Europe/Berlin):* Tue, 7 Jul 2026, 09:00 CEST – Tue, 7 Jul 2026, 17:00 CEST');
    expect(json).toContain('*How long:* 8 hours');
    expect(json).toContain('All GPU nodes.\\n\\nLogin &amp;'); // tags, mention-like ones included, are dropped
    for (const advice of Object.values(MAINTENANCE_ADVICE)) expect(json).toContain(advice);
    expect(m.text).toBe('🔧 Planned maintenance in 7 days: Storage &lt;!channel&gt; upgrade &amp; reboot (Tue, 7 Jul 2026, 09:00 CEST – Tue, 7 Jul 2026, 17:00 CEST, Europe/Berlin)');
  });

  it('never lets feed text reach mrkdwn unescaped', () => {
    for (const kind of ['advance', 'changed', 'cancelled', 'start', 'end'] as const) {
      const m = buildWindowMessage(due(kind, { previous: { start: '2026-07-01T07:00:00.000Z', end: '2026-07-01T09:00:00.000Z', sequence: 0, status: 'confirmed' } }), ctx);
      const mrkdwn = JSON.stringify([m.text, m.blocks.filter((b) => (b as { type: string }).type !== 'header')]);
      expect(mrkdwn).not.toMatch(/<!channel>|<@U123>/);
    }
  });

  it('shows the previous time in a change notice and says a cancelled window will not happen', () => {
    const previous = { start: '2026-07-01T07:00:00.000Z', end: '2026-07-01T09:00:00.000Z', sequence: 0, status: 'confirmed' };
    expect(allText(buildWindowMessage(due('changed', { previous }), ctx))).toContain('*Previously:* <!date^1782889200^');
    expect(allText(buildWindowMessage(due('cancelled', { previous }), ctx))).toContain('No maintenance will take place in this window.');
  });

  it('says the cluster is back and quotes the guide on retrying transient failures', () => {
    const m = buildWindowMessage(due('end'), ctx);
    expect(m.text).toMatch(/^🟢 Maintenance is over, the cluster is back/);
    expect(allText(m)).toContain(SAFE_RECOVERY.retryTransient);
  });

  it('shows an all-day window by dates, with the exclusive end day left out', () => {
    const allDay = { ...window, allDay: true, start: new Date('2026-07-06T22:00:00Z'), end: new Date('2026-07-08T22:00:00Z') };
    const json = allText(buildWindowMessage({ ...due('advance'), window: allDay }, ctx));
    expect(json).toContain('Tue, 7 Jul 2026 – Wed, 8 Jul 2026 (all days)');
    expect(json).toContain('^{date_short_pretty}|Tue, 7 Jul 2026>');
    expect(json).toContain('*How long:* 2 days');
  });

  it('lists all of one owner\'s running workloads in one message within Slack\'s limits', () => {
    const m = buildOwnerNotice(window, Array.from({ length: 2000 }, (_, i) => workload(i)), ctx);
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    for (const b of m.blocks as Array<{ type: string; text?: { text: string } }>) {
      if (b.type === 'section') expect(b.text!.text.length).toBeLessThanOrEqual(3000);
      if (b.type === 'header') expect(b.text!.text.length).toBeLessThanOrEqual(150);
    }
    const json = allText(m);
    expect(json).toContain('2000 workloads of yours are running');
    expect(json).toContain('`train-0` in p (TrainingWorkload)');
    expect(json).toMatch(/…and \d+ more\./);
  });

  it('names each workload\'s last checkpoint under it, or says why its log could not be read, within the limits', () => {
    const saved = (i: number) => ({
      sighting: { linesRead: 2000, lastSaved: { framework: 'Megatron-LM', progress: { unit: 'iteration' as const, value: 12000 + i }, path: `/data/<!channel>/${'x'.repeat(300)}` }, ageMs: 40 * 60_000 },
      pod: `train-${i}-0-0`, container: 'train',
    });
    const readings = Array.from({ length: 2000 }, (_, i) => (i === 1 ? { problem: 'its log could not be read (500 <@U1>)' } : i === 2 ? undefined : saved(i)));
    const m = buildOwnerNotice(window, Array.from({ length: 2000 }, (_, i) => workload(i)), ctx, readings);
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    for (const b of m.blocks as Array<{ type: string; text?: { text: string } }>) {
      if (b.type === 'section') expect(b.text!.text.length).toBeLessThanOrEqual(3000);
    }
    const json = allText(m);
    expect(json).toContain('`train-0` in p (TrainingWorkload)\\n      Last checkpoint saved 40 min ago (iteration 12000, `/data/&lt;!channel&gt;/');
    expect(json).toContain('`train-1` in p (TrainingWorkload)\\n      Could not look for its last checkpoint: its log could not be read (500 &lt;@U1&gt;)');
    // No reading (not read): the line as before.
    expect(json).toContain('`train-2` in p (TrainingWorkload)\\n• `train-3`');
    expect(json).not.toContain('<!channel>/');
    expect(json).toMatch(/…and \d+ more\./);
  });

  it('keeps a long header within 150 characters', () => {
    const m = buildWindowMessage({ ...due('start'), window: { ...window, summary: 'x'.repeat(400) } }, ctx);
    expect((m.blocks[0] as { text: { text: string } }).text.text.length).toBe(150);
  });

  it('tells operators about a failing feed without showing the secret part of its address', () => {
    const m = buildFeedFailureNotice('https://calendar.example.com/private-abc123/basic.ics', 'HTTP 500 Internal Server Error',
      new Date('2026-06-30T06:00:00Z'), '2026-06-30T05:45:00.000Z', ctx);
    expect(allText(m)).toContain('https://calendar.example.com/…');
    expect(allText(m)).not.toContain('private-abc123');
    expect(m.text).toBe('The maintenance calendar feed is failing: HTTP 500 Internal Server Error');
  });

  it.each([[8 * 3600_000, '8 hours'], [28 * 3600_000, '1 day 4 hours'], [45 * 60_000, '45 minutes'], [90 * 60_000, '1 hour 30 minutes']])(
    'formats %i ms as "%s"', (ms, text) => expect(humanDuration(ms)).toBe(text),
  );

  it('strips HTML and control characters from feed text', () => {
    expect(feedText('<div>a</div>\u0007<script>x</script>b &lt;c&gt;', 100)).toBe('a\nxb &lt;c&gt;');
  });
});
