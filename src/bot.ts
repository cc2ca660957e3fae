/** What startBot (src/app.ts) takes and what it returns: the running bot, for the CLI, tests and the demo. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { ClusterReader } from './cluster/reader.js';
import type { WatcherOverrides } from './cluster/watcher.js';
import type { MaintenanceService } from './maintenance/service.js';
import type { CleanupNudger } from './notify/cleanup.js';
import type { Notifier } from './notify/notifier.js';
import type { Outbox } from './notify/outbox.js';
import type { OwnerPrefetcher } from './notify/owner-prefetch.js';
import type { WorkloadReconciler } from './notify/reconciler.js';
import type { Leadership } from './ops/leadership.js';
import type { Metrics } from './ops/metrics.js';
import type { RetentionPruner } from './ops/retention.js';
import type { App } from './slack/app.js';
import type { Store } from './store/port.js';

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
  /** Once one cluster has synced, how long start waits for the others before going on (default 10 s). */
  clusterStartWaitMs?: number;
  /** Tests: watch schedules shorter than the config allows (a relist every few seconds, a quick watchdog). */
  watcher?: WatcherOverrides;
}

export interface Bot {
  readonly store: Store;
  readonly reconciler: WorkloadReconciler;
  readonly notifier: Notifier;
  readonly outbox: Outbox;
  /** Resolves owners to Slack users as their workloads are seen (leader only). */
  readonly ownerPrefetch: OwnerPrefetcher;
  readonly metrics: Metrics;
  readonly slack: App;
  /** The first (or only) cluster's reader. */
  readonly reader: ClusterReader;
  readerFor(cluster: string | undefined): ClusterReader;
  /** Each configured cluster: its name (undefined for an old config's one), whether it synced, its last error. */
  clusters(): Array<{ name?: string; synced: boolean; lastError?: string }>;
  readonly maintenance?: MaintenanceService;
  readonly cleanup: CleanupNudger;
  readonly retention: RetentionPruner;
  /** Whether this replica leads (always, without ha.enabled) and the leader-only duties. */
  readonly leadership: Leadership;
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
