/**
 * The decisions of leader election on a coordination.k8s.io/v1 Lease, as pure functions of the
 * lease as last read, when we saw it change, our identity and our clock. The elector
 * (lease.ts) does the I/O and the timers; everything that decides who may lead lives here, so
 * it can be checked row by row with a fake clock.
 *
 * Clock skew: the holder writes renewTime by ITS clock, which may be minutes off ours. So, like
 * client-go, we never compare our clock with renewTime: a lease is expired when
 * leaseDurationSeconds have passed on OUR clock since we last saw the record change. A holder
 * that keeps renewing keeps changing the record, whatever its clock says.
 */

/** The spec of a Lease, as far as leader election reads and writes it. */
export interface LeaseRecord {
  /** '' when nobody holds the lease (never created, or released). */
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
}

/** The Lease as read from the API server. */
export interface LeaseRead {
  record: LeaseRecord;
  resourceVersion: string;
}

/** The record as last seen, and when (our clock, ms) we first saw it in that state. */
export interface Observed extends LeaseRead {
  observedAtMs: number;
}

export type Decision =
  /** No Lease yet: create it with us as holder. */
  | { kind: 'create'; record: LeaseRecord }
  /** Write `record` on the resourceVersion read: a renewal of our own lease, or a takeover. */
  | { kind: 'update'; record: LeaseRecord; resourceVersion: string; takeover: boolean }
  /** Someone else holds a lease that is still valid as we judge it; it expires at `expiresAtMs` (our clock). */
  | { kind: 'wait'; holder: string; expiresAtMs: number };

/**
 * How often and how long: client-go's ratios (15 s lease, 10 s renew deadline, 2 s retry),
 * with the leader renewing every third of the lease rather than at every retry period.
 */
export interface LeaseTiming {
  leaseDurationMs: number;
  /** A leader that has not renewed within this (since its last successful renew began) stops leading. */
  renewDeadlineMs: number;
  /** A leader renews this long after its last successful renewal. */
  renewPeriodMs: number;
  /** Followers poll, and a leader retries a failed renewal, this often. */
  retryPeriodMs: number;
}

export function leaseTiming(leaseDurationMs: number): LeaseTiming {
  if (!Number.isFinite(leaseDurationMs) || leaseDurationMs < 1000) {
    throw new Error(`a lease must last at least one second (got ${leaseDurationMs} ms)`);
  }
  return {
    leaseDurationMs,
    renewDeadlineMs: Math.floor((leaseDurationMs * 2) / 3),
    renewPeriodMs: Math.floor(leaseDurationMs / 3),
    retryPeriodMs: Math.max(100, Math.floor((leaseDurationMs * 2) / 15)),
  };
}

/** The Lease API's MicroTime: RFC 3339 with six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

function sameRecord(a: LeaseRecord, b: LeaseRecord): boolean {
  return a.holderIdentity === b.holderIdentity
    && a.leaseDurationSeconds === b.leaseDurationSeconds
    && a.acquireTime === b.acquireTime
    && a.renewTime === b.renewTime
    && a.leaseTransitions === b.leaseTransitions;
}

/**
 * The observation after reading `read` at `nowMs`: the observation time moves only when the
 * record changed (a renewal, a takeover, a release), never merely because we looked again.
 */
export function observe(previous: Observed | undefined, read: LeaseRead, nowMs: number): Observed {
  if (previous && sameRecord(previous.record, read.record)) {
    return { ...read, observedAtMs: previous.observedAtMs };
  }
  return { ...read, observedAtMs: nowMs };
}

/** When the lease as observed stops protecting its holder, on our clock. */
export function expiresAt(observed: Observed, fallbackDurationMs: number): number {
  const seconds = observed.record.leaseDurationSeconds;
  const durationMs = seconds > 0 ? seconds * 1000 : fallbackDurationMs;
  return observed.observedAtMs + durationMs;
}

function heldRecord(identity: string, nowMs: number, leaseDurationMs: number, acquireTime: string, transitions: number): LeaseRecord {
  return {
    holderIdentity: identity,
    leaseDurationSeconds: Math.max(1, Math.round(leaseDurationMs / 1000)),
    acquireTime,
    renewTime: microTime(nowMs),
    leaseTransitions: transitions,
  };
}

export interface DecideInput {
  /** The observation made from the read just done (see `observe`); undefined: the Lease does not exist. */
  observed: Observed | undefined;
  identity: string;
  nowMs: number;
  leaseDurationMs: number;
}

/** Acquire (create or take over), renew, or wait. */
export function decide({ observed, identity, nowMs, leaseDurationMs }: DecideInput): Decision {
  if (!observed) {
    return { kind: 'create', record: heldRecord(identity, nowMs, leaseDurationMs, microTime(nowMs), 0) };
  }
  const { record, resourceVersion } = observed;
  if (record.holderIdentity === identity) {
    // Our own lease (held, or written by a request whose answer we never got): renew it, and
    // keep its acquireTime and transition count: no one else led in between.
    const acquired = record.acquireTime ?? microTime(nowMs);
    return { kind: 'update', resourceVersion, takeover: false, record: heldRecord(identity, nowMs, leaseDurationMs, acquired, record.leaseTransitions) };
  }
  const expiry = expiresAt(observed, leaseDurationMs);
  if (record.holderIdentity !== '' && nowMs < expiry) {
    return { kind: 'wait', holder: record.holderIdentity, expiresAtMs: expiry };
  }
  return {
    kind: 'update',
    resourceVersion,
    takeover: true,
    record: heldRecord(identity, nowMs, leaseDurationMs, microTime(nowMs), record.leaseTransitions + 1),
  };
}

/**
 * A leader whose last successful renewal BEGAN at `renewStartedAtMs` must stop acting as leader
 * by `renewStartedAtMs + renewDeadlineMs`. Others see that renewal no earlier than it began, and
 * wait a whole lease duration from then, which is longer than the deadline: so the old leader
 * has stopped before anyone can take over, even with the request's latency on our side.
 */
export function leadershipLapsed(renewStartedAtMs: number, nowMs: number, timing: LeaseTiming): boolean {
  return nowMs >= renewStartedAtMs + timing.renewDeadlineMs;
}

/**
 * What a leader writes when it steps down on purpose: no holder and a one-second duration, as
 * client-go's ReleaseOnCancel does, so a follower takes over at its next poll instead of
 * waiting out the lease. Undefined when the lease (as we last saw it) is not ours to release.
 */
export function releaseRecord(observed: Observed | undefined, identity: string, nowMs: number): LeaseRecord | undefined {
  if (!observed || observed.record.holderIdentity !== identity) return undefined;
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: microTime(nowMs),
    renewTime: microTime(nowMs),
    leaseTransitions: observed.record.leaseTransitions,
  };
}
