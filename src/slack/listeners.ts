/**
 * Registers every Slack surface (slash command, buttons, Home tab) on the Bolt app. Each
 * surface is its own module exporting `register(app, deps)`.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ClusterReader } from '../cluster/reader.js';
import type { OwnerDirectory } from '../notify/owners.js';
import type { WorkloadReconciler } from '../notify/reconciler.js';
import type { Store } from '../store/sqlite.js';
import type { App } from './app.js';

export interface ListenerDeps {
  config: Config;
  store: Store;
  reconciler: WorkloadReconciler;
  reader: ClusterReader;
  owners: OwnerDirectory;
  log: Logger;
  now(): Date;
}

const surfaces: Array<{ register(app: App, deps: ListenerDeps): void }> = [];

export function registerListeners(app: App, deps: ListenerDeps): void {
  for (const surface of surfaces) surface.register(app, deps);
}
