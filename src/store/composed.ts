/**
 * The store's port (./port.ts) over its concern modules: each store (sqlite/, postgres/) builds
 * one module per concern (ledger, outbox, bursts, workloads, preferences, maintenance, health)
 * and extends this class, which only hands each call of the port to the module of its concern.
 * Every method is async, so a synchronous module's answer (SQLite) becomes an already-resolved
 * promise and its throw (SQLITE_FULL, …) a rejection, as the port says.
 */
import type {
  BurstAdmission,
  BurstAdmitted,
  BurstStore,
  FeedCacheEntry,
  FollowUpStore,
  HealthStore,
  LedgerEntry,
  LedgerStore,
  MaintenanceStore,
  Mute,
  NewOutboxItem,
  OutboxItem,
  OutboxPayload,
  OutboxStore,
  OutboxWait,
  PreferenceStore,
  Store,
  StoredBurst,
  StoredBurstEntry,
  StoredOpsBurst,
  StoredFollowUpThread,
  StoredWorkload,
  WorkloadStore,
} from './port.js';

/** A slice of the port as a concern module implements it: answered at once (SQLite) or as a promise (PostgreSQL). */
export type Answering<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R | Promise<R> : T[K] };

export interface StoreParts {
  ledger: Answering<LedgerStore>;
  outbox: Answering<OutboxStore>;
  bursts: Answering<BurstStore>;
  workloads: Answering<WorkloadStore>;
  preferences: Answering<PreferenceStore>;
  maintenance: Answering<MaintenanceStore>;
  health: Answering<Pick<HealthStore, 'probeWrite' | 'pruneLedger'>>;
  followUps: Answering<FollowUpStore>;
}

export abstract class ComposedStore implements Store {
  abstract readonly location: string;
  abstract close(): Promise<void>;

  protected constructor(private readonly parts: StoreParts) {}

  // ── ledger ──
  async wasSent(key: string): Promise<boolean> {
    return this.parts.ledger.wasSent(key);
  }
  async ledgerEntry(key: string): Promise<LedgerEntry | undefined> {
    return this.parts.ledger.ledgerEntry(key);
  }
  async ledgerKeys(prefix: string): Promise<Set<string>> {
    return this.parts.ledger.ledgerKeys(prefix);
  }
  async recordSent(entry: LedgerEntry): Promise<void> {
    return this.parts.ledger.recordSent(entry);
  }
  async recentAlertsFor(recipient: string, limit: number): Promise<LedgerEntry[]> {
    return this.parts.ledger.recentAlertsFor(recipient, limit);
  }

  // ── outbox ──
  async enqueue(item: NewOutboxItem, now: Date): Promise<boolean> {
    return this.parts.outbox.enqueue(item, now);
  }
  async isQueued(key: string): Promise<boolean> {
    return this.parts.outbox.isQueued(key);
  }
  async queuedItem(key: string): Promise<OutboxItem | undefined> {
    return this.parts.outbox.queuedItem(key);
  }
  async dueOutbox(now: Date, limit?: number): Promise<OutboxItem[]> {
    return this.parts.outbox.dueOutbox(now, limit);
  }
  async beginSending(holder: string, now: Date): Promise<number> {
    return this.parts.outbox.beginSending(holder, now);
  }
  async claimOutbox(fence: number, now: Date, claimUntil: Date, limit?: number): Promise<OutboxItem[]> {
    return this.parts.outbox.claimOutbox(fence, now, claimUntil, limit);
  }
  async outboxDepth(): Promise<number> {
    return this.parts.outbox.outboxDepth();
  }
  async completeOutbox(id: number, entry: LedgerEntry, fence?: number): Promise<void> {
    return this.parts.outbox.completeOutbox(id, entry, fence);
  }
  async retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait, fence?: number): Promise<void> {
    return this.parts.outbox.retryOutboxLater(id, nextAttemptAt, reason, wait, fence);
  }
  async dropOutbox(id: number, fence?: number): Promise<void> {
    return this.parts.outbox.dropOutbox(id, fence);
  }
  async replaceOutboxPayload(id: number, payload: OutboxPayload, fence?: number): Promise<void> {
    return this.parts.outbox.replaceOutboxPayload(id, payload, fence);
  }
  async expediteOutbox(now: Date): Promise<number> {
    return this.parts.outbox.expediteOutbox(now);
  }

  // ── bursts ──
  async burst(anchorKey: string): Promise<StoredBurst | undefined> {
    return this.parts.bursts.burst(anchorKey);
  }
  async admitToBurst(
    destination: string,
    item: NewOutboxItem,
    entry: unknown,
    now: Date,
    decide: (open: StoredBurst | undefined) => BurstAdmission,
  ): Promise<BurstAdmitted | undefined> {
    return this.parts.bursts.admitToBurst(destination, item, entry, now, decide);
  }
  async burstEntries(anchorKey: string): Promise<StoredBurstEntry[]> {
    return this.parts.bursts.burstEntries(anchorKey);
  }
  async completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted?: LedgerEntry[], fence?: number): Promise<void> {
    return this.parts.bursts.completeBurstRewrite(itemId, anchorKey, told, muted, fence);
  }
  async dropBurst(anchorKey: string, fence?: number): Promise<string[]> {
    return this.parts.bursts.dropBurst(anchorKey, fence);
  }
  async releaseBurst(anchorKey: string, now: Date, fence?: number): Promise<string[]> {
    return this.parts.bursts.releaseBurst(anchorKey, now, fence);
  }
  async admitToOpsBurst(entryKey: string, entry: unknown, now: Date, windowMs: number, compose: (burst: StoredOpsBurst) => NewOutboxItem | undefined): Promise<void> {
    return this.parts.bursts.admitToOpsBurst(entryKey, entry, now, windowMs, compose);
  }
  async burstRewritesDueNow(now: Date): Promise<void> {
    return this.parts.bursts.burstRewritesDueNow(now);
  }

  // ── workloads ──
  async getWorkload(uid: string): Promise<StoredWorkload | undefined> {
    return this.parts.workloads.getWorkload(uid);
  }
  async allWorkloads(): Promise<StoredWorkload[]> {
    return this.parts.workloads.allWorkloads();
  }

  async putWorkload(w: StoredWorkload): Promise<void> {
    return this.parts.workloads.putWorkload(w);
  }
  async getWorkloads(uids: readonly string[]): Promise<Map<string, StoredWorkload>> {
    return this.parts.workloads.getWorkloads(uids);
  }
  async putWorkloads(ws: readonly StoredWorkload[]): Promise<void> {
    return this.parts.workloads.putWorkloads(ws);
  }
  async adoptUnnamedCluster(name: string): Promise<number> {
    return this.parts.workloads.adoptUnnamedCluster(name);
  }
  async presentWorkloadUids(): Promise<string[]> {
    return this.parts.workloads.presentWorkloadUids();
  }
  async pruneDeletedWorkloads(before: Date): Promise<number> {
    return this.parts.workloads.pruneDeletedWorkloads(before);
  }

  // ── preferences ──
  async cachedSlackUser(owner: string): Promise<{ userId: string | null; lookedUpAt: string } | undefined> {
    return this.parts.preferences.cachedSlackUser(owner);
  }
  async cacheSlackUser(owner: string, userId: string | null, at: Date): Promise<void> {
    return this.parts.preferences.cacheSlackUser(owner, userId, at);
  }
  async mute(userId: string, scope: string, until: Date | undefined): Promise<void> {
    return this.parts.preferences.mute(userId, scope, until);
  }
  async unmute(userId: string, scope: string): Promise<boolean> {
    return this.parts.preferences.unmute(userId, scope);
  }
  async activeMutes(userId: string, now: Date): Promise<Mute[]> {
    return this.parts.preferences.activeMutes(userId, now);
  }
  async getSettings<T>(userId: string): Promise<T | undefined> {
    return (await this.parts.preferences.getSettings(userId)) as T | undefined;
  }
  async putSettings(userId: string, value: unknown): Promise<void> {
    return this.parts.preferences.putSettings(userId, value);
  }
  async pruneExpiredMutes(now: Date): Promise<number> {
    return this.parts.preferences.pruneExpiredMutes(now);
  }

  // ── maintenance feed ──
  async getFeedCache(url: string): Promise<FeedCacheEntry | undefined> {
    return this.parts.maintenance.getFeedCache(url);
  }
  async putFeedCache(url: string, entry: FeedCacheEntry): Promise<void> {
    return this.parts.maintenance.putFeedCache(url, entry);
  }
  async knownWindows(): Promise<Map<string, unknown>> {
    return this.parts.maintenance.knownWindows();
  }
  async rememberWindow(key: string, value: unknown): Promise<void> {
    return this.parts.maintenance.rememberWindow(key, value);
  }

  // ── follow-up threads ──
  async followUpThreads(chains: readonly string[]): Promise<Map<string, StoredFollowUpThread>> {
    return this.parts.followUps.followUpThreads(chains);
  }
  async putFollowUpThread(thread: StoredFollowUpThread): Promise<void> {
    return this.parts.followUps.putFollowUpThread(thread);
  }
  async openFollowUpThread(thread: StoredFollowUpThread): Promise<boolean> {
    return this.parts.followUps.openFollowUpThread(thread);
  }
  async queueCoalescedEdit(item: NewOutboxItem, now: Date): Promise<'queued' | 'replaced'> {
    return this.parts.followUps.queueCoalescedEdit(item, now);
  }
  async pruneFollowUpThreads(before: Date): Promise<number> {
    return this.parts.followUps.pruneFollowUpThreads(before);
  }

  // ── health and retention ──
  async probeWrite(now: Date): Promise<string | undefined> {
    return this.parts.health.probeWrite(now);
  }
  async pruneLedger(before: Date, live: ReadonlySet<string>): Promise<number> {
    return this.parts.health.pruneLedger(before, live);
  }
}
