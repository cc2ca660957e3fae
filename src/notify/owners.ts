/**
 * Cluster identity ↔ Slack user. The owner of a workload is whatever Run:ai recorded (a
 * username, an email, a subject ID); Slack knows people by user ID and email. The mapping is
 * explicit config first, then an email lookup; it never guesses a person.
 */
import type { PreferenceStore } from '../store/port.js';
import { SlackSendError } from './outbox.js';

/** The Slack calls this module needs (a WebClient satisfies it). */
export interface SlackDirectory {
  lookupByEmail(email: string): Promise<string | undefined>;
  emailOf(userId: string): Promise<string | undefined>;
}

export interface OwnerConfig {
  emailDomain?: string;
  map: Record<string, string>;
}

const FOUND_TTL_MS = 24 * 3_600_000;
const NOT_FOUND_TTL_MS = 3_600_000;
/**
 * How far into its TTL a cached answer is looked up again in the background (owner-prefetch.ts),
 * so that for an owner whose workloads are still there it never lapses.
 */
const REFRESH_AT = 0.8;
/**
 * A cached answer past its TTL is still used on the failure path (and refreshed in the
 * background) up to this age: waiting for users.lookupByEmail (Tier 3) in a burst costs
 * minutes, and a person's Slack ID rarely changes. Older than this, it is looked up first.
 */
const MAX_STALE_MS = 7 * 86_400_000;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

export class OwnerDirectory {
  /**
   * Until when Slack asked (429, Retry-After) that users.lookupByEmail be left alone. One answer
   * pauses every lookup, not just the message that met it: a burst of new owners otherwise asks
   * again for each queued message and turns one 429 into thousands.
   */
  private lookupsPausedUntil = 0;
  /**
   * Lookups under way, by email: callers asking about the same person at once (the background
   * resolution, a failure's plan, a tip) share one call, and so its answer or its 429 — two calls
   * in flight would each be sent before either learned of the pause.
   */
  private readonly lookingUp = new Map<string, Promise<string | undefined>>();
  /** Told when a cached answer past its TTL was used (the prefetcher looks the owner up again in the background). */
  private readonly staleListeners: Array<(owner: string) => void> = [];

  constructor(
    private readonly config: OwnerConfig,
    private readonly slack: SlackDirectory,
    private readonly store: Pick<PreferenceStore, 'cachedSlackUser' | 'cacheSlackUser'>,
    private readonly now: () => Date,
  ) {}

  /** Subscribes to "a stale answer was used" (the owner prefetcher, built after this directory). */
  whenStale(listener: (owner: string) => void): void {
    this.staleListeners.push(listener);
  }

  /** The email we would look up for an owner, or undefined when no rule gives one. */
  emailFor(owner: string): string | undefined {
    const mapped = this.config.map[owner];
    if (mapped) return EMAIL.test(mapped) ? mapped : undefined;
    if (EMAIL.test(owner)) return owner;
    if (this.config.emailDomain && /^[A-Za-z0-9._+-]+$/.test(owner)) return `${owner}@${this.config.emailDomain}`;
    return undefined;
  }

  /**
   * The Slack user ID of a workload owner, or undefined when Slack has no such person.
   * Answers from the store's cache when it can, even past its TTL (then the owner is refreshed
   * in the background); asks Slack only for an owner never resolved (or not for a week).
   * Throws when Slack could not be asked (outage, rate limit): the caller retries later rather
   * than sending the message to the wrong place.
   */
  async slackUserFor(owner: string | undefined): Promise<string | undefined> {
    if (!owner) return undefined;
    const mapped = this.config.map[owner];
    if (mapped && SLACK_USER.test(mapped)) return mapped;
    const email = this.emailFor(owner);
    if (!email) return undefined;
    const cached = await this.store.cachedSlackUser(email);
    const age = cached ? this.now().getTime() - Date.parse(cached.lookedUpAt) : Infinity;
    if (cached && age < ttlOf(cached.userId)) return cached.userId ?? undefined;
    if (cached && age < MAX_STALE_MS) {
      for (const listener of this.staleListeners) listener(owner);
      return cached.userId ?? undefined;
    }
    return this.lookUpAndCache(email);
  }

  /**
   * When the owner's answer should be looked up (again), in ms since the epoch: 0 when it never
   * was; undefined when no lookup applies (mapped to a user ID, or no rule gives an email).
   */
  async refreshDueAt(owner: string): Promise<number | undefined> {
    const mapped = this.config.map[owner];
    if (mapped && SLACK_USER.test(mapped)) return undefined;
    const email = this.emailFor(owner);
    if (!email) return undefined;
    const cached = await this.store.cachedSlackUser(email);
    return cached ? Date.parse(cached.lookedUpAt) + ttlOf(cached.userId) * REFRESH_AT : 0;
  }

  /**
   * Looks the owner up in Slack now and caches the answer (the background resolution). Returns
   * when it is due again; throws as a lookup does (a 429 pauses every lookup).
   */
  async refresh(owner: string): Promise<number | undefined> {
    const mapped = this.config.map[owner];
    if (mapped && SLACK_USER.test(mapped)) return undefined;
    const email = this.emailFor(owner);
    if (!email) return undefined;
    const userId = await this.lookUpAndCache(email);
    return this.now().getTime() + ttlOf(userId ?? null) * REFRESH_AT;
  }

  /** How long lookups still wait out Slack's last Retry-After (0: not paused). */
  lookupPauseMs(): number {
    return Math.max(0, this.lookupsPausedUntil - this.now().getTime());
  }

  private lookUpAndCache(email: string): Promise<string | undefined> {
    const underWay = this.lookingUp.get(email);
    if (underWay) return underWay;
    const lookup = (async () => {
      const userId = await this.lookUp(email);
      await this.store.cacheSlackUser(email, userId ?? null, this.now());
      return userId;
    })().finally(() => this.lookingUp.delete(email));
    this.lookingUp.set(email, lookup);
    return lookup;
  }

  private async lookUp(email: string): Promise<string | undefined> {
    const waitMs = this.lookupsPausedUntil - this.now().getTime();
    if (waitMs > 0) throw new SlackSendError('users.lookupByEmail is rate limited', false, waitMs, 'ratelimited');
    try {
      return await this.slack.lookupByEmail(email);
    } catch (err) {
      if (err instanceof SlackSendError && err.retryAfterMs !== undefined) this.lookupsPausedUntil = this.now().getTime() + err.retryAfterMs;
      throw err;
    }
  }

  /**
   * Every cluster identity a Slack user answers to: explicit map entries that name them (by ID
   * or email), their Slack email, and its local part when it is in the configured domain.
   */
  async clusterIdentitiesOf(userId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    const email = await this.slack.emailOf(userId);
    for (const [owner, target] of Object.entries(this.config.map)) {
      if (target === userId || (email && target.toLowerCase() === email.toLowerCase())) ids.add(owner);
    }
    if (email) {
      // An explicit map entry that sends this email to someone else is not this user.
      const claimedElsewhere = (name: string) => {
        const target = this.config.map[name];
        return target !== undefined && target !== userId && target.toLowerCase() !== email.toLowerCase();
      };
      if (!claimedElsewhere(email)) ids.add(email.toLowerCase());
      const [local, domain] = email.toLowerCase().split('@');
      if (this.config.emailDomain && domain === this.config.emailDomain.toLowerCase() && !claimedElsewhere(local)) ids.add(local);
    }
    return ids;
  }
}

function ttlOf(userId: string | null): number {
  return userId ? FOUND_TTL_MS : NOT_FOUND_TTL_MS;
}

/** Owner names compare case-insensitively (emails do; Run:ai usernames are lower-case). */
export function sameOwner(a: string | undefined, b: string): boolean {
  return !!a && a.toLowerCase() === b.toLowerCase();
}
