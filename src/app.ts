/**
 * The composition root: builds every part from the validated config, starts them in order,
 * stops them in reverse. No logic lives here; each loop and decision is in its module.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { pendingAfterMs, type Config } from './config.js';
import type { LifecycleState } from './model.js';
import { discoverWorkloadKinds, describeKubeError, type WorkloadKindRef } from './cluster/kinds.js';
import { createClusterReader, type ClusterReader } from './cluster/reader.js';
import { WorkloadWatcher } from './cluster/watcher.js';
import { Notifier } from './notify/notifier.js';
import { Outbox } from './notify/outbox.js';
import { OwnerDirectory } from './notify/owners.js';
import { WorkloadReconciler } from './notify/reconciler.js';
import { deliveryFor } from './notify/mutes.js';
import { Metrics } from './ops/metrics.js';
import { opsHandlers, startOpsServer } from './ops/server.js';
import { createSlackApp, type App } from './slack/app.js';
import { SlackGateway } from './slack/client.js';
import { registerListeners } from './slack/listeners.js';
import { Store } from './store/sqlite.js';
import { SqliteMaintenanceLedger } from './store/maintenance-ledger.js';
import { LogArchiver } from './archive/archiver.js';
import { ArchiveProblemReporter } from './archive/problem-reporter.js';
import { CleanupNudger } from './notify/cleanup.js';
import { FeedFetcher } from './maintenance/feed.js';
import { MaintenanceService } from './maintenance/service.js';

/** Failed and Stopped always reach the owner; Completed only those who opted in (settings). */
const ALERT_STATES: ReadonlySet<LifecycleState> = new Set(['Failed', 'Stopped', 'Completed']);
/** How often workloads are checked for having been Pending or Initializing too long. */
const STUCK_CHECK_MS = 30_000;

export interface BotOptions {
  config: Config;
  log: Logger;
  now?: () => Date;
  /** Defaults to KUBECONFIG / in-cluster credentials. */
  kubeConfig?: KubeConfig;
}

export interface Bot {
  readonly store: Store;
  readonly reconciler: WorkloadReconciler;
  readonly notifier: Notifier;
  readonly outbox: Outbox;
  readonly metrics: Metrics;
  readonly slack: App;
  readonly reader: ClusterReader;
  readonly maintenance?: MaintenanceService;
  readonly cleanup: CleanupNudger;
  /** Port of the ops endpoints (/healthz, /readyz, /metrics). */
  readonly port: number;
  /** HTTP mode: port of /slack/events (which serves nothing else). */
  readonly slackPort?: number;
  ready(): boolean;
  /** Resolves when every alert decided so far has been prepared and the outbox tried once. */
  settle(): Promise<void>;
  /** Runs the stuck-Pending/Initializing check now (it also runs on a timer). */
  checkStuck(): void;
  stop(): Promise<void>;
}

export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, log } = options;
  const now = options.now ?? (() => new Date());
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(config.secrets.kubeconfig);
  const store = new Store(config.store.path);
  const metrics = new Metrics({ defaultMetrics: true });
  const reader = createClusterReader(kubeConfig);

  let namespaceLabels = new Map<string, Record<string, string>>();
  const normalize = (namespace: string) => ({ ownerKeys: config.owners.keys, namespaceLabels: namespaceLabels.get(namespace) });
  const refreshNamespaces = async () => {
    try {
      namespaceLabels = await reader.namespaceLabels();
    } catch (err) {
      log.warn({ err: describeKubeError(err) }, 'cannot read namespace labels; projects fall back to pod labels and namespace names');
    }
  };

  let watcher: WorkloadWatcher | undefined;
  let slackConnected = false;
  const handlers = opsHandlers(metrics, {
    checks: () => ({
      cluster: { ok: !!watcher?.synced, detail: watcher?.synced ? undefined : 'workload watch not synced yet' },
      slack: { ok: slackConnected, detail: slackConnected ? undefined : 'not connected to Slack' },
    }),
  });

  const slack = await createSlackApp({ config, log });
  const gateway = new SlackGateway(slack.client);
  const owners = new OwnerDirectory(config.owners, gateway, store, now);
  const outbox = new Outbox({
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
  });
  const archiver = config.archive
    ? new LogArchiver({
        reader,
        dir: config.archive.dir,
        maxBytesPerContainer: config.archive.maxBytesPerContainer,
        reporter: new ArchiveProblemReporter({ store, opsChannel: config.slack.opsChannel, dir: config.archive.dir, log: log.child({ component: 'archive' }), queued: () => outbox.kick() }),
        log: log.child({ component: 'archive' }),
        now,
      })
    : undefined;
  // The notifier asks the reconciler what the cluster shows now; the reconciler is built next.
  let reconciler: WorkloadReconciler;
  const notifier = new Notifier({
    store,
    outbox,
    log: log.child({ component: 'notifier' }),
    now,
    uiUrl: config.runai.uiUrl,
    enrich: { reader, normalize, tailLines: config.alerts.logTailLines },
    currentState: (uid) => reconciler.currentState(uid),
    onSettled: archiver ? (workload) => ({ path: archiver.pathFor(workload), done: archiver.archive(workload) }) : undefined,
    burst: { windowMs: config.alerts.burstWindow, opsChannel: config.slack.opsChannel, opsThreshold: config.alerts.opsBurstThreshold },
    onTriage: (ms, category) => metrics.triageSeconds.observe({ category }, ms / 1000),
  });
  reconciler = new WorkloadReconciler({
    store,
    log: log.child({ component: 'reconciler' }),
    now,
    normalize,
    alertStates: ALERT_STATES,
    lookbackMs: config.cluster.lookbackHours * 3_600_000,
    sink: notifier,
    onTransition: (t) => metrics.transitions.inc({ from: t.from ?? 'none', to: t.to }),
    onMalformed: () => metrics.malformed.inc(),
    stuck: { pendingAfterMs: (project) => pendingAfterMs(config, project), initializingAfterMs: config.alerts.initializingAfter },
  });

  const maintenance = config.maintenance
    ? new MaintenanceService({
        fetcher: new FeedFetcher({ feed: config.maintenance.feed, cache: store, now }),
        ledger: new SqliteMaintenanceLedger(store),
        post: async (channel, message) => void (await gateway.post(channel, message)),
        dm: async (owner, message) => {
          const user = await owners.slackUserFor(owner);
          // Nobody to tell: done, rather than retried every minute until the window starts.
          if (!user) return void log.info({ owner }, 'no Slack user for this owner; maintenance notice not sent');
          await gateway.post(await gateway.openDm(user), message);
        },
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

  registerListeners(slack, { config, store, reconciler, reader, owners, maintenance, normalize, log: log.child({ component: 'slack' }), now });
  slack.error(async (err) => {
    log.error({ err: err.message, code: (err as { code?: string }).code }, 'Slack listener error');
  });

  // Before connecting to Slack: a taken ops.port is reported before anything else starts.
  const opsServer: Server = await startOpsServer(config.ops.port, handlers, config.ops.host);
  const port = (opsServer.address() as AddressInfo).port;
  let slackPort: number | undefined;
  try {
    if (config.slack.mode === 'http') {
      const server = (await slack.start(config.slack.port)) as Server;
      slackPort = (server.address() as AddressInfo).port;
    } else {
      await slack.start();
    }
  } catch (err) {
    opsServer.close(); // a listening socket would keep a failed start's process alive
    throw err;
  }
  slackConnected = true;
  outbox.start();

  await refreshNamespaces();
  const kinds = await discoverWithRetry(kubeConfig, log);
  watcher = new WorkloadWatcher({
    kubeConfig,
    kinds,
    namespaces: config.cluster.namespaces,
    mode: config.cluster.mode,
    pollIntervalMs: config.cluster.pollIntervalSeconds * 1000,
    resyncMs: config.cluster.resyncMinutes * 60_000,
    handler: reconciler,
    log: log.child({ component: 'watcher' }),
  });
  await watcher.start();
  await reconciler.markSynced();
  const namespaceTimer = setInterval(() => void refreshNamespaces(), config.cluster.resyncMinutes * 60_000);
  namespaceTimer.unref();
  reconciler.checkStuck();
  maintenance?.start();
  cleanup.start();
  const stuckTimer = setInterval(() => reconciler.checkStuck(), STUCK_CHECK_MS);
  stuckTimer.unref();
  const gaugeTimer = setInterval(() => {
    metrics.outboxDepth.set(store.outboxDepth());
    metrics.kubeRequests.set(watcher!.stats.requests + reader.requests);
    metrics.watchRestarts.set(watcher!.stats.watchRestarts);
    metrics.kubeErrors.set(watcher!.stats.errors);
    metrics.workloads.set(reconciler.workloads().length);
  }, 5000);
  gaugeTimer.unref();
  log.info({ kinds: kinds.map((k) => `${k.plural}.${k.group}/${k.version}`), mode: config.cluster.mode, port, slackPort }, 'runai-slack-bot started');

  let stopping: Promise<void> | undefined;
  return {
    store,
    reconciler,
    notifier,
    outbox,
    metrics,
    slack,
    reader,
    maintenance,
    cleanup,
    port,
    slackPort,
    ready: () => !!watcher?.synced && slackConnected,
    settle: async () => {
      await notifier.idle();
      await outbox.flush();
    },
    checkStuck: () => reconciler.checkStuck(),
    stop: () =>
      (stopping ??= (async () => {
        watcher?.stop();
        clearInterval(namespaceTimer);
        clearInterval(stuckTimer);
        maintenance?.stop();
        cleanup.stop();
        notifier.flushBursts();
        clearInterval(gaugeTimer);
        // Finish what is being prepared and sent; what is left stays queued on disk.
        await Promise.race([Promise.all([notifier.idle(), archiver?.idle()]), delay(5000)]);
        await Promise.race([outbox.stop(), delay(3000)]);
        await slack.stop().catch(() => undefined);
        await new Promise<void>((resolve) => opsServer.close(() => resolve()));
        opsServer.closeAllConnections();
        store.close();
        log.info('runai-slack-bot stopped');
      })()),
  };
}

/** The cluster may be briefly unreachable at start; keep asking, with capped backoff. */
async function discoverWithRetry(kubeConfig: KubeConfig, log: Logger): Promise<WorkloadKindRef[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await discoverWorkloadKinds(kubeConfig);
    } catch (err) {
      const wait = Math.min(30_000, 1000 * 2 ** attempt);
      log.error({ err: (err as Error).message, retryInMs: wait }, 'cannot discover Run:ai workload kinds');
      await delay(wait);
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
