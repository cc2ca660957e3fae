/**
 * The whole store in PostgreSQL (`store.url` or DATABASE_URL), behind the same port as SQLite,
 * for replicas that share it: the concern modules of this directory over one pool
 * (database.ts), composed into the port by ../composed.ts. What SQLite does in a transaction is
 * done in one here.
 */
import { ComposedStore } from '../composed.js';
import { PostgresFollowUps } from './follow-ups.js';
import { PostgresBursts } from './bursts.js';
import { PostgresDatabase, type PostgresStoreOptions } from './database.js';
import { PostgresHealth } from './health.js';
import { PostgresLedger } from './ledger.js';
import { PostgresMaintenance } from './maintenance.js';
import { PostgresOutbox } from './outbox.js';
import { PostgresPreferences } from './preferences.js';
import { PostgresWorkloads } from './workloads.js';

export type { PostgresStoreOptions } from './database.js';

export class PostgresStore extends ComposedStore {
  readonly location: string;

  private constructor(private readonly db: PostgresDatabase) {
    const ledger = new PostgresLedger(db);
    const outbox = new PostgresOutbox(db, ledger);
    super({
      ledger,
      outbox,
      bursts: new PostgresBursts(db, ledger, outbox),
      workloads: new PostgresWorkloads(db),
      preferences: new PostgresPreferences(db),
      maintenance: new PostgresMaintenance(db),
      health: new PostgresHealth(db, ledger),
      followUps: new PostgresFollowUps(db),
    });
    this.location = db.location;
  }

  /** Connects, migrates, and returns the store; rejects (closing the pool) when it cannot. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const db = new PostgresDatabase(options);
    try {
      await db.migrate();
      return new PostgresStore(db);
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  /** The schema version reached (for the contract tests). */
  schemaVersion(): Promise<number> {
    return this.db.schemaVersion();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
