/**
 * The elector with the real client-node against the simulated API server, on a fake clock: the
 * test drives each round with `step()` and moves the clock, so every row is exact and no test
 * waits for a timer.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { LeaseConflictError, LeaseElector, kubeLeaseApi, leaseIdentity } from '../../src/cluster/lease.js';
import { microTime } from '../../src/cluster/lease-decision.js';
import { startFakeKube, type FakeKube, type KubeObject } from '../../src/sim/kube-apiserver.js';
import { captureLog } from '../helpers/log.js';

const NS = 'runai-slack-bot';
const NAME = 'runai-slack-bot-leader';
const L = 15_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

interface Spec { holderIdentity?: string; leaseTransitions?: number; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string }

describe('LeaseElector against the simulated API server', () => {
  let kube: FakeKube;
  let clock: number;
  let events: string[];
  /** What each elector's onStoppedLeading waits for (the bot's leader-only work winding down). */
  let stopWork: ((identity: string) => Promise<void>) | undefined;
  const electors: LeaseElector[] = [];

  beforeEach(async () => {
    kube = await startFakeKube();
    kube.addNamespace(NS);
    clock = T0;
    events = [];
    stopWork = undefined;
  });

  afterEach(async () => {
    kube.clearFailures();
    await Promise.all(electors.splice(0).map((e) => e.stop()));
    await kube.close();
  });

  function kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromString(kube.kubeconfigYaml());
    return kc;
  }

  /** What each elector's onStartedLeading was given: how long it may still lead. */
  const timeLeft = new Map<string, () => number>();
  /** A monotonic clock apart from the wall clock: a frozen process's wall clock may be stepped, this one never. */
  let mono = 0;

  function elector(identity: string): LeaseElector {
    const e = new LeaseElector({
      kubeConfig: kubeConfig(), namespace: NS, name: NAME, identity, leaseDurationMs: L, now: () => clock, monotonicNow: () => mono, log: captureLog().log,
      onStartedLeading: (left) => { timeLeft.set(identity, left); events.push(`${identity} started`); },
      onStoppedLeading: (why) => { events.push(`${identity} stopped: ${why}`); return stopWork?.(identity); },
    });
    electors.push(e);
    return e;
  }

  const lease = (): KubeObject | undefined => kube.get({ kind: 'Lease', namespace: NS, name: NAME });
  const spec = (): Spec => (lease()?.spec ?? {}) as Spec;

  function putLease(s: Spec): void {
    kube.apply({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: NAME, namespace: NS }, spec: { leaseDurationSeconds: 15, leaseTransitions: 2, ...s } });
  }

  it('creates a missing lease and leads', async () => {
    const a = elector('bot-a');
    expect(await a.step()).toEqual({ kind: 'leading', takeover: true });
    expect(a.isLeader()).toBe(true);
    expect(spec()).toEqual({
      holderIdentity: 'bot-a', leaseDurationSeconds: 15, leaseTransitions: 0, acquireTime: microTime(T0), renewTime: microTime(T0),
    });
    expect(events).toEqual(['bot-a started']);
  });

  it('renews its own lease without a new transition or a second start', async () => {
    const a = elector('bot-a');
    await a.step();
    const rv = lease()!.metadata.resourceVersion;
    clock += 5_000;
    expect(await a.step()).toEqual({ kind: 'leading', takeover: false });
    expect(lease()!.metadata.resourceVersion).not.toBe(rv);
    expect(spec()).toMatchObject({ holderIdentity: 'bot-a', leaseTransitions: 0, acquireTime: microTime(T0), renewTime: microTime(T0 + 5_000) });
    expect(events).toEqual(['bot-a started']);
  });

  it("respects another holder's lease until it has not changed for a whole lease, then takes it over", async () => {
    putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0) });
    const a = elector('bot-a');
    expect(await a.step()).toEqual({ kind: 'following', holder: 'bot-b', expiresAtMs: T0 + L });
    clock = T0 + L - 1;
    expect((await a.step()).kind).toBe('following');
    expect(spec().holderIdentity).toBe('bot-b');
    clock = T0 + L;
    expect(await a.step()).toEqual({ kind: 'leading', takeover: true });
    expect(spec()).toMatchObject({ holderIdentity: 'bot-a', leaseTransitions: 3, acquireTime: microTime(T0 + L) });
  });

  it('counts a renewal by the holder from when it was seen, not from its renewTime', async () => {
    putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0) });
    const a = elector('bot-a');
    await a.step();
    clock = T0 + 10_000;
    // bot-b renews, and its clock is an hour behind ours.
    putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0 - 3_600_000) });
    expect(await a.step()).toEqual({ kind: 'following', holder: 'bot-b', expiresAtMs: T0 + 10_000 + L });
    clock = T0 + 24_000;
    expect((await a.step()).kind).toBe('following');
    clock = T0 + 25_000;
    expect((await a.step()).kind).toBe('leading');
  });

  it('takes over from a dead holder whose clock was an hour ahead, a lease after first seeing it', async () => {
    putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0 + 3_600_000) });
    const a = elector('bot-a');
    expect((await a.step()).kind).toBe('following');
    clock = T0 + L;
    expect((await a.step()).kind).toBe('leading');
  });

  it('lets exactly one of two concurrent takeovers win; the loser re-reads and follows', async () => {
    putLease({ holderIdentity: 'bot-dead', renewTime: microTime(T0) });
    const a = elector('bot-a');
    const b = elector('bot-b');
    await Promise.all([a.step(), b.step()]);
    clock = T0 + L;
    const outcomes = await Promise.all([a.step(), b.step()]);
    const kinds = outcomes.map((o) => o.kind).sort();
    expect(kinds[1]).toBe('leading');
    expect(['conflict', 'following']).toContain(kinds[0]);
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
    const winner = a.isLeader() ? 'bot-a' : 'bot-b';
    expect(spec()).toMatchObject({ holderIdentity: winner, leaseTransitions: 3 });
    const loser = a.isLeader() ? b : a;
    expect(await loser.step()).toEqual({ kind: 'following', holder: winner, expiresAtMs: T0 + L + L });
  });

  it('on a 409 does not retry the write: it re-reads, and follows the replica that got there first', async () => {
    putLease({ holderIdentity: 'bot-dead', renewTime: microTime(T0) });
    const a = elector('bot-a');
    await a.step();
    clock = T0 + L;
    // Between bot-a's read and its write, bot-b takes the lease (the matcher runs as each request arrives).
    let raced = false;
    kube.failNext(1, 503, (req) => {
      if (req.method === 'PUT' && !raced) {
        raced = true;
        putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0 + L), leaseTransitions: 3 });
      }
      return false;
    });
    const before = kube.requests.length;
    expect(await a.step()).toEqual({ kind: 'conflict' });
    expect(kube.requests.slice(before).map((r) => r.method)).toEqual(['GET', 'PUT']);
    expect(a.isLeader()).toBe(false);
    expect(spec().holderIdentity).toBe('bot-b');
    expect(await a.step()).toEqual({ kind: 'following', holder: 'bot-b', expiresAtMs: T0 + 2 * L });
    expect(events).toEqual([]);
  });

  it('answers a write on a stale resourceVersion with a conflict, not an overwrite', async () => {
    putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0) });
    const api = kubeLeaseApi(kubeConfig(), NS, NAME);
    const signal = new AbortController().signal;
    const read = (await api.read(signal))!;
    putLease({ holderIdentity: 'bot-b', renewTime: microTime(T0 + 5_000) });
    await expect(api.replace({ ...read.record, holderIdentity: 'bot-a' }, read.resourceVersion, signal)).rejects.toBeInstanceOf(LeaseConflictError);
    await expect(api.create(read.record, signal)).rejects.toBeInstanceOf(LeaseConflictError);
    expect(spec().holderIdentity).toBe('bot-b');
  });

  it('releases the lease on stop so the follower takes over without waiting out the lease', async () => {
    const a = elector('bot-a');
    const b = elector('bot-b');
    await a.step();
    expect((await b.step()).kind).toBe('following');
    await a.stop();
    expect(events).toEqual(['bot-a started', 'bot-a stopped: stopping']);
    expect(spec()).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(await b.step()).toEqual({ kind: 'leading', takeover: true });
    expect(spec()).toMatchObject({ holderIdentity: 'bot-b', leaseTransitions: 1 });
    expect(events).toEqual(['bot-a started', 'bot-a stopped: stopping', 'bot-b started']);
  });

  it('on stop, releases the lease only once the leader-only work has wound down', async () => {
    let finishWork!: () => void;
    const workDone = new Promise<void>((resolve) => { finishWork = resolve; });
    stopWork = () => workDone;
    const a = elector('bot-a');
    await a.step();
    const stopped = a.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a.isLeader()).toBe(false);
    expect(events).toEqual(['bot-a started', 'bot-a stopped: stopping']);
    expect(spec().holderIdentity).toBe('bot-a');
    finishWork();
    await stopped;
    expect(spec()).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it('stops leading at the renew deadline when renewals fail, before the follower may take over', async () => {
    const a = elector('bot-a');
    const b = elector('bot-b');
    await a.step();
    await b.step();
    kube.failNext(1000, 503, `/namespaces/${NS}/leases/${NAME}`);
    const leaders = () => [a, b].filter((e) => e.isLeader()).length;
    for (const t of [5_000, 9_999]) {
      clock = T0 + t;
      expect((await a.step()).kind).toBe('error');
      expect(a.isLeader()).toBe(true);
    }
    clock = T0 + 10_000;
    expect((await a.step()).kind).toBe('error');
    expect(a.isLeader()).toBe(false);
    expect(events).toEqual(['bot-a started', 'bot-a stopped: could not renew the lease within the renew deadline (10000 ms)']);
    kube.clearFailures();
    // bot-b saw bot-a's last renewal at T0: the lease is bot-a's until T0 + L on bot-b's clock.
    clock = T0 + L - 1;
    expect((await b.step()).kind).toBe('following');
    expect(leaders()).toBe(0);
    clock = T0 + L;
    expect(await b.step()).toEqual({ kind: 'leading', takeover: true });
    expect(leaders()).toBe(1);
    // bot-a, back in touch, sees bot-b's lease and follows.
    expect((await a.step()).kind).toBe('following');
    expect(events.at(-1)).toBe('bot-b started');
  });

  it('gives the leader its time left by the monotonic clock: to the renew deadline of its last renewal, 0 once past it, whatever ran first on waking', async () => {
    mono = 1_000;
    const a = elector('bot-a');
    await a.step();
    const left = timeLeft.get('bot-a')!;
    expect(left()).toBe(10_000);
    mono = 6_000;
    expect(left()).toBe(5_000);
    // Renewed: counted again from this renewal.
    clock = T0 + 5_000;
    await a.step();
    expect(left()).toBe(10_000);
    // Frozen past the deadline and woken: no timer of the election has run yet, it still "leads",
    // and the wall clock it reads may not have moved (stepped back) — the time left is 0 all the same.
    mono = 16_000;
    expect(a.isLeader()).toBe(true);
    expect(left()).toBe(0);
  });

  it('stops leading at once when it reads that someone else holds the lease', async () => {
    const a = elector('bot-a');
    await a.step();
    putLease({ holderIdentity: 'bot-intruder', renewTime: microTime(T0) });
    clock += 5_000;
    expect((await a.step()).kind).toBe('following');
    expect(events).toEqual(['bot-a started', 'bot-a stopped: the lease is held by bot-intruder now']);
  });

  it('takes the identity from POD_NAME, else host name and process id', () => {
    expect(leaseIdentity('runai-slack-bot-7d9f-abcde', 'host', 42)).toBe('runai-slack-bot-7d9f-abcde');
    expect(leaseIdentity(undefined, 'laptop', 42)).toBe('laptop-42');
    expect(leaseIdentity('  ', 'laptop', 42)).toBe('laptop-42');
  });
});
