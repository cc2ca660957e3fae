/** The stuck-Pending/Initializing check runs on a timer besides at start and on each event. */
import { repeat } from '../lib/repeat.js';

/** How often workloads are checked for having been Pending or Initializing too long. */
export const STUCK_CHECK_MS = 30_000;

export function startStuckChecks(reconciler: { checkStuck(): void }, everyMs = STUCK_CHECK_MS): () => void {
  return repeat(everyMs, () => reconciler.checkStuck());
}

/** The stuck check as a leader duty (ops/leadership.ts): once when it starts, then on the timer. */
export function stuckCheckDuty(reconciler: { checkStuck(): void }, everyMs = STUCK_CHECK_MS): { name: string; start(): void; stop(): void } {
  let stopTimer: (() => void) | undefined;
  return {
    name: 'stuck checks',
    start: () => {
      reconciler.checkStuck();
      stopTimer ??= startStuckChecks(reconciler, everyMs);
    },
    stop: () => {
      stopTimer?.();
      stopTimer = undefined;
    },
  };
}
