/**
 * The delivery half, built in the order an alert travels: the cache of what the watch shows,
 * the owner directory, the outbox that sends, the notifier that prepares what is owed, the
 * reconciler that decides it. Nothing is started; leadership starts the outbox (leader-duties.ts).
 */
import { haLease, pendingAfterMs, uiUrlFor } from '../config.js';
import { leaseIdentity } from '../cluster/lease.js';
import type { LifecycleState } from '../model.js';
import { LogArchiver } from '../archive/archiver.js';
import { ArchiveProblemReporter } from '../archive/problem-reporter.js';
import { containersFinishedAt, withPods } from '../cluster/normalize.js';
import { withTimeout } from '../lib/timeout.js';
import { FollowUps } from '../notify/follow-ups.js';
import { LogTips } from '../notify/log-tips.js';
import { DeliveryPlanner, owedOfItem } from '../notify/planner.js';
import { RefusedChannels } from '../notify/refused-channels.js';
import { wanted } from '../delivery/plan.js';
import { Notifier } from '../notify/notifier.js';
import { Outbox } from '../notify/outbox.js';
import { outboxHooks } from '../notify/outbox-hooks.js';
import { OwnerPrefetcher } from '../notify/owner-prefetch.js';
import { OwnerDirectory } from '../notify/owners.js';
import { WorkloadReconciler } from '../notify/reconciler.js';
import { WorkloadCache } from '../notify/workload-cache.js';
import { SlackGateway } from '../slack/client.js';
import type { ClusterReaders } from './clusters.js';
import type { SharedParts } from './run-state.js';

/** Failed and Stopped always reach the owner; Completed only those who opted in (settings). */
const ALERT_STATES: ReadonlySet<LifecycleState> = new Set(['Failed', 'Stopped', 'Completed']);

export interface DeliveryOptions extends SharedParts {
  clusters: ClusterReaders;
}

export interface DeliveryParts {
  /** What the watch shows now: written by the reconciler, read by the parts that only look. */
  cache: WorkloadCache;
  owners: OwnerDirectory;
  /** Reads the facts every delivery plan is made from (delivery/plan.ts decides). */
  planner: DeliveryPlanner;
  /** Channels where Slack refuses the bot's posts (for /readyz). */
  refusedChannels: RefusedChannels;
  outbox: Outbox;
  archiver?: LogArchiver;
  notifier: Notifier;
  logTips: LogTips;
  ownerPrefetch: OwnerPrefetcher;
  reconciler: WorkloadReconciler;
}

export function deliveryParts({ config, log, now, store, metrics, run, slackApp, clusters }: DeliveryOptions): DeliveryParts {
  const { readerFor } = clusters;
  const cache = new WorkloadCache();
  const gateway = new SlackGateway(slackApp.app.client);
  const owners = new OwnerDirectory(config.owners, gateway, store, now);
  const lease = haLease(config);
  // Who hears what is decided once, before enrichment (delivery/plan.ts); the planner reads its facts.
  const planner = new DeliveryPlanner({
    owners,
    store,
    projectChannel: (project) => config.projects[project]?.channel,
    fallbackChannel: config.slack.fallbackChannel,
    opsChannel: config.slack.opsChannel,
    burstWindowMs: config.alerts.burstWindow,
    now,
  });
  const refusedChannels = new RefusedChannels({
    store,
    opsChannel: config.slack.opsChannel,
    retentionMs: config.slack.outboxRetention,
    now,
    log: log.child({ component: 'outbox' }),
    queued: () => outbox.kick(),
    onChange: (refused) => {
      metrics.refusedChannels.reset();
      for (const r of refused) metrics.refusedChannels.set({ channel: r.channel, error: r.slackError }, 1);
    },
  });
  const outbox = new Outbox({
    store,
    slack: gateway,
    planner,
    refused: refusedChannels,
    log: log.child({ component: 'outbox' }),
    now,
    onSent: (item) => metrics.messagesSent.inc({ kind: item.kind }),
    onSkipped: (reason) => metrics.deliverySkipped.inc({ reason }),
    onError: (kind) => metrics.slackErrors.inc({ kind }),
    onStoreError: (op) => metrics.storeErrors.inc({ op }),
    retentionMs: config.slack.outboxRetention,
    // With ha: the Lease holder's identity, written beside each sending turn's epoch.
    identity: lease ? leaseIdentity(lease.podName) : undefined,
  });
  slackApp.connection.whenConnected(outboxHooks({ outbox, store, now, log }).onConnected);
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
  // Follow-ups in each alert's thread: told by the reconciler, opened by the notifier, sent by the
  // outbox. A failure told before that happens again is owed to the notifier (built just below;
  // only called once the watch runs).
  const followUps = new FollowUps({
    store,
    readerFor,
    permalink: (channel, ts) => gateway.permalink(channel, ts),
    windowMs: config.followups.window,
    owe: (alert) => notifier.owed(alert),
    queued: () => outbox.kick(),
    now,
    log: log.child({ component: 'follow-ups' }),
  });
  const notifier = new Notifier({
    store,
    outbox,
    planner,
    onSkipped: (reason) => metrics.deliverySkipped.inc({ reason }),
    onRequeued: () => metrics.decisionsRequeued.inc({ stage: 'alert' }),
    log: log.child({ component: 'notifier' }),
    now,
    uiUrlFor: (cluster) => uiUrlFor(config, cluster),
    enrich: { readerFor, ownerKeys: config.owners.keys, tailLines: config.alerts.logTailLines },
    currentState: (id) => cache.currentState(id),
    // One replica reads a failure's pods, events and logs: the leader (run.leading is always true without ha).
    prepares: () => run.leading,
    // Archiving is the leader's: two replicas would read the same logs and write the same file.
    onSettled: archiver ? (workload) => (run.leading ? { path: archiver.pathFor(workload), done: archiver.archive(workload) } : undefined) : undefined,
    burst: { windowMs: config.alerts.burstWindow, opsChannel: config.slack.opsChannel, opsThreshold: config.alerts.opsBurstThreshold },
    onTriage: (ms, category) => metrics.triageSeconds.observe({ category }, ms / 1000),
    maskedFailures: config.alerts.maskedFailures,
    followUps,
  });
  const logTips = new LogTips({
    store,
    // Checked before queueing too: a tip the person would not get must not use up their week.
    deliverable: async (item) => {
      const target = item.target;
      const userId = target.type === 'owner' ? await owners.slackUserFor(target.owner) : undefined;
      return !!userId && target.type === 'owner' && wanted(owedOfItem({ ...item, target }), await planner.preferences(userId), now()).action !== 'drop';
    },
    queued: () => outbox.kick(),
    // A start is decided by one replica, the leader (log-tips.ts says why); a start seen while no
    // replica leads earns no tip, which the next start makes up.
    decides: () => run.leading,
    log: log.child({ component: 'tips' }),
    now,
  });
  // Owners are resolved to Slack users when their workloads are first seen, not when they fail.
  const ownerPrefetch = new OwnerPrefetcher({
    owners,
    presentOwners: () => cache.ownersPresent(),
    perMinute: config.owners.lookupsPerMinute,
    log: log.child({ component: 'owners' }),
    now,
  });
  // A cached answer past its TTL is used at once on the failure path and refreshed in the background.
  owners.whenStale((owner) => ownerPrefetch.stale(owner));
  const reconciler = new WorkloadReconciler({
    cache,
    store,
    log: log.child({ component: 'reconciler' }),
    now,
    normalize: clusters.normalize,
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
    onRequeued: (n = 1) => metrics.decisionsRequeued.inc({ stage: 'decision' }, n),
    onStarted: (workload, raw) => logTips.started(workload, raw),
    stuck: { pendingAfterMs: (project) => pendingAfterMs(config, project), initializingAfterMs: config.alerts.initializingAfter },
  });
  return { cache, owners, planner, refusedChannels, outbox, archiver, notifier, logTips, ownerPrefetch, reconciler };
}
