/** Follow-up threads over PostgreSQL (port.ts FollowUpStore): one row per chain, its state as JSON. */
import { outboxPriority, type NewOutboxItem, type StoredFollowUpThread } from '../port.js';
import type { PostgresDatabase } from './database.js';

export class PostgresFollowUps {
  constructor(private readonly db: PostgresDatabase) {}

  async followUpThreads(chains: readonly string[]): Promise<Map<string, StoredFollowUpThread>> {
    const found = new Map<string, StoredFollowUpThread>();
    if (!chains.length) return found;
    const rows = await this.db.rows('SELECT json FROM follow_up_threads WHERE chain = ANY($1::text[])', [[...new Set(chains)]]);
    for (const row of rows) {
      const thread = JSON.parse(row.json as string) as StoredFollowUpThread;
      found.set(thread.chain, thread);
    }
    return found;
  }

  async putFollowUpThread(thread: StoredFollowUpThread): Promise<void> {
    await this.db.run(
      `INSERT INTO follow_up_threads (chain, root_key, json, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (chain) DO UPDATE SET root_key = excluded.root_key, json = excluded.json, updated_at = excluded.updated_at`,
      [thread.chain, thread.rootKey, JSON.stringify(thread), thread.updatedAt],
    );
  }

  /** One transaction, serialised per key by the row lock of the UPDATE (or the unique key of the INSERT). */
  async queueCoalescedEdit(item: NewOutboxItem, now: Date): Promise<'queued' | 'replaced'> {
    return this.db.tx(async (c) => {
      const target = JSON.stringify(item.target);
      const payload = JSON.stringify(item.payload);
      if ((await this.db.changes('UPDATE outbox SET target = $1, payload = $2 WHERE key = $3', [target, payload, item.key], c)) > 0) return 'replaced';
      await this.db.run('DELETE FROM ledger WHERE key = $1', [item.key], c);
      const at = now.toISOString();
      const inserted = await this.db.changes(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES ($1, $2, $3, $4, $5, $5, $6)
         ON CONFLICT (key) DO UPDATE SET target = excluded.target, payload = excluded.payload`,
        [item.key, item.kind, target, payload, at, outboxPriority(item)],
        c,
      );
      return inserted > 0 ? 'queued' : 'replaced';
    });
  }

  async pruneFollowUpThreads(before: Date): Promise<number> {
    return this.db.changes('DELETE FROM follow_up_threads WHERE updated_at < $1', [before.toISOString()]);
  }
}
