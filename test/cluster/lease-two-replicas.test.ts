/**
 * Two electors on real timers, each with its own client-node KubeConfig, against the simulated
 * API server: one leads; when it stops, the other takes over; when the leader's link to the API
 * server is cut, it stops leading before the other starts. A three-second lease keeps this
 * short; the waits below are bounds on a failure, not measurements.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { LeaseElector } from '../../src/cluster/lease.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { eventually } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { startTcpCut, type TcpCut } from '../helpers/tcp-cut.js';

const NS = 'runai-slack-bot';
const NAME = 'runai-slack-bot-leader';
const LEASE_MS = 3_000;
const BOUND_MS = LEASE_MS + 5_000;

describe('two replicas electing a leader', () => {
  let kube: FakeKube;
  const links: TcpCut[] = [];
  const electors: LeaseElector[] = [];
  /** Each start and stop, with whether the other replica believed it led at that moment. */
  let log: string[];

  beforeEach(async () => {
    kube = await startFakeKube();
    kube.addNamespace(NS);
    log = [];
  });

  afterEach(async () => {
    await Promise.all(electors.splice(0).map((e) => e.stop()));
    await Promise.all(links.splice(0).map((l) => l.close()));
    await kube.close();
  });

  async function replica(identity: string, others: () => LeaseElector[]): Promise<{ elector: LeaseElector; link: TcpCut }> {
    const link = await startTcpCut(Number(new URL(kube.url).port));
    links.push(link);
    const kc = new KubeConfig();
    kc.loadFromString(kube.kubeconfigYaml().replace(kube.url, link.url));
    const elector = new LeaseElector({
      kubeConfig: kc, namespace: NS, name: NAME, identity, leaseDurationMs: LEASE_MS, log: captureLog().log,
      onStartedLeading: () => log.push(`${identity} started${others().some((o) => o.isLeader()) ? ' WHILE ANOTHER LED' : ''}`),
      onStoppedLeading: () => { log.push(`${identity} stopped`); },
    });
    electors.push(elector);
    return { elector, link };
  }

  it('hands over when the leader stops, and never has two leaders', async () => {
    const a = await replica('bot-a', () => [b.elector]);
    const b = await replica('bot-b', () => [a.elector]);
    await a.elector.start();
    await b.elector.start();
    expect(a.elector.isLeader()).toBe(true);
    expect(b.elector.isLeader()).toBe(false);
    await a.elector.stop();
    await eventually(() => b.elector.isLeader(), 'bot-b to lead after bot-a stopped', BOUND_MS);
    expect(log).toEqual(['bot-a started', 'bot-a stopped', 'bot-b started']);
    const lease = kube.get({ kind: 'Lease', namespace: NS, name: NAME })!;
    expect(lease.spec).toMatchObject({ holderIdentity: 'bot-b', leaseTransitions: 1 });
  });

  it('a leader cut off from the API server stops leading before the other takes over', async () => {
    const a = await replica('bot-a', () => [b.elector]);
    const b = await replica('bot-b', () => [a.elector]);
    await a.elector.start();
    await b.elector.start();
    expect(a.elector.isLeader()).toBe(true);
    a.link.cut();
    await eventually(() => b.elector.isLeader(), 'bot-b to take over from the cut-off bot-a', BOUND_MS);
    expect(log).toEqual(['bot-a started', 'bot-a stopped', 'bot-b started']);
    expect(a.elector.isLeader()).toBe(false);
    // Back in touch, bot-a sees bot-b's lease and keeps following.
    a.link.restore();
    const before = kube.requests.length;
    await eventually(() => kube.requests.length >= before + 4, 'a few more rounds of both replicas', BOUND_MS);
    expect(a.elector.isLeader()).toBe(false);
    expect(b.elector.isLeader()).toBe(true);
  });

  it('a leader whose requests hang stops leading at its renew deadline, before the other takes over', async () => {
    const a = await replica('bot-a', () => [b.elector]);
    const b = await replica('bot-b', () => [a.elector]);
    await a.elector.start();
    await b.elector.start();
    expect(a.elector.isLeader()).toBe(true);
    a.link.stall();
    await eventually(() => b.elector.isLeader(), 'bot-b to take over from the stalled bot-a', BOUND_MS);
    expect(log).toEqual(['bot-a started', 'bot-a stopped', 'bot-b started']);
  });
});
