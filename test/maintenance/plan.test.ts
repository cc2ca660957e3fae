import { knownVersion, MemoryMaintenanceLedger } from '../../src/maintenance/ledger.js';
import { remindersDue, type PlanInput } from '../../src/maintenance/plan.js';
import type { MaintenanceWindow } from '../../src/maintenance/window.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const OFFSETS = [14 * DAY, 7 * DAY, DAY, 2 * HOUR];
const START = new Date('2026-07-07T07:00:00Z');

function window(overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow {
  return {
    uid: 'w1', occurrenceStart: START.toISOString(), key: `w1|${START.toISOString()}`,
    summary: 'GPU node patching', start: START, end: new Date(START.getTime() + 8 * HOUR),
    allDay: false, status: 'confirmed', sequence: 0, ...overrides,
  };
}

const at = (msFromStart: number) => new Date(START.getTime() + msFromStart);

/** Runs the planner the way the service does: post, mark sent, remember. */
function runClock(windowsAt: (now: Date) => MaintenanceWindow[], times: Date[], ledger = new MemoryMaintenanceLedger()) {
  const posted: string[] = [];
  for (const now of times) {
    const due = remindersDue({
      windows: windowsAt(now), now, offsetsMs: OFFSETS, ownerNoticeMs: DAY, sent: ledger.sentKeys(), known: ledger.known(),
    });
    for (const r of due) {
      posted.push(`${now.toISOString()} ${r.kind}${r.offsetMs ? ` ${r.offsetMs / HOUR}h` : ''}`);
      for (const key of [r.key, ...r.settles]) ledger.markSent(key, now);
      if (r.kind !== 'end') ledger.remember(r.window);
    }
  }
  return { posted, ledger };
}

function plan(input: Partial<PlanInput> & { now: Date }) {
  return remindersDue({ windows: [window()], offsetsMs: OFFSETS, ownerNoticeMs: DAY, sent: new Set(), known: new Map(), ...input });
}

describe('remindersDue', () => {
  it('posts each reminder at its offset, the owner notice a day ahead, the start and the end, once each', () => {
    const minutes = Array.from({ length: 16 * 24 * 4 }, (_, i) => at(-15 * DAY + i * 15 * 60_000));
    const { posted } = runClock(() => [window()], minutes);
    expect(posted).toEqual([
      '2026-06-23T07:00:00.000Z advance 336h',
      '2026-06-30T07:00:00.000Z advance 168h',
      '2026-07-06T07:00:00.000Z advance 24h',
      '2026-07-06T07:00:00.000Z owners',
      '2026-07-07T05:00:00.000Z advance 2h',
      '2026-07-07T07:00:00.000Z start',
      '2026-07-07T15:00:00.000Z end',
    ]);
  });

  it('posts nothing twice across a restart, because the ledger outlives the process', () => {
    const ledger = new MemoryMaintenanceLedger();
    runClock(() => [window()], [at(-7 * DAY)], ledger);
    const afterRestart = runClock(() => [window()], [at(-7 * DAY + 60_000), at(-6 * DAY)], ledger);
    expect(afterRestart.posted).toEqual([]);
  });

  it('sends only the most recent missed advance reminder, late, while the window is still ahead', () => {
    // Down from 15 days to 20 hours before the start: the 14-day, 7-day and 1-day notices were missed.
    const due = plan({ now: at(-20 * HOUR) });
    expect(due.map((r) => [r.kind, r.offsetMs])).toEqual([['advance', DAY], ['owners', undefined]]);
  });

  it('announces a window first seen inside the shortest offset at once', () => {
    const due = plan({ now: at(-40 * 60_000) });
    expect(due.map((r) => r.kind)).toEqual(['advance', 'owners']);
    expect(due[0].offsetMs).toBe(2 * HOUR);
  });

  it('sends no advance reminder once the window has started, and no start notice after the grace period', () => {
    expect(plan({ now: at(30 * 60_000) }).map((r) => r.kind)).toEqual(['start']);
    expect(plan({ now: at(3 * HOUR) })).toEqual([]);
  });

  it('says the cluster is back only within the grace period after the end', () => {
    expect(plan({ now: at(9 * HOUR) }).map((r) => r.kind)).toEqual(['end']);
    expect(plan({ now: at(11 * HOUR) })).toEqual([]);
  });

  it('announces a rescheduled window as a change instead of the advance reminder due at the same time', () => {
    const announced = window();
    const moved = window({ start: at(2 * DAY), end: at(2 * DAY + 4 * HOUR), sequence: 1 });
    const due = remindersDue({
      windows: [moved], now: at(-6 * DAY), offsetsMs: OFFSETS, ownerNoticeMs: DAY,
      sent: new Set([`${announced.key}#advance:${7 * DAY}`]), known: new Map([[announced.key, knownVersion(announced)]]),
    });
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ kind: 'changed', previous: { start: START.toISOString() } });
    // Eight days ahead now: the change notice stands in for the 14-day reminder of the new date.
    expect(due[0].settles).toEqual([`${announced.key}#advance:${14 * DAY}`]);
  });

  it('announces a higher SEQUENCE as a change even when the times stay', () => {
    const announced = window();
    const due = remindersDue({
      windows: [window({ sequence: 2, description: 'Now also the storage' })], now: at(-3 * DAY), offsetsMs: OFFSETS,
      ownerNoticeMs: DAY, sent: new Set([`${announced.key}#advance:${7 * DAY}`]), known: new Map([[announced.key, knownVersion(announced)]]),
    });
    expect(due.map((r) => r.kind)).toEqual(['changed']);
  });

  it('settles a due advance reminder with the change notice, so the channel gets one message', () => {
    const { posted } = runClock(
      (now) => (now < at(-3 * DAY) ? [window()] : [window({ start: at(HOUR), sequence: 1 })]),
      [at(-7 * DAY), at(-2 * DAY), at(-2 * DAY + 60_000)],
    );
    expect(posted).toEqual(['2026-06-30T07:00:00.000Z advance 168h', '2026-07-05T07:00:00.000Z changed']);
  });

  it('announces a cancelled window once, and only if it had been announced', () => {
    const { posted } = runClock(
      (now) => [window({ status: now < at(-3 * DAY) ? 'confirmed' : 'cancelled', sequence: now < at(-3 * DAY) ? 0 : 1 })],
      [at(-7 * DAY), at(-2 * DAY), at(-DAY), at(HOUR)],
    );
    expect(posted).toEqual(['2026-06-30T07:00:00.000Z advance 168h', '2026-07-05T07:00:00.000Z cancelled']);
    expect(plan({ windows: [window({ status: 'cancelled' })], now: at(-DAY) })).toEqual([]);
  });

  it('announces an announced window that vanished from a complete feed as cancelled', () => {
    const announced = window();
    const due = remindersDue({
      windows: [], now: at(-3 * DAY), offsetsMs: OFFSETS, ownerNoticeMs: DAY, sent: new Set(),
      known: new Map([[announced.key, knownVersion(announced)]]),
      complete: { from: at(-10 * DAY), to: at(60 * DAY) },
    });
    expect(due).toEqual([expect.objectContaining({ kind: 'cancelled', window: expect.objectContaining({ uid: 'w1', summary: 'GPU node patching' }) })]);
    // Without the promise that the feed is complete (it had problems), silence.
    expect(remindersDue({ windows: [], now: at(-3 * DAY), offsetsMs: OFFSETS, ownerNoticeMs: DAY, sent: new Set(), known: new Map([[announced.key, knownVersion(announced)]]) })).toEqual([]);
  });
});
