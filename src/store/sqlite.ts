/**
 * The bot's memory, in one SQLite file: what it has told whom (the ledger), what it still has
 * to send (the outbox), what it last saw of each workload, people's mutes and settings, and
 * the last good maintenance feed. Everything that must survive a restart lives here.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SlackMessage } from '../messages/blocks.js';

/** Ordered schema migrations; the index + 1 is the schema version (PRAGMA user_version). */
const MIGRATIONS: string[] = [
  `CREATE TABLE ledger (
     key TEXT PRIMARY KEY,           -- what was said, e.g. wl:<uid>:Failed or mw:<window>:1d
     recipient TEXT NOT NULL,        -- Slack user or channel it went to
     channel TEXT,                   -- conversation it was posted in
     ts TEXT,                        -- message timestamp, for chat.update
     sent_at TEXT NOT NULL
   );
   CREATE TABLE outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     key TEXT NOT NULL UNIQUE,       -- same key as the ledger entry it becomes
     kind TEXT NOT NULL,             -- failure, stopped, pending, maintenance, …
     target TEXT NOT NULL,           -- JSON: {type:'owner',owner} | {type:'channel',channel} | {type:'user',user}
     payload TEXT NOT NULL,          -- JSON: {text, blocks}
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at TEXT NOT NULL,
     last_error TEXT,
     created_at TEXT NOT NULL
   );
   CREATE TABLE workloads (
     uid TEXT PRIMARY KEY,
     namespace TEXT NOT NULL,
     name TEXT NOT NULL,
     project TEXT NOT NULL,
     owner TEXT,
     kind TEXT NOT NULL,
     state TEXT NOT NULL,
     state_since TEXT NOT NULL,
     snapshot TEXT NOT NULL,         -- JSON of the normalised Workload
     deleted_at TEXT
   );
   CREATE INDEX workloads_owner ON workloads(owner);
   CREATE TABLE slack_users (
     owner TEXT PRIMARY KEY,
     user_id TEXT,                   -- NULL: looked up and not found
     looked_up_at TEXT NOT NULL
   );
   CREATE TABLE mutes (
     user_id TEXT NOT NULL,
     scope TEXT NOT NULL,            -- workload:<ns>/<name> | project:<name>
     until TEXT,                     -- NULL: until unmuted
     PRIMARY KEY (user_id, scope)
   );
   CREATE TABLE settings (
     user_id TEXT PRIMARY KEY,
     json TEXT NOT NULL
   );
   CREATE TABLE feed_cache (
     url TEXT PRIMARY KEY,
     body TEXT NOT NULL,
     etag TEXT,
     last_modified TEXT,
     fetched_at TEXT NOT NULL
   );
   CREATE TABLE windows_known (
     key TEXT PRIMARY KEY,
     json TEXT NOT NULL
   );`,
  // Bursts live on disk, not in timers: a fold is persisted with its rewrite in one transaction,
  // so a crash in the burst window loses no folded alert (README, "Delivery guarantee").
  `CREATE TABLE bursts (
     anchor_key TEXT PRIMARY KEY,    -- key of the alert posted first; its message is rewritten
     destination TEXT NOT NULL,      -- user:<id> | channel:<id>:<project>
     anchor_entry TEXT NOT NULL,     -- JSON BurstEntry of the anchor, listed first in the rewrite
     opened_at TEXT NOT NULL,
     closes_at TEXT NOT NULL
   );
   CREATE INDEX bursts_destination ON bursts(destination, closes_at);
   CREATE TABLE burst_entries (
     key TEXT PRIMARY KEY,           -- the folded alert's own key (the ledger key once told)
     anchor_key TEXT NOT NULL REFERENCES bursts(anchor_key) ON DELETE CASCADE,
     entry_json TEXT NOT NULL,       -- JSON BurstEntry, a line of the grouped message
     item_json TEXT NOT NULL,        -- JSON {kind,target,payload}: the alert sent alone if the anchor never is
     told INTEGER NOT NULL DEFAULT 0,-- 1 once a rewrite naming it was accepted by Slack
     added_at TEXT NOT NULL
   );
   CREATE INDEX burst_entries_anchor ON burst_entries(anchor_key);`,
];

export interface LedgerEntry {
  key: string;
  recipient: string;
  channel?: string;
  ts?: string;
  sentAt: string;
}

export type OutboxTarget =
  | { type: 'owner'; owner: string; project: string; workload?: string }
  | { type: 'channel'; channel: string }
  | { type: 'user'; user: string }
  /** Rewrite the message already sent under `anchorKey` (chat.update). */
  | { type: 'update'; anchorKey: string }
  /** Rewrite the burst anchored at `anchorKey` to list its stored entries (built when sent). */
  | { type: 'burst'; anchorKey: string };

export interface OutboxItem {
  id: number;
  key: string;
  kind: string;
  target: OutboxTarget;
  /** As a builder in src/messages made it; stored as JSON and read back unchanged. */
  payload: { text: string; blocks?: SlackMessage['blocks'] };
  attempts: number;
  nextAttemptAt: string;
  lastError?: string;
  createdAt: string;
}

export interface StoredWorkload {
  uid: string;
  namespace: string;
  name: string;
  project: string;
  owner?: string;
  kind: string;
  state: string;
  stateSince: string;
  snapshot: string;
  deletedAt?: string;
}

/** Owner read/write only: the store holds who was told what, Slack user IDs and the outbox. */
export const STORE_FILE_MODE = 0o600;
export const STORE_DIR_MODE = 0o700;

/**
 * The store's directory (0700 when this creates it; an existing one, such as a volume's root or
 * the working directory, is left as it is) and its file, created 0600 before SQLite opens it,
 * since SQLite would create it 0644; an existing file is narrowed to 0600.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: STORE_DIR_MODE });
  closeSync(openSync(path, 'a', STORE_FILE_MODE));
  ownerOnly(path);
}

function ownerOnly(path: string): void {
  try {
    chmodSync(path, STORE_FILE_MODE);
  } catch (err) {
    // Not ours to change (another owner, a read-only mount): SQLite reports what matters when it opens it.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM' && (err as NodeJS.ErrnoException).code !== 'EROFS') throw err;
  }
}

/** An alert folded into a burst, as stored. */
export interface StoredBurstEntry {
  key: string;
  anchorKey: string;
  entry: unknown;
  item: { kind: string; target: OutboxTarget; payload: OutboxItem['payload'] };
  told: boolean;
}

export interface StoredBurst {
  anchorKey: string;
  destination: string;
  anchorEntry: unknown;
  openedAt: string;
  closesAt: string;
}

export class Store {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private probeReady = false;

  constructor(readonly path: string) {
    if (path !== ':memory:') createPrivately(path);
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // SQLite gives new -wal/-shm files the database file's mode; older ones keep what they had.
    if (path !== ':memory:') for (const side of [`${path}-wal`, `${path}-shm`]) if (existsSync(side)) ownerOnly(side);
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    for (let i = version; i < MIGRATIONS.length; i++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[i]);
        this.db.pragma(`user_version = ${i + 1}`);
      })();
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * One compiled statement per SQL text, reused: preparing on every call compiles the SQL again
   * and leaves a native statement behind until the GC finalizes it, which at start (a read and
   * a write per workload) cost tens of MB of RSS with 10,000 workloads. None is used with
   * iterate(), so a statement is never busy when it is reused.
   */
  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ── ledger ────────────────────────────────────────────────────────────────────────────────

  wasSent(key: string): boolean {
    return this.prepare('SELECT 1 FROM ledger WHERE key = ?').get(key) !== undefined;
  }

  ledgerEntry(key: string): LedgerEntry | undefined {
    const row = this.prepare('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE key = ?').get(key) as
      | { key: string; recipient: string; channel: string | null; ts: string | null; sent_at: string }
      | undefined;
    return row && { key: row.key, recipient: row.recipient, channel: row.channel ?? undefined, ts: row.ts ?? undefined, sentAt: row.sent_at };
  }

  ledgerKeys(prefix: string): Set<string> {
    const rows = this.prepare("SELECT key FROM ledger WHERE key LIKE ? ESCAPE '\\'").all(`${escapeLike(prefix)}%`) as { key: string }[];
    return new Set(rows.map((r) => r.key));
  }

  recordSent(entry: LedgerEntry): void {
    this
      .prepare('INSERT OR REPLACE INTO ledger (key, recipient, channel, ts, sent_at) VALUES (?, ?, ?, ?, ?)')
      .run(entry.key, entry.recipient, entry.channel ?? null, entry.ts ?? null, entry.sentAt);
  }

  /** Recent alerts that went to a user, newest first (Home tab). */
  recentAlertsFor(recipient: string, limit: number): LedgerEntry[] {
    const rows = this
      .prepare('SELECT key, recipient, channel, ts, sent_at FROM ledger WHERE recipient = ? ORDER BY sent_at DESC LIMIT ?')
      .all(recipient, limit) as { key: string; recipient: string; channel: string | null; ts: string | null; sent_at: string }[];
    return rows.map((row) => ({ key: row.key, recipient: row.recipient, channel: row.channel ?? undefined, ts: row.ts ?? undefined, sentAt: row.sent_at }));
  }

  // ── outbox ────────────────────────────────────────────────────────────────────────────────

  /** Queues a message unless the same key is queued or already sent. Returns whether it was queued. */
  enqueue(item: { key: string; kind: string; target: OutboxTarget; payload: OutboxItem['payload'] }, now: Date): boolean {
    return this.db.transaction(() => {
      if (this.wasSent(item.key) || this.prepare('SELECT 1 FROM burst_entries WHERE key = ? AND told = 0').get(item.key)) return false;
      const result = this
        .prepare(
          'INSERT OR IGNORE INTO outbox (key, kind, target, payload, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(item.key, item.kind, JSON.stringify(item.target), JSON.stringify(item.payload), now.toISOString(), now.toISOString());
      return result.changes > 0;
    })();
  }

  /** Whether the key is on its way: queued, or folded into a burst whose rewrite is not yet accepted. */
  isQueued(key: string): boolean {
    return (
      this.prepare('SELECT 1 FROM outbox WHERE key = ?').get(key) !== undefined ||
      this.prepare('SELECT 1 FROM burst_entries WHERE key = ? AND told = 0').get(key) !== undefined
    );
  }

  /** The outbox item with this key, if queued. */
  queuedItem(key: string): OutboxItem | undefined {
    const row = this.prepare('SELECT * FROM outbox WHERE key = ?').get(key) as Record<string, unknown> | undefined;
    return row && rowToOutboxItem(row);
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  dueOutbox(now: Date, limit = 100): OutboxItem[] {
    const rows = this
      .prepare('SELECT * FROM outbox WHERE next_attempt_at <= ? ORDER BY id LIMIT ?')
      .all(now.toISOString(), limit) as Record<string, unknown>[];
    return rows.map(rowToOutboxItem);
  }

  allOutbox(): OutboxItem[] {
    return (this.prepare('SELECT * FROM outbox ORDER BY id').all() as Record<string, unknown>[]).map(rowToOutboxItem);
  }

  outboxDepth(): number {
    return (this.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
  }

  /** Moves a sent item to the ledger in one transaction, so a crash cannot send it twice. */
  completeOutbox(id: number, entry: LedgerEntry): void {
    this.db.transaction(() => {
      this.recordSent(entry);
      this.prepare('DELETE FROM outbox WHERE id = ?').run(id);
    })();
  }

  /** Reschedules an item; `failed: false` (a deliberate wait) does not count as an attempt. */
  retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, failed = true): void {
    this
      .prepare('UPDATE outbox SET attempts = attempts + ?, next_attempt_at = ?, last_error = ? WHERE id = ?')
      .run(failed ? 1 : 0, nextAttemptAt.toISOString(), reason.slice(0, 500), id);
  }

  /** Removes queued items whose key starts with `prefix` (superseded rewrites). */
  dropQueued(prefix: string): number {
    return this.prepare("DELETE FROM outbox WHERE key LIKE ? ESCAPE '\\'").run(`${escapeLike(prefix)}%`).changes;
  }

  dropOutbox(id: number): void {
    this.prepare('DELETE FROM outbox WHERE id = ?').run(id);
  }

  /** Replaces a queued item's payload (the text fallback after Slack refused the blocks). */
  replaceOutboxPayload(id: number, payload: OutboxItem['payload']): void {
    this.prepare('UPDATE outbox SET payload = ? WHERE id = ?').run(JSON.stringify(payload), id);
  }

  // ── bursts ────────────────────────────────────────────────────────────────────────────────

  /** The burst still open at `now` for a destination, if any. */
  openBurst(destination: string, now: Date): StoredBurst | undefined {
    const row = this
      .prepare('SELECT * FROM bursts WHERE destination = ? AND closes_at > ? ORDER BY opened_at DESC LIMIT 1')
      .get(destination, now.toISOString()) as Record<string, string> | undefined;
    return row && rowToBurst(row);
  }

  burst(anchorKey: string): StoredBurst | undefined {
    const row = this.prepare('SELECT * FROM bursts WHERE anchor_key = ?').get(anchorKey) as Record<string, string> | undefined;
    return row && rowToBurst(row);
  }

  /** Opens a burst whose anchor is the alert just queued under `anchorKey`. */
  openNewBurst(burst: StoredBurst): void {
    this
      .prepare('INSERT OR REPLACE INTO bursts (anchor_key, destination, anchor_entry, opened_at, closes_at) VALUES (?, ?, ?, ?, ?)')
      .run(burst.anchorKey, burst.destination, JSON.stringify(burst.anchorEntry), burst.openedAt, burst.closesAt);
  }

  /** Adds an alert to a burst. Returns false when the key is already sent, queued or folded. */
  addBurstEntry(entry: Omit<StoredBurstEntry, 'told'>, now: Date): boolean {
    if (this.wasSent(entry.key) || this.prepare('SELECT 1 FROM outbox WHERE key = ?').get(entry.key)) return false;
    const result = this
      .prepare('INSERT OR IGNORE INTO burst_entries (key, anchor_key, entry_json, item_json, added_at) VALUES (?, ?, ?, ?, ?)')
      .run(entry.key, entry.anchorKey, JSON.stringify(entry.entry), JSON.stringify(entry.item), now.toISOString());
    return result.changes > 0;
  }

  burstEntries(anchorKey: string): StoredBurstEntry[] {
    const rows = this.prepare('SELECT * FROM burst_entries WHERE anchor_key = ? ORDER BY added_at, rowid').all(anchorKey) as Record<string, unknown>[];
    return rows.map((r) => ({
      key: r.key as string,
      anchorKey: r.anchor_key as string,
      entry: JSON.parse(r.entry_json as string),
      item: JSON.parse(r.item_json as string) as StoredBurstEntry['item'],
      told: r.told === 1,
    }));
  }

  /**
   * Queues (or re-times) the single rewrite of a burst: one outbox item per burst, replaced as
   * it grows. Its attempts start again, since it is a new message.
   */
  scheduleBurstRewrite(anchorKey: string, dueAt: Date, now: Date): void {
    this
      .prepare(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at) VALUES (?, 'burst', ?, '{"text":""}', ?, ?)
         ON CONFLICT(key) DO UPDATE SET next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = NULL`,
      )
      .run(burstRewriteKey(anchorKey), JSON.stringify({ type: 'burst', anchorKey }), dueAt.toISOString(), now.toISOString());
  }

  /**
   * A rewrite naming `told` was accepted: each is recorded in the ledger; `muted` (muted by the
   * person since the fold) are recorded as handled and leave the burst. The rewrite leaves the
   * queue unless entries folded meanwhile still wait for it. One transaction, so a crash leaves
   * either the rewrite owed or all of them told.
   */
  completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted: LedgerEntry[] = []): void {
    this.db.transaction(() => {
      for (const entry of told) {
        this.recordSent(entry);
        this.prepare('UPDATE burst_entries SET told = 1 WHERE key = ?').run(entry.key);
      }
      for (const entry of muted) {
        this.recordSent(entry);
        this.prepare('DELETE FROM burst_entries WHERE key = ?').run(entry.key);
      }
      this
        .prepare('DELETE FROM outbox WHERE id = ? AND NOT EXISTS (SELECT 1 FROM burst_entries WHERE anchor_key = ? AND told = 0)')
        .run(itemId, anchorKey);
    })();
  }

  /** Drops a burst's rewrite and the folded alerts it still owed (past the retention). Returns their keys. */
  dropBurst(anchorKey: string): string[] {
    return this.db.transaction(() => {
      const keys = this.burstEntries(anchorKey).filter((e) => !e.told).map((e) => e.key);
      this.prepare('DELETE FROM outbox WHERE key = ?').run(burstRewriteKey(anchorKey));
      this.prepare('DELETE FROM bursts WHERE anchor_key = ?').run(anchorKey);
      return keys;
    })();
  }

  /**
   * The anchor was never posted (muted, refused, dropped) or its message cannot be rewritten:
   * every folded alert not yet told is queued on its own, and the burst is closed.
   */
  releaseBurst(anchorKey: string, now: Date): string[] {
    return this.db.transaction(() => {
      const released: string[] = [];
      for (const entry of this.burstEntries(anchorKey)) {
        if (entry.told) continue;
        this.prepare('DELETE FROM burst_entries WHERE key = ?').run(entry.key);
        if (this.enqueue({ key: entry.key, ...entry.item }, now)) released.push(entry.key);
      }
      this.prepare('DELETE FROM outbox WHERE key = ?').run(burstRewriteKey(anchorKey));
      this.prepare('DELETE FROM bursts WHERE anchor_key = ?').run(anchorKey);
      return released;
    })();
  }

  /** Forgets bursts whose window closed and whose folded alerts were all told. */
  pruneClosedBursts(now: Date): number {
    return this
      .prepare(
        `DELETE FROM bursts WHERE closes_at <= ?
           AND NOT EXISTS (SELECT 1 FROM burst_entries e WHERE e.anchor_key = bursts.anchor_key AND e.told = 0)
           AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.key = 'burst:' || bursts.anchor_key)`,
      )
      .run(now.toISOString()).changes;
  }

  /** Makes every burst rewrite due now (shutdown, tests). */
  burstRewritesDueNow(now: Date): void {
    this.prepare("UPDATE outbox SET next_attempt_at = ? WHERE kind = 'burst' AND next_attempt_at > ?").run(now.toISOString(), now.toISOString());
  }

  // ── workloads ─────────────────────────────────────────────────────────────────────────────

  getWorkload(uid: string): StoredWorkload | undefined {
    const row = this.prepare('SELECT * FROM workloads WHERE uid = ?').get(uid) as Record<string, unknown> | undefined;
    return row && rowToWorkload(row);
  }

  allWorkloads(): StoredWorkload[] {
    return (this.prepare('SELECT * FROM workloads WHERE deleted_at IS NULL').all() as Record<string, unknown>[]).map(rowToWorkload);
  }

  workloadsOf(owner: string): StoredWorkload[] {
    return (
      this.prepare('SELECT * FROM workloads WHERE owner = ? AND deleted_at IS NULL ORDER BY state_since DESC').all(owner) as Record<string, unknown>[]
    ).map(rowToWorkload);
  }

  putWorkload(w: StoredWorkload): void {
    this
      .prepare(
        `INSERT INTO workloads (uid, namespace, name, project, owner, kind, state, state_since, snapshot, deleted_at)
         VALUES (@uid, @namespace, @name, @project, @owner, @kind, @state, @stateSince, @snapshot, @deletedAt)
         ON CONFLICT(uid) DO UPDATE SET namespace=@namespace, name=@name, project=@project, owner=@owner, kind=@kind,
           state=@state, state_since=@stateSince, snapshot=@snapshot, deleted_at=@deletedAt`,
      )
      .run({ ...w, owner: w.owner ?? null, deletedAt: w.deletedAt ?? null });
  }

  /** Forgets workloads deleted long ago, so the table does not grow for ever. */
  pruneDeletedWorkloads(before: Date): number {
    return this.prepare('DELETE FROM workloads WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(before.toISOString()).changes;
  }

  // ── Slack identities ──────────────────────────────────────────────────────────────────────

  cachedSlackUser(owner: string): { userId: string | null; lookedUpAt: string } | undefined {
    const row = this.prepare('SELECT user_id, looked_up_at FROM slack_users WHERE owner = ?').get(owner) as
      | { user_id: string | null; looked_up_at: string }
      | undefined;
    return row && { userId: row.user_id, lookedUpAt: row.looked_up_at };
  }

  cacheSlackUser(owner: string, userId: string | null, at: Date): void {
    this
      .prepare('INSERT OR REPLACE INTO slack_users (owner, user_id, looked_up_at) VALUES (?, ?, ?)')
      .run(owner, userId, at.toISOString());
  }

  // ── mutes and settings ────────────────────────────────────────────────────────────────────

  mute(userId: string, scope: string, until: Date | undefined): void {
    this
      .prepare('INSERT OR REPLACE INTO mutes (user_id, scope, until) VALUES (?, ?, ?)')
      .run(userId, scope, until?.toISOString() ?? null);
  }

  unmute(userId: string, scope: string): boolean {
    return this.prepare('DELETE FROM mutes WHERE user_id = ? AND scope = ?').run(userId, scope).changes > 0;
  }

  activeMutes(userId: string, now: Date): { scope: string; until?: string }[] {
    const rows = this
      .prepare('SELECT scope, until FROM mutes WHERE user_id = ? AND (until IS NULL OR until > ?) ORDER BY scope')
      .all(userId, now.toISOString()) as { scope: string; until: string | null }[];
    return rows.map((r) => ({ scope: r.scope, until: r.until ?? undefined }));
  }

  getSettings<T>(userId: string): T | undefined {
    const row = this.prepare('SELECT json FROM settings WHERE user_id = ?').get(userId) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as T) : undefined;
  }

  putSettings(userId: string, value: unknown): void {
    this.prepare('INSERT OR REPLACE INTO settings (user_id, json) VALUES (?, ?)').run(userId, JSON.stringify(value));
  }

  // ── maintenance feed ──────────────────────────────────────────────────────────────────────

  getFeedCache(url: string): { body: string; etag?: string; lastModified?: string; fetchedAt: string } | undefined {
    const row = this.prepare('SELECT body, etag, last_modified, fetched_at FROM feed_cache WHERE url = ?').get(url) as
      | { body: string; etag: string | null; last_modified: string | null; fetched_at: string }
      | undefined;
    return row && { body: row.body, etag: row.etag ?? undefined, lastModified: row.last_modified ?? undefined, fetchedAt: row.fetched_at };
  }

  putFeedCache(url: string, entry: { body: string; etag?: string; lastModified?: string; fetchedAt: string }): void {
    this
      .prepare('INSERT OR REPLACE INTO feed_cache (url, body, etag, last_modified, fetched_at) VALUES (?, ?, ?, ?, ?)')
      .run(url, entry.body, entry.etag ?? null, entry.lastModified ?? null, entry.fetchedAt);
  }

  knownWindows(): Map<string, unknown> {
    const rows = this.prepare('SELECT key, json FROM windows_known').all() as { key: string; json: string }[];
    return new Map(rows.map((r) => [r.key, JSON.parse(r.json)]));
  }

  rememberWindow(key: string, value: unknown): void {
    this.prepare('INSERT OR REPLACE INTO windows_known (key, json) VALUES (?, ?)').run(key, JSON.stringify(value));
  }

  // ── health and retention ──────────────────────────────────────────────────────────────────

  /**
   * One tiny real write, for readiness: returns why the store cannot be written (full disk,
   * read-only volume), or undefined when it can. The table is made outside the migrations: it
   * holds nothing anyone reads, so it needs no schema version.
   */
  probeWrite(now: Date): string | undefined {
    try {
      if (!this.probeReady) this.db.exec('CREATE TABLE IF NOT EXISTS store_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at TEXT NOT NULL)');
      this.probeReady = true;
      this.prepare('INSERT OR REPLACE INTO store_probe (id, at) VALUES (1, ?)').run(now.toISOString());
      return undefined;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return e.code ?? e.message ?? String(err);
    }
  }

  /**
   * Makes due now the queued messages that failed and wait out their backoff: called when Slack
   * is reachable again, so an outage's alerts go out at once rather than up to 10 minutes
   * later. Rate-limited waits (Slack's Retry-After) and quiet-hours deferrals are kept.
   */
  expediteOutbox(now: Date): number {
    return this
      .prepare(
        `UPDATE outbox SET next_attempt_at = ? WHERE attempts > 0 AND next_attempt_at > ?
           AND (last_error IS NULL OR (last_error NOT LIKE '%rate limit%' AND last_error <> 'quiet hours'))`,
      )
      .run(now.toISOString(), now.toISOString()).changes;
  }

  /**
   * Forgets what was said about workloads (and daily nudges) before `before`, except about a
   * workload in `live` (one still present: its alert must not be sent again). Only keys whose
   * loss cannot cause a repeat are pruned: maintenance reminders (mw:) and archive problem
   * generations (archive:) are few and are counted or matched for ever, so they stay.
   */
  pruneLedger(before: Date, live: ReadonlySet<string>): number {
    const rows = this
      .prepare(
        `SELECT key FROM ledger WHERE sent_at < ?
           AND (key LIKE 'wl:%' OR key LIKE 'burst:%' OR key LIKE 'ops-burst:%' OR key LIKE 'cleanup:%')`,
      )
      .all(before.toISOString()) as { key: string }[];
    const doomed = rows.map((r) => r.key).filter((key) => {
      const uid = workloadUidOfKey(key);
      return uid === undefined || !live.has(uid);
    });
    const remove = this.prepare('DELETE FROM ledger WHERE key = ?');
    this.db.transaction(() => {
      for (const key of doomed) remove.run(key);
    })();
    return doomed.length;
  }

  /** Uids of the workloads not deleted, as the store last saw them. */
  presentWorkloadUids(): string[] {
    return (this.prepare('SELECT uid FROM workloads WHERE deleted_at IS NULL').all() as { uid: string }[]).map((r) => r.uid);
  }

  /** Drops mutes that ended before `now` (a mute "until unmuted" never ends). */
  pruneExpiredMutes(now: Date): number {
    return this.prepare('DELETE FROM mutes WHERE until IS NOT NULL AND until <= ?').run(now.toISOString()).changes;
  }
}

/** The workload a ledger key is about: wl:<uid>:… and burst:wl:<uid>:…; undefined for others. */
export function workloadUidOfKey(key: string): string | undefined {
  const match = /(?:^|:)wl:([^:]+):/.exec(key);
  return match?.[1];
}

export function burstRewriteKey(anchorKey: string): string {
  return `burst:${anchorKey}`;
}

function rowToBurst(row: Record<string, string>): StoredBurst {
  return { anchorKey: row.anchor_key, destination: row.destination, anchorEntry: JSON.parse(row.anchor_entry), openedAt: row.opened_at, closesAt: row.closes_at };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function rowToOutboxItem(row: Record<string, unknown>): OutboxItem {
  return {
    id: row.id as number,
    key: row.key as string,
    kind: row.kind as string,
    target: JSON.parse(row.target as string) as OutboxTarget,
    payload: JSON.parse(row.payload as string) as OutboxItem['payload'],
    attempts: row.attempts as number,
    nextAttemptAt: row.next_attempt_at as string,
    lastError: (row.last_error as string | null) ?? undefined,
    createdAt: row.created_at as string,
  };
}

function rowToWorkload(row: Record<string, unknown>): StoredWorkload {
  return {
    uid: row.uid as string,
    namespace: row.namespace as string,
    name: row.name as string,
    project: row.project as string,
    owner: (row.owner as string | null) ?? undefined,
    kind: row.kind as string,
    state: row.state as string,
    stateSince: row.state_since as string,
    snapshot: row.snapshot as string,
    deletedAt: (row.deleted_at as string | null) ?? undefined,
  };
}
