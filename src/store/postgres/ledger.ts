/** The ledger over PostgreSQL: one row per message told (or handled), by key. */
import type { LedgerEntry } from '../port.js';
import { escapeLike, rowToEntry } from '../rows.js';
import type { PostgresDatabase, Queryable } from './database.js';

export class PostgresLedger {
  constructor(private readonly db: PostgresDatabase) {}

  async wasSent(key: string): Promise<boolean> {
    return (await this.db.rows('SELECT 1 FROM ledger WHERE key = $1', [key])).length > 0;
  }

  async ledgerEntry(key: string): Promise<LedgerEntry | undefined> {
    const [row] = await this.db.rows('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE key = $1', [key]);
    return row && rowToEntry(row);
  }

  async ledgerKeys(prefix: string): Promise<Set<string>> {
    const rows = await this.db.rows("SELECT key FROM ledger WHERE key LIKE $1 ESCAPE '\\'", [`${escapeLike(prefix)}%`]);
    return new Set(rows.map((r) => r.key as string));
  }

  async recordSent(entry: LedgerEntry, on: Queryable = this.db.pool): Promise<void> {
    await this.db.run(
      `INSERT INTO ledger (key, recipient, channel, ts, sent_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET recipient = excluded.recipient, channel = excluded.channel, ts = excluded.ts, sent_at = excluded.sent_at`,
      [entry.key, entry.recipient, entry.channel ?? null, entry.ts ?? null, entry.sentAt],
      on,
    );
  }

  async recentAlertsFor(recipient: string, limit: number): Promise<LedgerEntry[]> {
    const rows = await this.db.rows('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE recipient = $1 ORDER BY sent_at DESC LIMIT $2', [recipient, limit]);
    return rows.map(rowToEntry);
  }

  /** Deletes the given keys in one statement. */
  async remove(keys: readonly string[]): Promise<void> {
    if (keys.length) await this.db.run('DELETE FROM ledger WHERE key = ANY($1::text[])', [keys]);
  }

  async keysSentBefore(before: Date, prefixes: readonly string[]): Promise<string[]> {
    const where = prefixes.map((_, i) => `key LIKE $${i + 2} ESCAPE '\\'`).join(' OR ');
    const rows = await this.db.rows(`SELECT key FROM ledger WHERE sent_at < $1 AND (${where})`, [before.toISOString(), ...prefixes.map((p) => `${escapeLike(p)}%`)]);
    return rows.map((r) => r.key as string);
  }
}
