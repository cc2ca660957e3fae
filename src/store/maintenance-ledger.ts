/**
 * The maintenance ledger (src/maintenance/ledger.ts) over the bot's store: reminder keys live in
 * the shared ledger under an `mw:` prefix, announced window versions in the maintenance store.
 */
import { KEY_PREFIX, maintenanceKey, parseKey } from '../keys.js';
import { knownVersion, type MaintenanceLedger } from '../maintenance/ledger.js';
import type { KnownWindow } from '../maintenance/plan.js';
import type { MaintenanceWindow } from '../maintenance/window.js';
import type { LedgerStore, MaintenanceStore } from './port.js';

export class StoreMaintenanceLedger implements MaintenanceLedger {
  constructor(private readonly store: Pick<LedgerStore, 'ledgerKeys' | 'wasSent' | 'recordSent'> & Pick<MaintenanceStore, 'knownWindows' | 'rememberWindow'>) {}

  async sentKeys(): Promise<Set<string>> {
    const reminders = new Set<string>();
    for (const key of await this.store.ledgerKeys(KEY_PREFIX.maintenance)) {
      const parsed = parseKey(key);
      if (parsed?.kind === 'maintenance') reminders.add(parsed.reminder);
    }
    return reminders;
  }

  async markSent(key: string, at: Date): Promise<void> {
    if (!(await this.store.wasSent(maintenanceKey(key)))) await this.store.recordSent({ key: maintenanceKey(key), recipient: 'maintenance', sentAt: at.toISOString() });
  }

  async known(): Promise<Map<string, KnownWindow>> {
    return (await this.store.knownWindows()) as Map<string, KnownWindow>;
  }

  async remember(window: MaintenanceWindow): Promise<void> {
    await this.store.rememberWindow(window.key, knownVersion(window));
  }
}
