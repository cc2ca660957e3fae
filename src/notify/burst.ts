/**
 * Bursts: when a node dies or a project is stopped, one owner may see dozens of workloads
 * fail within seconds. The first alert goes out at once, as usual; every further alert for
 * the same destination (the owner's Slack user, or the channel an ownerless project's alerts
 * go to) inside the burst window is folded into that same message, which is then rewritten
 * (chat.update) into one grouped list. The owner gets one message per burst, and the first
 * failure is not delayed by waiting to see whether a burst follows.
 *
 * Across owners, a burst that reaches the threshold earns the operators' channel one summary
 * by node and category, posted when the window closes.
 */

import type { BurstEntry } from '../model.js';

export type { BurstEntry };

export interface OpsBurst {
  entries: BurstEntry[];
  openedAt: number;
}

export { admit, DEFAULT_DEBOUNCE_MS, type Admission, type OpenBurst } from '../delivery/burst-admission.js';

export interface OpsBurstOptions {
  windowMs: number;
  /** How many alerts across the cluster within one window make an operators' summary. */
  threshold: number;
  now(): number;
  /** A cluster-wide burst ended with at least `threshold` alerts. */
  onOpsBurst(burst: OpsBurst): void;
}

/**
 * Counts alerts across owners for the operators' summary. This one is kept in memory: it is a
 * digest for operators, not a message any owner is owed, and every alert in it reaches its
 * owner on its own path.
 */
export class OpsBurstCounter {
  private ops?: OpsBurst & { timer: NodeJS.Timeout };

  constructor(private readonly options: OpsBurstOptions) {}

  count(entry: BurstEntry): void {
    if (!this.ops) {
      const timer = setTimeout(() => this.flush(), this.options.windowMs);
      timer.unref();
      this.ops = { entries: [], openedAt: this.options.now(), timer };
    }
    this.ops.entries.push(entry);
  }

  /** Ends the current window now (shutdown, tests). */
  flush(): void {
    const ops = this.ops;
    if (!ops) return;
    this.ops = undefined;
    clearTimeout(ops.timer);
    if (ops.entries.length >= this.options.threshold) this.options.onOpsBurst({ entries: ops.entries, openedAt: ops.openedAt });
  }
}

