/**
 * The bot's object graph: every part built from the validated config, in dependency order,
 * nothing started. src/app.ts starts them in order and stops them in reverse.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { haLease, pendingAfterMs, type Config } from './config.js';
import type { LifecycleState } from './model.js';
import { LogArchiver } from './archive/archiver.js';
import { ArchiveProblemReporter } from './archive/problem-reporter.js';
import { LeaseElector, leaseIdentity } from './cluster/lease.js';
import { NamespaceLabels } from './cluster/namespaces.js';
import { createClusterReader, type ClusterReader } from './cluster/reader.js';
import type { WorkloadKindRef } from './cluster/kinds.js';
import { WorkloadWatcher } from './cluster/watcher.js';
import { Late } from './lib/late.js';
import { FeedFetcher } from './maintenance/feed.js';
import { MaintenanceService } from './maintenance/service.js';
import { CleanupNudger } from './notify/cleanup.js';
import { maintenanceDelivery } from './notify/maintenance-delivery.js';
import { deliveryFor } from './notify/mutes.js';
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
  kubeConfig: KubeConfig;
  announce?(line: string): void;
}

export interface Parts {
  metrics: Metrics;
  reader: ClusterReader;
  namespaces: NamespaceLabels;
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
  checks(): Promise<Record<string, Check>>;
  run: RunState;
}

/** What changes while the bot runs, read by the parts built before it changes. */
export interface RunState {
  /** Built once the cluster's workload kinds are known (src/app.ts). */
  watcher?: WorkloadWatcher;
  /** Set when stop() begins. */
  stopping: boolean;
}

export function buildParts({ config, log, now, store, kubeConfig, announce }: PartsOptions): Parts {
  const run: RunState = { stopping: false };
  const metrics = new Metrics({ defaultMetrics: true });
  const reader = createClusterReader(kubeConfig);
  const namespaces = new NamespaceLabels({ reader, ownerKeys: config.owners.keys, refreshMs: config.cluster.resyncMinutes * 60_000, log });
  const normalize = namespaces.normalize;
  const outboxLater = new Late<Outbox>('the outbox');
  const leadershipLater = new Late<Leadership>('leadership');
  const slackApp = createSlackApp({ config, log, announce, ...outboxHooks({ outbox: outboxLater, store, now, log, authenticated: () => leadershipLater.get().slackAuthenticated() }) });
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
        reader,
        dir: archive.dir,
        maxBytesPerContainer: archive.maxBytesPerContainer,
        reporter: new ArchiveProblemReporter({ store, opsChannel: config.slack.opsChannel, dir: archive.dir, log: log.child({ component: 'archive' }), queued: () => outbox.kick() }),
        log: log.child({ component: 'archive' }),
        now,
      })
    : undefined;
  // The notifier asks what the cluster shows now; the reconciler, which feeds the notifier, knows.
  const reconcilerLater = new Late<WorkloadReconciler>('the reconciler');
  const notifier = new Notifier({
    store,
    outbox,
    log: log.child({ component: 'notifier' }),
    now,
    uiUrl: config.runai.uiUrl,
    enrich: { reader, normalize, tailLines: config.alerts.logTailLines },
    currentState: (uid) => reconcilerLater.get().currentState(uid),
    // Archiving is the leader's: two replicas would read the same logs and write the same file.
    onSettled: archiver ? (workload) => (leadershipLater.get().leading ? { path: archiver.pathFor(workload), done: archiver.archive(workload) } : undefined) : undefined,
    burst: { windowMs: config.alerts.burstWindow, opsChannel: config.slack.opsChannel, opsThreshold: config.alerts.opsBurstThreshold },
    onTriage: (ms, category) => metrics.triageSeconds.observe({ category }, ms / 1000),
  });
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
      lookbackMs: config.cluster.lookbackHours * 3_600_000,
      sink: notifier,
      onTransition: (t) => metrics.transitions.inc({ from: t.from ?? 'none', to: t.to }),
      onMalformed: () => metrics.malformed.inc(),
      onOwnerSeen: (owner) => ownerPrefetch.seen(owner),
      stuck: { pendingAfterMs: (project) => pendingAfterMs(config, project), initializingAfterMs: config.alerts.initializingAfter },
    }),
  );
  const maintenance = config.maintenance
    ? new MaintenanceService({
        fetcher: new FeedFetcher({ feed: config.maintenance.feed, cache: store, now }),
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
    liveWorkloads: () => reconciler.workloads().map((w) => w.uid),
    keepMs: Math.max(config.cluster.lookbackHours * 3_600_000, config.cleanup.after, MIN_LEDGER_KEEP_MS),
    archive: archive ? { dir: archive.dir, retentionMs: archive.retention, maxTotalBytes: archive.maxTotalBytes, busy: () => archiver?.busyPaths() ?? [] } : undefined,
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
        kubeConfig,
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

  registerListeners(slackApp.app, { config, store, reconciler, reader, owners, maintenance, normalize, log: log.child({ component: 'slack' }), now });
  slackApp.app.error(async (err) => {
    log.error({ err: err.message, code: (err as { code?: string }).code }, 'Slack listener error');
  });

  const checks = readinessChecks({ watchSynced: () => !!run.watcher?.synced, slack: () => slackApp.connection.status(), store, now });
  return { metrics, reader, namespaces, slackApp, outbox, ownerPrefetch, archiver, notifier, reconciler, maintenance, cleanup, retention, leadership, elector, feedMirror, checks, run };
}

/** The parts that need the cluster's workload kinds, known only once discovery has answered. */
export function buildWatch({ config, log, store, kubeConfig }: PartsOptions, { reader, reconciler, metrics, run }: Parts, kinds: WorkloadKindRef[]): { watcher: WorkloadWatcher; gauges: GaugeSampler } {
  const { cluster } = config;
  const watcher = (run.watcher = new WorkloadWatcher({
    kubeConfig,
    kinds,
    namespaces: cluster.namespaces,
    mode: cluster.mode,
    pollIntervalMs: cluster.pollIntervalSeconds * 1000,
    resyncMs: cluster.resyncMinutes * 60_000,
    handler: reconciler,
    log: log.child({ component: 'watcher' }),
  }));
  const gauges = new GaugeSampler(
    metrics,
    {
      outboxDepth: () => store.outboxDepth(),
      kubeRequests: () => watcher.stats.requests + reader.requests,
      watchRestarts: () => watcher.stats.watchRestarts,
      kubeErrors: () => watcher.stats.errors,
      workloads: () => reconciler.workloads().length,
    },
    log,
  );
  return { watcher, gauges };
}
