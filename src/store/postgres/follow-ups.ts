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

  async openFollowUpThread(thread: StoredFollowUpThread): Promise<boolean> {
    return (
      (await this.db.changes(
        `INSERT INTO follow_up_threads (chain, root_key, json, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (chain) DO UPDATE SET root_key = excluded.root_key, json = excluded.json, updated_at = excluded.updated_at
         WHERE follow_up_threads.root_key <> excluded.root_key`,
        [thread.chain, thread.rootKey, JSON.stringify(thread), thread.updatedAt],
      )) > 0
    );
  }

  /**
   * One transaction, serialised per key by an advisory lock (the row may not exist yet). Replaced
   * by a new row (a new id), never updated in place: an edit being sent meanwhile completes by
   * its own id and leaves this one queued, rather than deleting it. Its wait is kept.
   */
  async queueCoalescedEdit(item: NewOutboxItem, now: Date): Promise<'queued' | 'replaced'> {
    return this.db.tx(async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtext('runai-slack-bot:edit:' || current_schema() || ':' || $1))", [item.key]);
      const [queued] = await this.db.rows('DELETE FROM outbox WHERE key = $1 RETURNING attempts, next_attempt_at, last_error, wait, created_at', [item.key], c);
      if (!queued) await this.db.run('DELETE FROM ledger WHERE key = $1', [item.key], c);
      const at = now.toISOString();
      await this.db.run(
        `INSERT INTO outbox (key, kind, target, payload, attempts, next_attempt_at, last_error, wait, created_at, priority) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [item.key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), queued?.attempts ?? 0, queued?.next_attempt_at ?? at, queued?.last_error ?? null, queued?.wait ?? null, queued?.created_at ?? at, outboxPriority(item)],
        c,
      );
      return queued ? 'replaced' : 'queued';
    });
  }

  async pruneFollowUpThreads(before: Date): Promise<number> {
    return this.db.changes('DELETE FROM follow_up_threads WHERE updated_at < $1', [before.toISOString()]);
  }
}
