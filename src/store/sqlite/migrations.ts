import { OUTBOX_PRIORITY_SQL, OUTBOX_WAIT_FROM_LAST_ERROR_SQL } from '../port.js';

/** Ordered SQLite schema migrations; the index + 1 is the schema version (PRAGMA user_version). */
export const SQLITE_MIGRATIONS: string[] = [
  `CREATE TABLE ledger (
     key TEXT PRIMARY KEY,           -- what was said, e.g. wl:<uid>:Failed or mw:<window>:1d
     recipient TEXT NOT NULL,        -- Slack user or channel it went to
     channel TEXT,                   -- conversation it was posted in
     ts TEXT,                        -- message timestamp, for chat.update
     sent_at TEXT NOT NULL
   );
   CREATE TABLE outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     key TEXT NOT NULL UNIQUE,       -- same key as the ledger entry it becomes
     kind TEXT NOT NULL,             -- failure, stopped, pending, maintenance, …
     target TEXT NOT NULL,           -- JSON: {type:'owner',owner} | {type:'channel',channel} | {type:'user',user}
     payload TEXT NOT NULL,          -- JSON: {text, blocks}
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at TEXT NOT NULL,
     last_error TEXT,
     created_at TEXT NOT NULL
   );
   CREATE TABLE workloads (
     uid TEXT PRIMARY KEY,
     namespace TEXT NOT NULL,
     name TEXT NOT NULL,
     project TEXT NOT NULL,
     owner TEXT,
     kind TEXT NOT NULL,
     state TEXT NOT NULL,
     state_since TEXT NOT NULL,
     snapshot TEXT NOT NULL,         -- JSON of the normalised Workload
     deleted_at TEXT
   );
   CREATE INDEX workloads_owner ON workloads(owner);
   CREATE TABLE slack_users (
     owner TEXT PRIMARY KEY,
     user_id TEXT,                   -- NULL: looked up and not found
     looked_up_at TEXT NOT NULL
   );
   CREATE TABLE mutes (
     user_id TEXT NOT NULL,
     scope TEXT NOT NULL,            -- workload:<ns>/<name> | project:<name>
     until TEXT,                     -- NULL: until unmuted
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
   );`,
  // Bursts live on disk, not in timers: a fold is persisted with its rewrite in one transaction,
  // so a crash in the burst window loses no folded alert (README, "Delivery guarantee").
  `CREATE TABLE bursts (
     anchor_key TEXT PRIMARY KEY,    -- key of the alert posted first; its message is rewritten
     destination TEXT NOT NULL,      -- user:<id> | channel:<id>:<project>
     anchor_entry TEXT NOT NULL,     -- JSON BurstEntry of the anchor, listed first in the rewrite
     opened_at TEXT NOT NULL,
     closes_at TEXT NOT NULL
   );
   CREATE INDEX bursts_destination ON bursts(destination, closes_at);
   CREATE TABLE burst_entries (
     key TEXT PRIMARY KEY,           -- the folded alert's own key (the ledger key once told)
     anchor_key TEXT NOT NULL REFERENCES bursts(anchor_key) ON DELETE CASCADE,
     entry_json TEXT NOT NULL,       -- JSON BurstEntry, a line of the grouped message
     item_json TEXT NOT NULL,        -- JSON {kind,target,payload}: the alert sent alone if the anchor never is
     told INTEGER NOT NULL DEFAULT 0,-- 1 once a rewrite naming it was accepted by Slack
     added_at TEXT NOT NULL
   );
   CREATE INDEX burst_entries_anchor ON burst_entries(anchor_key);`,
  // Several clusters in one bot: the uid column holds workloadId() (`<cluster>/<uid>` for a named
  // cluster), and the cluster's name is kept beside it for lookups by name. '' is the one unnamed
  // cluster of a config without `clusters:`, which every existing row belongs to.
  `ALTER TABLE workloads ADD COLUMN cluster TEXT NOT NULL DEFAULT '';
   CREATE INDEX workloads_name ON workloads(namespace, name, cluster);`,
  // Each owner's first alert goes before rewrites, digests, warnings and nudges (port.ts
  // outboxPriority): the order a burst is sent in. Items already queued get their kind's priority.
  `ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 2;
   UPDATE outbox SET priority = ${OUTBOX_PRIORITY_SQL};
   CREATE INDEX outbox_due ON outbox(priority, next_attempt_at, id);`,
  // Why each queued item waits, as a column (port.ts OutboxWait): "expedite after an outage" had
  // told rate-limit waits apart by matching the last error's text.
  `ALTER TABLE outbox ADD COLUMN wait TEXT;
   UPDATE outbox SET wait = ${OUTBOX_WAIT_FROM_LAST_ERROR_SQL};`,
  // Follow-ups (README, "Follow-ups"): where each alert's later life is told, one thread per
  // chain (cluster/namespace/name, so a resubmission finds it), its state as JSON (port.ts
  // StoredFollowUpThread). The alert's channel and ts were in the ledger from the first version.
  `CREATE TABLE follow_up_threads (
     chain TEXT PRIMARY KEY,         -- keys.ts followUpChain: <cluster>/<namespace>/<name>
     root_key TEXT NOT NULL,         -- the alert the thread hangs under (its ledger row: channel, ts)
     json TEXT NOT NULL,             -- JSON StoredFollowUpThread
     updated_at TEXT NOT NULL        -- pruned past followups.window
   );
   CREATE INDEX follow_up_threads_updated ON follow_up_threads(updated_at);`,
  // The sender claims what it sends, under a fencing token (port.ts beginSending/claimOutbox):
  // the store's send epoch, bumped whenever a replica starts sending. A claim names the epoch
  // that made it and ends at claimed_until.
  `ALTER TABLE outbox ADD COLUMN claimed_by INTEGER;
   ALTER TABLE outbox ADD COLUMN claimed_until TEXT;
   CREATE TABLE send_epoch (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     epoch INTEGER NOT NULL,
     holder TEXT NOT NULL,
     since TEXT NOT NULL
   );`,
  // One operators' summary per burst with several replicas: the burst and the alerts in it are
  // stored (port.ts admitToOpsBurst), and the summary is an outbox item like any message.
  `CREATE TABLE ops_bursts (
     key TEXT PRIMARY KEY,
     opened_at TEXT NOT NULL,
     closes_at TEXT NOT NULL
   );
   CREATE INDEX ops_bursts_closes ON ops_bursts(closes_at);
   CREATE TABLE ops_burst_entries (
     burst_key TEXT NOT NULL REFERENCES ops_bursts(key) ON DELETE CASCADE,
     key TEXT NOT NULL,
     entry_json TEXT NOT NULL,
     added_at TEXT NOT NULL,
     PRIMARY KEY (burst_key, key)
   );`,
];
