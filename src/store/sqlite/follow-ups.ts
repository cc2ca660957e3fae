/** Follow-up threads over SQLite (port.ts FollowUpStore): one row per chain, its state as JSON. */
import { outboxPriority, type NewOutboxItem, type StoredFollowUpThread } from '../port.js';
import type { SqliteDatabase } from './database.js';

/** Chains read per statement (SQLite's default limit on bound parameters is far above it). */
const CHAINS_PER_READ = 200;

export class SqliteFollowUps {
  constructor(private readonly db: SqliteDatabase) {}

  followUpThreads(chains: readonly string[]): Map<string, StoredFollowUpThread> {
    const found = new Map<string, StoredFollowUpThread>();
    const unique = [...new Set(chains)];
    for (let i = 0; i < unique.length; i += CHAINS_PER_READ) {
      const slice = unique.slice(i, i + CHAINS_PER_READ);
      const rows = this.db.prepare(`SELECT json FROM follow_up_threads WHERE chain IN (${slice.map(() => '?').join(', ')})`).all(...slice) as { json: string }[];
      for (const row of rows) {
        const thread = JSON.parse(row.json) as StoredFollowUpThread;
        found.set(thread.chain, thread);
      }
    }
    return found;
  }

  putFollowUpThread(thread: StoredFollowUpThread): void {
    this.db
      .prepare('INSERT OR REPLACE INTO follow_up_threads (chain, root_key, json, updated_at) VALUES (?, ?, ?, ?)')
      .run(thread.chain, thread.rootKey, JSON.stringify(thread), thread.updatedAt);
  }

  openFollowUpThread(thread: StoredFollowUpThread): boolean {
    return (
      this.db
        .prepare(
          `INSERT INTO follow_up_threads (chain, root_key, json, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (chain) DO UPDATE SET root_key = excluded.root_key, json = excluded.json, updated_at = excluded.updated_at
           WHERE follow_up_threads.root_key <> excluded.root_key`,
        )
        .run(thread.chain, thread.rootKey, JSON.stringify(thread), thread.updatedAt).changes > 0
    );
  }

  queueCoalescedEdit(item: NewOutboxItem, now: Date): 'queued' | 'replaced' {
    return this.db.transaction(() => {
      // Replaced by a new row (a new id), never updated in place: an edit being sent meanwhile
      // completes by its own id and leaves this one queued, rather than deleting it. Its wait is kept.
      const queued = this.db.prepare('SELECT attempts, next_attempt_at, last_error, wait, created_at FROM outbox WHERE key = ?').get(item.key) as
        | { attempts: number; next_attempt_at: string; last_error: string | null; wait: string | null; created_at: string }
        | undefined;
      if (queued) this.db.prepare('DELETE FROM outbox WHERE key = ?').run(item.key);
      else this.db.prepare('DELETE FROM ledger WHERE key = ?').run(item.key);
      const at = now.toISOString();
      this.db
        .prepare('INSERT INTO outbox (key, kind, target, payload, attempts, next_attempt_at, last_error, wait, created_at, priority) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(item.key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), queued?.attempts ?? 0, queued?.next_attempt_at ?? at, queued?.last_error ?? null, queued?.wait ?? null, queued?.created_at ?? at, outboxPriority(item));
      return queued ? 'replaced' : 'queued';
    });
  }

  pruneFollowUpThreads(before: Date): number {
    return this.db.prepare('DELETE FROM follow_up_threads WHERE updated_at < ?').run(before.toISOString()).changes;
  }
}
