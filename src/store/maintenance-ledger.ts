/**
 * The maintenance ledger (src/maintenance/ledger.ts) over the bot's SQLite store: reminder keys
 * live in the shared ledger under an `mw:` prefix, announced window versions in windows_known.
 */
import { knownVersion, type MaintenanceLedger } from '../maintenance/ledger.js';
import type { KnownWindow } from '../maintenance/plan.js';
import type { MaintenanceWindow } from '../maintenance/window.js';
import type { Store } from './sqlite.js';

const PREFIX = 'mw:';

export class SqliteMaintenanceLedger implements MaintenanceLedger {
  constructor(private readonly store: Store) {}

  sentKeys(): Set<string> {
    return new Set([...this.store.ledgerKeys(PREFIX)].map((k) => k.slice(PREFIX.length)));
  }

  markSent(key: string, at: Date): void {
    if (!this.store.wasSent(PREFIX + key)) this.store.recordSent({ key: PREFIX + key, recipient: 'maintenance', sentAt: at.toISOString() });
  }

  known(): Map<string, KnownWindow> {
    return this.store.knownWindows() as Map<string, KnownWindow>;
  }

  remember(window: MaintenanceWindow): void {
    this.store.rememberWindow(window.key, knownVersion(window));
  }
}
