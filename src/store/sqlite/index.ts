/**
 * The store in one SQLite file (the embedded default): the port of ../port.ts over the concern
 * modules of this directory. better-sqlite3 is synchronous; each call here is an async function
 * over a synchronous one, so results come back as already-resolved promises and a thrown
 * SQLite error (SQLITE_FULL, SQLITE_READONLY, …) becomes a rejection.
 */
import type Database from 'better-sqlite3';
import type {
  BurstAdmission,
  BurstAdmitted,
  FeedCacheEntry,
  LedgerEntry,
  Mute,
  NewOutboxItem,
  OutboxItem,
  OutboxPayload,
  OutboxWait,
  Store,
  StoredBurst,
  StoredBurstEntry,
  StoredWorkload,
} from '../port.js';
import { SqliteBursts } from './bursts.js';
import { SqliteDatabase } from './database.js';
import { SqliteHealth } from './health.js';
import { SqliteLedger } from './ledger.js';
import { SqliteMaintenance } from './maintenance.js';
import { SqliteOutbox } from './outbox.js';
import { SqlitePreferences } from './preferences.js';
import { SqliteWorkloads } from './workloads.js';

export { STORE_DIR_MODE, STORE_FILE_MODE } from './database.js';

const handles = new WeakMap<SqliteStore, SqliteDatabase>();

export class SqliteStore implements Store {
  private readonly db: SqliteDatabase;
  private readonly ledger: SqliteLedger;
  private readonly outbox: SqliteOutbox;
  private readonly bursts: SqliteBursts;
  private readonly workloads: SqliteWorkloads;
  private readonly preferences: SqlitePreferences;
  private readonly maintenance: SqliteMaintenance;
  private readonly health: SqliteHealth;

  /** Opens (creating 0600) and migrates the file; throws synchronously when it cannot. */
  constructor(readonly path: string) {
    this.db = new SqliteDatabase(path);
    handles.set(this, this.db);
    this.ledger = new SqliteLedger(this.db);
    this.outbox = new SqliteOutbox(this.db, this.ledger);
    this.bursts = new SqliteBursts(this.db, this.ledger, this.outbox);
    this.workloads = new SqliteWorkloads(this.db);
    this.preferences = new SqlitePreferences(this.db);
    this.maintenance = new SqliteMaintenance(this.db);
    this.health = new SqliteHealth(this.db, this.ledger);
  }

  get location(): string {
    return this.path;
  }

  async close(): Promise<void> {
    this.db.close();
  }

  // ── ledger ──
  async wasSent(key: string): Promise<boolean> {
    return this.ledger.wasSent(key);
  }
  async ledgerEntry(key: string): Promise<LedgerEntry | undefined> {
    return this.ledger.ledgerEntry(key);
  }
  async ledgerKeys(prefix: string): Promise<Set<string>> {
    return this.ledger.ledgerKeys(prefix);
  }
  async recordSent(entry: LedgerEntry): Promise<void> {
    this.ledger.recordSent(entry);
  }
  async recentAlertsFor(recipient: string, limit: number): Promise<LedgerEntry[]> {
    return this.ledger.recentAlertsFor(recipient, limit);
  }

  // ── outbox ──
  async enqueue(item: NewOutboxItem, now: Date): Promise<boolean> {
    return this.outbox.enqueue(item, now);
  }
  async isQueued(key: string): Promise<boolean> {
    return this.outbox.isQueued(key);
  }
  async queuedItem(key: string): Promise<OutboxItem | undefined> {
    return this.outbox.queuedItem(key);
  }
  async dueOutbox(now: Date, limit?: number): Promise<OutboxItem[]> {
    return this.outbox.dueOutbox(now, limit);
  }
  async allOutbox(): Promise<OutboxItem[]> {
    return this.outbox.allOutbox();
  }
  async outboxDepth(): Promise<number> {
    return this.outbox.outboxDepth();
  }
  async completeOutbox(id: number, entry: LedgerEntry): Promise<void> {
    this.outbox.completeOutbox(id, entry);
  }
  async retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait): Promise<void> {
    this.outbox.retryOutboxLater(id, nextAttemptAt, reason, wait);
  }
  async dropQueued(prefix: string): Promise<number> {
    return this.outbox.dropQueued(prefix);
  }
  async dropOutbox(id: number): Promise<void> {
    this.outbox.dropOutbox(id);
  }
  async replaceOutboxPayload(id: number, payload: OutboxPayload): Promise<void> {
    this.outbox.replaceOutboxPayload(id, payload);
  }
  async expediteOutbox(now: Date): Promise<number> {
    return this.outbox.expediteOutbox(now);
  }

  // ── bursts ──
  async openBurst(destination: string, now: Date): Promise<StoredBurst | undefined> {
    return this.bursts.openBurst(destination, now);
  }
  async burst(anchorKey: string): Promise<StoredBurst | undefined> {
    return this.bursts.burst(anchorKey);
  }
  async admitToBurst(
    destination: string,
    item: NewOutboxItem,
    entry: unknown,
    now: Date,
    decide: (open: StoredBurst | undefined) => BurstAdmission,
  ): Promise<BurstAdmitted | undefined> {
    return this.bursts.admitToBurst(destination, item, entry, now, decide);
  }
  async burstEntries(anchorKey: string): Promise<StoredBurstEntry[]> {
    return this.bursts.burstEntries(anchorKey);
  }
  async completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted?: LedgerEntry[]): Promise<void> {
    this.bursts.completeBurstRewrite(itemId, anchorKey, told, muted);
  }
  async dropBurst(anchorKey: string): Promise<string[]> {
    return this.bursts.dropBurst(anchorKey);
  }
  async releaseBurst(anchorKey: string, now: Date): Promise<string[]> {
    return this.bursts.releaseBurst(anchorKey, now);
  }
  async pruneClosedBursts(now: Date): Promise<number> {
    return this.bursts.pruneClosedBursts(now);
  }
  async burstRewritesDueNow(now: Date): Promise<void> {
    this.bursts.burstRewritesDueNow(now);
  }

  // ── workloads ──
  async getWorkload(uid: string): Promise<StoredWorkload | undefined> {
    return this.workloads.getWorkload(uid);
  }
  async allWorkloads(): Promise<StoredWorkload[]> {
    return this.workloads.allWorkloads();
  }
  async workloadsOf(owner: string): Promise<StoredWorkload[]> {
    return this.workloads.workloadsOf(owner);
  }

  async workloadsNamed(namespace: string, name: string, cluster?: string): Promise<StoredWorkload[]> {
    return this.workloads.workloadsNamed(namespace, name, cluster);
  }
  async putWorkload(w: StoredWorkload): Promise<void> {
    this.workloads.putWorkload(w);
  }
  async getWorkloads(uids: readonly string[]): Promise<Map<string, StoredWorkload>> {
    return this.workloads.getWorkloads(uids);
  }
  async putWorkloads(ws: readonly StoredWorkload[]): Promise<void> {
    this.workloads.putWorkloads(ws);
  }
  async adoptUnnamedCluster(name: string): Promise<number> {
    return this.workloads.adoptUnnamedCluster(name);
  }
  async presentWorkloadUids(): Promise<string[]> {
    return this.workloads.presentWorkloadUids();
  }
  async pruneDeletedWorkloads(before: Date): Promise<number> {
    return this.workloads.pruneDeletedWorkloads(before);
  }

  // ── preferences ──
  async cachedSlackUser(owner: string): Promise<{ userId: string | null; lookedUpAt: string } | undefined> {
    return this.preferences.cachedSlackUser(owner);
  }
  async cacheSlackUser(owner: string, userId: string | null, at: Date): Promise<void> {
    this.preferences.cacheSlackUser(owner, userId, at);
  }
  async mute(userId: string, scope: string, until: Date | undefined): Promise<void> {
    this.preferences.mute(userId, scope, until);
  }
  async unmute(userId: string, scope: string): Promise<boolean> {
    return this.preferences.unmute(userId, scope);
  }
  async activeMutes(userId: string, now: Date): Promise<Mute[]> {
    return this.preferences.activeMutes(userId, now);
  }
  async getSettings<T>(userId: string): Promise<T | undefined> {
    return this.preferences.getSettings<T>(userId);
  }
  async putSettings(userId: string, value: unknown): Promise<void> {
    this.preferences.putSettings(userId, value);
  }
  async pruneExpiredMutes(now: Date): Promise<number> {
    return this.preferences.pruneExpiredMutes(now);
  }

  // ── maintenance feed ──
  async getFeedCache(url: string): Promise<FeedCacheEntry | undefined> {
    return this.maintenance.getFeedCache(url);
  }
  async putFeedCache(url: string, entry: FeedCacheEntry): Promise<void> {
    this.maintenance.putFeedCache(url, entry);
  }
  async knownWindows(): Promise<Map<string, unknown>> {
    return this.maintenance.knownWindows();
  }
  async rememberWindow(key: string, value: unknown): Promise<void> {
    this.maintenance.rememberWindow(key, value);
  }

  // ── health and retention ──
  async probeWrite(now: Date): Promise<string | undefined> {
    return this.health.probeWrite(now);
  }
  async pruneLedger(before: Date, live: ReadonlySet<string>): Promise<number> {
    return this.health.pruneLedger(before, live);
  }
}

/**
 * The raw better-sqlite3 handle, for tests and fault injection only (a trigger that makes a
 * write fail like a full disk, a look at the file's schema). Production code uses the port.
 */
export function sqliteHandleForTests(store: SqliteStore): Database.Database {
  return handles.get(store)!.handle;
}

/** The SQLite schema version reached (PRAGMA user_version), for the contract tests. */
export function sqliteSchemaVersion(store: SqliteStore): number {
  return handles.get(store)!.schemaVersion();
}
