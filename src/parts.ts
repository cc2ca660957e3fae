/**
 * The bot's object graph: every part built from the validated config, in dependency order,
 * nothing started. src/app.ts starts them in order and stops them in reverse.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { clusterNames, haLease, leaseCluster, pendingAfterMs, uiUrlFor, type Config } from './config.js';
import { workloadId, type LifecycleState } from './model.js';
import { LogArchiver } from './archive/archiver.js';
import { ArchiveProblemReporter } from './archive/problem-reporter.js';
import { LeaseElector, leaseIdentity } from './cluster/lease.js';
import { NamespaceLabels } from './cluster/namespaces.js';
import { createClusterReader, type ClusterReader } from './cluster/reader.js';
import { ClusterWatch } from './cluster/cluster-watch.js';
import type { WatcherOverrides } from './cluster/watcher.js';
import { Late } from './lib/late.js';
import { fetchThrough, proxyDispatcher } from './lib/proxy.js';
import { withTimeout } from './lib/timeout.js';
import { containersFinishedAt, withPods } from './cluster/normalize.js';
import { FeedFetcher } from './maintenance/feed.js';
import { MaintenanceService } from './maintenance/service.js';
import { CleanupNudger } from './notify/cleanup.js';
import { maintenanceDelivery } from './notify/maintenance-delivery.js';
import { deliveryFor } from './notify/mutes.js';
import { FollowUps } from './notify/follow-ups.js';
import { Notifier } from './notify/notifier.js';
import { Outbox } from './notify/outbox.js';
import { outboxHooks } from './notify/outbox-hooks.js';
import { OwnerPrefetcher } from './notify/owner-prefetch.js';
import { OwnerDirectory } from './notify/owners.js';
import { WorkloadReconciler } from './notify/reconciler.js';
import { stuckCheckDuty } from './notify/stuck-timer.js';
import { GaugeSampler } from './ops/gauges.js';
import { readinessChecks, type Check } from './ops/health.js';
import { Leadership, whileFollowing } from './ops/leadership.js';
import { Metrics } from './ops/metrics.js';
import { RetentionPruner } from './ops/retention.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { SlackGateway } from './slack/client.js';
import { registerListeners } from './slack/listeners.js';
import { StoreMaintenanceLedger } from './store/maintenance-ledger.js';
import type { Store } from './store/port.js';

/** Failed and Stopped always reach the owner; Completed only those who opted in (settings). */
const ALERT_STATES: ReadonlySet<LifecycleState> = new Set(['Failed', 'Stopped', 'Completed']);
/** The ledger is kept at least this long, however short the catch-up and cleanup windows. */
const MIN_LEDGER_KEEP_MS = 30 * 86_400_000;
/** How often a follower (ha) takes the leader's last good copy of the maintenance feed from the store. */
const FEED_MIRROR_MS = 60_000;

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

export interface Parts {
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
  reconciler: WorkloadReconciler;
  maintenance?: MaintenanceService;
  cleanup: CleanupNudger;
  retention: RetentionPruner;
  /** The leader-only duties and the outbox's on/off; leads from the start without ha.enabled. */
  leadership: Leadership;
  /** With ha.enabled: the Lease elector that calls leadership.lead()/follow(). */
  elector?: LeaseElector;
  /** With ha.enabled and maintenance: a follower's copy of the feed, from the store (every replica). */
  feedMirror?: { start(): void; stop(): void };
  gauges: GaugeSampler;
  checks(): Promise<Record<string, Check>>;
  run: RunState;
}

/** What changes while the bot runs, read by the parts built before it changes. */
export interface RunState {
  /** Set when stop() begins. */
  stopping: boolean;
}

export function buildParts({ config, log, now, store, kubeConfigs, announce, watcher }: PartsOptions): Parts {
  const run: RunState = { stopping: false };
  const metrics = new Metrics({ defaultMetrics: true });
  // Per cluster: its own reader and namespace labels (which stamp its name on every workload).
  const perCluster = config.clusters.map((cluster, index) => {
    const reader = createClusterReader(kubeConfigs[index]);
    const clusterLog = cluster.name ? log.child({ cluster: cluster.name }) : log;
    const namespaces = new NamespaceLabels({ reader, cluster: cluster.name, ownerKeys: config.owners.keys, refreshMs: cluster.resyncMinutes * 60_000, log: clusterLog });
    return { cluster, kubeConfig: kubeConfigs[index], reader, namespaces, log: clusterLog };
  });
  const byName = new Map(perCluster.map((c) => [c.cluster.name, c]));
  const clusterOf = (name: string | undefined) => {
    const found = name === undefined ? perCluster[0] : byName.get(name);
    if (!found) throw new Error(`no cluster named "${name}" is configured (clusters: ${clusterNames(config).join(', ')})`);
    return found;
  };
  const readerFor = (name: string | undefined) => clusterOf(name).reader;
  /** The reconciler's own handler normalises for the first cluster; each cluster's watcher passes its own rules (forCluster). */
  const normalize = (namespace: string) => clusterOf(undefined).namespaces.normalize(namespace);
  const outboxLater = new Late<Outbox>('the outbox');
  const leadershipLater = new Late<Leadership>('leadership');
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY: one way out for Slack and the feed (the kube API uses each kubeconfig's proxy-url).
  const egress = proxyDispatcher(config.secrets.proxy);
  const slackApp = createSlackApp({ config, log, announce, dispatcher: egress, ...outboxHooks({ outbox: outboxLater, store, now, log, authenticated: () => leadershipLater.get().slackAuthenticated() }) });
  const gateway = new SlackGateway(slackApp.app.client);
  const prefetchLater = new Late<OwnerPrefetcher>('the owner prefetcher');
  // A cached answer past its TTL is used at once on the failure path and refreshed in the background.
  const owners = new OwnerDirectory(config.owners, gateway, store, now, (owner) => prefetchLater.get().stale(owner));
  const outbox = outboxLater.set(
    new Outbox({
      store,
      slack: gateway,
      owners,
      projectChannel: (project) => config.projects[project]?.channel,
      fallbackChannel: config.slack.fallbackChannel,
      delivery: (userId, item) => deliveryFor(store, userId, item, now()),
      log: log.child({ component: 'outbox' }),
      now,
      onSent: (item) => metrics.messagesSent.inc({ kind: item.kind }),
      onError: (kind) => metrics.slackErrors.inc({ kind }),
      onStoreError: (op) => metrics.storeErrors.inc({ op }),
      retentionMs: config.slack.outboxRetention,
    }),
  );
  // Paused (queueing only) until Slack accepts the bot token and this replica leads (ops/leadership.ts).
  void outbox.stop();
  const archive = config.archive;
  const archiver = archive
    ? new LogArchiver({
        readerFor,
        dir: archive.dir,
        maxBytesPerContainer: archive.maxBytesPerContainer,
        reporter: new ArchiveProblemReporter({ store, opsChannel: config.slack.opsChannel, dir: archive.dir, log: log.child({ component: 'archive' }), queued: () => outbox.kick() }),
        log: log.child({ component: 'archive' }),
        now,
      })
    : undefined;
  // The notifier asks what the cluster shows now; the reconciler, which feeds the notifier, knows.
  const reconcilerLater = new Late<WorkloadReconciler>('the reconciler');
  const notifierLater = new Late<Notifier>('the notifier');
  // Follow-ups in each alert's thread: told by the reconciler, opened by the notifier, sent by the outbox.
  const followUps = new FollowUps({
    store,
    readerFor,
    permalink: (channel, ts) => gateway.permalink(channel, ts),
    windowMs: config.followups.window,
    owe: (alert) => notifierLater.get().owed(alert),
    queued: () => outbox.kick(),
    now,
    log: log.child({ component: 'follow-ups' }),
  });
  const notifier = notifierLater.set(new Notifier({
    store,
    outbox,
    log: log.child({ component: 'notifier' }),
    now,
    uiUrlFor: (cluster) => uiUrlFor(config, cluster),
    enrich: { readerFor, ownerKeys: config.owners.keys, tailLines: config.alerts.logTailLines },
    currentState: (id) => reconcilerLater.get().currentState(id),
    // Archiving is the leader's: two replicas would read the same logs and write the same file.
    onSettled: archiver ? (workload) => (leadershipLater.get().leading ? { path: archiver.pathFor(workload), done: archiver.archive(workload) } : undefined) : undefined,
    burst: { windowMs: config.alerts.burstWindow, opsChannel: config.slack.opsChannel, opsThreshold: config.alerts.opsBurstThreshold },
    onTriage: (ms, category) => metrics.triageSeconds.observe({ category }, ms / 1000),
    followUps,
  }));
  // Owners are resolved to Slack users when their workloads are first seen, not when they fail.
  const ownerPrefetch = prefetchLater.set(
    new OwnerPrefetcher({
      owners,
      presentOwners: () => reconcilerLater.get().ownersPresent(),
      perMinute: config.owners.lookupsPerMinute,
      log: log.child({ component: 'owners' }),
      now,
    }),
  );
  const reconciler = reconcilerLater.set(
    new WorkloadReconciler({
      store,
      log: log.child({ component: 'reconciler' }),
      now,
      normalize,
      alertStates: ALERT_STATES,
      lookbackMs: config.clusters[0].lookbackHours * 3_600_000,
      // A failure the bot missed while down, whose CR gives no time: its containers say when.
      finishedAt: async (w) => containersFinishedAt(withPods(w, await withTimeout((signal) => readerFor(w.cluster).podsOf(w, signal), 10_000, 'listing pods')).pods),
      sink: notifier,
      followUps,
      // Labelled by cluster only when clusters are named: a single cluster's series stay as they were.
      onTransition: (t) => metrics.transitions.inc({ from: t.from ?? 'none', to: t.to, ...(t.workload.cluster ? { cluster: t.workload.cluster } : {}) }),
      onMalformed: (_ref, _reason, cluster) => metrics.malformed.inc(cluster ? { cluster } : {}),
      onOwnerSeen: (owner) => ownerPrefetch.seen(owner),
      stuck: { pendingAfterMs: (project) => pendingAfterMs(config, project), initializingAfterMs: config.alerts.initializingAfter },
    }),
  );
  const maintenance = config.maintenance
    ? new MaintenanceService({
        fetcher: new FeedFetcher({ feed: config.maintenance.feed, cache: store, now, ...(egress ? { fetch: fetchThrough(egress) } : {}) }),
        ledger: new StoreMaintenanceLedger(store),
        ...maintenanceDelivery({ store, queued: () => outbox.kick(), owners, now, log: log.child({ component: 'maintenance' }) }),
        runningWorkloads: () => reconciler.workloads().filter((w) => w.state === 'Running'),
        config: { ...config.maintenance, opsChannel: config.slack.opsChannel },
        now,
        log: log.child({ component: 'maintenance' }),
      })
    : undefined;
  const cleanup = new CleanupNudger({
    store,
    afterMs: config.cleanup.after,
    cron: config.cleanup.cron,
    timezone: config.maintenance?.timezone,
    log: log.child({ component: 'cleanup' }),
    now,
    queued: () => outbox.kick(),
  });
  const retention = new RetentionPruner({
    store,
    liveWorkloads: () => reconciler.workloads().map(workloadId),
    keepMs: Math.max(...config.clusters.map((c) => c.lookbackHours * 3_600_000), config.cleanup.after, MIN_LEDGER_KEEP_MS),
    archive: archive ? { dir: archive.dir, retentionMs: archive.retention, maxTotalBytes: archive.maxTotalBytes, busy: () => archiver?.busyPaths() ?? [] } : undefined,
    followUps: { windowMs: config.followups.window, prune: (before) => store.pruneFollowUpThreads(before) },
    log: log.child({ component: 'retention' }),
    now,
  });

  const lease = haLease(config);
  const leadership = leadershipLater.set(
    new Leadership({
      outbox,
      leading: !lease,
      stopping: () => run.stopping,
      log: log.child({ component: 'leadership' }),
      onChange: (leading) => metrics.leader.set(leading ? 1 : 0),
      duties: [
        stuckCheckDuty(reconciler),
        // Lookups spend the workspace's users.lookupByEmail tier: one replica (the leader) does them.
        { name: 'owner prefetch', start: () => ownerPrefetch.start(), stop: () => ownerPrefetch.stop() },
        ...(maintenance ? [{ name: 'maintenance', start: () => maintenance.start(), stop: () => maintenance.stop() }] : []),
        { name: 'cleanup', start: () => cleanup.start(), stop: () => cleanup.stop() },
        { name: 'retention', start: () => retention.start(), stop: () => retention.stop() },
      ],
    }),
  );
  const elector = lease
    ? new LeaseElector({
        // The Lease lives in ha.cluster, else the first cluster listed.
        kubeConfig: kubeConfigs[config.clusters.indexOf(leaseCluster(config))],
        namespace: lease.namespace,
        name: lease.name,
        identity: leaseIdentity(lease.podName),
        leaseDurationMs: lease.leaseDurationMs,
        log: log.child({ component: 'lease' }),
        onStartedLeading: () => leadership.lead(),
        onStoppedLeading: () => leadership.follow(),
      })
    : undefined;

  // Only the leader fetches the feed; a follower answers /runai and the Home tab from the leader's copy in the store.
  const feedMirror = lease && maintenance
    ? whileFollowing(leadership, FEED_MIRROR_MS, () => maintenance.loadLastGood(), 'read the maintenance feed\'s last good copy from the store', log)
    : undefined;

  // Each cluster's watcher feeds the one reconciler through a handler of its own.
  const clusters = perCluster.map(
    ({ cluster, kubeConfig, reader, namespaces, log: clusterLog }) =>
      new ClusterWatch({
        name: cluster.name,
        settings: cluster,
        kubeConfig,
        reader,
        namespaces,
        handler: reconciler.forCluster(cluster.name, { normalize: namespaces.normalize, lookbackMs: cluster.lookbackHours * 3_600_000 }),
        onSynced: () => reconciler.markSynced(cluster.name),
        log: clusterLog,
        watcher,
      }),
  );

  // The contract with the Slack surfaces: the configured names (≤1: single cluster, messages name none) and a reader per cluster.
  registerListeners(slackApp.app, {
    config,
    store,
    reconciler,
    readerFor,
    clusterNames: clusterNames(config),
    uiUrlFor: (cluster) => uiUrlFor(config, cluster),
    owners,
    maintenance,
    log: log.child({ component: 'slack' }),
    now,
  });
  slackApp.app.error(async (err) => {
    log.error({ err: err.message, code: (err as { code?: string }).code }, 'Slack listener error');
  });

  const checks = readinessChecks({ clusters: () => clusters.map((c) => c.status()), slack: () => slackApp.connection.status(), store, now });
  const gauges = new GaugeSampler(
    metrics,
    {
      outboxDepth: () => store.outboxDepth(),
      kubeRequests: () => clusters.map((c) => [c.name, c.requests]),
      watchRestarts: () => clusters.map((c) => [c.name, c.stats.watchRestarts]),
      watchStalls: () => clusters.map((c) => [c.name, c.stats.watchStalls]),
      kubeErrors: () => clusters.map((c) => [c.name, c.stats.errors]),
      workloads: () => workloadsPerCluster(reconciler, clusters),
    },
    log,
  );
  return { metrics, clusters, readerFor, slackApp, outbox, ownerPrefetch, archiver, notifier, reconciler, maintenance, cleanup, retention, leadership, elector, feedMirror, gauges, checks, run };
}

function workloadsPerCluster(reconciler: WorkloadReconciler, clusters: ClusterWatch[]): Array<[string | undefined, number]> {
  const counts = new Map<string | undefined, number>(clusters.map((c) => [c.name, 0]));
  for (const w of reconciler.workloads()) counts.set(w.cluster, (counts.get(w.cluster) ?? 0) + 1);
  return [...counts];
}
