/**
 * Bursts over PostgreSQL: alerts for one destination folded into one rewritten message. A fold
 * is persisted with its rewrite in one transaction (README, "Delivery guarantee").
 */
import { burstRewriteKey, KEY_PREFIX, opsBurstKey } from '../../keys.js';
import { OUTBOX_PRIORITY, outboxPriority, type StoredOpsBurst, type BurstAdmission, type BurstAdmitted, type LedgerEntry, type NewOutboxItem, type StoredBurst, type StoredBurstEntry } from '../port.js';
import { rowToBurst, rowToBurstEntry } from '../rows.js';
import type { PostgresDatabase, Queryable } from './database.js';
import type { PostgresLedger } from './ledger.js';
import type { PostgresOutbox } from './outbox.js';

export class PostgresBursts {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly ledger: PostgresLedger,
    private readonly outbox: PostgresOutbox,
  ) {}

  async openBurst(destination: string, now: Date, on: Queryable = this.db.pool): Promise<StoredBurst | undefined> {
    const [row] = await this.db.rows('SELECT * FROM bursts WHERE destination = $1 AND closes_at > $2 ORDER BY opened_at DESC LIMIT 1', [destination, now.toISOString()], on);
    return row && rowToBurst(row);
  }

  async burst(anchorKey: string): Promise<StoredBurst | undefined> {
    const [row] = await this.db.rows('SELECT * FROM bursts WHERE anchor_key = $1', [anchorKey]);
    return row && rowToBurst(row);
  }

  async admitToBurst(
    destination: string,
    item: NewOutboxItem,
    entry: unknown,
    now: Date,
    decide: (open: StoredBurst | undefined) => BurstAdmission,
  ): Promise<BurstAdmitted | undefined> {
    return this.db.tx(async (c) => {
      // Replicas (and this process's concurrent alerts) admit to one destination one at a time,
      // so two alerts cannot both find no open burst and each open one.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`runai-slack-bot:burst:${destination}`]);
      const decision = decide(await this.openBurst(destination, now, c));
      const at = now.toISOString();
      if (!decision.grouped) {
        await this.pruneClosedBursts(now, c);
        if (!(await this.outbox.enqueue(item, now, c))) return undefined;
        await c.query(
          `INSERT INTO bursts (anchor_key, destination, anchor_entry, opened_at, closes_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (anchor_key) DO UPDATE SET destination = excluded.destination, anchor_entry = excluded.anchor_entry,
             opened_at = excluded.opened_at, closes_at = excluded.closes_at`,
          [item.key, destination, JSON.stringify(entry), at, new Date(decision.closesAt).toISOString()],
        );
        return { folded: false as const };
      }
      const { key, ...alone } = item;
      const added = await this.db.changes(
        `INSERT INTO burst_entries (key, anchor_key, entry_json, item_json, added_at)
         SELECT $1, $2, $3, $4, $5
         WHERE NOT EXISTS (SELECT 1 FROM ledger WHERE key = $1) AND NOT EXISTS (SELECT 1 FROM outbox WHERE key = $1)
         ON CONFLICT (key) DO NOTHING`,
        [key, decision.anchorKey, JSON.stringify(entry), JSON.stringify(alone), at],
        c,
      );
      if (!added) return undefined;
      await this.scheduleRewrite(decision.anchorKey, new Date(decision.rewriteAt), now, c);
      return { folded: true as const, anchorKey: decision.anchorKey };
    });
  }

  /**
   * Queues (or re-times) the single rewrite of a burst: one outbox item per burst, replaced as
   * it grows. Its attempts start again, since it is a new message.
   */
  private async scheduleRewrite(anchorKey: string, dueAt: Date, now: Date, on: Queryable): Promise<void> {
    await this.db.run(
      `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES ($1, 'burst', $2, '{"text":""}', $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = NULL, wait = NULL`,
      [burstRewriteKey(anchorKey), JSON.stringify({ type: 'burst', anchorKey }), dueAt.toISOString(), now.toISOString(), OUTBOX_PRIORITY.rewrite],
      on,
    );
  }

  async burstEntries(anchorKey: string, on: Queryable = this.db.pool): Promise<StoredBurstEntry[]> {
    return (await this.db.rows('SELECT * FROM burst_entries WHERE anchor_key = $1 ORDER BY added_at, seq', [anchorKey], on)).map(rowToBurstEntry);
  }

  /**
   * A rewrite naming `told` was accepted: each is recorded in the ledger; `muted` (muted by the
   * person since the fold) are recorded as handled and leave the burst. The rewrite leaves the
   * queue unless entries folded meanwhile still wait for it. One transaction.
   */
  async completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted: LedgerEntry[] = [], fence?: number): Promise<void> {
    await this.db.tx(async (c) => {
      await this.outbox.checkFence(fence, c);
      for (const entry of told) {
        await this.ledger.recordSent(entry, c);
        await c.query('UPDATE burst_entries SET told = TRUE WHERE key = $1', [entry.key]);
      }
      for (const entry of muted) {
        await this.ledger.recordSent(entry, c);
        await c.query('DELETE FROM burst_entries WHERE key = $1', [entry.key]);
      }
      await c.query('DELETE FROM outbox WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM burst_entries WHERE anchor_key = $2 AND NOT told)', [itemId, anchorKey]);
    });
  }

  async dropBurst(anchorKey: string, fence?: number): Promise<string[]> {
    return this.db.tx(async (c) => {
      await this.outbox.checkFence(fence, c);
      const keys = (await this.burstEntries(anchorKey, c)).filter((e) => !e.told).map((e) => e.key);
      await this.outbox.dropKey(burstRewriteKey(anchorKey), c);
      await c.query('DELETE FROM bursts WHERE anchor_key = $1', [anchorKey]);
      return keys;
    });
  }

  async releaseBurst(anchorKey: string, now: Date, fence?: number): Promise<string[]> {
    return this.db.tx(async (c) => {
      await this.outbox.checkFence(fence, c);
      const released: string[] = [];
      for (const entry of await this.burstEntries(anchorKey, c)) {
        if (entry.told) continue;
        await c.query('DELETE FROM burst_entries WHERE key = $1', [entry.key]);
        if (await this.outbox.enqueue({ key: entry.key, ...entry.item }, now, c)) released.push(entry.key);
      }
      await this.outbox.dropKey(burstRewriteKey(anchorKey), c);
      await c.query('DELETE FROM bursts WHERE anchor_key = $1', [anchorKey]);
      return released;
    });
  }

  async pruneClosedBursts(now: Date, on: Queryable = this.db.pool): Promise<number> {
    return this.db.changes(
      `DELETE FROM bursts WHERE closes_at <= $1
         AND NOT EXISTS (SELECT 1 FROM burst_entries e WHERE e.anchor_key = bursts.anchor_key AND NOT e.told)
         AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = $2 || bursts.anchor_key)`,
      [now.toISOString(), KEY_PREFIX.burst],
      on,
    );
  }

  async burstRewritesDueNow(now: Date): Promise<void> {
    await this.db.run("UPDATE outbox SET next_attempt_at = $1 WHERE kind IN ('burst', 'ops-burst') AND next_attempt_at > $1", [now.toISOString()]);
  }

  async admitToOpsBurst(entryKey: string, entry: unknown, now: Date, windowMs: number, compose: (burst: StoredOpsBurst) => NewOutboxItem | undefined): Promise<void> {
    await this.db.tx(async (c) => {
      // Every replica counts every alert: one at a time, so they find (or open) the same burst.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['runai-slack-bot:ops-burst']);
      const at = now.toISOString();
      let [open] = await this.db.rows('SELECT * FROM ops_bursts WHERE closes_at > $1 ORDER BY opened_at DESC LIMIT 1', [at], c);
      if (!open) {
        // Closed bursts whose summary has left the queue are of no more use.
        await c.query('DELETE FROM ops_bursts WHERE closes_at <= $1 AND key NOT IN (SELECT key FROM outbox)', [at]);
        open = { key: opsBurstKey(now), opened_at: at, closes_at: new Date(now.getTime() + windowMs).toISOString() };
        await c.query('INSERT INTO ops_bursts (key, opened_at, closes_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [open.key, open.opened_at, open.closes_at]);
      }
      const key = open.key as string;
      const added = await this.db.changes(
        'INSERT INTO ops_burst_entries (burst_key, key, entry_json, added_at) VALUES ($1, $2, $3, $4) ON CONFLICT (burst_key, key) DO NOTHING',
        [key, entryKey, JSON.stringify(entry), at],
        c,
      );
      if (!added || (await this.db.rows('SELECT 1 FROM ledger WHERE key = $1', [key], c)).length) return;
      const entries = (await this.db.rows('SELECT entry_json FROM ops_burst_entries WHERE burst_key = $1 ORDER BY added_at, key', [key], c)).map((r) => JSON.parse(r.entry_json as string) as unknown);
      const item = compose({ key, openedAt: open.opened_at as string, closesAt: open.closes_at as string, entries });
      if (!item) return;
      await c.query(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (key) DO UPDATE SET payload = excluded.payload`,
        [key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), open.closes_at, at, outboxPriority(item)],
      );
    });
  }
}
