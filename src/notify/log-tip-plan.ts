/**
 * Which log-saving tip, if any, a person gets when a workload of theirs starts running: at most
 * one tip per person per kind of finding in any 7 days, and one tip per start (the first kind in
 * FINDING_ORDER not told lately: what loses a failure before what loses lines). Pure: the
 * findings and what the ledger remembers of this week's and last week's keys in, a decision out.
 *
 * The ledger is the memory (tip keys per UTC week, keys.ts), so restarts and failover keep it.
 * A week's key alone would allow two tips a day apart across a week's boundary; reading last
 * week's key with the time it was sent makes the week a rolling one.
 */
import { tipKey, tipWeek } from '../keys.js';
import type { LogFinding } from '../recovery/log-advice.js';

export const TIP_INTERVAL_MS = 7 * 86_400_000;

/** What the store knows of one tip key. */
export interface TipRecord {
  /** Sent (or recorded as handled) at this time (ISO). */
  sentAt?: string;
  /** The person did not get it: a mute or `tips off` dropped it at delivery. */
  dropped?: boolean;
  /** Queued and not yet sent. */
  queued?: boolean;
}

/** The keys whose records nextTip() reads for one finding kind: this week's, then last week's. */
export function tipKeysToRead(owner: string, finding: LogFinding['kind'], now: Date): [current: string, previous: string] {
  const week = tipWeek(now);
  return [tipKey(owner, finding, week), tipKey(owner, finding, week - 1)];
}

/**
 * The tip to give, with its key; undefined when every finding was told lately. `records` holds
 * what the store has for the keys tipKeysToRead() named (absent: never queued nor sent).
 */
export function nextTip(owner: string, findings: readonly LogFinding[], records: ReadonlyMap<string, TipRecord>, now: Date): { key: string; finding: LogFinding } | undefined {
  for (const finding of findings) {
    const [current, previous] = tipKeysToRead(owner, finding.kind, now);
    // This week's key is spent once used at all, dropped or not: the store refuses a key twice.
    if (records.has(current)) continue;
    const last = records.get(previous);
    if (last?.queued) continue;
    // A tip the person never got (muted, tips off) does not count against a later one.
    const sentAt = last && !last.dropped && last.sentAt ? Date.parse(last.sentAt) : NaN;
    if (now.getTime() - sentAt < TIP_INTERVAL_MS) continue;
    return { key: current, finding };
  }
  return undefined;
}
