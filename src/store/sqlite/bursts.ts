/**
 * Bursts over SQLite: alerts for one destination folded into one rewritten message. A fold is
 * persisted with its rewrite in one transaction (README, "Delivery guarantee").
 */
import { burstRewriteKey, KEY_PREFIX, opsBurstKey } from '../../keys.js';
import { OUTBOX_PRIORITY, outboxPriority, type BurstAdmission, type BurstAdmitted, type LedgerEntry, type NewOutboxItem, type StoredBurst, type StoredBurstEntry, type StoredOpsBurst } from '../port.js';
import type { SqliteDatabase } from './database.js';
import type { SqliteLedger } from './ledger.js';
import type { SqliteOutbox } from './outbox.js';
import { rowToBurst, rowToBurstEntry, type Row } from '../rows.js';

export class SqliteBursts {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly ledger: SqliteLedger,
    private readonly outbox: SqliteOutbox,
  ) {}

  openBurst(destination: string, now: Date): StoredBurst | undefined {
    const row = this.db
      .prepare('SELECT * FROM bursts WHERE destination = ? AND closes_at > ? ORDER BY opened_at DESC LIMIT 1')
      .get(destination, now.toISOString()) as Record<string, string> | undefined;
    return row && rowToBurst(row);
  }

  burst(anchorKey: string): StoredBurst | undefined {
    const row = this.db.prepare('SELECT * FROM bursts WHERE anchor_key = ?').get(anchorKey) as Record<string, string> | undefined;
    return row && rowToBurst(row);
  }

  /** SQLite has one writer: the transaction alone serialises admissions for a destination. */
  admitToBurst(
    destination: string,
    item: NewOutboxItem,
    entry: unknown,
    now: Date,
    decide: (open: StoredBurst | undefined) => BurstAdmission,
  ): BurstAdmitted | undefined {
    return this.db.transaction(() => {
      const decision = decide(this.openBurst(destination, now));
      if (!decision.grouped) {
        this.pruneClosedBursts(now);
        if (!this.outbox.enqueue(item, now)) return undefined;
        this.db
          .prepare('INSERT OR REPLACE INTO bursts (anchor_key, destination, anchor_entry, opened_at, closes_at) VALUES (?, ?, ?, ?, ?)')
          .run(item.key, destination, JSON.stringify(entry), now.toISOString(), new Date(decision.closesAt).toISOString());
        return { folded: false as const };
      }
      const { key, ...alone } = item;
      if (this.ledger.wasSent(key) || this.outbox.hasKey(key)) return undefined;
      const added = this.db
        .prepare('INSERT OR IGNORE INTO burst_entries (key, anchor_key, entry_json, item_json, added_at) VALUES (?, ?, ?, ?, ?)')
        .run(key, decision.anchorKey, JSON.stringify(entry), JSON.stringify(alone), now.toISOString());
      if (added.changes === 0) return undefined;
      this.scheduleRewrite(decision.anchorKey, new Date(decision.rewriteAt), now);
      return { folded: true as const, anchorKey: decision.anchorKey };
    });
  }

  /**
   * Queues (or re-times) the single rewrite of a burst: one outbox item per burst, replaced as
   * it grows. Its attempts start again, since it is a new message.
   */
  private scheduleRewrite(anchorKey: string, dueAt: Date, now: Date): void {
    this.db
      .prepare(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES (?, 'burst', ?, '{"text":""}', ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = NULL, wait = NULL`,
      )
      .run(burstRewriteKey(anchorKey), JSON.stringify({ type: 'burst', anchorKey }), dueAt.toISOString(), now.toISOString(), OUTBOX_PRIORITY.rewrite);
  }

  burstEntries(anchorKey: string): StoredBurstEntry[] {
    return (this.db.prepare('SELECT * FROM burst_entries WHERE anchor_key = ? ORDER BY added_at, rowid').all(anchorKey) as Row[]).map(rowToBurstEntry);
  }

  /**
   * A rewrite naming `told` was accepted: each is recorded in the ledger; `muted` (muted by the
   * person since the fold) are recorded as handled and leave the burst. The rewrite leaves the
   * queue unless entries folded meanwhile still wait for it. One transaction, so a crash leaves
   * either the rewrite owed or all of them told.
   */
  completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted: LedgerEntry[] = [], fence?: number): void {
    this.outbox.fenced(fence, () => {
      for (const entry of told) {
        this.ledger.recordSent(entry);
        this.db.prepare('UPDATE burst_entries SET told = 1 WHERE key = ?').run(entry.key);
      }
      for (const entry of muted) {
        this.ledger.recordSent(entry);
        this.db.prepare('DELETE FROM burst_entries WHERE key = ?').run(entry.key);
      }
      this.db
        .prepare('DELETE FROM outbox WHERE id = ? AND NOT EXISTS (SELECT 1 FROM burst_entries WHERE anchor_key = ? AND told = 0)')
        .run(itemId, anchorKey);
    });
  }

  dropBurst(anchorKey: string, fence?: number): string[] {
    return this.outbox.fenced(fence, () => {
      const keys = this.burstEntries(anchorKey).filter((e) => !e.told).map((e) => e.key);
      this.outbox.dropKey(burstRewriteKey(anchorKey));
      this.db.prepare('DELETE FROM bursts WHERE anchor_key = ?').run(anchorKey);
      return keys;
    });
  }

  releaseBurst(anchorKey: string, now: Date, fence?: number): string[] {
    return this.outbox.fenced(fence, () => {
      const released: string[] = [];
      for (const entry of this.burstEntries(anchorKey)) {
        if (entry.told) continue;
        this.db.prepare('DELETE FROM burst_entries WHERE key = ?').run(entry.key);
        if (this.outbox.enqueue({ key: entry.key, ...entry.item }, now)) released.push(entry.key);
      }
      this.outbox.dropKey(burstRewriteKey(anchorKey));
      this.db.prepare('DELETE FROM bursts WHERE anchor_key = ?').run(anchorKey);
      return released;
    });
  }

  pruneClosedBursts(now: Date): number {
    return this.db
      .prepare(
        `DELETE FROM bursts WHERE closes_at <= ?
           AND NOT EXISTS (SELECT 1 FROM burst_entries e WHERE e.anchor_key = bursts.anchor_key AND e.told = 0)
           AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = ? || bursts.anchor_key)`,
      )
      .run(now.toISOString(), KEY_PREFIX.burst).changes;
  }

  burstRewritesDueNow(now: Date): void {
    this.db.prepare("UPDATE outbox SET next_attempt_at = ? WHERE kind IN ('burst', 'ops-burst') AND next_attempt_at > ?").run(now.toISOString(), now.toISOString());
  }

  /** SQLite has one writer: the transaction alone serialises the counting. */
  admitToOpsBurst(entryKey: string, entry: unknown, now: Date, windowMs: number, compose: (burst: StoredOpsBurst) => NewOutboxItem | undefined): void {
    this.db.transaction(() => {
      const at = now.toISOString();
      let open = this.db.prepare('SELECT * FROM ops_bursts WHERE closes_at > ? ORDER BY opened_at DESC LIMIT 1').get(at) as Row | undefined;
      if (!open) {
        // Closed bursts whose summary has left the queue are of no more use.
        this.db.prepare('DELETE FROM ops_bursts WHERE closes_at <= ? AND key NOT IN (SELECT key FROM outbox)').run(at);
        open = { key: opsBurstKey(now), opened_at: at, closes_at: new Date(now.getTime() + windowMs).toISOString() };
        this.db.prepare('INSERT OR IGNORE INTO ops_bursts (key, opened_at, closes_at) VALUES (?, ?, ?)').run(open.key, open.opened_at, open.closes_at);
      }
      const key = open.key as string;
      const added = this.db.prepare('INSERT OR IGNORE INTO ops_burst_entries (burst_key, key, entry_json, added_at) VALUES (?, ?, ?, ?)').run(key, entryKey, JSON.stringify(entry), at);
      if (added.changes === 0 || this.ledger.wasSent(key)) return;
      const entries = (this.db.prepare('SELECT entry_json FROM ops_burst_entries WHERE burst_key = ? ORDER BY added_at, rowid').all(key) as Row[]).map((r) => JSON.parse(r.entry_json as string) as unknown);
      const item = compose({ key, openedAt: open.opened_at as string, closesAt: open.closes_at as string, entries });
      if (!item) return;
      this.db
        .prepare(
          `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET payload = excluded.payload`,
        )
        .run(key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), open.closes_at, at, outboxPriority(item));
    });
  }
}
