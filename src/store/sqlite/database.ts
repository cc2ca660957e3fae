/**
 * The SQLite connection shared by the concern modules: opens the file privately, sets the
 * pragmas, runs the migrations, and caches compiled statements. Synchronous (better-sqlite3):
 * the store's async port is a thin wrapper over it, so the embedded path stays fast.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_MIGRATIONS } from './migrations.js';

/** Owner read/write only: the store holds who was told what, Slack user IDs and the outbox. */
export const STORE_FILE_MODE = 0o600;
export const STORE_DIR_MODE = 0o700;

/**
 * The store's directory (0700 when this creates it; an existing one, such as a volume's root or
 * the working directory, is left as it is) and its file, created 0600 before SQLite opens it,
 * since SQLite would create it 0644; an existing file is narrowed to 0600.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: STORE_DIR_MODE });
  closeSync(openSync(path, 'a', STORE_FILE_MODE));
  ownerOnly(path);
}

function ownerOnly(path: string): void {
  try {
    chmodSync(path, STORE_FILE_MODE);
  } catch (err) {
    // Not ours to change (another owner, a read-only mount): SQLite reports what matters when it opens it.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM' && (err as NodeJS.ErrnoException).code !== 'EROFS') throw err;
  }
}

export class SqliteDatabase {
  readonly handle: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly path: string) {
    if (path !== ':memory:') createPrivately(path);
    this.handle = new Database(path);
    this.handle.pragma('journal_mode = WAL');
    // SQLite gives new -wal/-shm files the database file's mode; older ones keep what they had.
    if (path !== ':memory:') for (const side of [`${path}-wal`, `${path}-shm`]) if (existsSync(side)) ownerOnly(side);
    this.handle.pragma('synchronous = NORMAL');
    this.handle.pragma('busy_timeout = 5000');
    this.handle.pragma('foreign_keys = ON');
    this.migrate();
  }

  private migrate(): void {
    const version = this.handle.pragma('user_version', { simple: true }) as number;
    for (let i = version; i < SQLITE_MIGRATIONS.length; i++) {
      this.handle.transaction(() => {
        this.handle.exec(SQLITE_MIGRATIONS[i]);
        this.handle.pragma(`user_version = ${i + 1}`);
      })();
    }
  }

  /** The schema version reached (PRAGMA user_version). */
  schemaVersion(): number {
    return this.handle.pragma('user_version', { simple: true }) as number;
  }

  close(): void {
    if (this.handle.open) this.handle.close();
  }

  /**
   * One compiled statement per SQL text, reused: preparing on every call compiles the SQL again
   * and leaves a native statement behind until the GC finalizes it, which at start (a read and
   * a write per workload) cost tens of MB of RSS with 10,000 workloads. None is used with
   * iterate(), so a statement is never busy when it is reused.
   */
  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.handle.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    return this.handle.transaction(fn)();
  }

  exec(sql: string): void {
    this.handle.exec(sql);
  }
}
