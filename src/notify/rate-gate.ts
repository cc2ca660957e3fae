/**
 * The outbox's 429 gate: remembers Slack's Retry-After per channel and per method, so a call
 * Slack would refuse is not made. Slack limits chat.postMessage per channel (about 1/s) and per
 * workspace (a few hundred a minute), and chat.update by its tier for the whole workspace. So a
 * 429 on an update pauses every update, and a 429 on a post pauses the channel when it was posted
 * to within the second (its own limit), else every post (the workspace's). Without that, a burst
 * of hundreds of owners met the workspace limit with one refused call per queued item on every
 * pass. In memory: a restarted sender meets at most one 429 per limit before it knows again.
 */
import { SlackSendError } from './slack-send-error.js';

export type GatedMethod = 'chat.postMessage' | 'chat.update';

export class RateGate {
  private readonly pausedChannels = new Map<string, number>();
  /** chat.postMessage or chat.update paused for the whole workspace until (ms). */
  private readonly pausedMethods = new Map<string, number>();
  /** When each channel was last posted to, for the last second or so. */
  private readonly lastPosts = new Map<string, number>();

  constructor(private readonly now: () => Date) {}

  /** When this replica last posted to `channel` (ms), within the last second or so (follow-ups pace by it). */
  lastPost(channel: string): number | undefined {
    return this.lastPosts.get(channel);
  }

  /** Runs the call unless a recent 429 paused its channel or its method (then a rate-limited SlackSendError). */
  async run<T>(channel: string, method: GatedMethod, call: () => Promise<T>): Promise<T> {
    const now = this.now().getTime();
    const until = Math.max(this.pausedChannels.get(channel) ?? 0, this.pausedMethods.get(method) ?? 0);
    if (until > now) throw new SlackSendError(`${method} is rate limited`, false, until - now, 'ratelimited');
    try {
      const value = await call();
      if (method === 'chat.postMessage') this.postedAt(channel, now);
      return value;
    } catch (err) {
      if (err instanceof SlackSendError && err.retryAfterMs !== undefined) {
        const channelsOwn = method === 'chat.postMessage' && now - (this.lastPosts.get(channel) ?? -Infinity) < 1000;
        if (channelsOwn) this.pausedChannels.set(channel, now + err.retryAfterMs);
        else this.pausedMethods.set(method, now + err.retryAfterMs);
      }
      throw err;
    }
  }

  /** Remembers a post for a second (whether a 429 in that channel can be the channel's own limit). */
  private postedAt(channel: string, now: number): void {
    this.lastPosts.set(channel, now);
    if (this.lastPosts.size > 1000) for (const [c, at] of this.lastPosts) if (now - at >= 1000) this.lastPosts.delete(c);
    if (this.pausedChannels.size > 1000) for (const [c, at] of this.pausedChannels) if (at <= now) this.pausedChannels.delete(c);
  }
}
