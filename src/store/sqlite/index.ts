/**
 * The store in one SQLite file (the embedded default): the port of ../port.ts over the concern
 * modules of this directory (../composed.ts hands each call to its module). better-sqlite3 is
 * synchronous, so results come back as already-resolved promises and a thrown SQLite error
 * (SQLITE_FULL, SQLITE_READONLY, …) becomes a rejection.
 */
import type Database from 'better-sqlite3';
import { ComposedStore } from '../composed.js';
import { SqliteFollowUps } from './follow-ups.js';
import { SqliteBursts } from './bursts.js';
import { SqliteDatabase } from './database.js';
import { SqliteHealth } from './health.js';
import { SqliteLedger } from './ledger.js';
import { SqliteMaintenance } from './maintenance.js';
import { SqliteOutbox } from './outbox.js';
import { SqlitePreferences } from './preferences.js';
import { SqliteWorkloads } from './workloads.js';

export { STORE_DIR_MODE, STORE_FILE_MODE } from './database.js';

const handles = new WeakMap<SqliteStore, SqliteDatabase>();

export class SqliteStore extends ComposedStore {
  private readonly db: SqliteDatabase;

  /** Opens (creating 0600) and migrates the file; throws synchronously when it cannot. */
  constructor(readonly path: string) {
    const db = new SqliteDatabase(path);
    const ledger = new SqliteLedger(db);
    const outbox = new SqliteOutbox(db, ledger);
    super({
      ledger,
      outbox,
      bursts: new SqliteBursts(db, ledger, outbox),
      workloads: new SqliteWorkloads(db),
      preferences: new SqlitePreferences(db),
      maintenance: new SqliteMaintenance(db),
      health: new SqliteHealth(db, ledger),
      followUps: new SqliteFollowUps(db),
    });
    this.db = db;
    handles.set(this, db);
  }

  get location(): string {
    return this.path;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/**
 * The raw better-sqlite3 handle, for tests and fault injection only (a trigger that makes a
 * write fail like a full disk, a look at the file's schema). Production code uses the port.
 */
export function sqliteHandleForTests(store: SqliteStore): Database.Database {
  return handles.get(store)!.handle;
}

/** The SQLite schema version reached (PRAGMA user_version), for the contract tests. */
export function sqliteSchemaVersion(store: SqliteStore): number {
  return handles.get(store)!.schemaVersion();
}
