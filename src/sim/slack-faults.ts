/**
 * Trouble the simulated Slack can be told to make: an outage (503), rate limits (429 with
 * Retry-After, slack-reference.md §2), a revoked bot token and `ok:false` errors. It decides what to answer; the
 * server sends it.
 */
import type { Json } from './slack-methods.js';
import { RateTiers } from './slack-tiers.js';

export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  body: Json | string;
}

interface Queued<T> {
  remaining: number;
  value: T;
}

const RATE_LIMITED_BODY: Json = { ok: false, error: 'ratelimited' };

export class SlackFaults {
  /** How many 429 answers have been sent, by either kind of rate limit. */
  rateLimitedCount = 0;
  /** 429 answers by method. */
  readonly rateLimitedBy = new Map<string, number>();
  private tiers: RateTiers | undefined;
  private isDown = false;
  private botTokenRevoked = false;
  private readonly rateLimits = new Map<string, Queued<number>>();
  private readonly rateLimitedUntil = new Map<string, number>();
  private readonly failures = new Map<string, Queued<string>>();
  private readonly httpFailures = new Map<string, Queued<number>>();
  private perChannelPerSecond: number | undefined;
  /** Accepted chat.postMessage times (ms) per channel, within the last second. */
  private readonly recentPosts = new Map<string, number[]>();

  down(isDown: boolean): void {
    this.isDown = isDown;
  }

  revokeBotToken(revoked: boolean): void {
    this.botTokenRevoked = revoked;
  }

  /** Slack's answer to every call made with a revoked bot token (until it is accepted again). */
  tokenRejected(kind: 'bot' | 'app'): FaultAnswer | undefined {
    return kind === 'bot' && this.botTokenRevoked ? { status: 200, headers: {}, body: { ok: false, error: 'token_revoked' } } : undefined;
  }

  rateLimitNext(method: string, calls: number, retryAfterSec: number): void {
    this.rateLimits.set(method, { remaining: calls, value: retryAfterSec });
  }

  /**
   * Every call of `method` until `untilMs` gets a 429 whose Retry-After is the time left, as
   * Slack's own limits answer (by time, not by a count of calls): a client that waits as told
   * gets through at the first try after the window.
   */
  rateLimitUntil(method: string, untilMs: number): void {
    this.rateLimitedUntil.set(method, untilMs);
  }

  failNext(method: string, error: string, calls = 1): void {
    this.failures.set(method, { remaining: calls, value: error });
  }

  /** The next `calls` calls of `method` get a bare HTTP `status` (a 5xx from Slack's edge). */
  failNextHttp(method: string, status: number, calls = 1): void {
    this.httpFailures.set(method, { remaining: calls, value: status });
  }

  /** Lifts the failures queued for `method` (both kinds). */
  clearFailures(method: string): void {
    this.failures.delete(method);
    this.httpFailures.delete(method);
  }

  /** Slack's chat.postMessage guidance, enforced strictly: at most `perSecond` per channel per second. */
  enforcePerChannelRate(perSecond: number | undefined): void {
    this.perChannelPerSecond = perSecond;
    this.recentPosts.clear();
  }

  /**
   * Slack's per-method tiers and chat.postMessage's limits (1/s per channel unless set
   * otherwise, a few hundred a minute in all), or none of them when `on` is false.
   */
  enforceRateTiers(on: boolean): void {
    this.tiers = on ? new RateTiers() : undefined;
    this.recentPosts.clear();
  }

  get rateTiersEnforced(): boolean {
    return this.tiers !== undefined;
  }

  /** The answer to every HTTP request during an outage. */
  outage(): FaultAnswer | undefined {
    return this.isDown ? { status: 503, headers: {}, body: 'Service Unavailable' } : undefined;
  }

  /** Answer to send instead of the method's own, or undefined to let the method answer. */
  intercept(method: string, channel: string | undefined, nowMs: number): FaultAnswer | undefined {
    const retryAfter = take(this.rateLimits, method);
    if (retryAfter !== undefined) return this.rateLimited(method, retryAfter);
    const windowLeftMs = (this.rateLimitedUntil.get(method) ?? 0) - nowMs;
    if (windowLeftMs > 0) return this.rateLimited(method, Math.ceil(windowLeftMs / 1000));
    const status = take(this.httpFailures, method);
    if (status !== undefined) return { status, headers: {}, body: `simulated HTTP ${status}` };
    const error = take(this.failures, method);
    if (error !== undefined) return { status: 200, headers: {}, body: { ok: false, error } };
    const perChannel = this.perChannelPerSecond ?? (this.tiers ? 1 : undefined);
    let recent: number[] | undefined;
    if (method === 'chat.postMessage' && channel && perChannel !== undefined) {
      recent = (this.recentPosts.get(channel) ?? []).filter((t) => nowMs - t < 1000);
      this.recentPosts.set(channel, recent);
      if (recent.length >= perChannel) return this.rateLimited(method, Math.max(1, Math.ceil((recent[0] + 1000 - nowMs) / 1000)));
    }
    // The channel's count only grows once the workspace limit has let the post through too.
    const tierWait = this.tiers?.take(method, nowMs);
    if (tierWait !== undefined) return this.rateLimited(method, tierWait);
    recent?.push(nowMs);
    return undefined;
  }

  private rateLimited(method: string, retryAfterSec: number): FaultAnswer {
    this.rateLimitedCount += 1;
    this.rateLimitedBy.set(method, (this.rateLimitedBy.get(method) ?? 0) + 1);
    return { status: 429, headers: { 'retry-after': String(retryAfterSec) }, body: RATE_LIMITED_BODY };
  }
}

/** Uses up one of the queued answers for `method`, if any. */
function take<T>(queue: Map<string, Queued<T>>, method: string): T | undefined {
  const entry = queue.get(method);
  if (!entry) return undefined;
  entry.remaining -= 1;
  if (entry.remaining <= 0) queue.delete(method);
  return entry.value;
}
