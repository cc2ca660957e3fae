/**
 * The reply and Home tab builders on their own, with inputs too big or too hostile to set up
 * through the cluster: every result must pass the same Block Kit rules the simulated Slack
 * enforces.
 */
import type { LifecycleState, Workload } from '../../src/model.js';
import { LIFECYCLE_STATES } from '../../src/model.js';
import { MAINTENANCE_ADVICE } from '../../src/lifecycle/states.js';
import type { MaintenanceWindow } from '../../src/maintenance/parse.js';
import { DEFAULT_SETTINGS } from '../../src/notify/settings.js';
import { buildHomeView } from '../../src/messages/home.js';
import { logSections, logsMessage, maintenanceMessage, refusalMessage, statusMessage } from '../../src/messages/replies.js';
import { messageViolation, viewViolation } from '../fakes/slack.js';

const now = new Date('2026-11-29T12:00:00Z');

function workload(i: number, state: LifecycleState): Workload {
  return {
    uid: `uid-${i}`,
    kind: 'TrainingWorkload',
    apiVersion: 'run.ai/v2alpha1',
    name: `job-${i}-${'n'.repeat(40)}`,
    namespace: 'runai-vision',
    project: 'vision',
    owner: 'alice',
    state,
    createdAt: new Date(now.getTime() - i * 60_000).toISOString(),
    pods: [],
  };
}

function window(summary: string, startIso: string, hours: number): MaintenanceWindow {
  const start = new Date(startIso);
  return { uid: summary, occurrenceStart: startIso, key: `${summary}|${startIso}`, summary, start, end: new Date(start.getTime() + hours * 3_600_000), allDay: false, status: 'confirmed', sequence: 0 };
}

describe('reply and Home tab builders', () => {
  it('keeps a hostile log inside a code block that cannot ping, link or close early', () => {
    const hostile = ['<!channel> <@U123> <https://evil.example|click>', '``` closed? ```', '\u202eevil', 'x'.repeat(5000)].join('\n');
    const message = logsMessage({ workload: workload(1, 'Failed'), pod: 'p', container: 'c', previous: false, text: hostile, tail: 50, capped: false });
    expect(messageViolation(message as never)).toBeUndefined();
    const code = JSON.stringify(message.blocks);
    expect(code).not.toContain('<!channel>');
    expect(code).not.toContain('<@U123>');
    expect(code).not.toContain('\u202e');
    expect(code.match(/```/g)!.length % 2).toBe(0);
  });

  it('keeps the last lines of a 1000-line log within ~11k characters and counts the rest', () => {
    const log = Array.from({ length: 1000 }, (_, i) => `line ${i} ${'y'.repeat(200)}`).join('\n');
    const { blocks, shown, total } = logSections(log);
    const chars = blocks.reduce((n, b) => n + ((b.text as { text: string }).text.length), 0);
    expect(chars).toBeLessThanOrEqual(11_000);
    expect(total).toBe(1000);
    expect(shown).toBeLessThan(1000);
    expect(JSON.stringify(blocks)).toContain('line 999 ');
    expect(blocks.every((b) => (b.text as { text: string }).text.length <= 3000)).toBe(true);
  });

  it('lists at most 20 pods in a status reply and stays valid with many containers', () => {
    const w = workload(1, 'Running');
    w.pods = Array.from({ length: 64 }, (_, i) => ({
      name: `job-worker-${i}`,
      namespace: 'runai-vision',
      node: `gpu-node-${i}`,
      phase: 'Running',
      replicaType: 'worker',
      replicaIndex: i,
      containers: [{ name: 'pytorch', restartCount: 2, ready: true, running: {} }],
    }));
    const message = statusMessage({ workload: w, now });
    expect(messageViolation(message as never)).toBeUndefined();
    expect(JSON.stringify(message.blocks)).toContain('and 44 more pods');
  });

  it('shows the next maintenance windows with the guide advice', () => {
    const message = maintenanceMessage([window('Summer maintenance', '2027-07-01T06:00:00Z', 48), window('Year-end updates', '2027-12-20T06:00:00Z', 8)], now);
    const shown = JSON.stringify(message);
    expect(shown).toContain('Summer maintenance');
    expect(shown).toContain('Year-end updates');
    expect(shown).toContain(MAINTENANCE_ADVICE.plan);
    expect(shown).toContain('<!date^');
    expect(maintenanceMessage([], now).text).toContain('No maintenance windows are planned');
  });

  it('builds a Home tab of at most 100 valid blocks for someone with hundreds of workloads and mutes', () => {
    const workloads = Array.from({ length: 700 }, (_, i) => workload(i, LIFECYCLE_STATES[i % LIFECYCLE_STATES.length]));
    const view = buildHomeView({
      now,
      workloads,
      alerts: Array.from({ length: 10 }, (_, i) => ({
        entry: { key: `wl:uid-${i}:Failed`, recipient: 'U0ALICE', sentAt: now.toISOString() },
        workload: { uid: `uid-${i}`, namespace: 'runai-vision', name: `job-${i}`, project: 'vision', kind: 'TrainingWorkload', state: 'Failed', stateSince: now.toISOString(), snapshot: '{}' },
      })),
      nextWindow: window('Summer maintenance', '2027-07-01T06:00:00Z', 48),
      settings: { ...DEFAULT_SETTINGS, quietHours: { from: '22:00', to: '07:00', timezone: 'Europe/Berlin' } },
      mutes: Array.from({ length: 40 }, (_, i) => ({ scope: `workload:runai-vision/job-${i}` })),
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(viewViolation(view)).toBeUndefined();
    const shown = JSON.stringify(view);
    expect(shown).toContain('and 90 more');
    expect(shown).toContain('Summer maintenance');
    expect(shown).toContain('22:00–07:00 Europe/Berlin');
  });

  it('lists a log-saving tip among my recent messages by what it was, and shows the tips setting', () => {
    const view = buildHomeView({
      now,
      workloads: [],
      alerts: [{ entry: { key: 'tip:masked-exit:2917:alice', sentAt: now.toISOString() } }],
      nextWindow: null,
      settings: { ...DEFAULT_SETTINGS, tips: false },
      mutes: [],
    });
    const shown = JSON.stringify(view);
    expect(shown).toContain('Log-saving tip, ');
    expect(shown).toContain('Log-saving tips, at most one a week per kind: *off*');
  });

  it('escapes a workload name in the refusal', () => {
    expect(refusalMessage('a<!here>b').text).not.toContain('<!here>');
  });
});
