/**
 * The whole store in PostgreSQL (`store.url` or DATABASE_URL), behind the same port as SQLite,
 * for replicas that share it. node-postgres with a Pool; every query has a statement timeout
 * and connecting has a timeout, so a stuck database shows as a failed store call (the outbox
 * backs off, /readyz reports it) rather than a hung process. Migrations are versioned in
 * schema_migrations and run in one transaction under an advisory lock, so two replicas
 * starting together do not race. What SQLite does in a transaction is done in one here.
 */
import pg from 'pg';
import { burstRewriteKey, KEY_PREFIX, PRUNABLE_KEY_PREFIXES, prunableKeys } from '../../keys.js';
import {
  OUTBOX_PRIORITY,
  outboxPriority,
  type BurstAdmission,
  type BurstAdmitted,
  type FeedCacheEntry,
  type LedgerEntry,
  type Mute,
  type NewOutboxItem,
  type OutboxItem,
  type OutboxPayload,
  type OutboxWait,
  OUTBOX_WAIT_IS_ATTEMPT,
  type Store,
  type StoredBurst,
  type StoredBurstEntry,
  type StoredWorkload,
} from '../port.js';
import { redactUrl } from '../url.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { escapeLike, rowToBurst, rowToEntry, rowToOutboxItem, rowToWorkload, type Row } from '../rows.js';

export interface PostgresStoreOptions {
  url: string;
  /** Schema for every table (search_path); default: the server's (public). Tests use one per run. */
  schema?: string;
  /** Per statement, enforced by the server. Default 10 s. */
  statementTimeoutMs?: number;
  /** To get a connection from the server. Default 5 s. */
  connectionTimeoutMs?: number;
  /** Pool size. Default 10. */
  maxConnections?: number;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresStore implements Store {
  readonly location: string;
  private readonly pool: pg.Pool;
  private closed?: Promise<void>;

  private constructor(options: PostgresStoreOptions) {
    if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) throw new Error(`invalid schema name: ${options.schema}`);
    this.location = redactUrl(options.url) + (options.schema ? ` (schema ${options.schema})` : '');
    const statementTimeout = options.statementTimeoutMs ?? 10_000;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: statementTimeout,
      // The client gives up a little after the server should have: a dead connection cannot hang a call.
      query_timeout: statementTimeout + 2_000,
      idle_in_transaction_session_timeout: statementTimeout * 3,
      application_name: 'runai-slack-bot',
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process:
    // the pool replaces it, and the next call that fails is reported by its caller.
    this.pool.on('error', () => undefined);
  }

  /** Connects, migrates, and returns the store; rejects (closing the pool) when it cannot. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options);
    try {
      await store.migrate();
      return store;
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  /** Applies the migrations not yet applied, each recorded in schema_migrations; one transaction, one replica at a time. */
  private async migrate(): Promise<void> {
    await this.tx(async (c) => {
      // Keyed by schema: runs in different schemas (tests) do not wait for each other.
      await c.query("SELECT pg_advisory_xact_lock(hashtext('runai-slack-bot:migrate:' || current_schema()))");
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      const { rows } = await c.query('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations');
      for (let v = Number(rows[0].v); v < POSTGRES_MIGRATIONS.length; v++) {
        await c.query(POSTGRES_MIGRATIONS[v]);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [v + 1, new Date().toISOString()]);
      }
    });
  }

  /** The schema version reached (for the contract tests). */
  async schemaVersion(): Promise<number> {
    const { rows } = await this.pool.query('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations');
    return Number(rows[0].v);
  }

  close(): Promise<void> {
    return (this.closed ??= this.pool.end());
  }

  private async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const value = await fn(client);
      await client.query('COMMIT');
      return value;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      throw err;
    } finally {
      // A connection that could not roll back is discarded, not reused mid-transaction.
      client.release(broken);
    }
  }

  private async rows(sql: string, params: unknown[] = [], on: Queryable = this.pool): Promise<Row[]> {
    return (await on.query(sql, params)).rows as Row[];
  }

  private async changes(sql: string, params: unknown[] = [], on: Queryable = this.pool): Promise<number> {
    return (await on.query(sql, params)).rowCount ?? 0;
  }

  // ── ledger ──

  async wasSent(key: string): Promise<boolean> {
    return (await this.rows('SELECT 1 FROM ledger WHERE key = $1', [key])).length > 0;
  }

  async ledgerEntry(key: string): Promise<LedgerEntry | undefined> {
    const [row] = await this.rows('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE key = $1', [key]);
    return row && rowToEntry(row);
  }

  async ledgerKeys(prefix: string): Promise<Set<string>> {
    const rows = await this.rows("SELECT key FROM ledger WHERE key LIKE $1 ESCAPE '\\'", [`${escapeLike(prefix)}%`]);
    return new Set(rows.map((r) => r.key as string));
  }

  async recordSent(entry: LedgerEntry, on: Queryable = this.pool): Promise<void> {
    await on.query(
      `INSERT INTO ledger (key, recipient, channel, ts, sent_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET recipient = excluded.recipient, channel = excluded.channel, ts = excluded.ts, sent_at = excluded.sent_at`,
      [entry.key, entry.recipient, entry.channel ?? null, entry.ts ?? null, entry.sentAt],
    );
  }

  async recentAlertsFor(recipient: string, limit: number): Promise<LedgerEntry[]> {
    const rows = await this.rows('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE recipient = $1 ORDER BY sent_at DESC LIMIT $2', [recipient, limit]);
    return rows.map(rowToEntry);
  }

  // ── outbox ──

  /** One statement: the checks and the insert see one snapshot, and the unique key settles a race. */
  async enqueue(item: NewOutboxItem, now: Date, on: Queryable = this.pool): Promise<boolean> {
    const at = now.toISOString();
    return (
      (await this.changes(
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
    const rows = await this.rows(
      'SELECT 1 FROM outbox WHERE key = $1 UNION ALL SELECT 1 FROM burst_entries WHERE key = $1 AND NOT told LIMIT 1',
      [key],
    );
    return rows.length > 0;
  }

  async queuedItem(key: string): Promise<OutboxItem | undefined> {
    const [row] = await this.rows('SELECT * FROM outbox WHERE key = $1', [key]);
    return row && rowToOutboxItem(row);
  }

  async dueOutbox(now: Date, limit = 100): Promise<OutboxItem[]> {
    return (await this.rows('SELECT * FROM outbox WHERE next_attempt_at <= $1 ORDER BY priority, next_attempt_at, id LIMIT $2', [now.toISOString(), limit])).map(rowToOutboxItem);
  }

  async allOutbox(): Promise<OutboxItem[]> {
    return (await this.rows('SELECT * FROM outbox ORDER BY id')).map(rowToOutboxItem);
  }

  async outboxDepth(): Promise<number> {
    return Number((await this.rows('SELECT COUNT(*) AS n FROM outbox'))[0].n);
  }

  async completeOutbox(id: number, entry: LedgerEntry): Promise<void> {
    await this.tx(async (c) => {
      await this.recordSent(entry, c);
      await c.query('DELETE FROM outbox WHERE id = $1', [id]);
    });
  }

  async retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait): Promise<void> {
    await this.pool.query('UPDATE outbox SET attempts = attempts + $1, next_attempt_at = $2, last_error = $3, wait = $4 WHERE id = $5', [
      OUTBOX_WAIT_IS_ATTEMPT[wait] ? 1 : 0,
      nextAttemptAt.toISOString(),
      reason.slice(0, 500),
      wait,
      id,
    ]);
  }

  async dropQueued(prefix: string): Promise<number> {
    return this.changes("DELETE FROM outbox WHERE key LIKE $1 ESCAPE '\\'", [`${escapeLike(prefix)}%`]);
  }

  async dropOutbox(id: number): Promise<void> {
    await this.pool.query('DELETE FROM outbox WHERE id = $1', [id]);
  }

  async replaceOutboxPayload(id: number, payload: OutboxPayload): Promise<void> {
    await this.pool.query('UPDATE outbox SET payload = $1 WHERE id = $2', [JSON.stringify(payload), id]);
  }

  async expediteOutbox(now: Date): Promise<number> {
    return this.changes(
      "UPDATE outbox SET next_attempt_at = $1 WHERE wait = 'backoff' AND next_attempt_at > $1",
      [now.toISOString()],
    );
  }

  // ── bursts ──

  async openBurst(destination: string, now: Date, on: Queryable = this.pool): Promise<StoredBurst | undefined> {
    const [row] = await this.rows('SELECT * FROM bursts WHERE destination = $1 AND closes_at > $2 ORDER BY opened_at DESC LIMIT 1', [destination, now.toISOString()], on);
    return row && rowToBurst(row);
  }

  async burst(anchorKey: string): Promise<StoredBurst | undefined> {
    const [row] = await this.rows('SELECT * FROM bursts WHERE anchor_key = $1', [anchorKey]);
    return row && rowToBurst(row);
  }

  async admitToBurst(
    destination: string,
    item: NewOutboxItem,
    entry: unknown,
    now: Date,
    decide: (open: StoredBurst | undefined) => BurstAdmission,
  ): Promise<BurstAdmitted | undefined> {
    return this.tx(async (c) => {
      // Replicas (and this process's concurrent alerts) admit to one destination one at a time,
      // so two alerts cannot both find no open burst and each open one.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`runai-slack-bot:burst:${destination}`]);
      const decision = decide(await this.openBurst(destination, now, c));
      const at = now.toISOString();
      if (!decision.grouped) {
        await this.pruneClosedBursts(now, c);
        if (!(await this.enqueue(item, now, c))) return undefined;
        await c.query(
          `INSERT INTO bursts (anchor_key, destination, anchor_entry, opened_at, closes_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (anchor_key) DO UPDATE SET destination = excluded.destination, anchor_entry = excluded.anchor_entry,
             opened_at = excluded.opened_at, closes_at = excluded.closes_at`,
          [item.key, destination, JSON.stringify(entry), at, new Date(decision.closesAt).toISOString()],
        );
        return { folded: false as const };
      }
      const { key, ...alone } = item;
      const added = await this.changes(
        `INSERT INTO burst_entries (key, anchor_key, entry_json, item_json, added_at)
         SELECT $1, $2, $3, $4, $5
         WHERE NOT EXISTS (SELECT 1 FROM ledger WHERE key = $1) AND NOT EXISTS (SELECT 1 FROM outbox WHERE key = $1)
         ON CONFLICT (key) DO NOTHING`,
        [key, decision.anchorKey, JSON.stringify(entry), JSON.stringify(alone), at],
        c,
      );
      if (!added) return undefined;
      await c.query(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, priority) VALUES ($1, 'burst', $2, '{"text":""}', $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = NULL, wait = NULL`,
        [burstRewriteKey(decision.anchorKey), JSON.stringify({ type: 'burst', anchorKey: decision.anchorKey }), new Date(decision.rewriteAt).toISOString(), at, OUTBOX_PRIORITY.rewrite],
      );
      return { folded: true as const, anchorKey: decision.anchorKey };
    });
  }

  async burstEntries(anchorKey: string, on: Queryable = this.pool): Promise<StoredBurstEntry[]> {
    const rows = await this.rows('SELECT * FROM burst_entries WHERE anchor_key = $1 ORDER BY added_at, seq', [anchorKey], on);
    return rows.map((r) => ({
      key: r.key as string,
      anchorKey: r.anchor_key as string,
      entry: JSON.parse(r.entry_json as string),
      item: JSON.parse(r.item_json as string) as StoredBurstEntry['item'],
      told: r.told === true,
    }));
  }

  async completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted: LedgerEntry[] = []): Promise<void> {
    await this.tx(async (c) => {
      for (const entry of told) {
        await this.recordSent(entry, c);
        await c.query('UPDATE burst_entries SET told = TRUE WHERE key = $1', [entry.key]);
      }
      for (const entry of muted) {
        await this.recordSent(entry, c);
        await c.query('DELETE FROM burst_entries WHERE key = $1', [entry.key]);
      }
      await c.query('DELETE FROM outbox WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM burst_entries WHERE anchor_key = $2 AND NOT told)', [itemId, anchorKey]);
    });
  }

  async dropBurst(anchorKey: string): Promise<string[]> {
    return this.tx(async (c) => {
      const keys = (await this.burstEntries(anchorKey, c)).filter((e) => !e.told).map((e) => e.key);
      await c.query('DELETE FROM outbox WHERE key = $1', [burstRewriteKey(anchorKey)]);
      await c.query('DELETE FROM bursts WHERE anchor_key = $1', [anchorKey]);
      return keys;
    });
  }

  async releaseBurst(anchorKey: string, now: Date): Promise<string[]> {
    return this.tx(async (c) => {
      const released: string[] = [];
      for (const entry of await this.burstEntries(anchorKey, c)) {
        if (entry.told) continue;
        await c.query('DELETE FROM burst_entries WHERE key = $1', [entry.key]);
        if (await this.enqueue({ key: entry.key, ...entry.item }, now, c)) released.push(entry.key);
      }
      await c.query('DELETE FROM outbox WHERE key = $1', [burstRewriteKey(anchorKey)]);
      await c.query('DELETE FROM bursts WHERE anchor_key = $1', [anchorKey]);
      return released;
    });
  }

  async pruneClosedBursts(now: Date, on: Queryable = this.pool): Promise<number> {
    return this.changes(
      `DELETE FROM bursts WHERE closes_at <= $1
         AND NOT EXISTS (SELECT 1 FROM burst_entries e WHERE e.anchor_key = bursts.anchor_key AND NOT e.told)
         AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = $2 || bursts.anchor_key)`,
      [now.toISOString(), KEY_PREFIX.burst],
      on,
    );
  }

  async burstRewritesDueNow(now: Date): Promise<void> {
    await this.pool.query("UPDATE outbox SET next_attempt_at = $1 WHERE kind = 'burst' AND next_attempt_at > $1", [now.toISOString()]);
  }

  // ── workloads ──

  async getWorkload(uid: string): Promise<StoredWorkload | undefined> {
    const [row] = await this.rows('SELECT * FROM workloads WHERE uid = $1', [uid]);
    return row && rowToWorkload(row);
  }

  async allWorkloads(): Promise<StoredWorkload[]> {
    return (await this.rows('SELECT * FROM workloads WHERE deleted_at IS NULL')).map(rowToWorkload);
  }

  async workloadsOf(owner: string): Promise<StoredWorkload[]> {
    return (await this.rows('SELECT * FROM workloads WHERE owner = $1 AND deleted_at IS NULL ORDER BY state_since DESC', [owner])).map(rowToWorkload);
  }

  async workloadsNamed(namespace: string, name: string, cluster?: string): Promise<StoredWorkload[]> {
    const rows = cluster === undefined
      ? await this.rows('SELECT * FROM workloads WHERE namespace = $1 AND name = $2 ORDER BY cluster, state_since DESC', [namespace, name])
      : await this.rows('SELECT * FROM workloads WHERE namespace = $1 AND name = $2 AND cluster = $3 ORDER BY state_since DESC', [namespace, name, cluster]);
    return rows.map(rowToWorkload);
  }

  async putWorkload(w: StoredWorkload): Promise<void> {
    await this.pool.query(
      `INSERT INTO workloads (uid, cluster, namespace, name, project, owner, kind, state, state_since, snapshot, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (uid) DO UPDATE SET cluster = excluded.cluster, namespace = excluded.namespace, name = excluded.name, project = excluded.project,
         owner = excluded.owner, kind = excluded.kind, state = excluded.state, state_since = excluded.state_since,
         snapshot = excluded.snapshot, deleted_at = excluded.deleted_at`,
      [w.uid, w.cluster ?? '', w.namespace, w.name, w.project, w.owner ?? null, w.kind, w.state, w.stateSince, w.snapshot, w.deletedAt ?? null],
    );
  }

  async getWorkloads(uids: readonly string[]): Promise<Map<string, StoredWorkload>> {
    if (uids.length === 0) return new Map();
    const rows = await this.rows('SELECT * FROM workloads WHERE uid = ANY($1::text[])', [uids]);
    return new Map(rows.map((row) => [row.uid as string, rowToWorkload(row)]));
  }

  async putWorkloads(ws: readonly StoredWorkload[]): Promise<void> {
    // One statement (so one implicit transaction) for the slice. ON CONFLICT may touch a row once
    // per statement, so a uid given twice keeps only its last entry, as sequential puts would.
    const last = [...new Map(ws.map((w) => [w.uid, w])).values()];
    if (last.length === 0) return;
    const column = <K extends keyof StoredWorkload>(key: K) => last.map((w) => w[key] ?? null);
    await this.pool.query(
      `INSERT INTO workloads (uid, cluster, namespace, name, project, owner, kind, state, state_since, snapshot, deleted_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
       ON CONFLICT (uid) DO UPDATE SET cluster = excluded.cluster, namespace = excluded.namespace, name = excluded.name, project = excluded.project,
         owner = excluded.owner, kind = excluded.kind, state = excluded.state, state_since = excluded.state_since,
         snapshot = excluded.snapshot, deleted_at = excluded.deleted_at`,
      [column('uid'), last.map((w) => w.cluster ?? ''), column('namespace'), column('name'), column('project'), column('owner'), column('kind'), column('state'), column('stateSince'), column('snapshot'), column('deletedAt')],
    );
  }

  async adoptUnnamedCluster(name: string): Promise<number> {
    const prefix = `${name}/`;
    // Every start with named clusters asks; once adopted there is nothing unnamed, and the ledger
    // is not scanned again (a bare key whose workload row is gone names a deleted workload).
    if (!(await this.rows("SELECT 1 FROM workloads WHERE cluster = '' LIMIT 1")).length) return 0;
    return this.tx(async (client) => {
      // Kubernetes uids never hold a '/', and workloadId() puts one after every cluster name.
      const moved = await client.query(
        `UPDATE workloads w SET uid = $1 || w.uid, cluster = $2, snapshot = (w.snapshot::jsonb || jsonb_build_object('cluster', $2::text))::text
         WHERE w.cluster = '' AND NOT EXISTS (SELECT 1 FROM workloads t WHERE t.uid = $1 || w.uid)`,
        [prefix, name],
      );
      await client.query("DELETE FROM workloads WHERE cluster = ''");
      for (const head of ['wl:', 'burst:wl:']) {
        const rest = `substr(l.key, ${head.length + 1})`;
        await client.query(
          `UPDATE ledger l SET key = $2 || $1 || ${rest}
           WHERE starts_with(l.key, $2) AND strpos(${rest}, '/') = 0 AND NOT EXISTS (SELECT 1 FROM ledger t WHERE t.key = $2 || $1 || ${rest})`,
          [prefix, head],
        );
      }
      return moved.rowCount ?? 0;
    });
  }

  async presentWorkloadUids(): Promise<string[]> {
    return (await this.rows('SELECT uid FROM workloads WHERE deleted_at IS NULL')).map((r) => r.uid as string);
  }

  async pruneDeletedWorkloads(before: Date): Promise<number> {
    return this.changes('DELETE FROM workloads WHERE deleted_at IS NOT NULL AND deleted_at < $1', [before.toISOString()]);
  }

  // ── preferences ──

  async cachedSlackUser(owner: string): Promise<{ userId: string | null; lookedUpAt: string } | undefined> {
    const [row] = await this.rows('SELECT user_id, looked_up_at FROM slack_users WHERE owner = $1', [owner]);
    return row && { userId: (row.user_id as string | null) ?? null, lookedUpAt: row.looked_up_at as string };
  }

  async cacheSlackUser(owner: string, userId: string | null, at: Date): Promise<void> {
    await this.pool.query(
      `INSERT INTO slack_users (owner, user_id, looked_up_at) VALUES ($1, $2, $3)
       ON CONFLICT (owner) DO UPDATE SET user_id = excluded.user_id, looked_up_at = excluded.looked_up_at`,
      [owner, userId, at.toISOString()],
    );
  }

  async mute(userId: string, scope: string, until: Date | undefined): Promise<void> {
    await this.pool.query(
      'INSERT INTO mutes (user_id, scope, until) VALUES ($1, $2, $3) ON CONFLICT (user_id, scope) DO UPDATE SET until = excluded.until',
      [userId, scope, until?.toISOString() ?? null],
    );
  }

  async unmute(userId: string, scope: string): Promise<boolean> {
    return (await this.changes('DELETE FROM mutes WHERE user_id = $1 AND scope = $2', [userId, scope])) > 0;
  }

  async activeMutes(userId: string, now: Date): Promise<Mute[]> {
    const rows = await this.rows('SELECT scope, until FROM mutes WHERE user_id = $1 AND (until IS NULL OR until > $2) ORDER BY scope', [userId, now.toISOString()]);
    return rows.map((r) => ({ scope: r.scope as string, until: (r.until as string | null) ?? undefined }));
  }

  async getSettings<T>(userId: string): Promise<T | undefined> {
    const [row] = await this.rows('SELECT json FROM settings WHERE user_id = $1', [userId]);
    return row ? (JSON.parse(row.json as string) as T) : undefined;
  }

  async putSettings(userId: string, value: unknown): Promise<void> {
    await this.pool.query('INSERT INTO settings (user_id, json) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET json = excluded.json', [
      userId,
      JSON.stringify(value),
    ]);
  }

  async pruneExpiredMutes(now: Date): Promise<number> {
    return this.changes('DELETE FROM mutes WHERE until IS NOT NULL AND until <= $1', [now.toISOString()]);
  }

  // ── maintenance feed ──

  async getFeedCache(url: string): Promise<FeedCacheEntry | undefined> {
    const [row] = await this.rows('SELECT body, etag, last_modified, fetched_at FROM feed_cache WHERE url = $1', [url]);
    return (
      row && {
        body: row.body as string,
        etag: (row.etag as string | null) ?? undefined,
        lastModified: (row.last_modified as string | null) ?? undefined,
        fetchedAt: row.fetched_at as string,
      }
    );
  }

  async putFeedCache(url: string, entry: FeedCacheEntry): Promise<void> {
    await this.pool.query(
      `INSERT INTO feed_cache (url, body, etag, last_modified, fetched_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (url) DO UPDATE SET body = excluded.body, etag = excluded.etag, last_modified = excluded.last_modified, fetched_at = excluded.fetched_at`,
      [url, entry.body, entry.etag ?? null, entry.lastModified ?? null, entry.fetchedAt],
    );
  }

  async knownWindows(): Promise<Map<string, unknown>> {
    const rows = await this.rows('SELECT key, json FROM windows_known');
    return new Map(rows.map((r) => [r.key as string, JSON.parse(r.json as string)]));
  }

  async rememberWindow(key: string, value: unknown): Promise<void> {
    await this.pool.query('INSERT INTO windows_known (key, json) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET json = excluded.json', [key, JSON.stringify(value)]);
  }

  // ── health and retention ──

  async probeWrite(now: Date): Promise<string | undefined> {
    try {
      await this.pool.query('INSERT INTO store_probe (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at', [now.toISOString()]);
      return undefined;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return e.code ?? e.message ?? String(err);
    }
  }

  async pruneLedger(before: Date, live: ReadonlySet<string>): Promise<number> {
    const where = PRUNABLE_KEY_PREFIXES.map((_, i) => `key LIKE $${i + 2} ESCAPE '\\'`).join(' OR ');
    const rows = await this.rows(`SELECT key FROM ledger WHERE sent_at < $1 AND (${where})`, [before.toISOString(), ...PRUNABLE_KEY_PREFIXES.map((p) => `${escapeLike(p)}%`)]);
    const doomed = prunableKeys(rows.map((r) => r.key as string), live);
    if (doomed.length) await this.pool.query('DELETE FROM ledger WHERE key = ANY($1::text[])', [doomed]);
    return doomed.length;
  }
}
