/**
 * Registers every Slack surface (slash command, buttons, Home tab) on the Bolt app. Each
 * surface is its own module exporting `register(app, deps)`.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ClusterReader } from '../cluster/reader.js';
import type { OwnerDirectory } from '../notify/owners.js';
import type { WorkloadReconciler } from '../notify/reconciler.js';
import type { MaintenanceWindow } from '../maintenance/parse.js';
import type { LedgerStore, PreferenceStore, WorkloadStore } from '../store/port.js';
import type { App } from './app.js';
import * as actions from './actions.js';
import * as commands from './commands.js';
import * as home from './home.js';

/** What the surfaces read of the reconciler: the workloads it knows (normalised, without pods). */
export type WorkloadDirectory = Pick<WorkloadReconciler, 'workloads'>;

export interface ListenerDeps {
  config: Config;
  store: Pick<PreferenceStore, 'mute' | 'unmute' | 'activeMutes' | 'getSettings' | 'putSettings'> & Pick<WorkloadStore, 'getWorkload'> & Pick<LedgerStore, 'recentAlertsFor'>;
  /** Every workload of every cluster; a workload of a named cluster carries `cluster`. */
  reconciler: WorkloadDirectory;
  /**
   * The configured cluster names, as `clusters:` lists them. None or one: the bot watches one
   * cluster, and nothing it shows or asks names a cluster.
   */
  clusterNames: readonly string[];
  /** The reader for a workload's cluster (`Workload.cluster`; undefined for the one unnamed cluster). */
  readerFor(cluster: string | undefined): ClusterReader;
  /** The Run:ai UI of a cluster (its `clusters[].uiUrl`, else `runai.uiUrl`). */
  uiUrlFor(cluster: string | undefined): string | undefined;
  owners: OwnerDirectory;
  log: Logger;
  now(): Date;
  /** The maintenance calendar, when one is configured. */
  maintenance?: { upcoming(now: Date, limit: number): MaintenanceWindow[] };
}

const surfaces: Array<{ register(app: App, deps: ListenerDeps): void }> = [commands, actions, home];

export function registerListeners(app: App, deps: ListenerDeps): void {
  for (const surface of surfaces) surface.register(app, deps);
}
