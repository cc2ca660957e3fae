/**
 * What only the leading replica does — the schedules (stuck checks, owner prefetch, maintenance,
 * cleanup nudges, retention) and the outbox's sending — and, with `ha.enabled`, the Lease that
 * decides who leads. Nothing is started: src/app.ts starts the elector (or leads at once).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';
import { haLease, leaseCluster } from '../config.js';
import { workloadId } from '../model.js';
import { LeaseElector, leaseIdentity } from '../cluster/lease.js';
import { fetchThrough } from '../lib/proxy.js';
import { FeedFetcher } from '../maintenance/feed.js';
import { MaintenanceService } from '../maintenance/service.js';
import type { ClusterReader } from '../cluster/reader.js';
import { CheckpointReader } from '../notify/checkpoints.js';
import { CleanupNudger } from '../notify/cleanup.js';
import { maintenanceDelivery } from '../notify/maintenance-delivery.js';
import { stuckCheckDuty } from '../notify/stuck-timer.js';
import { Leadership, whileFollowing } from '../ops/leadership.js';
import { RetentionPruner } from '../ops/retention.js';
import { StoreMaintenanceLedger } from '../store/maintenance-ledger.js';
import type { DeliveryParts } from './delivery.js';
import type { SharedParts } from './run-state.js';

/** The ledger is kept at least this long, however short the catch-up and cleanup windows. */
const MIN_LEDGER_KEEP_MS = 30 * 86_400_000;
/** How often a follower (ha) takes the leader's last good copy of the maintenance feed from the store. */
const FEED_MIRROR_MS = 60_000;

export interface LeaderDutiesOptions extends SharedParts {
  delivery: DeliveryParts;
  /** One per entry of config.clusters; the Lease lives in ha.cluster's, else the first's. */
  kubeConfigs: KubeConfig[];
  /** The way out for the maintenance feed (lib/proxy.ts), when a proxy is configured. */
  egress?: Dispatcher;
  /** The reader of each cluster (for the checkpoint lines of the owners' maintenance DM). */
  readerFor(cluster: string | undefined): ClusterReader;
}

export interface LeaderDuties {
  maintenance?: MaintenanceService;
  cleanup: CleanupNudger;
  retention: RetentionPruner;
  /** The leader-only duties and the outbox's on/off; leads from the start without ha.enabled. */
  leadership: Leadership;
  /** With ha.enabled: the Lease elector that calls leadership.lead()/follow(). */
  elector?: LeaseElector;
  /** With ha.enabled and maintenance: a follower's copy of the feed, from the store (every replica). */
  feedMirror?: { start(): void; stop(): void };
}

export function leaderDuties({ config, log, now, store, metrics, run, slackApp, delivery, kubeConfigs, egress, readerFor }: LeaderDutiesOptions): LeaderDuties {
  const { outbox, owners, cache, reconciler, ownerPrefetch } = delivery;
  const checkpoints = new CheckpointReader({ readerFor, ownerKeys: config.owners.keys, now });
  const maintenance = config.maintenance
    ? new MaintenanceService({
        fetcher: new FeedFetcher({ feed: config.maintenance.feed, cache: store, now, ...(egress ? { fetch: fetchThrough(egress) } : {}) }),
        ledger: new StoreMaintenanceLedger(store),
        ...maintenanceDelivery({ store, queued: () => outbox.kick(), owners, now, log: log.child({ component: 'maintenance' }) }),
        runningWorkloads: () => cache.workloads().filter((w) => w.state === 'Running'),
        checkpointsOf: (workloads) => checkpoints.readAll(workloads),
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
  const archive = config.archive;
  const retention = new RetentionPruner({
    store,
    liveWorkloads: () => cache.workloads().map(workloadId),
    keepMs: Math.max(...config.clusters.map((c) => c.lookbackHours * 3_600_000), config.cleanup.after, MIN_LEDGER_KEEP_MS),
    archive: archive ? { dir: archive.dir, retentionMs: archive.retention, maxTotalBytes: archive.maxTotalBytes, busy: () => delivery.archiver?.busyPaths() ?? [] } : undefined,
    followUps: { windowMs: config.followups.window, prune: (before) => store.pruneFollowUpThreads(before) },
    log: log.child({ component: 'retention' }),
    now,
  });

  const lease = haLease(config);
  const leadership = new Leadership({
    outbox,
    leading: !lease,
    stopping: () => run.stopping,
    log: log.child({ component: 'leadership' }),
    onChange: (leading) => {
      run.leading = leading;
      metrics.leader.set(leading ? 1 : 0);
      // A follower prepares no alert (delivery.ts): on taking over, every workload is decided
      // again, and what is owed and neither told nor queued is prepared now.
      if (leading) void reconciler.reconcileAll();
    },
    duties: [
      stuckCheckDuty(reconciler),
      // Lookups spend the workspace's users.lookupByEmail tier: one replica (the leader) does them.
      { name: 'owner prefetch', start: () => ownerPrefetch.start(), stop: () => ownerPrefetch.stop() },
      ...(maintenance ? [{ name: 'maintenance', start: () => maintenance.start(), stop: () => maintenance.stop() }] : []),
      { name: 'cleanup', start: () => cleanup.start(), stop: () => cleanup.stop() },
      { name: 'retention', start: () => retention.start(), stop: () => retention.stop() },
    ],
  });
  // Slack accepted the token: the outbox may start, if this replica leads and the bot is not stopping.
  slackApp.connection.whenAuthenticated(() => leadership.slackAuthenticated());
  const elector = lease
    ? new LeaseElector({
        kubeConfig: kubeConfigs[config.clusters.indexOf(leaseCluster(config))],
        namespace: lease.namespace,
        name: lease.name,
        identity: leaseIdentity(lease.podName),
        leaseDurationMs: lease.leaseDurationMs,
        log: log.child({ component: 'lease' }),
        onStartedLeading: (timeLeft) => leadership.lead(timeLeft),
        onStoppedLeading: () => leadership.follow(),
      })
    : undefined;
  // Only the leader fetches the feed; a follower answers /runai and the Home tab from the leader's copy in the store.
  const feedMirror = lease && maintenance
    ? whileFollowing(leadership, FEED_MIRROR_MS, () => maintenance.loadLastGood(), 'read the maintenance feed\'s last good copy from the store', log)
    : undefined;
  return { maintenance, cleanup, retention, leadership, elector, feedMirror };
}
