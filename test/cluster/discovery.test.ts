/**
 * Discovery at start against the simulated API server with the real client-node: while the
 * cluster refuses, the bot keeps asking with growing waits and says so each time; once it
 * answers, the workload kinds come back.
 */
import { discoverWithRetry } from '../../src/cluster/discovery.js';
import { kubeConfigFor, useFakeKube } from '../fakes/kube-apiserver.js';
import { captureLog } from '../helpers/log.js';

describe('discoverWithRetry', () => {
  const sim = useFakeKube();

  it('keeps asking through refusals, doubling its (jittered) wait up to the cap, and returns the kinds', async () => {
    sim.kube.failNext(4, 503, /^\/apis\/?$/);
    const captured = captureLog();
    const { log } = captured;
    const kinds = await discoverWithRetry(kubeConfigFor(sim.kube), log, { firstWaitMs: 1, maxWaitMs: 4 });
    expect(kinds.map((k) => k.plural)).toEqual(expect.arrayContaining(['trainingworkloads', 'distributedworkloads']));
    const failures = captured.entries.filter((e) => e.msg === 'cannot discover Run:ai workload kinds');
    expect(failures.map((e) => e.attempt)).toEqual([1, 2, 3, 4]);
    // lib/backoff.ts: between half and all of the doubled wait, never past the cap.
    const ceilings = [1, 2, 4, 4];
    for (const [i, failure] of failures.entries()) {
      expect(failure.retryInMs).toBeGreaterThanOrEqual(Math.round(ceilings[i] / 2));
      expect(failure.retryInMs).toBeLessThanOrEqual(ceilings[i]);
    }
  });

  it('stops asking when told to', async () => {
    sim.kube.failNext(1_000, 503, /^\/apis\/?$/);
    const abort = new AbortController();
    const captured = captureLog();
    const { log } = captured;
    const discovering = discoverWithRetry(kubeConfigFor(sim.kube), log, { firstWaitMs: 1, maxWaitMs: 1, signal: abort.signal });
    while (captured.entries.length < 2) await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    await expect(discovering).rejects.toThrow();
    sim.kube.clearFailures();
  });
});
