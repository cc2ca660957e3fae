/**
 * Table rows → the port's values. SQLite and PostgreSQL share one schema (same tables, same
 * column names; see each migrations.ts), so both read rows through these.
 */
import type { FeedCacheEntry, LedgerEntry, Mute, OutboxItem, OutboxPayload, OutboxTarget, StoredBurst, StoredBurstEntry, StoredWorkload } from './port.js';

export type Row = Record<string, unknown>;

/** `text` as a LIKE pattern that matches it literally (with ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function rowToEntry(row: Row): LedgerEntry {
  return {
    key: row.key as string,
    recipient: row.recipient as string,
    channel: (row.channel as string | null) ?? undefined,
    ts: (row.ts as string | null) ?? undefined,
    sentAt: row.sent_at as string,
  };
}

export function rowToOutboxItem(row: Row): OutboxItem {
  return {
    // PostgreSQL answers BIGINT/INTEGER columns as numbers or strings by type; SQLite as numbers.
    id: Number(row.id),
    key: row.key as string,
    kind: row.kind as string,
    target: JSON.parse(row.target as string) as OutboxTarget,
    payload: JSON.parse(row.payload as string) as OutboxPayload,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at as string,
    lastError: (row.last_error as string | null) ?? undefined,
    createdAt: row.created_at as string,
  };
}

export function rowToBurst(row: Row): StoredBurst {
  return {
    anchorKey: row.anchor_key as string,
    destination: row.destination as string,
    anchorEntry: JSON.parse(row.anchor_entry as string),
    openedAt: row.opened_at as string,
    closesAt: row.closes_at as string,
  };
}

export function rowToBurstEntry(row: Row): StoredBurstEntry {
  return {
    key: row.key as string,
    anchorKey: row.anchor_key as string,
    entry: JSON.parse(row.entry_json as string),
    item: JSON.parse(row.item_json as string) as StoredBurstEntry['item'],
    // SQLite keeps a boolean as 0/1, PostgreSQL as a BOOLEAN.
    told: row.told === 1 || row.told === true,
  };
}

export function rowToSlackUser(row: Row): { userId: string | null; lookedUpAt: string } {
  return { userId: (row.user_id as string | null) ?? null, lookedUpAt: row.looked_up_at as string };
}

export function rowToMute(row: Row): Mute {
  return { scope: row.scope as string, until: (row.until as string | null) ?? undefined };
}

export function rowToFeedCache(row: Row): FeedCacheEntry {
  return {
    body: row.body as string,
    etag: (row.etag as string | null) ?? undefined,
    lastModified: (row.last_modified as string | null) ?? undefined,
    fetchedAt: row.fetched_at as string,
  };
}

export function rowToWorkload(row: Row): StoredWorkload {
  return {
    uid: row.uid as string,
    // '' is the one unnamed cluster of a config without `clusters:`.
    ...(row.cluster ? { cluster: row.cluster as string } : {}),
    namespace: row.namespace as string,
    name: row.name as string,
    project: row.project as string,
    owner: (row.owner as string | null) ?? undefined,
    kind: row.kind as string,
    state: row.state as string,
    stateSince: row.state_since as string,
    snapshot: row.snapshot as string,
    deletedAt: (row.deleted_at as string | null) ?? undefined,
  };
}
