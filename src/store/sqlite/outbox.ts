/** The outbox over SQLite: what is still to be sent, in id order, with its retry schedule. */
import { checkFence, OUTBOX_WAIT_IS_ATTEMPT, outboxPriority, type OutboxWait, type LedgerEntry, type NewOutboxItem, type OutboxItem, type OutboxPayload } from '../port.js';
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

  beginSending(holder: string, now: Date): number {
    return this.db.transaction(() => {
      const epoch = (this.sendEpoch() ?? 0) + 1;
      this.db
        .prepare('INSERT INTO send_epoch (id, epoch, holder, since) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET epoch = excluded.epoch, holder = excluded.holder, since = excluded.since')
        .run(epoch, holder, now.toISOString());
      return epoch;
    });
  }

  /** The store's current send epoch (undefined before anyone sent). */
  sendEpoch(): number | undefined {
    return (this.db.prepare('SELECT epoch FROM send_epoch WHERE id = 1').get() as { epoch: number } | undefined)?.epoch;
  }

  /** One process owns a SQLite file, so a transaction is the lock; the fence still holds out a stale turn. */
  claimOutbox(fence: number, now: Date, claimUntil: Date, limit = 100): OutboxItem[] {
    return this.db.transaction(() => {
      checkFence(fence, this.sendEpoch());
      const at = now.toISOString();
      const rows = this.db
        .prepare(
          `SELECT * FROM outbox WHERE next_attempt_at <= ? AND (claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?)
           ORDER BY priority, next_attempt_at, id LIMIT ?`,
        )
        .all(at, fence, at, limit) as Record<string, unknown>[];
      const claim = this.db.prepare('UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ?');
      for (const row of rows) claim.run(fence, claimUntil.toISOString(), row.id);
      return rows.map(rowToOutboxItem);
    });
  }

  outboxDepth(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
  }

  /** Runs `write` in one transaction that first checks `fence` (when given) against the store's send epoch. */
  fenced<T>(fence: number | undefined, write: () => T): T {
    return this.db.transaction(() => {
      checkFence(fence, fence === undefined ? undefined : this.sendEpoch());
      return write();
    });
  }

  completeOutbox(id: number, entry: LedgerEntry, fence?: number): void {
    this.fenced(fence, () => {
      this.ledger.recordSent(entry);
      this.dropOutbox(id);
    });
  }

  retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait, fence?: number): void {
    this.fenced(fence, () =>
      this.db
        .prepare('UPDATE outbox SET attempts = attempts + ?, next_attempt_at = ?, last_error = ?, wait = ? WHERE id = ?')
        .run(OUTBOX_WAIT_IS_ATTEMPT[wait] ? 1 : 0, nextAttemptAt.toISOString(), reason.slice(0, 500), wait, id),
    );
  }

  dropOutbox(id: number, fence?: number): void {
    this.fenced(fence, () => this.db.prepare('DELETE FROM outbox WHERE id = ?').run(id));
  }

  dropKey(key: string): void {
    this.db.prepare('DELETE FROM outbox WHERE key = ?').run(key);
  }

  replaceOutboxPayload(id: number, payload: OutboxPayload, fence?: number): void {
    this.fenced(fence, () => this.db.prepare('UPDATE outbox SET payload = ? WHERE id = ?').run(JSON.stringify(payload), id));
  }

  expediteOutbox(now: Date): number {
    return this.db
      .prepare(
        "UPDATE outbox SET next_attempt_at = ? WHERE wait = 'backoff' AND next_attempt_at > ?",
      )
      .run(now.toISOString(), now.toISOString()).changes;
  }
}
