/**
 * The burst decision is pure (open burst + clock in, admission out), and so is the operators'
 * summary of a stored burst (the counting, once per alert across replicas, is the store
 * contract's).
 */
import { admit, opsSummary, type BurstEntry } from '../../src/notify/burst.js';
import type { StoredOpsBurst } from '../../src/store/port.js';

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
  const burst = (n: number): StoredOpsBurst => ({
    key: 'ops-burst:2026-11-30T10:00:00.000Z',
    openedAt: '2026-11-30T10:00:00.000Z',
    closesAt: '2026-11-30T10:00:30.000Z',
    entries: Array.from({ length: n }, (_, i) => entry(i, i % 2 ? 'alice' : 'bob')),
  });
  const options = { windowMs: 30_000, threshold: 3, channel: 'C0OPS' };

  it('is one channel message under the burst\'s own key once the burst reaches the threshold', () => {
    const item = opsSummary(burst(5), options);
    expect(item).toMatchObject({ key: 'ops-burst:2026-11-30T10:00:00.000Z', kind: 'ops-burst', target: { type: 'channel', channel: 'C0OPS' } });
    expect(item!.payload.text).toContain('5');
    // At the threshold exactly, too; the text grows with the burst.
    expect(opsSummary(burst(3), options)?.payload.text).not.toEqual(item!.payload.text);
  });

  it('is nothing below the threshold, or without an operators\' channel', () => {
    expect(opsSummary(burst(2), options)).toBeUndefined();
    expect(opsSummary(burst(5), { ...options, channel: undefined })).toBeUndefined();
  });
});
