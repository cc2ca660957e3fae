/**
 * The composition root: builds every part (src/parts.ts), starts them in order, stops them in
 * reverse. No logic lives here; each loop and decision is in its module.
 */
import type { AddressInfo } from 'node:net';
import { opsHandlers, startOpsServer } from './ops/server.js';
import { adoptSingleClusterStore, loadClusterKubeConfigs, loadKubeConfig, openStore } from './ops/open.js';
import { StartupError } from './ops/startup.js';
import { buildParts } from './parts.js';
import { delay, startClusters, startSlack } from './parts/start.js';
import type { Bot, BotOptions } from './bot.js';

export { loadKubeConfig, StartupError };
export type { Bot, BotOptions };

export async function startBot(options: BotOptions): Promise<Bot> {
  const { config, log } = options;
  const now = options.now ?? (() => new Date());
  // A cluster named without kubeconfig or context uses the bot's own credentials (options.kubeConfig in tests).
  const kubeConfigs = loadClusterKubeConfigs(config, options.kubeConfig);
  const store = await openStore(config, log);
  await adoptSingleClusterStore(store, config, log).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const parts = buildParts({ config, log, now, store, kubeConfigs, announce: options.announce, watcher: options.watcher });
  const { metrics, clusters, readerFor, slackApp, outbox, ownerPrefetch, archiver, notifier, logTips, reconciler, maintenance, cleanup, retention, leadership, elector, feedMirror, gauges, checks, run } = parts;

  // Before connecting to Slack: a taken ops.port is reported before anything else starts.
  const readiness = { checks, leader: () => leadership.leading, clusters: () => clusters.map((c) => c.status()) };
  const opsServer = await startOpsServer(config.ops.port, opsHandlers(metrics, readiness), config.ops.host).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const slackPort = await startSlack(slackApp, config).catch(async (err: unknown) => {
    opsServer.close(); // a listening socket would keep a failed start's process alive
    await slackApp.stop();
    await store.close();
    throw err;
  });

  // Once one cluster has synced, no longer than clusterStartWaitMs for the rest (parts/start.ts).
  await startClusters(clusters, options.clusterStartWaitMs ?? 10_000, log);
  // The schedules and the outbox's sending are the leader's (ops/leadership.ts); without ha the one replica leads.
  if (elector) await elector.start();
  else leadership.lead();
  feedMirror?.start();
  // Usually Slack answers at once and the bot starts connected; if it does not, go on without it.
  await Promise.race([slackApp.connection.firstAttempt, delay(options.slackStartWaitMs ?? 10_000)]);
  gauges.start();
  const port = (opsServer.address() as AddressInfo).port;
  const kinds = (c: (typeof clusters)[number]) => c.kinds?.map((k) => `${k.plural}.${k.group}/${k.version}`);
  const started = clusters.length === 1 && !clusters[0].name
    ? { kinds: kinds(clusters[0]), mode: config.clusters[0].mode }
    : { clusters: clusters.map((c) => ({ name: c.name, synced: c.synced, kinds: kinds(c) })) };
  log.info({ ...started, port, slackPort }, 'runai-slack-bot started');

  let stopping: Promise<void> | undefined;
  return {
    store,
    reconciler,
    notifier,
    outbox,
    ownerPrefetch,
    metrics,
    slack: slackApp.app,
    reader: readerFor(undefined),
    readerFor,
    clusters: () => clusters.map((c) => c.status()),
    maintenance,
    cleanup,
    retention,
    leadership,
    port,
    slackPort,
    ready: async () => Object.values(await checks()).every((c) => c.ok),
    settle: async () => {
      await reconciler.idle();
      await notifier.idle();
      await logTips.idle();
      await outbox.flush();
    },
    checkStuck: () => reconciler.checkStuck(),
    stop: () =>
      (stopping ??= (async () => {
        run.stopping = true;
        // With ha: stop sending and the schedules, then release the Lease so the other replica leads at once.
        await elector?.stop();
        for (const cluster of clusters) cluster.stop();
        feedMirror?.stop();
        await leadership.stopDuties();
        gauges.stop();
        // Finish what is being decided, prepared and sent; what is left stays queued in the store.
        reconciler.stop();
        notifier.stop();
        await Promise.race([reconciler.idle(), delay(3000)]);
        await Promise.race([notifier.flushBursts(), delay(2000)]);
        await Promise.race([Promise.all([notifier.idle(), logTips.idle(), archiver?.idle()]), delay(5000)]);
        await Promise.race([outbox.stop(), delay(3000)]);
        await slackApp.stop().catch(() => undefined);
        await new Promise<void>((resolve) => opsServer.close(() => resolve()));
        opsServer.closeAllConnections();
        await store.close();
        log.info('runai-slack-bot stopped');
      })()),
  };
}
