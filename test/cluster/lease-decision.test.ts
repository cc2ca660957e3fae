/**
 * The pure decisions of leader election, row by row on a fake clock (ms since an arbitrary
 * epoch). The clock of the holder (renewTime) is deliberately off in several rows: validity is
 * judged by when WE saw the record change.
 */
import {
  decide, expiresAt, leadershipLapsed, leaseTiming, microTime, observe, releaseRecord,
  type LeaseRecord, type Observed,
} from '../../src/cluster/lease-decision.js';

const L = 15_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function record(holder: string, extra: Partial<LeaseRecord> = {}): LeaseRecord {
  return { holderIdentity: holder, leaseDurationSeconds: 15, renewTime: microTime(T0), acquireTime: microTime(T0), leaseTransitions: 3, ...extra };
}

function seen(rec: LeaseRecord, atMs: number, rv = '10'): Observed {
  return { record: rec, resourceVersion: rv, observedAtMs: atMs };
}

describe('lease timing', () => {
  it('uses client-go ratios: renew deadline 2/3 of the lease, renewals every third, retries at 2/15', () => {
    expect(leaseTiming(15_000)).toEqual({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, renewPeriodMs: 5_000, retryPeriodMs: 2_000 });
    expect(() => leaseTiming(500)).toThrow(/at least one second/);
  });

  it('writes MicroTime with six fractional digits', () => {
    expect(microTime(T0 + 123)).toBe('2026-01-01T00:00:00.123000Z');
  });
});

describe('observe', () => {
  it('keeps the first observation time while the record is unchanged, whatever its resourceVersion says', () => {
    const first = observe(undefined, { record: record('a'), resourceVersion: '10' }, T0);
    const again = observe(first, { record: record('a'), resourceVersion: '11' }, T0 + 9_000);
    expect(again.observedAtMs).toBe(T0);
    expect(again.resourceVersion).toBe('11');
  });

  it('restarts the observation time when the holder renews', () => {
    const first = observe(undefined, { record: record('a'), resourceVersion: '10' }, T0);
    const renewed = observe(first, { record: record('a', { renewTime: microTime(T0 + 5_000) }), resourceVersion: '12' }, T0 + 6_000);
    expect(renewed.observedAtMs).toBe(T0 + 6_000);
  });
});

describe('decide', () => {
  const me = 'bot-1';

  it('creates a missing lease with us as holder and no transitions', () => {
    expect(decide({ observed: undefined, identity: me, nowMs: T0, leaseDurationMs: L })).toEqual({
      kind: 'create',
      record: { holderIdentity: me, leaseDurationSeconds: 15, acquireTime: microTime(T0), renewTime: microTime(T0), leaseTransitions: 0 },
    });
  });

  it('renews its own lease, keeping acquireTime and the transition count', () => {
    const d = decide({ observed: seen(record(me), T0), identity: me, nowMs: T0 + 5_000, leaseDurationMs: L });
    expect(d).toEqual({
      kind: 'update', resourceVersion: '10', takeover: false,
      record: { holderIdentity: me, leaseDurationSeconds: 15, acquireTime: microTime(T0), renewTime: microTime(T0 + 5_000), leaseTransitions: 3 },
    });
  });

  it('respects another holder until a whole lease has passed on our clock since the record last changed', () => {
    const observed = seen(record('bot-2'), T0);
    expect(decide({ observed, identity: me, nowMs: T0 + L - 1, leaseDurationMs: L })).toEqual({ kind: 'wait', holder: 'bot-2', expiresAtMs: T0 + L });
    const takeover = decide({ observed, identity: me, nowMs: T0 + L, leaseDurationMs: L });
    expect(takeover).toMatchObject({ kind: 'update', takeover: true, resourceVersion: '10' });
    expect(takeover.kind === 'update' && takeover.record).toEqual({
      holderIdentity: me, leaseDurationSeconds: 15, acquireTime: microTime(T0 + L), renewTime: microTime(T0 + L), leaseTransitions: 4,
    });
  });

  it('judges a holder whose clock is an hour AHEAD by observation time: it can expire', () => {
    const future = record('bot-2', { renewTime: microTime(T0 + 3_600_000) });
    expect(decide({ observed: seen(future, T0), identity: me, nowMs: T0 + 10_000, leaseDurationMs: L }).kind).toBe('wait');
    expect(decide({ observed: seen(future, T0), identity: me, nowMs: T0 + L, leaseDurationMs: L }).kind).toBe('update');
  });

  it('judges a holder whose clock is an hour BEHIND by observation time: a fresh renewal is respected', () => {
    const past = record('bot-2', { renewTime: microTime(T0 - 3_600_000) });
    expect(decide({ observed: seen(past, T0), identity: me, nowMs: T0 + 1, leaseDurationMs: L })).toEqual({ kind: 'wait', holder: 'bot-2', expiresAtMs: T0 + L });
  });

  it("uses the record's own duration: a one-second lease expires after one second", () => {
    const short = record('bot-2', { leaseDurationSeconds: 1 });
    expect(expiresAt(seen(short, T0), L)).toBe(T0 + 1_000);
    expect(decide({ observed: seen(short, T0), identity: me, nowMs: T0 + 1_000, leaseDurationMs: L }).kind).toBe('update');
  });

  it('takes a released lease (no holder) at once and counts the transition', () => {
    const released = record('', { leaseDurationSeconds: 1 });
    const d = decide({ observed: seen(released, T0), identity: me, nowMs: T0, leaseDurationMs: L });
    expect(d).toMatchObject({ kind: 'update', takeover: true, record: { holderIdentity: me, leaseTransitions: 4, leaseDurationSeconds: 15 } });
  });
});

describe('leadership deadline', () => {
  const timing = leaseTiming(L);

  it('lapses at the renew deadline counted from when the last good renewal began', () => {
    expect(leadershipLapsed(T0, T0 + 9_999, timing)).toBe(false);
    expect(leadershipLapsed(T0, T0 + 10_000, timing)).toBe(true);
  });

  it('lapses strictly before any follower may take over, even one that saw the renewal at once', () => {
    const followerMayTakeOverAt = expiresAt(seen(record('leader'), T0), L);
    const leaderStopsAt = T0 + timing.renewDeadlineMs;
    expect(leaderStopsAt).toBeLessThan(followerMayTakeOverAt);
  });
});

describe('releaseRecord', () => {
  it('clears the holder, sets a one-second duration and keeps the transition count', () => {
    expect(releaseRecord(seen(record('bot-1'), T0), 'bot-1', T0 + 50)).toEqual({
      holderIdentity: '', leaseDurationSeconds: 1, acquireTime: microTime(T0 + 50), renewTime: microTime(T0 + 50), leaseTransitions: 3,
    });
  });

  it('releases nothing that is not ours', () => {
    expect(releaseRecord(seen(record('bot-2'), T0), 'bot-1', T0)).toBeUndefined();
    expect(releaseRecord(undefined, 'bot-1', T0)).toBeUndefined();
  });
});
