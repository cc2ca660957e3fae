/** Readiness (a real write) and ledger retention over PostgreSQL. */
import { PRUNABLE_KEY_PREFIXES, prunableKeys } from '../../keys.js';
import type { PostgresDatabase } from './database.js';
import type { PostgresLedger } from './ledger.js';

export class PostgresHealth {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly ledger: PostgresLedger,
  ) {}

  /** One tiny real write, for readiness: why the store cannot be written, or undefined when it can. */
  async probeWrite(now: Date): Promise<string | undefined> {
    try {
      await this.db.run('INSERT INTO store_probe (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at', [now.toISOString()]);
      return undefined;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return e.code ?? e.message ?? String(err);
    }
  }

  async pruneLedger(before: Date, live: ReadonlySet<string>): Promise<number> {
    const doomed = prunableKeys(await this.ledger.keysSentBefore(before, PRUNABLE_KEY_PREFIXES), live);
    await this.ledger.remove(doomed);
    return doomed.length;
  }
}
