/**
 * The raw SQLite handle behind a store, for tests that inject a real SQLite fault (a trigger
 * that fails a write like a full disk, query_only like a read-only volume). Everything else
 * goes through the store's port.
 */
import type Database from 'better-sqlite3';
import type { Store } from '../../src/store/port.js';
import { SqliteStore, sqliteHandleForTests } from '../../src/store/sqlite/index.js';

export function sqliteOf(store: Store): Database.Database {
  if (!(store instanceof SqliteStore)) throw new Error('this test injects a SQLite fault: it needs the SQLite store');
  return sqliteHandleForTests(store);
}
