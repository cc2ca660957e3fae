/**
 * What tests read from a store beyond the port the bot uses: the raw SQLite handle behind it,
 * for tests that inject a real SQLite fault (a trigger that fails a write like a full disk,
 * query_only like a read-only volume), and the whole outbox. Everything else goes through the
 * store's port.
 */
import type Database from 'better-sqlite3';
import type { OutboxItem, OutboxStore, Store } from '../../src/store/port.js';
import { SqliteStore, sqliteHandleForTests } from '../../src/store/sqlite/index.js';

export function sqliteOf(store: Store): Database.Database {
  if (!(store instanceof SqliteStore)) throw new Error('this test injects a SQLite fault: it needs the SQLite store');
  return sqliteHandleForTests(store);
}

/** Later than any item's next attempt, as ISO text compares. */
const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');
/** More than any test queues. */
const EVERY_ITEM = 1_000_000;

/** Everything queued, whether due or not, in the order it was queued (either store). */
export async function allOutbox(store: Pick<OutboxStore, 'dueOutbox'>): Promise<OutboxItem[]> {
  return (await store.dueOutbox(END_OF_TIME, EVERY_ITEM)).sort((a, b) => a.id - b.id);
}
