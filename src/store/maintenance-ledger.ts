/**
 * The maintenance ledger (src/maintenance/ledger.ts) over the bot's store: reminder keys live in
 * the shared ledger under an `mw:` prefix, announced window versions in the maintenance store.
 */
import { knownVersion, type MaintenanceLedger } from '../maintenance/ledger.js';
import type { KnownWindow } from '../maintenance/plan.js';
import type { MaintenanceWindow } from '../maintenance/window.js';
import type { LedgerStore, MaintenanceStore } from './port.js';

const PREFIX = 'mw:';

export class StoreMaintenanceLedger implements MaintenanceLedger {
  constructor(private readonly store: LedgerStore & MaintenanceStore) {}

  async sentKeys(): Promise<Set<string>> {
    return new Set([...(await this.store.ledgerKeys(PREFIX))].map((k) => k.slice(PREFIX.length)));
  }

  async markSent(key: string, at: Date): Promise<void> {
    if (!(await this.store.wasSent(PREFIX + key))) await this.store.recordSent({ key: PREFIX + key, recipient: 'maintenance', sentAt: at.toISOString() });
  }

  async known(): Promise<Map<string, KnownWindow>> {
    return (await this.store.knownWindows()) as Map<string, KnownWindow>;
  }

  async remember(window: MaintenanceWindow): Promise<void> {
    await this.store.rememberWindow(window.key, knownVersion(window));
  }
}
