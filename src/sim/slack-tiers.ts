/**
 * Slack's published Web API rate limits, as the simulated Slack enforces them when asked
 * (slack-reference.md §2): each method belongs to a tier (Tier 1 ≈ 1/min, Tier 2 ≈ 20/min,
 * Tier 3 ≈ 50/min, Tier 4 ≈ 100/min) counted per method for the whole workspace, and
 * chat.postMessage has its own "several hundred per minute" workspace limit besides its 1/s
 * per channel (that one lives in slack-faults.ts). Slack tolerates short bursts, so each
 * method is a token bucket: `burst` calls at once, then `perMinute` spread over the minute.
 * A call over the limit is answered 429 with `Retry-After`: whole seconds until a call fits.
 *
 * Pure: the caller passes the time. Hand-rolled because the simulator must answer exactly as
 * Slack does (429 + Retry-After computed from the bucket), which a client-side limiter
 * library does not do.
 */

export interface RateLimit {
  perMinute: number;
  /** Calls that may arrive at once after a quiet spell. */
  burst: number;
}

export type Tier = 1 | 2 | 3 | 4;

/** The tiers as Slack documents them ("1+/min", "20+/min", …), with a short burst each. */
export const TIERS: Record<Tier, RateLimit> = {
  1: { perMinute: 1, burst: 3 },
  2: { perMinute: 20, burst: 5 },
  3: { perMinute: 50, burst: 10 },
  4: { perMinute: 100, burst: 20 },
};

/**
 * Method → limit. Tiers from java-slack-sdk MethodsRateLimits.java as quoted in the reference;
 * the two "special" methods get a workspace limit of a few hundred per minute. Methods not
 * listed here are not limited by the simulation.
 */
export const METHOD_LIMITS: Record<string, RateLimit> = {
  'apps.connections.open': TIERS[1],
  'usergroups.users.list': TIERS[2],
  'users.list': TIERS[2],
  'conversations.open': TIERS[3],
  'conversations.info': TIERS[3],
  'users.lookupByEmail': TIERS[3],
  'chat.update': TIERS[3],
  'chat.delete': TIERS[3],
  'chat.scheduleMessage': TIERS[3],
  'users.info': TIERS[4],
  'conversations.members': TIERS[4],
  'chat.postEphemeral': TIERS[4],
  'views.publish': TIERS[4],
  'views.open': TIERS[4],
  'views.update': TIERS[4],
  // docs.slack.dev/reference/methods/files.getUploadURLExternal, files.completeUploadExternal: Tier 4.
  'files.getUploadURLExternal': TIERS[4],
  'files.completeUploadExternal': TIERS[4],
  'auth.test': { perMinute: 600, burst: 100 },
  'chat.postMessage': { perMinute: 300, burst: 50 },
};

interface Bucket {
  tokens: number;
  atMs: number;
}

export class RateTiers {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly limits: Record<string, RateLimit> = METHOD_LIMITS) {}

  limitOf(method: string): RateLimit | undefined {
    return this.limits[method];
  }

  /**
   * Takes one call of `method` at `nowMs`: undefined when it fits, otherwise the Retry-After
   * in whole seconds (at least 1). A refused call uses up nothing, as with Slack.
   */
  take(method: string, nowMs: number): number | undefined {
    const limit = this.limits[method];
    if (!limit) return undefined;
    const perMs = limit.perMinute / 60_000;
    const bucket = this.buckets.get(method) ?? { tokens: limit.burst, atMs: nowMs };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + Math.max(0, nowMs - bucket.atMs) * perMs);
    bucket.atMs = nowMs;
    this.buckets.set(method, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  }

  reset(): void {
    this.buckets.clear();
  }
}
