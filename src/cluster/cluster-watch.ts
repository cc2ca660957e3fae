/**
 * One cluster the bot watches, start to stop: its namespace labels, discovery of its workload
 * kinds (retried in the background while it cannot be reached), and its watcher. Each cluster
 * of `clusters:` has its own, so one that cannot be reached holds up neither the start nor the
 * others; /readyz lists each one's status.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { discoverWithRetry, type DiscoveryRetry } from './discovery.js';
import type { WorkloadKindRef } from './kinds.js';
import type { NamespaceLabels } from './namespaces.js';
import type { ClusterReader } from './reader.js';
import { emptyWatcherStats, WorkloadWatcher, type WatcherOverrides, type WatcherStats, type WorkloadEventHandler } from './watcher.js';

export interface ClusterWatchSettings {
  namespaces: string[];
  mode: 'watch' | 'poll';
  pollIntervalSeconds: number;
  resyncMinutes: number;
  /** Unset: a full list only at start and after 410 Gone. */
  relistMinutes?: number;
}

export interface ClusterWatchOptions {
  /** `clusters[].name`; undefined for the one unnamed cluster of a config without `clusters:`. */
  name?: string;
  settings: ClusterWatchSettings;
  kubeConfig: KubeConfig;
  reader: ClusterReader;
  namespaces: NamespaceLabels;
  handler: WorkloadEventHandler;
  /** After the first complete list of every kind: from now on this cluster's workloads are decided. */
  onSynced(): Promise<void>;
  log: Logger;
  discovery?: Omit<DiscoveryRetry, 'signal' | 'onError'>;
  /** Tests: shorter schedules than the settings allow. */
  watcher?: WatcherOverrides;
}

export class ClusterWatch {
  readonly stats: WatcherStats = emptyWatcherStats();
  kinds?: WorkloadKindRef[];
  private watcher?: WorkloadWatcher;
  private discoveryError?: string;
  private markedSynced = false;
  private readonly abort = new AbortController();

  constructor(private readonly options: ClusterWatchOptions) {}

  get name(): string | undefined {
    return this.options.name;
  }

  get reader(): ClusterReader {
    return this.options.reader;
  }

  /** Its first list is complete and its workloads are being decided. */
  get synced(): boolean {
    return this.markedSynced && !!this.watcher?.synced;
  }

  /** What /readyz says about this cluster. */
  status(): { name?: string; synced: boolean; lastError?: string } {
    const lastError = this.watcher ? this.stats.lastError : this.discoveryError;
    return { name: this.options.name, synced: this.synced, ...(lastError ? { lastError } : {}) };
  }

  /** API requests made to this cluster so far (the watch's and the on-demand reads'). */
  get requests(): number {
    return this.stats.requests + this.options.reader.requests;
  }

  /**
   * Discovers the kinds (retrying until the cluster answers), starts the watcher and resolves
   * once the first list is complete; resolves without syncing if stop() comes first.
   */
  async start(): Promise<void> {
    const { options } = this;
    const labelsRead = await options.namespaces.refresh();
    let kinds: WorkloadKindRef[];
    try {
      kinds = await discoverWithRetry(options.kubeConfig, options.log, {
        ...options.discovery,
        signal: this.abort.signal,
        onError: (message) => (this.discoveryError = message),
      });
    } catch (err) {
      if (this.abort.signal.aborted) return;
      throw err;
    }
    if (this.abort.signal.aborted) return;
    this.kinds = kinds;
    this.discoveryError = undefined;
    // The labels were unreadable while the cluster was: read them again before deciding.
    if (!labelsRead) await options.namespaces.refresh();
    const { settings } = options;
    this.watcher = new WorkloadWatcher({
      kubeConfig: options.kubeConfig,
      kinds,
      namespaces: settings.namespaces,
      mode: settings.mode,
      pollIntervalMs: settings.pollIntervalSeconds * 1000,
      resyncMs: settings.resyncMinutes * 60_000,
      relistMs: settings.relistMinutes === undefined ? undefined : settings.relistMinutes * 60_000,
      handler: options.handler,
      log: options.log.child({ component: 'watcher' }),
      stats: this.stats,
      ...options.watcher,
    });
    await this.watcher.start();
    if (this.abort.signal.aborted) return;
    await options.onSynced();
    this.markedSynced = true;
    options.namespaces.start();
    options.log.info({ kinds: kinds.map((k) => `${k.plural}.${k.group}/${k.version}`), mode: settings.mode }, 'cluster synced');
  }

  stop(): void {
    this.abort.abort();
    this.watcher?.stop();
    this.options.namespaces.stop();
  }
}
