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
        watchStalls: () => 1,
        kubeErrors: () => 1,
        workloads: () => 7,
      },
      captureLog().log,
    );
    await sampler.sample();
    expect(await gauge(metrics, 'runai_bot_outbox_depth')).toBe(3);
    expect(await gauge(metrics, 'runai_bot_kube_api_requests')).toBe(41);
    expect(await gauge(metrics, 'runai_bot_watch_restarts')).toBe(2);
    expect(await gauge(metrics, 'runai_bot_watch_stalls')).toBe(1);
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

  it('labels the per-cluster gauges with cluster when clusters: names them, keeping the metric names', async () => {
    const metrics = new Metrics();
    const sampler = new GaugeSampler(
      metrics,
      {
        outboxDepth: () => 0,
        kubeRequests: () => [['gpu-east', 10], ['gpu-west', 4]],
        watchRestarts: () => [['gpu-east', 0], ['gpu-west', 3]],
        watchStalls: () => [['gpu-east', 0], ['gpu-west', 2]],
        kubeErrors: () => [['gpu-east', 0], ['gpu-west', 7]],
        workloads: () => [['gpu-east', 2], ['gpu-west', 5]],
      },
      captureLog().log,
    );
    await sampler.sample();
    const text = await metrics.registry.metrics();
    expect(text).toContain('runai_bot_workloads{cluster="gpu-east"} 2');
    expect(text).toContain('runai_bot_workloads{cluster="gpu-west"} 5');
    expect(text).toContain('runai_bot_kube_errors{cluster="gpu-west"} 7');
    expect(text).toContain('runai_bot_watch_restarts{cluster="gpu-west"} 3');
    expect(text).toContain('runai_bot_watch_stalls{cluster="gpu-west"} 2');
    expect(text).toContain('runai_bot_kube_api_requests{cluster="gpu-east"} 10');
  });

  it('leaves the one unnamed cluster of an old config unlabelled', async () => {
    const metrics = new Metrics();
    const sampler = new GaugeSampler(metrics, { outboxDepth: () => 0, kubeRequests: () => [[undefined, 6]], watchRestarts: () => 0, watchStalls: () => 0, kubeErrors: () => 0, workloads: () => [[undefined, 3]] }, captureLog().log);
    await sampler.sample();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^runai_bot_workloads 3$/m);
    expect(text).toMatch(/^runai_bot_kube_api_requests 6$/m);
  });
});
