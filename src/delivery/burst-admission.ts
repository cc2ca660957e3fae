/**
 * Whether an alert opens a burst or joins the open one (notify/burst.ts says what bursts are
 * for). Pure: the caller reads the open burst from the store and persists the answer, so
 * nothing here has to survive a crash. planDelivery (plan.ts) asks it for burstable alerts.
 */

/** An owner's burst as the decision needs it: when it opened, and whose message anchors it. */
export interface OpenBurst {
  anchorKey: string;
  openedAt: number;
}

/** Quiet time before the grouped message is rewritten, so 60 failures are not 60 edits. */
export const DEFAULT_DEBOUNCE_MS = 1500;

export type Admission =
  | { grouped: false; closesAt: number }
  | { grouped: true; anchorKey: string; rewriteAt: number };

/**
 * Opens a burst (sent on its own at once; it becomes the anchor) or joins the open one (folded;
 * the anchor's message is rewritten at `rewriteAt`).
 */
export function admit(open: OpenBurst | undefined, now: number, windowMs: number, debounceMs = DEFAULT_DEBOUNCE_MS): Admission {
  if (!open || now - open.openedAt >= windowMs) return { grouped: false, closesAt: now + windowMs };
  // Debounced while it grows, but never later than the window's end.
  return { grouped: true, anchorKey: open.anchorKey, rewriteAt: Math.min(now + debounceMs, open.openedAt + windowMs) };
}
