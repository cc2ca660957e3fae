/** The outbox over SQLite: what is still to be sent, in id order, with its retry schedule. */
import { OUTBOX_WAIT_IS_ATTEMPT, outboxPriority, type OutboxWait, type LedgerEntry, type NewOutboxItem, type OutboxItem, type OutboxPayload } from '../port.js';
import type { SqliteDatabase } from './database.js';
import type { SqliteLedger } from './ledger.js';
import { rowToOutboxItem } from '../rows.js';

export class SqliteOutbox {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly ledger: SqliteLedger,
  ) {}

  enqueue(item: NewOutboxItem, now: Date): boolean {
    return this.db.transaction(() => {
      if (this.ledger.wasSent(item.key) || this.isFolded(item.key)) return false;
      const result = this.db
        .prepare('INSERT OR IGNORE INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(item.key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), now.toISOString(), now.toISOString(), outboxPriority(item));
      return result.changes > 0;
    });
  }

  /** Folded into a burst whose rewrite naming it is not yet accepted. */
  isFolded(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM burst_entries WHERE key = ? AND told = 0').get(key) !== undefined;
  }

  hasKey(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM outbox WHERE key = ?').get(key) !== undefined;
  }

  isQueued(key: string): boolean {
    return this.hasKey(key) || this.isFolded(key);
  }

  queuedItem(key: string): OutboxItem | undefined {
    const row = this.db.prepare('SELECT * FROM outbox WHERE key = ?').get(key) as Record<string, unknown> | undefined;
    return row && rowToOutboxItem(row);
  }

  dueOutbox(now: Date, limit = 100): OutboxItem[] {
    const rows = this.db.prepare('SELECT * FROM outbox WHERE next_attempt_at <= ? ORDER BY priority, next_attempt_at, id LIMIT ?').all(now.toISOString(), limit) as Record<string, unknown>[];
    return rows.map(rowToOutboxItem);
  }

  outboxDepth(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
  }

  completeOutbox(id: number, entry: LedgerEntry): void {
    this.db.transaction(() => {
      this.ledger.recordSent(entry);
      this.dropOutbox(id);
    });
  }

  retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait): void {
    this.db
      .prepare('UPDATE outbox SET attempts = attempts + ?, next_attempt_at = ?, last_error = ?, wait = ? WHERE id = ?')
      .run(OUTBOX_WAIT_IS_ATTEMPT[wait] ? 1 : 0, nextAttemptAt.toISOString(), reason.slice(0, 500), wait, id);
  }

  dropOutbox(id: number): void {
    this.db.prepare('DELETE FROM outbox WHERE id = ?').run(id);
  }

  dropKey(key: string): void {
    this.db.prepare('DELETE FROM outbox WHERE key = ?').run(key);
  }

  replaceOutboxPayload(id: number, payload: OutboxPayload): void {
    this.db.prepare('UPDATE outbox SET payload = ? WHERE id = ?').run(JSON.stringify(payload), id);
  }

  expediteOutbox(now: Date): number {
    return this.db
      .prepare(
        "UPDATE outbox SET next_attempt_at = ? WHERE wait = 'backoff' AND next_attempt_at > ?",
      )
      .run(now.toISOString(), now.toISOString()).changes;
  }
}
