/**
 * The burst decision is pure (open burst + clock in, admission out); the operators' summary
 * counter is driven by fake timers, so "nothing more arrives" is shown without sleeping.
 */
import { jest } from '@jest/globals';
import { admit, OpsBurstCounter, type BurstEntry, type OpsBurst } from '../../src/notify/burst.js';

const entry = (i: number, owner = 'alice'): BurstEntry => ({ key: `wl:${i}:Failed`, owner, namespace: 'runai-vision', name: `w${i}`, project: 'vision', kind: 'TrainingWorkload', state: 'Failed', node: 'gpu-17' });

describe('admit', () => {
  it('opens a burst when none is open, closing one window later', () => {
    expect(admit(undefined, 1000, 30_000)).toEqual({ grouped: false, closesAt: 31_000 });
  });

  it('folds into the open burst, rewriting after the debounce', () => {
    expect(admit({ anchorKey: 'wl:1:Failed', openedAt: 1000 }, 2000, 30_000, 1500)).toEqual({ grouped: true, anchorKey: 'wl:1:Failed', rewriteAt: 3500 });
  });

  it('never schedules the rewrite after the window ends', () => {
    expect(admit({ anchorKey: 'wl:1:Failed', openedAt: 1000 }, 30_500, 30_000, 1500)).toMatchObject({ grouped: true, rewriteAt: 31_000 });
  });

  it('opens a new burst once the window is over', () => {
    expect(admit({ anchorKey: 'wl:1:Failed', openedAt: 1000 }, 31_000, 30_000)).toEqual({ grouped: false, closesAt: 61_000 });
  });

  it('never groups with a zero window', () => {
    expect(admit({ anchorKey: 'wl:1:Failed', openedAt: 1000 }, 1000, 0)).toMatchObject({ grouped: false });
  });
});

describe("operators' burst summary", () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-30T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  function counter(threshold: number) {
    const summaries: OpsBurst[] = [];
    const ops = new OpsBurstCounter({ windowMs: 30_000, threshold, now: () => Date.now(), onOpsBurst: (b) => summaries.push(b) });
    return { ops, summaries };
  }

  it('posts one summary when the window closes with enough alerts, and nothing after', () => {
    const { ops, summaries } = counter(3);
    for (let i = 0; i < 5; i++) ops.count(entry(i, i % 2 ? 'alice' : 'bob'));
    jest.advanceTimersByTime(29_999);
    expect(summaries).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(summaries).toHaveLength(1);
    expect(summaries[0].entries).toHaveLength(5);
    jest.advanceTimersByTime(10 * 60_000);
    expect(summaries).toHaveLength(1);
  });

  it('posts nothing for a window below the threshold', () => {
    const { ops, summaries } = counter(10);
    ops.count(entry(1));
    jest.runAllTimers();
    expect(summaries).toHaveLength(0);
  });

  it('starts a new window after the last one closed', () => {
    const { ops, summaries } = counter(2);
    ops.count(entry(1));
    ops.count(entry(2));
    jest.advanceTimersByTime(30_000);
    ops.count(entry(3));
    ops.count(entry(4));
    ops.flush();
    expect(summaries.map((s) => s.entries.length)).toEqual([2, 2]);
    expect(summaries[1].openedAt).toBe(Date.parse('2026-11-30T10:00:30Z'));
  });
});
