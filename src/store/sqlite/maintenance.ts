/** The last good maintenance feed per URL and the window versions announced, over SQLite. */
import type { FeedCacheEntry } from '../port.js';
import { rowToFeedCache, type Row } from '../rows.js';
import type { SqliteDatabase } from './database.js';

export class SqliteMaintenance {
  constructor(private readonly db: SqliteDatabase) {}

  getFeedCache(url: string): FeedCacheEntry | undefined {
    const row = this.db.prepare('SELECT body, etag, last_modified, fetched_at FROM feed_cache WHERE url = ?').get(url) as Row | undefined;
    return row && rowToFeedCache(row);
  }

  putFeedCache(url: string, entry: FeedCacheEntry): void {
    this.db
      .prepare('INSERT OR REPLACE INTO feed_cache (url, body, etag, last_modified, fetched_at) VALUES (?, ?, ?, ?, ?)')
      .run(url, entry.body, entry.etag ?? null, entry.lastModified ?? null, entry.fetchedAt);
  }

  knownWindows(): Map<string, unknown> {
    const rows = this.db.prepare('SELECT key, json FROM windows_known').all() as { key: string; json: string }[];
    return new Map(rows.map((r) => [r.key, JSON.parse(r.json)]));
  }

  rememberWindow(key: string, value: unknown): void {
    this.db.prepare('INSERT OR REPLACE INTO windows_known (key, json) VALUES (?, ?)').run(key, JSON.stringify(value));
  }
}
