/** The last good maintenance feed per URL and the window versions announced, over PostgreSQL. */
import type { FeedCacheEntry } from '../port.js';
import { rowToFeedCache } from '../rows.js';
import type { PostgresDatabase } from './database.js';

export class PostgresMaintenance {
  constructor(private readonly db: PostgresDatabase) {}

  async getFeedCache(url: string): Promise<FeedCacheEntry | undefined> {
    const [row] = await this.db.rows('SELECT body, etag, last_modified, fetched_at FROM feed_cache WHERE url = $1', [url]);
    return row && rowToFeedCache(row);
  }

  async putFeedCache(url: string, entry: FeedCacheEntry): Promise<void> {
    await this.db.run(
      `INSERT INTO feed_cache (url, body, etag, last_modified, fetched_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (url) DO UPDATE SET body = excluded.body, etag = excluded.etag, last_modified = excluded.last_modified, fetched_at = excluded.fetched_at`,
      [url, entry.body, entry.etag ?? null, entry.lastModified ?? null, entry.fetchedAt],
    );
  }

  async knownWindows(): Promise<Map<string, unknown>> {
    const rows = await this.db.rows('SELECT key, json FROM windows_known');
    return new Map(rows.map((r) => [r.key as string, JSON.parse(r.json as string)]));
  }

  async rememberWindow(key: string, value: unknown): Promise<void> {
    await this.db.run('INSERT INTO windows_known (key, json) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET json = excluded.json', [key, JSON.stringify(value)]);
  }
}
