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
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

export class OwnerDirectory {
  /**
   * Until when Slack asked (429, Retry-After) that users.lookupByEmail be left alone. One answer
   * pauses every lookup, not just the message that met it: a burst of new owners otherwise asks
   * again for each queued message and turns one 429 into thousands.
   */
  private lookupsPausedUntil = 0;

  constructor(
    private readonly config: OwnerConfig,
    private readonly slack: SlackDirectory,
    private readonly store: PreferenceStore,
    private readonly now: () => Date,
  ) {}

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
    if (cached && age < (cached.userId ? FOUND_TTL_MS : NOT_FOUND_TTL_MS)) return cached.userId ?? undefined;
    const userId = await this.lookUp(email);
    await this.store.cacheSlackUser(email, userId ?? null, this.now());
    return userId;
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

/** Owner names compare case-insensitively (emails do; Run:ai usernames are lower-case). */
export function sameOwner(a: string | undefined, b: string): boolean {
  return !!a && a.toLowerCase() === b.toLowerCase();
}
