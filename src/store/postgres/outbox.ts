/** The outbox over PostgreSQL: what is still to be sent, in order, with its retry schedule. */
import { checkFence, OUTBOX_WAIT_IS_ATTEMPT, outboxPriority, type LedgerEntry, type NewOutboxItem, type OutboxItem, type OutboxPayload, type OutboxWait } from '../port.js';
import { rowToOutboxItem } from '../rows.js';
import type { PostgresDatabase, Queryable } from './database.js';
import type { PostgresLedger } from './ledger.js';

export class PostgresOutbox {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly ledger: PostgresLedger,
  ) {}

  /** One statement: the checks and the insert see one snapshot, and the unique key settles a race. */
  async enqueue(item: NewOutboxItem, now: Date, on: Queryable = this.db.pool): Promise<boolean> {
    const at = now.toISOString();
    return (
      (await this.db.changes(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority)
         SELECT $1, $2, $3, $4, $5, $5, $6
         WHERE NOT EXISTS (SELECT 1 FROM ledger WHERE key = $1)
           AND NOT EXISTS (SELECT 1 FROM burst_entries WHERE key = $1 AND NOT told)
         ON CONFLICT (key) DO NOTHING`,
        [item.key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), at, outboxPriority(item)],
        on,
      )) > 0
    );
  }

  async isQueued(key: string): Promise<boolean> {
    const rows = await this.db.rows(
      'SELECT 1 FROM outbox WHERE key = $1 UNION ALL SELECT 1 FROM burst_entries WHERE key = $1 AND NOT told LIMIT 1',
      [key],
    );
    return rows.length > 0;
  }

  async queuedItem(key: string): Promise<OutboxItem | undefined> {
    const [row] = await this.db.rows('SELECT * FROM outbox WHERE key = $1', [key]);
    return row && rowToOutboxItem(row);
  }

  async dueOutbox(now: Date, limit = 100): Promise<OutboxItem[]> {
    return (await this.db.rows('SELECT * FROM outbox WHERE next_attempt_at <= $1 ORDER BY priority, next_attempt_at, id LIMIT $2', [now.toISOString(), limit])).map(rowToOutboxItem);
  }

  /** The row lock makes a concurrent claim or completion under the old epoch finish first, or see the new one. */
  async beginSending(holder: string, now: Date): Promise<number> {
    const [row] = await this.db.rows(
      `INSERT INTO send_epoch (id, epoch, holder, since) VALUES (1, 1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET epoch = send_epoch.epoch + 1, holder = excluded.holder, since = excluded.since
       RETURNING epoch`,
      [holder, now.toISOString()],
    );
    return Number(row.epoch);
  }

  /**
   * Checks `fence` inside the transaction `c`, holding the epoch row (FOR SHARE) until it ends:
   * a replica's beginSending waits for this transaction, so it commits wholly before or is refused.
   */
  async checkFence(fence: number | undefined, c: Queryable): Promise<void> {
    if (fence === undefined) return;
    const [row] = await this.db.rows('SELECT epoch FROM send_epoch WHERE id = 1 FOR SHARE', [], c);
    checkFence(fence, row ? Number(row.epoch) : undefined);
  }

  async claimOutbox(fence: number, now: Date, claimUntil: Date, limit = 100): Promise<OutboxItem[]> {
    return this.db.tx(async (c) => {
      await this.checkFence(fence, c);
      const at = now.toISOString();
      // SKIP LOCKED: a row another transaction is completing or claiming is left to it.
      const rows = await this.db.rows(
        `WITH claimed AS (
           UPDATE outbox SET claimed_by = $2, claimed_until = $3 WHERE id IN (
             SELECT id FROM outbox WHERE next_attempt_at <= $1 AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until <= $1)
             ORDER BY priority, next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
           RETURNING *)
         SELECT * FROM claimed ORDER BY priority, next_attempt_at, id`,
        [at, fence, claimUntil.toISOString(), limit],
        c,
      );
      return rows.map(rowToOutboxItem);
    });
  }

  async outboxDepth(): Promise<number> {
    return Number((await this.db.rows('SELECT COUNT(*) AS n FROM outbox'))[0].n);
  }

  /**
   * Runs `write` on the pool, or, with `fence`, in one transaction that first checks it
   * (checkFence): a deposed sender's write is refused whole.
   */
  async fenced<T>(fence: number | undefined, write: (on: Queryable) => Promise<T>): Promise<T> {
    if (fence === undefined) return write(this.db.pool);
    return this.db.tx(async (c) => {
      await this.checkFence(fence, c);
      return write(c);
    });
  }

  async completeOutbox(id: number, entry: LedgerEntry, fence?: number): Promise<void> {
    await this.db.tx(async (c) => {
      await this.checkFence(fence, c);
      await this.ledger.recordSent(entry, c);
      await this.deleteItem(id, c);
    });
  }

  async retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait, fence?: number): Promise<void> {
    await this.fenced(fence, (on) =>
      this.db.run(
        'UPDATE outbox SET attempts = attempts + $1, next_attempt_at = $2, last_error = $3, wait = $4 WHERE id = $5',
        [OUTBOX_WAIT_IS_ATTEMPT[wait] ? 1 : 0, nextAttemptAt.toISOString(), reason.slice(0, 500), wait, id],
        on,
      ),
    );
  }

  async dropOutbox(id: number, fence?: number): Promise<void> {
    await this.fenced(fence, (on) => this.deleteItem(id, on));
  }

  private async deleteItem(id: number, on: Queryable): Promise<void> {
    await this.db.run('DELETE FROM outbox WHERE id = $1', [id], on);
  }

  async dropKey(key: string, on: Queryable = this.db.pool): Promise<void> {
    await this.db.run('DELETE FROM outbox WHERE key = $1', [key], on);
  }

  async replaceOutboxPayload(id: number, payload: OutboxPayload, fence?: number): Promise<void> {
    await this.fenced(fence, (on) => this.db.run('UPDATE outbox SET payload = $1 WHERE id = $2', [JSON.stringify(payload), id], on));
  }

  async expediteOutbox(now: Date): Promise<number> {
    return this.db.changes("UPDATE outbox SET next_attempt_at = $1 WHERE wait = 'backoff' AND next_attempt_at > $1", [now.toISOString()]);
  }
}
