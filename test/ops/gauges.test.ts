/** The sampled gauges of /metrics, read through prom-client's own exposition. */
import { GaugeSampler } from '../../src/ops/gauges.js';
import { Metrics } from '../../src/ops/metrics.js';
import { captureLog } from '../helpers/log.js';

async function gauge(metrics: Metrics, name: string): Promise<number | undefined> {
  const json = await metrics.registry.getMetricsAsJSON();
  return json.find((m) => m.name === name)?.values[0]?.value;
}

describe('GaugeSampler', () => {
  it('sets each gauge from its source, async ones too, and keeps the last value of a source that fails', async () => {
    const metrics = new Metrics();
    let depth = 3;
    let failing = false;
    const sampler = new GaugeSampler(
      metrics,
      {
        outboxDepth: async () => {
          if (failing) throw new Error('store busy');
          return depth;
        },
        kubeRequests: () => 41,
        watchRestarts: () => 2,
        kubeErrors: () => 1,
        workloads: () => 7,
      },
      captureLog().log,
    );
    await sampler.sample();
    expect(await gauge(metrics, 'runai_bot_outbox_depth')).toBe(3);
    expect(await gauge(metrics, 'runai_bot_kube_api_requests')).toBe(41);
    expect(await gauge(metrics, 'runai_bot_watch_restarts')).toBe(2);
    expect(await gauge(metrics, 'runai_bot_kube_errors')).toBe(1);
    expect(await gauge(metrics, 'runai_bot_workloads')).toBe(7);

    depth = 9;
    failing = true;
    await sampler.sample();
    expect(await gauge(metrics, 'runai_bot_outbox_depth')).toBe(3);
    failing = false;
    await sampler.sample();
    expect(await gauge(metrics, 'runai_bot_outbox_depth')).toBe(9);
  });
});
