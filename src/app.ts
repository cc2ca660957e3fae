/**
 * The composition root: builds every part from the validated config, starts them in order,
 * stops them in reverse. No logic lives here; each loop and decision is in its module.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { pendingAfterMs, storeUrl, type Config } from './config.js';
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
import { kubeconfigError, listenError, storeError, StartupError } from './ops/startup.js';
import { RetentionPruner } from './ops/retention.js';
import { SlackGateway } from './slack/client.js';
import { registerListeners } from './slack/listeners.js';
import type { Store } from './store/port.js';
import { openConfiguredStore } from './store/open.js';
import { StoreMaintenanceLedger } from './store/maintenance-ledger.js';
import { LogArchiver } from './archive/archiver.js';
import { ArchiveProblemReporter } from './archive/problem-reporter.js';
import { CleanupNudger } from './notify/cleanup.js';
import { FeedFetcher } from './maintenance/feed.js';
import { MaintenanceService } from './maintenance/service.js';

/** Failed and Stopped always reach the owner; Completed only those who opted in (settings). */
const ALERT_STATES: ReadonlySet<LifecycleState> = new Set(['Failed', 'Stopped', 'Completed']);
/** How often workloads are checked for having been Pending or Initializing too long. */
const STUCK_CHECK_MS = 30_000;
/** The ledger is kept at least this long, however short the catch-up and cleanup windows. */
const MIN_LEDGER_KEEP_MS = 30 * 86_400_000;

export { StartupError };

export interface BotOptions {
  config: Config;
  log: Logger;
  now?: () => Date;
  /** Defaults to KUBECONFIG / in-cluster credentials. */
  kubeConfig?: KubeConfig;
  /** Told once per Slack connection problem, with its fix (the start command: stderr). */
  announce?(line: string): void;
  /** Longest wait at start for Slack's first answer before going on without it (default 10 s). */
  slackStartWaitMs?: number;
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
  readonly retention: RetentionPruner;
  /** Port of the ops endpoints (/healthz, /readyz, /metrics). */
  readonly port: number;
  /** HTTP mode: port of /slack/events (which serves nothing else). */
  readonly slackPort?: number;
  ready(): Promise<boolean>;
  /** Resolves when every alert decided so far has been prepared and the outbox tried once. */
  settle(): Promise<void>;
  /** Runs the stuck-Pending/Initializing check now (it also runs on a timer). */
  checkStuck(): void;
  stop(): Promise<void>;
}

export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (path) kc.loadFromFile(path);
    else kc.loadFromDefault();
  } catch (err) {
    throw kubeconfigError(err, path);
  }
  return kc;
}

/**
 * How long start-up waits for a store another process has locked (a replica being replaced, a
 * backup, sqlite3 in a shell). Without the wait, a restart that meets a lock exits, and
 * restarts into the same lock.
 */
const STORE_LOCK_WAIT_MS = 60_000;

async function openStore(config: Config, log: Logger): Promise<Store> {
  const url = storeUrl(config);
  const started = Date.now();
  for (;;) {
    let store: Store | undefined;
    try {
      store = await openConfiguredStore({ path: config.store.path, url });
      // Opening succeeds on a read-only file; the first write is where it would fail later.
      const problem = await store.probeWrite(new Date());
      if (problem) throw Object.assign(new Error(problem), { code: problem });
      return store;
    } catch (err) {
      await store?.close();
      const code = (err as { code?: string }).code;
      const locked = code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
      if (!locked || Date.now() - started > STORE_LOCK_WAIT_MS) throw storeError(err, url ? { url } : { path: config.store.path });
      log.warn({ store: config.store.path, code }, 'the store is locked by another process; waiting');
      await delay(1000);
    }
  }
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, log } = options;
  const now = options.now ?? (() => new Date());
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(config.secrets.kubeconfig);
  const store = await openStore(config, log);
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
  let shuttingDown = false;
  const storeCheck = async () => {
    // A tiny real write: a full disk or a read-only volume shows here, and clears once writes work again.
    const problem = await store.probeWrite(now());
    return problem ? { ok: false, detail: `cannot write the store (${problem}); alerts cannot be queued until it can` } : { ok: true };
  };
  const checks = async () => {
    const slackStatus = slackApp.connection.status();
    return {
      cluster: { ok: !!watcher?.synced, detail: watcher?.synced ? undefined : 'workload watch not synced yet' },
      slack: slackStatus.ok ? { ok: true } : { ok: false, detail: slackStatus.detail },
      store: await storeCheck(),
    };
  };
  const handlers = opsHandlers(metrics, { checks });

  const slackApp = createSlackApp({
    config,
    log,
    announce: options.announce,
    onConnected: () => {
      // What failed while Slack was away is due now, not after its backoff.
      void store
        .expediteOutbox(now())
        .then((expedited) => {
          if (expedited) log.info({ expedited }, 'Slack is back: sending what was queued');
        })
        .catch((err: unknown) => log.warn({ err: (err as Error)?.message ?? String(err) }, 'cannot make the queued messages due now; they go at their own time'))
        // Only called once slackApp.start() has run, which is after the outbox is built.
        .finally(() => outbox.kick());
    },
    // Until Slack has accepted the token every send would fail and use up one of a message's
    // tries: an outage at start longer than the outbox's retries would otherwise drop alerts.
    onAuthenticated: () => {
      if (!shuttingDown) outbox.start();
    },
  });
  const slack = slackApp.app;
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
  // Paused (queueing only) until Slack accepts the bot token; onAuthenticated starts it.
  void outbox.stop();
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
        ledger: new StoreMaintenanceLedger(store),
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
  const retention = new RetentionPruner({
    store,
    liveWorkloads: () => reconciler.workloads().map((w) => w.uid),
    keepMs: Math.max(config.cluster.lookbackHours * 3_600_000, config.cleanup.after, MIN_LEDGER_KEEP_MS),
    archive: config.archive ? { dir: config.archive.dir, retentionMs: config.archive.retention, maxTotalBytes: config.archive.maxTotalBytes, busy: () => archiver?.busyPaths() ?? [] } : undefined,
    log: log.child({ component: 'retention' }),
    now,
  });

  registerListeners(slack, { config, store, reconciler, reader, owners, maintenance, normalize, log: log.child({ component: 'slack' }), now });
  slack.error(async (err) => {
    log.error({ err: err.message, code: (err as { code?: string }).code }, 'Slack listener error');
  });

  // Before connecting to Slack: a taken ops.port is reported before anything else starts.
  let opsServer: Server;
  try {
    opsServer = await startOpsServer(config.ops.port, handlers, config.ops.host);
  } catch (err) {
    await store.close();
    throw err;
  }
  const port = (opsServer.address() as AddressInfo).port;
  let slackPort: number | undefined;
  try {
    if (config.slack.mode === 'http') {
      const server = await slackApp.start(config.slack.port).catch((err: unknown) => {
        throw listenError(err, 'slack.port', config.slack.port);
      });
      slackPort = (server!.address() as AddressInfo).port;
    } else {
      await slackApp.start();
    }
  } catch (err) {
    opsServer.close(); // a listening socket would keep a failed start's process alive
    await slackApp.stop();
    await store.close();
    throw err;
  }

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
  reconciler.markSynced();
  const namespaceTimer = setInterval(() => void refreshNamespaces(), config.cluster.resyncMinutes * 60_000);
  namespaceTimer.unref();
  reconciler.checkStuck();
  maintenance?.start();
  cleanup.start();
  retention.start();
  // Usually Slack answers at once and the bot starts connected; if it does not, go on without it.
  await Promise.race([slackApp.connection.firstAttempt, delay(options.slackStartWaitMs ?? 10_000)]);
  const stuckTimer = setInterval(() => reconciler.checkStuck(), STUCK_CHECK_MS);
  stuckTimer.unref();
  const gaugeTimer = setInterval(() => {
    store.outboxDepth().then((depth) => metrics.outboxDepth.set(depth), () => undefined);
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
    retention,
    port,
    slackPort,
    ready: async () => Object.values(await checks()).every((c) => c.ok),
    settle: async () => {
      await reconciler.idle();
      await notifier.idle();
      await outbox.flush();
    },
    checkStuck: () => reconciler.checkStuck(),
    stop: () =>
      (stopping ??= (async () => {
        shuttingDown = true;
        watcher?.stop();
        clearInterval(namespaceTimer);
        clearInterval(stuckTimer);
        maintenance?.stop();
        cleanup.stop();
        retention.stop();
        clearInterval(gaugeTimer);
        // Finish what is being decided, prepared and sent; what is left stays queued in the store.
        await Promise.race([reconciler.idle(), delay(3000)]);
        await Promise.race([notifier.flushBursts(), delay(2000)]);
        await Promise.race([Promise.all([notifier.idle(), archiver?.idle()]), delay(5000)]);
        await Promise.race([outbox.stop(), delay(3000)]);
        await slackApp.stop().catch(() => undefined);
        await new Promise<void>((resolve) => opsServer.close(() => resolve()));
        opsServer.closeAllConnections();
        await store.close();
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
