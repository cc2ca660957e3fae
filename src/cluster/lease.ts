/**
 * Leader election on a coordination.k8s.io/v1 Lease, so that of two replicas only one sends to
 * Slack and runs the schedules. @kubernetes/client-node 1.4.0 has no elector (client-go's
 * leaderelection package has no JavaScript port on npm that is kept up), hence this small one:
 * the decisions are the pure functions of lease-decision.ts; this file reads and writes the
 * Lease, keeps the timers, and calls back when leadership starts and stops.
 *
 * Guarantees: at most one replica believes it leads at any moment, provided the replicas'
 * clocks run at about the same RATE (their offsets do not matter). A leader that cannot renew
 * by its renew deadline (two thirds of the lease) calls onStoppedLeading before anyone else may
 * take the lease; writes carry the resourceVersion read, so of two concurrent takeovers the API
 * server accepts one and answers the other 409 Conflict, after which the loser re-reads.
 *
 * Wiring (src/app.ts, when `haLease(config)` is defined; without it the one replica leads):
 *   const lease = haLease(config);
 *   const elector = new LeaseElector({ kubeConfig, namespace: lease.namespace, name: lease.name,
 *     identity: leaseIdentity(lease.podName), leaseDurationMs: lease.leaseDurationMs, log,
 *     onStartedLeading: () => leaderDuties.start(), onStoppedLeading: () => leaderDuties.stop() });
 *   await elector.start();            // after the store is open and the watcher synced
 *   ...
 *   await elector.stop();             // first in bot.stop(): awaits leaderDuties.stop(), then releases
 * Leader-only: draining the outbox (outbox.start()/stop(); onAuthenticated starts it only when
 * leading), the schedules (maintenance, cleanup nudges, the stuck check, retention) and log
 * archiving. Every replica keeps watching, reconciling and queueing into the shared store, and
 * answers Slack (commands, buttons, Home), so a takeover starts warm. leaderDuties.stop() must
 * end quickly: after a lapse the other replica may lead a third of a lease later.
 */
import { hostname } from 'node:os';
import { CoordinationV1Api, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { withTimeout } from '../lib/timeout.js';
import { withSignal } from './request-signal.js';
import {
  decide, leadershipLapsed, leaseTiming, microTime, observe, releaseRecord,
  type LeaseRead, type LeaseRecord, type LeaseTiming, type Observed,
} from './lease-decision.js';

export const DEFAULT_LEASE_DURATION_MS = 15_000;

/** The identity of this replica: the pod's name (downward API), else host name and process id. */
export function leaseIdentity(podName: string | undefined, host: string = hostname(), pid: number = process.pid): string {
  const name = podName?.trim();
  return name ? name : `${host}-${pid}`;
}

/** Another writer changed the Lease since we read it (HTTP 409): re-read before deciding again. */
export class LeaseConflictError extends Error {
  constructor(what: string) {
    super(`the lease changed while we ${what}`);
    this.name = 'LeaseConflictError';
  }
}

/** The three calls the elector makes; `kubeLeaseApi` is the one implementation. */
export interface LeaseApi {
  /** The Lease, or undefined when it does not exist. */
  read(signal: AbortSignal): Promise<LeaseRead | undefined>;
  /** Creates the Lease; LeaseConflictError when it exists already. */
  create(record: LeaseRecord, signal: AbortSignal): Promise<LeaseRead>;
  /** Replaces the spec if the Lease is still at `resourceVersion`; LeaseConflictError otherwise. */
  replace(record: LeaseRecord, resourceVersion: string, signal: AbortSignal): Promise<LeaseRead>;
}

function codeOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

/** client-node leaves MicroTime fields as the server's strings; a Date is accepted as well. */
function timeText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return microTime(value.getTime());
  return undefined;
}

function toRead(lease: V1Lease): LeaseRead {
  const spec = lease.spec ?? {};
  return {
    resourceVersion: lease.metadata?.resourceVersion ?? '',
    record: {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTime: timeText(spec.acquireTime),
      renewTime: timeText(spec.renewTime),
      leaseTransitions: spec.leaseTransitions ?? 0,
    },
  };
}

function toSpec(record: LeaseRecord): NonNullable<V1Lease['spec']> {
  // The generated type says V1MicroTime (a Date); the strings are sent as they are.
  return { ...record } as unknown as NonNullable<V1Lease['spec']>;
}

/** The Lease through client-node's CoordinationV1Api. */
export function kubeLeaseApi(kubeConfig: KubeConfig, namespace: string, name: string): LeaseApi {
  const api = kubeConfig.makeApiClient(CoordinationV1Api);
  // The metadata last read, so a replace keeps the Lease's labels and annotations.
  let lastRead: V1Lease | undefined;
  const conflictOr = (err: unknown, what: string): never => {
    if (codeOf(err) === 409) throw new LeaseConflictError(what);
    throw err;
  };
  return {
    async read(signal) {
      try {
        lastRead = await api.readNamespacedLease({ name, namespace }, withSignal(signal));
        return toRead(lastRead);
      } catch (err) {
        if (codeOf(err) === 404) return undefined;
        throw err;
      }
    },
    async create(record, signal) {
      const body: V1Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: toSpec(record) };
      try {
        return toRead(await api.createNamespacedLease({ namespace, body }, withSignal(signal)));
      } catch (err) {
        return conflictOr(err, 'created it');
      }
    },
    async replace(record, resourceVersion, signal) {
      const metadata = lastRead?.metadata?.resourceVersion === resourceVersion ? { ...lastRead.metadata } : { name, namespace };
      const body: V1Lease = {
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
        metadata: { ...metadata, name, namespace, resourceVersion }, spec: toSpec(record),
      };
      try {
        return toRead(await api.replaceNamespacedLease({ name, namespace, body }, withSignal(signal)));
      } catch (err) {
        return conflictOr(err, 'updated it');
      }
    },
  };
}

export interface LeaseElectorOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  name: string;
  identity: string;
  /** How long a lease protects its holder (default 15 s, the config's ha.leaseDurationSeconds). */
  leaseDurationMs?: number;
  /** Our clock in ms (tests pass a fake one and drive `step()` themselves). */
  now?: () => number;
  log: Logger;
  /** `timeLeft` is this elector's LeaseElector.timeLeft, for work that must end with the lease. */
  onStartedLeading?: (timeLeft: () => number) => void;
  /** A monotonic clock in ms (default performance.now()): what a frozen process cannot miss. */
  monotonicNow?: () => number;
  /**
   * Called before anyone else can take the lease; the reason is for the log. Stop the
   * leader-only work at once. On `stop()` the Lease is released only after a returned promise
   * settles (so a send in flight ends before the other replica starts); when leadership lapses,
   * the other replica may take over a third of a lease after this call, whatever it returns.
   */
  onStoppedLeading?: (reason: string) => void | Promise<void>;
}

/** What one round of `step()` ended with. */
export type StepOutcome =
  | { kind: 'leading'; takeover: boolean }
  | { kind: 'following'; holder: string; expiresAtMs: number }
  | { kind: 'conflict' }
  | { kind: 'error'; error: unknown }
  | { kind: 'stopped' };

export class LeaseElector {
  readonly identity: string;
  readonly timing: LeaseTiming;
  private readonly api: LeaseApi;
  private readonly now: () => number;
  private readonly log: Logger;
  private leading = false;
  private observed?: Observed;
  private renewStartedAtMs = 0;
  /** renewStartedAtMs on the monotonic clock. */
  private renewStartedAtMono = 0;
  private readonly monotonicNow: () => number;
  private running = false;
  private stopping = false;
  private inFlight?: Promise<StepOutcome>;
  private loopTimer?: NodeJS.Timeout;
  private deadlineTimer?: NodeJS.Timeout;
  private conflictsInARow = 0;

  constructor(private readonly options: LeaseElectorOptions) {
    this.identity = options.identity;
    this.timing = leaseTiming(options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS);
    this.api = kubeLeaseApi(options.kubeConfig, options.namespace, options.name);
    this.now = options.now ?? Date.now;
    this.monotonicNow = options.monotonicNow ?? (() => performance.now());
    this.log = options.log.child({ lease: `${options.namespace}/${options.name}`, identity: options.identity });
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * How long this replica may still act as the leader, in ms: until the renew deadline counted
   * from the last successful renewal, on the monotonic clock; 0 when not leading. A process frozen
   * (SIGSTOP) past the deadline reads 0 the moment it wakes, before any timer of the election runs.
   */
  timeLeft(): number {
    if (!this.leading) return 0;
    return Math.max(0, this.renewStartedAtMono + this.timing.renewDeadlineMs - this.monotonicNow());
  }

  /** Runs the first round (so the caller knows where it stands) and keeps electing until stop(). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    await this.loop();
  }

  private async loop(): Promise<void> {
    const outcome = await this.step();
    if (!this.running) return;
    this.loopTimer = setTimeout(() => void this.loop(), this.delayAfter(outcome));
    // The election alone never keeps the process up: the bot's servers and stop() decide that.
    this.loopTimer.unref();
  }

  private delayAfter(outcome: StepOutcome): number {
    this.conflictsInARow = outcome.kind === 'conflict' ? this.conflictsInARow + 1 : 0;
    // One immediate re-read after a conflict (the lease may still be ours, with a newer
    // resourceVersion); after that, back to the retry period so contenders do not spin.
    if (outcome.kind === 'conflict') return this.conflictsInARow === 1 ? 0 : this.timing.retryPeriodMs;
    return outcome.kind === 'leading' ? this.timing.renewPeriodMs : this.timing.retryPeriodMs;
  }

  /** One round: read the Lease, then create, renew, take over, or wait. Rounds never overlap. */
  step(): Promise<StepOutcome> {
    this.inFlight ??= this.round().finally(() => { this.inFlight = undefined; });
    return this.inFlight;
  }

  private call<T>(work: (signal: AbortSignal) => Promise<T>, what: string): Promise<T> {
    // Bounded so a hung request cannot stall the rounds; the deadline timer does not wait for it.
    return withTimeout(work, Math.max(500, Math.floor(this.timing.renewDeadlineMs / 2)), what);
  }

  private async round(): Promise<StepOutcome> {
    if (this.stopping) return { kind: 'stopped' };
    this.checkDeadline();
    let read: LeaseRead | undefined;
    try {
      read = await this.call((signal) => this.api.read(signal), 'reading the lease');
    } catch (error) {
      return this.failed(error);
    }
    const readAtMs = this.now();
    const readAtMono = this.monotonicNow();
    this.observed = read ? observe(this.observed, read, readAtMs) : undefined;
    if (this.leading && this.observed?.record.holderIdentity !== this.identity) {
      void this.standDown(read ? `the lease is held by ${read.record.holderIdentity || 'nobody'} now` : 'the lease was deleted');
    }
    const decision = decide({ observed: this.observed, identity: this.identity, nowMs: readAtMs, leaseDurationMs: this.timing.leaseDurationMs });
    if (decision.kind === 'wait') return { kind: 'following', holder: decision.holder, expiresAtMs: decision.expiresAtMs };
    let written: LeaseRead;
    try {
      written = await this.call(
        (signal) => decision.kind === 'create'
          ? this.api.create(decision.record, signal)
          : this.api.replace(decision.record, decision.resourceVersion, signal),
        decision.kind === 'create' ? 'creating the lease' : 'updating the lease',
      );
    } catch (error) {
      if (error instanceof LeaseConflictError) {
        this.log.info('another replica wrote the lease first; reading it again');
        this.checkDeadline();
        return { kind: 'conflict' };
      }
      return this.failed(error);
    }
    // Our own write: others count the lease's validity from when they see it, i.e. after now.
    this.observed = { ...written, observedAtMs: readAtMs };
    if (this.stopping) return { kind: 'stopped' };
    if (leadershipLapsed(readAtMs, this.now(), this.timing)) {
      // The write took so long that the deadline counted from its start has passed.
      void this.standDown('the lease renewal answered after the renew deadline');
      return { kind: 'error', error: new Error('renewal answered after the renew deadline') };
    }
    this.renewStartedAtMs = readAtMs;
    this.renewStartedAtMono = readAtMono;
    const takeover = decision.kind === 'create' || (decision.kind === 'update' && decision.takeover);
    if (!this.leading) {
      this.leading = true;
      this.log.info({ transitions: written.record.leaseTransitions, takeover }, 'leading: this replica now sends to Slack and runs the schedules');
      void this.safely(() => this.options.onStartedLeading?.(() => this.timeLeft()));
    }
    this.armDeadline();
    return { kind: 'leading', takeover };
  }

  private failed(error: unknown): StepOutcome {
    this.log.warn({ err: error instanceof Error ? error.message : String(error), leading: this.leading }, 'could not read or write the lease');
    this.checkDeadline();
    return { kind: 'error', error };
  }

  private checkDeadline(): void {
    if (this.leading && leadershipLapsed(this.renewStartedAtMs, this.now(), this.timing)) {
      void this.standDown(`could not renew the lease within the renew deadline (${this.timing.renewDeadlineMs} ms)`);
    }
  }

  /** Fires at the renew deadline even while a request hangs, so leadership never outlives it. */
  private armDeadline(): void {
    if (!this.running) return;
    clearTimeout(this.deadlineTimer);
    const wait = this.renewStartedAtMs + this.timing.renewDeadlineMs - this.now();
    this.deadlineTimer = setTimeout(() => this.checkDeadline(), Math.max(0, wait));
    this.deadlineTimer.unref();
  }

  private standDown(reason: string): Promise<void> {
    if (!this.leading) return Promise.resolve();
    this.leading = false;
    clearTimeout(this.deadlineTimer);
    this.log.warn({ reason }, 'no longer leading: this replica stops sending to Slack and running the schedules');
    return this.safely(() => this.options.onStoppedLeading?.(reason));
  }

  /** A callback's failure is logged, never thrown into the election loop. */
  private async safely(callback: () => void | Promise<void>): Promise<void> {
    try {
      await callback();
    } catch (err) {
      this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'a leadership callback failed');
    }
  }

  /**
   * Stops electing. A leader first stops leading (onStoppedLeading), then releases the lease
   * (no holder, one-second duration) so the other replica takes over at its next poll rather
   * than a whole lease later.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    clearTimeout(this.loopTimer);
    // The leader-only work ends (and its last send lands) before the Lease is let go.
    await this.standDown('stopping');
    await this.inFlight?.catch(() => undefined);
    const observed = this.observed;
    const release = releaseRecord(observed, this.identity, this.now());
    if (!observed || !release) return;
    try {
      this.observed = { ...(await this.call((signal) => this.api.replace(release, observed.resourceVersion, signal), 'releasing the lease')), observedAtMs: this.now() };
      this.log.info('released the lease: the other replica can lead at once');
    } catch (err) {
      // A conflict means someone else wrote since: the lease is no longer ours to release.
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not release the lease; it expires on its own');
    }
  }
}
