/**
 * How long to wait before the next attempt (Slack, the API server, the store): exponential,
 * capped, and jittered so that many bots (or one bot's loops) coming back after an outage do
 * not all retry in step. Pure: the caller passes the random number (1 gives the ceiling, for a
 * schedule that must be reproducible, such as one stored with the item it is about).
 */
export interface Backoff {
  /** Wait after the first failure. */
  initialMs: number;
  /** Longest wait, however many failures in a row. */
  maxMs: number;
}

export const SLACK_BACKOFF: Backoff = { initialMs: 1000, maxMs: 60_000 };

/**
 * Wait after `failures` failures in a row (1 = the first): between half and all of the capped
 * exponential ("equal jitter"), so it never drops to zero and never exceeds the cap.
 */
export function backoffDelay(failures: number, random: number, { initialMs, maxMs }: Backoff = SLACK_BACKOFF): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const ceiling = Math.min(maxMs, initialMs * 2 ** exponent);
  const r = Math.min(Math.max(random, 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}
