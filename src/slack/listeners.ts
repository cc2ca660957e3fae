/**
 * Registers every Slack surface (slash command, buttons, Home tab) on the Bolt app. Each
 * surface is its own module exporting `register(app, deps)`.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ClusterReader } from '../cluster/reader.js';
import type { NormalizeOptions } from '../cluster/normalize.js';
import type { OwnerDirectory } from '../notify/owners.js';
import type { WorkloadReconciler } from '../notify/reconciler.js';
import type { MaintenanceWindow } from '../maintenance/parse.js';
import type { Store } from '../store/port.js';
import type { App } from './app.js';
import * as actions from './actions.js';
import * as commands from './commands.js';
import * as home from './home.js';

export interface ListenerDeps {
  config: Config;
  store: Store;
  reconciler: WorkloadReconciler;
  /** The first (or only) cluster's reader; kept until every surface asks readerFor. */
  reader: ClusterReader;
  /** The reader of a workload's own cluster (undefined: the unnamed cluster of an old config, else the first). */
  readerFor(cluster: string | undefined): ClusterReader;
  /** The names in `clusters:`; at most one means a single cluster, and messages name none. */
  clusterNames: string[];
  /** The Run:ai UI of a cluster (its `clusters[].uiUrl`, else `runai.uiUrl`). */
  uiUrlFor(cluster: string | undefined): string | undefined;
  owners: OwnerDirectory;
  log: Logger;
  now(): Date;
  /** How workloads of a namespace are normalised (owner keys, the namespace's project label). */
  normalize(namespace: string): NormalizeOptions;
  /** The maintenance calendar, when one is configured. */
  maintenance?: { upcoming(now: Date, limit: number): MaintenanceWindow[] };
}

const surfaces: Array<{ register(app: App, deps: ListenerDeps): void }> = [commands, actions, home];

export function registerListeners(app: App, deps: ListenerDeps): void {
  for (const surface of surfaces) surface.register(app, deps);
}
