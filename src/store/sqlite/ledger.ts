/** The ledger over SQLite: one row per message told (or handled), by key. */
import type { LedgerEntry } from '../port.js';
import type { SqliteDatabase } from './database.js';
import { escapeLike, rowToEntry } from '../rows.js';

type LedgerRow = { key: string; recipient: string; channel: string | null; ts: string | null; sent_at: string };

export class SqliteLedger {
  constructor(private readonly db: SqliteDatabase) {}

  wasSent(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM ledger WHERE key = ?').get(key) !== undefined;
  }

  ledgerEntry(key: string): LedgerEntry | undefined {
    const row = this.db.prepare('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE key = ?').get(key) as LedgerRow | undefined;
    return row && rowToEntry(row);
  }

  ledgerKeys(prefix: string): Set<string> {
    const rows = this.db.prepare("SELECT key FROM ledger WHERE key LIKE ? ESCAPE '\\'").all(`${escapeLike(prefix)}%`) as { key: string }[];
    return new Set(rows.map((r) => r.key));
  }

  recordSent(entry: LedgerEntry): void {
    this.db
      .prepare('INSERT OR REPLACE INTO ledger (key, recipient, channel, ts, sent_at) VALUES (?, ?, ?, ?, ?)')
      .run(entry.key, entry.recipient, entry.channel ?? null, entry.ts ?? null, entry.sentAt);
  }

  recentAlertsFor(recipient: string, limit: number): LedgerEntry[] {
    const rows = this.db
      .prepare('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE recipient = ? ORDER BY sent_at DESC LIMIT ?')
      .all(recipient, limit) as LedgerRow[];
    return rows.map(rowToEntry);
  }

  /** Deletes the given keys in one transaction. */
  remove(keys: readonly string[]): void {
    const remove = this.db.prepare('DELETE FROM ledger WHERE key = ?');
    this.db.transaction(() => {
      for (const key of keys) remove.run(key);
    });
  }

  keysSentBefore(before: Date, prefixes: readonly string[]): string[] {
    const where = prefixes.map(() => "key LIKE ? ESCAPE '\\'").join(' OR ');
    const rows = this.db
      .prepare(`SELECT key FROM ledger WHERE sent_at < ? AND (${where})`)
      .all(before.toISOString(), ...prefixes.map((p) => `${escapeLike(p)}%`)) as { key: string }[];
    return rows.map((r) => r.key);
  }
}
