import type { LifecycleState, Workload } from '../../src/model.js';
import { alertKey, stuckKey } from '../../src/keys.js';
import { decideChange, decideDeletion, decideStuck, podsCouldDate, type Remembered } from '../../src/lifecycle/transitions.js';

const HOUR = 3_600_000;
const NOW = new Date('2026-07-07T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const RULES = { alertStates: new Set<LifecycleState>(['Failed', 'Stopped', 'Completed']), lookbackMs: 24 * HOUR };
const STUCK = { pendingAfterMs: (project: string) => (project === 'urgent' ? HOUR / 4 : HOUR / 2), initializingAfterMs: HOUR / 4 };

function workload(state: LifecycleState, extra: Partial<Workload> = {}): Workload {
  return { uid: 'u1', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'train', namespace: 'runai-a', project: 'a', owner: 'alice', state, pods: [], ...extra };
}

const memory = (state: LifecycleState, sinceMs: number, extra: Partial<Remembered> = {}): Remembered => ({ state, stateSince: ago(sinceMs), owner: 'alice', ...extra });

describe('decideChange', () => {
  // [what, cluster shows, remembered, expected: transition from→to | none, owed since | none, remembered write]
  const rows: Array<[string, Workload, Remembered | undefined, string | undefined, string | undefined, boolean]> = [
    ['a workload seen Running for the first time owes nothing', workload('Running', { createdAt: ago(HOUR) }), undefined, undefined, undefined, true],
    ['Running → Failed is a transition and owes the owner a message from now', workload('Failed'), memory('Running', HOUR), 'Running→Failed', NOW.toISOString(), true],
    ['Running → Stopped owes a message', workload('Stopped'), memory('Running', HOUR), 'Running→Stopped', NOW.toISOString(), true],
    ['Running → Completed owes a message (the sink checks the opt-in)', workload('Completed'), memory('Running', HOUR), 'Running→Completed', NOW.toISOString(), true],
    ['Pending → Running is a transition that owes nothing', workload('Running'), memory('Pending', HOUR), 'Pending→Running', undefined, true],
    ['the same Failed snapshot again still owes (the ledger, not the decision, says it was told)', workload('Failed'), memory('Failed', HOUR), undefined, ago(HOUR), false],
    ['first seen Failed within the lookback (a failure during downtime) is owed since the CR says', workload('Failed', { phaseChangedAt: ago(2 * HOUR) }), undefined, undefined, ago(2 * HOUR), true],
    ['first seen Failed exactly at the lookback is still owed', workload('Failed', { phaseChangedAt: ago(24 * HOUR) }), undefined, undefined, ago(24 * HOUR), true],
    ['first seen Failed past the lookback is old news: nothing owed', workload('Failed', { phaseChangedAt: ago(24 * HOUR + 1) }), undefined, undefined, undefined, true],
    ['a failure remembered past the lookback owes nothing any more', workload('Failed'), memory('Failed', 30 * HOUR), undefined, undefined, false],
    ['without phaseChangedAt the creation time stands in', workload('Failed', { createdAt: ago(48 * HOUR) }), undefined, undefined, undefined, true],
    ['with no time at all, the failure counts from now', workload('Failed'), undefined, undefined, NOW.toISOString(), true],
    ['a new owner is remembered without a transition', workload('Running', { owner: 'bob' }), memory('Running', HOUR), undefined, undefined, true],
    ['a workload back after being seen deleted is remembered as present again', workload('Running'), memory('Running', HOUR, { deletedAt: ago(HOUR) }), undefined, undefined, true],
  ];

  it.each(rows)('%s', (_what, w, previous, transition, owedSince, writes) => {
    const d = decideChange(w, previous, NOW, RULES);
    expect(d.transition ? `${d.transition.from}→${d.transition.to}` : undefined).toBe(transition);
    expect(d.owed?.since.toISOString()).toBe(owedSince);
    if (d.owed) expect(d.owed.key).toBe(alertKey('u1', w.state));
    expect(d.remember !== undefined).toBe(writes);
    if (d.remember) {
      expect(d.remember.state).toBe(w.state);
      expect(d.remember.deletedAt).toBeUndefined();
    }
  });

  // When a change the bot missed began: the cluster's time, where it can be right.
  // [what, cluster shows, remembered, containers finished at, remembered since, owed]
  const DAY = 24 * HOUR;
  const since: Array<[string, Workload, Remembered | undefined, string | undefined, string, boolean]> = [
    ['remembered Running, now Failed with a 3-day-old condition: remembered as Failed since then, owed to nobody', workload('Failed', { phaseChangedAt: ago(3 * DAY) }), memory('Running', 4 * DAY), undefined, ago(3 * DAY), false],
    ['remembered Running, now Failed 2 hours ago by its condition: owed since then', workload('Failed', { phaseChangedAt: ago(2 * HOUR) }), memory('Running', 4 * DAY), undefined, ago(2 * HOUR), true],
    ['no CR time, the containers ended 3 days ago: Failed since then, owed to nobody', workload('Failed'), memory('Running', 4 * DAY), ago(3 * DAY), ago(3 * DAY), false],
    ["the CR's time wins over the containers'", workload('Failed', { phaseChangedAt: ago(2 * HOUR) }), memory('Running', 4 * DAY), ago(3 * DAY), ago(2 * HOUR), true],
    ['a CR time in the future is not trusted: from now', workload('Failed', { phaseChangedAt: new Date(NOW.getTime() + HOUR).toISOString() }), memory('Running', 4 * DAY), undefined, NOW.toISOString(), true],
    ['a CR time in the future gives way to the containers\', 3 days ago: Failed since then, owed to nobody', workload('Failed', { phaseChangedAt: new Date(NOW.getTime() + HOUR).toISOString() }), memory('Running', 4 * DAY), ago(3 * DAY), ago(3 * DAY), false],
    ['a CR time before the remembered state began is not trusted: from now', workload('Failed', { phaseChangedAt: ago(3 * DAY) }), memory('Running', HOUR), undefined, NOW.toISOString(), true],
    ['a container time before the remembered state began is not trusted: from now', workload('Failed'), memory('Running', HOUR), ago(3 * DAY), NOW.toISOString(), true],
    ['a time that is not one is not trusted: from now', workload('Failed', { phaseChangedAt: 'yesterday' }), memory('Running', 4 * DAY), undefined, NOW.toISOString(), true],
    ['no time at all: from now', workload('Failed'), memory('Running', 4 * DAY), undefined, NOW.toISOString(), true],
    ['first sight with a creation time in the future: from now', workload('Failed', { createdAt: new Date(NOW.getTime() + HOUR).toISOString() }), undefined, undefined, NOW.toISOString(), true],
    ['first sight without a CR time: the containers say when', workload('Failed', { createdAt: ago(5 * DAY) }), undefined, ago(2 * HOUR), ago(2 * HOUR), true],
  ];

  it.each(since)('%s', (_what, w, previous, finishedAt, stateSince, owed) => {
    const d = decideChange(w, previous, NOW, RULES, finishedAt);
    expect(new Date(d.remember!.stateSince).toISOString()).toBe(stateSince);
    expect(d.remember?.state).toBe('Failed');
    expect(d.owed !== undefined).toBe(owed);
    if (d.owed) expect(d.owed.since.toISOString()).toBe(stateSince);
    if (d.transition) expect(d.transition.at.toISOString()).toBe(stateSince);
  });

  it('keeps the remembered start of a state while it lasts, and restarts it on a transition', () => {
    expect(decideChange(workload('Failed'), memory('Running', HOUR), NOW, RULES).remember?.stateSince).toBe(NOW.toISOString());
    const later = new Date(NOW.getTime() + HOUR);
    const again = decideChange(workload('Failed', { owner: 'bob' }), memory('Failed', 0), later, RULES);
    expect(again.remember?.stateSince).toBe(NOW.toISOString());
  });

  it('owes nothing for a state outside the alert states, however it got there', () => {
    for (const state of ['Pending', 'Initializing', 'Running', 'Deleted'] as const) {
      expect(decideChange(workload(state), memory('Running', HOUR), NOW, RULES).owed).toBeUndefined();
    }
  });
});

describe('podsCouldDate', () => {
  // [what, cluster shows, remembered, read the pods]
  const rows: Array<[string, Workload, Remembered | undefined, boolean]> = [
    ['a missed failure remembered Running past the lookback, its CR without a time: read them', workload('Failed'), memory('Running', 30 * HOUR), true],
    ['remembered Running within the lookback: owed whatever they say, not read', workload('Failed'), memory('Running', HOUR), false],
    ['the CR gives a time of its own: not read', workload('Failed', { phaseChangedAt: ago(3 * HOUR) }), memory('Running', 30 * HOUR), false],
    ['the CR gives a time that cannot be right: read them', workload('Failed', { phaseChangedAt: new Date(NOW.getTime() + HOUR).toISOString() }), memory('Running', 30 * HOUR), true],
    ['the same state as remembered: no change to date', workload('Failed'), memory('Failed', 30 * HOUR), false],
    ['a change into a state that owes nothing: not read', workload('Running'), memory('Pending', 30 * HOUR), false],
    ['first sight: the CR and its creation time decide', workload('Failed'), undefined, false],
  ];
  it.each(rows)('%s', (_what, w, previous, expected) => {
    expect(podsCouldDate(w, previous, NOW, RULES)).toBe(expected);
  });
});

describe('decideDeletion', () => {
  it('remembers a deletion once, as a transition from the last state, owing nothing', () => {
    const d = decideDeletion(workload('Failed'), memory('Failed', HOUR), NOW);
    expect(d.transition).toMatchObject({ from: 'Failed', to: 'Deleted', at: NOW });
    expect(d.transition?.workload.state).toBe('Deleted');
    expect(d.remember).toEqual({ state: 'Deleted', stateSince: NOW.toISOString(), owner: 'alice', deletedAt: NOW.toISOString() });
    expect(d.owed).toBeUndefined();
  });

  it('does nothing for a workload already remembered as deleted', () => {
    expect(decideDeletion(workload('Failed'), memory('Deleted', HOUR, { deletedAt: ago(HOUR) }), NOW)).toEqual({});
  });

  it('remembers the deletion of a workload it never stored (deleted before the first write)', () => {
    expect(decideDeletion(workload('Running'), undefined, NOW).transition).toMatchObject({ from: 'Running', to: 'Deleted' });
  });
});

describe('decideStuck', () => {
  // [what, cluster shows, remembered, owed key | none]
  const rows: Array<[string, Workload, Remembered | undefined, string | undefined]> = [
    ['Pending past the threshold owes one warning', workload('Pending'), memory('Pending', HOUR), stuckKey('u1', 'Pending')],
    ['Pending under the threshold owes nothing yet', workload('Pending'), memory('Pending', HOUR / 4), undefined],
    ['the per-project Pending threshold is honoured', workload('Pending', { project: 'urgent' }), memory('Pending', HOUR / 4), stuckKey('u1', 'Pending')],
    ['Initializing past its own threshold owes a warning', workload('Initializing'), memory('Initializing', HOUR / 4), stuckKey('u1', 'Initializing')],
    ['Running is never stuck', workload('Running'), memory('Running', 10 * HOUR), undefined],
    ['not yet remembered: no known start, not judged', workload('Pending'), undefined, undefined],
    ['remembered in another state (the change is not stored yet): not judged', workload('Initializing'), memory('Pending', 10 * HOUR), undefined],
  ];

  it.each(rows)('%s', (_what, w, previous, key) => {
    const owed = decideStuck(w, previous, NOW, STUCK);
    expect(owed?.key).toBe(key);
    if (owed) expect(owed.since.toISOString()).toBe(previous?.stateSince);
  });
});
