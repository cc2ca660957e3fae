/**
 * PostgreSQL schema migrations, versioned in schema_migrations. Times are ISO-8601 text, as in
 * SQLite, so both stores compare and order them the same way; they (and keys, matched by
 * prefix) use the "C" collation, since a locale collation may ignore the punctuation in them.
 */
import { OUTBOX_PRIORITY_SQL, OUTBOX_WAIT_FROM_LAST_ERROR_SQL } from '../port.js';

export const POSTGRES_MIGRATIONS: string[] = [
  `CREATE TABLE ledger (
     key TEXT COLLATE "C" PRIMARY KEY,
     recipient TEXT NOT NULL,
     channel TEXT,
     ts TEXT,
     sent_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX ledger_recipient ON ledger (recipient, sent_at);
   CREATE TABLE outbox (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     key TEXT COLLATE "C" NOT NULL UNIQUE,
     kind TEXT NOT NULL,
     target TEXT NOT NULL,
     payload TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at TEXT COLLATE "C" NOT NULL,
     last_error TEXT,
     created_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX outbox_due ON outbox (next_attempt_at, id);
   CREATE TABLE workloads (
     uid TEXT PRIMARY KEY,
     namespace TEXT NOT NULL,
     name TEXT NOT NULL,
     project TEXT NOT NULL,
     owner TEXT,
     kind TEXT NOT NULL,
     state TEXT NOT NULL,
     state_since TEXT COLLATE "C" NOT NULL,
     snapshot TEXT NOT NULL,
     deleted_at TEXT COLLATE "C"
   );
   CREATE INDEX workloads_owner ON workloads (owner);
   CREATE TABLE slack_users (
     owner TEXT PRIMARY KEY,
     user_id TEXT,
     looked_up_at TEXT COLLATE "C" NOT NULL
   );
   CREATE TABLE mutes (
     user_id TEXT NOT NULL,
     scope TEXT COLLATE "C" NOT NULL,
     until TEXT COLLATE "C",
     PRIMARY KEY (user_id, scope)
   );
   CREATE TABLE settings (
     user_id TEXT PRIMARY KEY,
     json TEXT NOT NULL
   );
   CREATE TABLE feed_cache (
     url TEXT PRIMARY KEY,
     body TEXT NOT NULL,
     etag TEXT,
     last_modified TEXT,
     fetched_at TEXT NOT NULL
   );
   CREATE TABLE windows_known (
     key TEXT PRIMARY KEY,
     json TEXT NOT NULL
   );
   CREATE TABLE bursts (
     anchor_key TEXT COLLATE "C" PRIMARY KEY,
     destination TEXT NOT NULL,
     anchor_entry TEXT NOT NULL,
     opened_at TEXT COLLATE "C" NOT NULL,
     closes_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX bursts_destination ON bursts (destination, closes_at);
   CREATE TABLE burst_entries (
     seq BIGINT GENERATED ALWAYS AS IDENTITY,
     key TEXT COLLATE "C" PRIMARY KEY,
     anchor_key TEXT COLLATE "C" NOT NULL REFERENCES bursts (anchor_key) ON DELETE CASCADE,
     entry_json TEXT NOT NULL,
     item_json TEXT NOT NULL,
     told BOOLEAN NOT NULL DEFAULT FALSE,
     added_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX burst_entries_anchor ON burst_entries (anchor_key);
   CREATE TABLE store_probe (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     at TEXT NOT NULL
   );`,
  // Several clusters in one bot (see the SQLite migration of the same name): '' is the unnamed cluster.
  `ALTER TABLE workloads ADD COLUMN cluster TEXT NOT NULL DEFAULT '';
   CREATE INDEX workloads_name ON workloads (namespace, name, cluster);`,
  // Each owner's first alert goes before rewrites, digests, warnings and nudges (port.ts
  // outboxPriority): the order a burst is sent in. Items already queued get their kind's priority.
  `ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 2;
   UPDATE outbox SET priority = ${OUTBOX_PRIORITY_SQL};
   DROP INDEX outbox_due;
   CREATE INDEX outbox_due ON outbox (priority, next_attempt_at, id);`,
  // Why each queued item waits, as a column (port.ts OutboxWait): "expedite after an outage" had
  // told rate-limit waits apart by matching the last error's text.
  `ALTER TABLE outbox ADD COLUMN wait TEXT;
   UPDATE outbox SET wait = ${OUTBOX_WAIT_FROM_LAST_ERROR_SQL};`,
  // Follow-ups (see the SQLite migration of the same name).
  `CREATE TABLE follow_up_threads (
     chain TEXT COLLATE "C" PRIMARY KEY,
     root_key TEXT COLLATE "C" NOT NULL,
     json TEXT NOT NULL,
     updated_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX follow_up_threads_updated ON follow_up_threads (updated_at);`,
  // The sender claims what it sends, under a fencing token (see the SQLite migration of the same name).
  `ALTER TABLE outbox ADD COLUMN claimed_by BIGINT;
   ALTER TABLE outbox ADD COLUMN claimed_until TEXT;
   CREATE TABLE send_epoch (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     epoch BIGINT NOT NULL,
     holder TEXT NOT NULL,
     since TEXT NOT NULL
   );`,
  // One operators' summary per burst (see the SQLite migration of the same name).
  `CREATE TABLE ops_bursts (
     key TEXT PRIMARY KEY,
     opened_at TEXT NOT NULL,
     closes_at TEXT NOT NULL
   );
   CREATE INDEX ops_bursts_closes ON ops_bursts (closes_at);
   CREATE TABLE ops_burst_entries (
     burst_key TEXT NOT NULL REFERENCES ops_bursts(key) ON DELETE CASCADE,
     key TEXT NOT NULL,
     entry_json TEXT NOT NULL,
     added_at TEXT NOT NULL,
     PRIMARY KEY (burst_key, key)
   );`,
];
