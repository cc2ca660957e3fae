/**
 * Bursts: when a node dies or a project is stopped, one owner may see dozens of workloads
 * fail within seconds. The first alert goes out at once, as usual; every further alert for
 * that owner inside the burst window is folded into that same message, which is then
 * rewritten (chat.update) into one grouped list. The owner gets one message per burst, and the
 * first failure is not delayed by waiting to see whether a burst follows.
 *
 * Across owners, a burst that reaches the threshold earns the operators' channel one summary
 * by node and category, posted when the window closes.
 */

export interface BurstEntry {
  key: string;
  owner: string;
  namespace: string;
  name: string;
  project: string;
  kind: string;
  state: string;
  node?: string;
  category?: string;
  categoryLabel?: string;
  firstError?: string;
}

export interface OwnerBurst {
  owner: string;
  /** Key of the message that went out first and is rewritten to list the whole burst. */
  anchorKey: string;
  entries: BurstEntry[];
  openedAt: number;
}

export interface OpsBurst {
  entries: BurstEntry[];
  openedAt: number;
}

export interface BurstOptions {
  windowMs: number;
  /** How many alerts across the cluster within one window make an operators' summary. */
  opsThreshold: number;
  now(): number;
  /** The owner's grouped message must be (re)written: called debounced while the burst grows. */
  onOwnerBurst(burst: OwnerBurst): void;
  /** A cluster-wide burst ended with at least opsThreshold alerts. */
  onOpsBurst(burst: OpsBurst): void;
  /** Quiet time before the grouped message is rewritten, so 60 failures are not 60 edits. */
  debounceMs?: number;
}

export type Admission = { grouped: false } | { grouped: true; anchorKey: string };

export class BurstGrouper {
  private readonly owners = new Map<string, OwnerBurst & { timer?: NodeJS.Timeout; closer?: NodeJS.Timeout }>();
  private ops?: OpsBurst & { timer: NodeJS.Timeout };

  constructor(private readonly options: BurstOptions) {}

  /**
   * Records an alert. The first for an owner in a window is sent on its own (grouped: false);
   * the rest join that owner's burst (grouped: true) and must not be sent separately.
   */
  admit(entry: BurstEntry): Admission {
    this.countForOps(entry);
    const now = this.options.now();
    const current = this.owners.get(entry.owner);
    if (!current || now - current.openedAt > this.options.windowMs) {
      if (current) this.closeOwner(entry.owner);
      const burst = { owner: entry.owner, anchorKey: entry.key, entries: [entry], openedAt: now };
      this.owners.set(entry.owner, burst);
      // Forget the owner when the window ends, flushing any pending rewrite.
      const closer = setTimeout(() => this.closeOwner(entry.owner), this.options.windowMs);
      closer.unref();
      Object.assign(burst, { closer });
      return { grouped: false };
    }
    current.entries.push(entry);
    clearTimeout(current.timer);
    current.timer = setTimeout(() => this.options.onOwnerBurst(snapshot(current)), this.options.debounceMs ?? 1500);
    current.timer.unref();
    return { grouped: true, anchorKey: current.anchorKey };
  }

  /** Flushes every pending rewrite and summary now (shutdown, tests). */
  flush(): void {
    for (const owner of [...this.owners.keys()]) this.closeOwner(owner);
    if (this.ops) this.closeOps();
  }

  private closeOwner(owner: string): void {
    const burst = this.owners.get(owner);
    if (!burst) return;
    this.owners.delete(owner);
    clearTimeout(burst.closer);
    if (burst.timer) {
      clearTimeout(burst.timer);
      this.options.onOwnerBurst(snapshot(burst));
    }
  }

  private countForOps(entry: BurstEntry): void {
    if (!this.ops) {
      const timer = setTimeout(() => this.closeOps(), this.options.windowMs);
      timer.unref();
      this.ops = { entries: [], openedAt: this.options.now(), timer };
    }
    this.ops.entries.push(entry);
  }

  private closeOps(): void {
    const ops = this.ops;
    if (!ops) return;
    this.ops = undefined;
    clearTimeout(ops.timer);
    if (ops.entries.length >= this.options.opsThreshold) this.options.onOpsBurst({ entries: ops.entries, openedAt: ops.openedAt });
  }
}

function snapshot(burst: OwnerBurst): OwnerBurst {
  return { owner: burst.owner, anchorKey: burst.anchorKey, entries: [...burst.entries], openedAt: burst.openedAt };
}

/** Counts per value, largest first: "gpu-17 (40), gpu-3 (3)". */
export function tally(values: Array<string | undefined>, unknown = 'unknown'): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v ?? unknown, (counts.get(v ?? unknown) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
