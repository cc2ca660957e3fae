/** The stuck-Pending/Initializing check runs on a timer besides at start and on each event. */
import { repeat } from '../lib/repeat.js';

/** How often workloads are checked for having been Pending or Initializing too long. */
export const STUCK_CHECK_MS = 30_000;

export function startStuckChecks(reconciler: { checkStuck(): void }, everyMs = STUCK_CHECK_MS): () => void {
  return repeat(everyMs, () => reconciler.checkStuck());
}
