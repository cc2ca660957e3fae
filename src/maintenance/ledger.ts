/**
 * What the bot has told people about maintenance, so that each reminder goes out once, ever,
 * across restarts. The store implements this interface (store/maintenance-ledger.ts, async since
 * the store may be PostgreSQL); MemoryMaintenanceLedger serves tests and one-shot commands.
 */
import type { KnownWindow } from './plan.js';
import type { MaintenanceWindow } from './window.js';

/** The store answers asynchronously (it may be PostgreSQL); the in-memory ledger at once. */
type Awaitable<T> = T | Promise<T>;

export interface MaintenanceLedger {
  /** Reminder keys already posted. */
  sentKeys(): Awaitable<Set<string>>;
  markSent(key: string, at: Date): Awaitable<void>;
  /** The last announced version of each window, by window key. */
  known(): Awaitable<Map<string, KnownWindow>>;
  /** Record `window` as announced in its current version. */
  remember(window: MaintenanceWindow): Awaitable<void>;
}

export function knownVersion(window: MaintenanceWindow): KnownWindow {
  return {
    start: window.start.toISOString(),
    end: window.end.toISOString(),
    sequence: window.sequence,
    status: window.status,
    summary: window.summary,
  };
}

export class MemoryMaintenanceLedger implements MaintenanceLedger {
  private readonly sent = new Map<string, Date>();
  private readonly versions = new Map<string, KnownWindow>();

  sentKeys(): Set<string> {
    return new Set(this.sent.keys());
  }

  markSent(key: string, at: Date): void {
    if (!this.sent.has(key)) this.sent.set(key, at);
  }

  known(): Map<string, KnownWindow> {
    return new Map(this.versions);
  }

  remember(window: MaintenanceWindow): void {
    this.versions.set(window.key, knownVersion(window));
  }
}
