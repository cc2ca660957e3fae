/**
 * The bot's object graph, read top to bottom: every part built from the validated config, in
 * the order an alert needs them, nothing started. Each group has its factory in src/parts/ and
 * returns a typed bundle; no part waits for another to be built (values are passed, and parts
 * built after the Slack app subscribe to its connection). src/app.ts starts them in order and
 * stops them in reverse.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { clusterNames, uiUrlFor, type Config } from './config.js';
import type { LogArchiver } from './archive/archiver.js';
import type { ClusterReader } from './cluster/reader.js';
import type { ClusterWatch } from './cluster/cluster-watch.js';
import type { WatcherOverrides } from './cluster/watcher.js';
import { proxyDispatcher } from './lib/proxy.js';
import type { LogTips } from './notify/log-tips.js';
import type { Notifier } from './notify/notifier.js';
import type { Outbox } from './notify/outbox.js';
import type { OwnerPrefetcher } from './notify/owner-prefetch.js';
import type { WorkloadReconciler } from './notify/reconciler.js';
import { GaugeSampler } from './ops/gauges.js';
import { readinessChecks, type Check } from './ops/health.js';
import { Metrics } from './ops/metrics.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { registerListeners } from './slack/listeners.js';
import type { Store } from './store/port.js';
import { clusterReaders } from './parts/clusters.js';
import { deliveryParts } from './parts/delivery.js';
import { leaderDuties, type LeaderDuties } from './parts/leader-duties.js';
import type { RunState } from './parts/run-state.js';

export type { RunState };

export interface PartsOptions {
  config: Config;
  log: Logger;
  now(): Date;
  store: Store;
  /** One per entry of config.clusters, in that order (ops/open.ts loadClusterKubeConfigs). */
  kubeConfigs: KubeConfig[];
  announce?(line: string): void;
  /** Tests: shorter watch schedules (BotOptions.watcher). */
  watcher?: WatcherOverrides;
}

/** Everything built, nothing started; the leader's duties (maintenance, cleanup, retention, leadership, the Lease) as leader-duties.ts gives them. */
export interface Parts extends LeaderDuties {
  metrics: Metrics;
  /** Each configured cluster's watch, reader and namespace labels, in config order. */
  clusters: ClusterWatch[];
  /** The reader of a cluster by name (undefined: the first, i.e. the only one of an old config). */
  readerFor(cluster: string | undefined): ClusterReader;
  slackApp: SlackApp;
  outbox: Outbox;
  ownerPrefetch: OwnerPrefetcher;
  archiver?: LogArchiver;
  notifier: Notifier;
  logTips: LogTips;
  reconciler: WorkloadReconciler;
  gauges: GaugeSampler;
  checks(): Promise<Record<string, Check>>;
  run: RunState;
}

export function buildParts({ config, log, now, store, kubeConfigs, announce, watcher }: PartsOptions): Parts {
  const run: RunState = { stopping: false, leading: false };
  const metrics = new Metrics({ defaultMetrics: true });
  const readers = clusterReaders(config, kubeConfigs, log);
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY: one way out for Slack and the feed (the kube API uses each kubeconfig's proxy-url).
  const egress = proxyDispatcher(config.secrets.proxy);
  const slackApp = createSlackApp({ config, log, announce, dispatcher: egress });
  const delivery = deliveryParts({ config, log, now, store, metrics, run, slackApp, clusters: readers });
  const duties = leaderDuties({ config, log, now, store, metrics, run, slackApp, delivery, kubeConfigs, egress, readerFor: readers.readerFor });
  const clusters = readers.watches(delivery.reconciler, watcher);

  // The contract with the Slack surfaces: the configured names (≤1: single cluster, messages name none) and a reader per cluster.
  registerListeners(slackApp.app, {
    config,
    store,
    reconciler: delivery.reconciler,
    readerFor: readers.readerFor,
    clusterNames: clusterNames(config),
    uiUrlFor: (cluster) => uiUrlFor(config, cluster),
    owners: delivery.owners,
    maintenance: duties.maintenance,
    log: log.child({ component: 'slack' }),
    now,
  });
  slackApp.app.error(async (err) => {
    log.error({ err: err.message, code: (err as { code?: string }).code }, 'Slack listener error');
  });

  const checks = readinessChecks({ clusters: () => clusters.map((c) => c.status()), slack: () => slackApp.connection.status(), refusedChannels: () => delivery.refusedChannels.detail(), store, now });
  const gauges = new GaugeSampler(
    metrics,
    {
      outboxDepth: () => store.outboxDepth(),
      kubeRequests: () => clusters.map((c) => [c.name, c.requests]),
      watchRestarts: () => clusters.map((c) => [c.name, c.stats.watchRestarts]),
      watchStalls: () => clusters.map((c) => [c.name, c.stats.watchStalls]),
      kubeErrors: () => clusters.map((c) => [c.name, c.stats.errors]),
      workloads: () => workloadsPerCluster(delivery.reconciler, clusters),
    },
    log,
  );
  const { outbox, ownerPrefetch, archiver, notifier, logTips, reconciler } = delivery;
  return { metrics, clusters, readerFor: readers.readerFor, slackApp, outbox, ownerPrefetch, archiver, notifier, logTips, reconciler, ...duties, gauges, checks, run };
}

function workloadsPerCluster(reconciler: WorkloadReconciler, clusters: ClusterWatch[]): Array<[string | undefined, number]> {
  const counts = new Map<string | undefined, number>(clusters.map((c) => [c.name, 0]));
  for (const w of reconciler.workloads()) counts.set(w.cluster, (counts.get(w.cluster) ?? 0) + 1);
  return [...counts];
}
