/**
 * The start-up waits of src/app.ts, each a rule of its own: how long start waits for the
 * clusters, and how the Slack side starts in each mode.
 */
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ClusterWatch } from '../cluster/cluster-watch.js';
import { listenError } from '../ops/startup.js';
import type { SlackApp } from '../slack/app.js';

/**
 * Each cluster discovers, lists and syncs on its own (retrying while it cannot be reached).
 * Start waits for all of them, but once one has synced, no longer than `waitMs` for the rest:
 * one unreachable cluster of several must not hold the others' alerts. When none syncs, it waits
 * for all (the single-cluster rule: the bot is not ready before its cluster is).
 */
export async function startClusters(clusters: ClusterWatch[], waitMs: number, log: Logger): Promise<void> {
  const syncing = clusters.map((cluster) =>
    cluster.start().catch((err: unknown) => log.error({ cluster: cluster.name, err: (err as Error).message }, 'watching the cluster failed')),
  );
  await Promise.race([
    Promise.all(syncing),
    Promise.any(syncing.map((s, i) => s.then(() => (clusters[i].synced ? undefined : Promise.reject(new Error('not synced')))))).then(
      () => delay(waitMs),
      () => new Promise<void>(() => undefined),
    ),
  ]);
}

/** HTTP mode: the port of /slack/events, once it listens. Socket Mode: undefined. */
export async function startSlack(slackApp: SlackApp, config: Config): Promise<number | undefined> {
  if (config.slack.mode !== 'http') return void (await slackApp.start());
  const server = await slackApp.start(config.slack.port).catch((err: unknown) => {
    throw listenError(err, 'slack.port', config.slack.port);
  });
  return (server!.address() as AddressInfo).port;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
