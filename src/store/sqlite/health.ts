/** Readiness (a real write) and ledger retention over SQLite. */
import { PRUNABLE_KEY_PREFIXES, prunableKeys } from '../../keys.js';
import type { SqliteDatabase } from './database.js';
import type { SqliteLedger } from './ledger.js';

export class SqliteHealth {
  private probeReady = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly ledger: SqliteLedger,
  ) {}

  /**
   * One tiny real write, for readiness: returns why the store cannot be written (full disk,
   * read-only volume), or undefined when it can. The table is made outside the migrations: it
   * holds nothing anyone reads, so it needs no schema version.
   */
  probeWrite(now: Date): string | undefined {
    try {
      if (!this.probeReady) this.db.exec('CREATE TABLE IF NOT EXISTS store_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at TEXT NOT NULL)');
      this.probeReady = true;
      this.db.prepare('INSERT OR REPLACE INTO store_probe (id, at) VALUES (1, ?)').run(now.toISOString());
      return undefined;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return e.code ?? e.message ?? String(err);
    }
  }

  pruneLedger(before: Date, live: ReadonlySet<string>): number {
    const doomed = prunableKeys(this.ledger.keysSentBefore(before, PRUNABLE_KEY_PREFIXES), live);
    this.ledger.remove(doomed);
    return doomed.length;
  }
}
