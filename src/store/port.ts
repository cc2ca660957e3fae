/**
 * The store PORT: everything the bot keeps across restarts, as interfaces by concern. The core
 * (notify/, slack/, maintenance/, archive/, ops/) depends only on these types; SQLite
 * (src/store/sqlite/, the embedded default) and PostgreSQL (src/store/postgres/, `store.url`)
 * implement them. Pure types: no I/O is imported here.
 *
 * Every call returns a Promise because PostgreSQL is asynchronous; the SQLite implementation is
 * synchronous underneath and answers with already-resolved promises. A failed call rejects with
 * the driver's error (its `code`: SQLITE_FULL, SQLITE_READONLY, a PostgreSQL SQLSTATE, …).
 *
 * Atomicity the delivery guarantee depends on (README, "Delivery guarantee"; notify/outbox.ts)
 * is inside single calls, never spread over several: completeOutbox (ledger row + queue delete),
 * admitToBurst (burst membership + its rewrite item), completeBurstRewrite, releaseBurst and
 * dropBurst each run in one transaction in every implementation.
 *
 * KEY SPACE. Ledger and outbox keys are strings with a kind prefix, built and parsed only in
 * src/keys.ts (`wl:<id>:<state>`, `burst:<anchor>`, `ops-burst:<iso>`, `cleanup:<owner>:<day>`,
 * `mw:<reminder>`, `archive:…`, `refused:<channel>:<day>`); the stores take their prefixes from there and never spell a key.
 * A workload's <id> is workloadId() (src/model.ts): `<cluster>/<uid>` when it runs in a cluster
 * named in `clusters:`, the bare Kubernetes uid for the one unnamed cluster of a config without it. So several clusters share one key space with no extra key column: the
 * same uid in two clusters gives two ids, and the keys and rows a single-cluster bot wrote before
 * `clusters:` existed are still its keys. The workloads table is keyed by that id (its `uid`
 * column) and keeps the cluster's name in a `cluster` column ('' for the unnamed cluster), for
 * lookups by name within one cluster. Burst entries, the outbox and the ledger carry the alert's
 * key and so its id. Mutes are keyed by (user, scope); settings and the Slack user cache by
 * person; the feed cache by URL: people-level data is shared across clusters.
 */
import type { SlackMessage } from '../messages/blocks.js';
import type { StoredPlan } from '../model.js';

export interface LedgerEntry {
  key: string;
  recipient: string;
  channel?: string;
  ts?: string;
  sentAt: string;
}

export type OutboxTarget =
  /**
   * A message to a workload's owner. `plan`: where it goes, decided once before it was queued
   * (delivery/plan.ts), kept in the row's target JSON, so neither store needs a column for it;
   * an item queued without one (before plans, or when Slack could not be asked who the owner
   * is) is planned when it is sent.
   */
  | { type: 'owner'; owner: string; project: string; workload?: string; plan?: StoredPlan }
  | { type: 'channel'; channel: string }
  | { type: 'user'; user: string }
  /** Rewrite the message already sent under `anchorKey` (chat.update). */
  | { type: 'update'; anchorKey: string }
  /** Rewrite the burst anchored at `anchorKey` to list its stored entries (built when sent). */
  | { type: 'burst'; anchorKey: string }
  /**
   * A follow-up about an owner's workload under the alert `rootKey` (notify/follow-up-delivery.ts):
   * a reply in its thread, or with `edit`, the alert itself rewritten. `project` and `workload`
   * are the mute scopes, as for an owner target.
   */
  | { type: 'thread'; rootKey: string; project: string; workload?: string; edit?: boolean };

/** As a builder in src/messages made it; stored as JSON and read back unchanged. */
export interface OutboxPayload {
  text: string;
  blocks?: SlackMessage['blocks'];
}

/**
 * Why a queued item waits, kept with it: `backoff` after a failure (an attempt; made due at once
 * when Slack comes back, expediteOutbox); `rate-limited`, Slack's own Retry-After (an attempt;
 * never hurried, Slack asked for the wait); `deliberate`, a wait the bot chose (quiet hours, a
 * burst's first message not yet sent; not an attempt, never hurried).
 */
export type OutboxWait = 'backoff' | 'rate-limited' | 'deliberate';

/** Waits that count as an attempt. */
export const OUTBOX_WAIT_IS_ATTEMPT: Record<OutboxWait, boolean> = { backoff: true, 'rate-limited': true, deliberate: false };

/**
 * The wait of items queued before the `wait` column existed, read from what their last error
 * said (the only record there was), for the migration of either store.
 */
export const OUTBOX_WAIT_FROM_LAST_ERROR_SQL = `CASE
  WHEN last_error IS NULL THEN NULL
  WHEN last_error LIKE '%rate limit%' THEN 'rate-limited'
  WHEN attempts = 0 OR last_error = 'quiet hours' THEN 'deliberate'
  ELSE 'backoff' END`;

export interface OutboxItem {
  id: number;
  key: string;
  kind: string;
  target: OutboxTarget;
  payload: OutboxPayload;
  attempts: number;
  nextAttemptAt: string;
  lastError?: string;
  createdAt: string;
}

/** What is queued: an outbox item before it has an id and a schedule. */
export interface NewOutboxItem {
  key: string;
  kind: string;
  target: OutboxTarget;
  payload: OutboxPayload;
}

export interface StoredWorkload {
  /** workloadId(): `<cluster>/<uid>` in a named cluster, the bare uid otherwise. */
  uid: string;
  /** The configured cluster's name; undefined for the unnamed cluster (stored as ''). */
  cluster?: string;
  namespace: string;
  name: string;
  project: string;
  owner?: string;
  kind: string;
  state: string;
  stateSince: string;
  snapshot: string;
  deletedAt?: string;
}

/** An alert folded into a burst, as stored. */
export interface StoredBurstEntry {
  key: string;
  anchorKey: string;
  entry: unknown;
  item: Omit<NewOutboxItem, 'key'>;
  told: boolean;
}

export interface StoredBurst {
  anchorKey: string;
  destination: string;
  anchorEntry: unknown;
  openedAt: string;
  closesAt: string;
}

/** A cluster-wide burst of alerts for the operators' summary, as stored. */
export interface StoredOpsBurst {
  /** opsBurstKey(openedAt): the summary's outbox and ledger key. */
  key: string;
  openedAt: string;
  closesAt: string;
  /** The alerts counted into it, in the order first counted. */
  entries: unknown[];
}

/** What admitToBurst's `decide` answers for the open burst it read (notify/burst.ts `admit`). */
export type BurstAdmission =
  | { grouped: false; closesAt: number }
  | { grouped: true; anchorKey: string; rewriteAt: number };

export interface FeedCacheEntry {
  body: string;
  etag?: string;
  lastModified?: string;
  /** ISO time of the last successful fetch (or 304). */
  fetchedAt: string;
}

export interface Mute {
  scope: string;
  until?: string;
}

/** What was said to whom: one row per message key, for ever (until pruned). */
export interface LedgerStore {
  wasSent(key: string): Promise<boolean>;
  ledgerEntry(key: string): Promise<LedgerEntry | undefined>;
  ledgerKeys(prefix: string): Promise<Set<string>>;
  recordSent(entry: LedgerEntry): Promise<void>;
  /** Recent alerts that went to a user, newest first (Home tab). */
  recentAlertsFor(recipient: string, limit: number): Promise<LedgerEntry[]>;
}

/** What is still to be sent, in order, with its retry schedule. */
export interface OutboxStore {
  /** Queues a message unless the same key is queued, folded or already sent. Returns whether it was queued. */
  enqueue(item: NewOutboxItem, now: Date): Promise<boolean>;
  /** Whether the key is on its way: queued, or folded into a burst whose rewrite is not yet accepted. */
  isQueued(key: string): Promise<boolean>;
  queuedItem(key: string): Promise<OutboxItem | undefined>;
  /**
   * Items due at `now`: by priority (outboxPriority of their kind, set when queued), then the
   * longest due, then queue order.
   */
  dueOutbox(now: Date, limit?: number): Promise<OutboxItem[]>;
  /**
   * Starts a sender's turn: bumps the store's send epoch and returns it, the fencing token every
   * write of this sender carries (claims, completions, reschedules, drops, payload replacements,
   * burst releases and drops). A sender whose epoch is no longer the
   * store's (another replica began sending since) is refused with StaleSenderError.
   */
  beginSending(holder: string, now: Date): Promise<number>;
  /**
   * Claims the items due at `now` (the order of dueOutbox) for the sender holding `fence`, until
   * `claimUntil`: an item another sender claimed is skipped until its claim ends; this sender's
   * own unfinished claims are taken again. In one transaction that first checks the fence
   * (StaleSenderError when stale); PostgreSQL locks the rows it claims (FOR UPDATE SKIP LOCKED).
   */
  claimOutbox(fence: number, now: Date, claimUntil: Date, limit?: number): Promise<OutboxItem[]>;
  outboxDepth(): Promise<number>;
  /**
   * Moves a sent item to the ledger in one transaction, so a crash cannot send it twice. With
   * `fence`, the same transaction first checks it is still the store's send epoch
   * (StaleSenderError otherwise, and nothing is written).
   */
  completeOutbox(id: number, entry: LedgerEntry, fence?: number): Promise<void>;
  /**
   * Reschedules an item: why it waits decides whether it counts as an attempt and may be expedited.
   * With `fence`, refused (StaleSenderError, nothing written) unless it is the store's send epoch,
   * as for every sender's write below: a deposed sender must not re-time a row the new one owns.
   */
  retryOutboxLater(id: number, nextAttemptAt: Date, reason: string, wait: OutboxWait, fence?: number): Promise<void>;
  dropOutbox(id: number, fence?: number): Promise<void>;
  /** Replaces a queued item's payload (the text fallback after Slack refused the blocks). */
  replaceOutboxPayload(id: number, payload: OutboxPayload, fence?: number): Promise<void>;
  /** Makes due now the items waiting out a failure's `backoff` (never a rate limit's or a deliberate wait). */
  expediteOutbox(now: Date): Promise<number>;
}

/**
 * A sender's fencing token is no longer the store's send epoch: another replica began sending
 * since (it won the Lease while this one was cut off or frozen). What it asked is not done.
 */
export class StaleSenderError extends Error {
  constructor(readonly fence: number, readonly current: number | undefined) {
    super(`send epoch ${fence} is stale: the store's is ${current ?? 'unset'} (another replica sends now)`);
    this.name = 'StaleSenderError';
  }
}

/** Throws StaleSenderError unless `fence` (when given) is the store's current send epoch. */
export function checkFence(fence: number | undefined, current: number | undefined): void {
  if (fence !== undefined && fence !== current) throw new StaleSenderError(fence, current);
}

/** What admitToBurst did: queued the item to anchor a new burst, or folded it into the open one. */
export type BurstAdmitted = { folded: false } | { folded: true; anchorKey: string };

/** Bursts: alerts for one destination grouped into one rewritten message, persisted. */
export interface BurstStore {
  burst(anchorKey: string): Promise<StoredBurst | undefined>;
  /**
   * In one transaction (and serialised per destination): reads the open burst, asks `decide`
   * (pure), then either queues `item` and opens a burst it anchors, or folds it into the open
   * burst and (re)schedules that burst's rewrite. Undefined when the key was already sent,
   * queued or folded.
   */
  admitToBurst(
    destination: string,
    item: NewOutboxItem,
    entry: unknown,
    now: Date,
    decide: (open: StoredBurst | undefined) => BurstAdmission,
  ): Promise<BurstAdmitted | undefined>;
  burstEntries(anchorKey: string): Promise<StoredBurstEntry[]>;
  /** A rewrite naming `told` was accepted: ledger rows, entries marked, rewrite dequeued; one transaction. */
  completeBurstRewrite(itemId: number, anchorKey: string, told: LedgerEntry[], muted?: LedgerEntry[], fence?: number): Promise<void>;
  /** Drops a burst's rewrite and the folded alerts it still owed (past the retention). Returns their keys. */
  dropBurst(anchorKey: string, fence?: number): Promise<string[]>;
  /**
   * The anchor was never posted: every folded alert not yet told is queued on its own; the burst
   * closes. With `fence` (as dropBurst), refused whole under a stale send epoch.
   */
  releaseBurst(anchorKey: string, now: Date, fence?: number): Promise<string[]>;
  /** Makes every burst rewrite and operators' summary due now (shutdown, tests). */
  burstRewritesDueNow(now: Date): Promise<void>;
  /**
   * Counts an alert into the cluster-wide burst open at `now` (opening one for `windowMs` when
   * none is), once per `entryKey` however many replicas count it; then asks `compose` (pure) for
   * the operators' summary of the burst as it now stands, and queues it (due when the burst
   * closes) or replaces the queued one's text. One transaction, serialised across replicas, so a
   * burst has one summary. Nothing is queued for a summary already sent.
   */
  admitToOpsBurst(entryKey: string, entry: unknown, now: Date, windowMs: number, compose: (burst: StoredOpsBurst) => NewOutboxItem | undefined): Promise<void>;
}

/** What the bot last saw of each workload (its lifecycle memory). */
export interface WorkloadStore {
  getWorkload(uid: string): Promise<StoredWorkload | undefined>;
  /** Workloads not deleted. */
  allWorkloads(): Promise<StoredWorkload[]>;
  putWorkload(w: StoredWorkload): Promise<void>;
  /**
   * Several at once, as the catch-up after a list decides them (100,000 at start): one read and
   * one transaction per slice, not a round trip and a commit per workload.
   */
  getWorkloads(uids: readonly string[]): Promise<Map<string, StoredWorkload>>;
  /** All or none; a uid given twice ends as its last entry. */
  putWorkloads(ws: readonly StoredWorkload[]): Promise<void>;
  /** Uids of the workloads not deleted, as the store last saw them. */
  presentWorkloadUids(): Promise<string[]>;
  /** Forgets workloads deleted before `before`. */
  pruneDeletedWorkloads(before: Date): Promise<number>;
  /**
   * Gives what a single-cluster bot kept to the named cluster `name`, in one transaction: the
   * unnamed cluster's workload rows (`<uid>` → `<name>/<uid>`) and every key about them
   * (keys.ts keyInCluster) in the ledger, the queued outbox items (and the anchors of rewrites,
   * the roots of follow-ups), the bursts and their folded alerts, and the follow-up threads
   * (store/adoption-plan.ts). A bot moved from `cluster:` to `clusters:` thereby neither repeats
   * nor loses an alert told, queued or folded before, nor forgets the states it saw, and keeps
   * following a failure in its alert's thread. Where the named row or key exists already, it wins, and what was
   * told wins over what is owed. Returns how many workload rows moved (0 once done).
   */
  adoptUnnamedCluster(name: string): Promise<number>;
}

/** People: mutes, settings and the owner → Slack user cache. */
export interface PreferenceStore {
  cachedSlackUser(owner: string): Promise<{ userId: string | null; lookedUpAt: string } | undefined>;
  cacheSlackUser(owner: string, userId: string | null, at: Date): Promise<void>;
  mute(userId: string, scope: string, until: Date | undefined): Promise<void>;
  unmute(userId: string, scope: string): Promise<boolean>;
  activeMutes(userId: string, now: Date): Promise<Mute[]>;
  getSettings<T>(userId: string): Promise<T | undefined>;
  putSettings(userId: string, value: unknown): Promise<void>;
  /** Drops mutes that ended before `now` (a mute "until unmuted" never ends). */
  pruneExpiredMutes(now: Date): Promise<number>;
}

/** The last good maintenance feed and the window versions announced. */
export interface MaintenanceStore {
  getFeedCache(url: string): Promise<FeedCacheEntry | undefined>;
  putFeedCache(url: string, entry: FeedCacheEntry): Promise<void>;
  knownWindows(): Promise<Map<string, unknown>>;
  rememberWindow(key: string, value: unknown): Promise<void>;
}

/** Readiness, retention and lifecycle. */
export interface HealthStore {
  /** Where the store lives, safe to log (a file path, or a URL without its password). */
  readonly location: string;
  /** One tiny real write: why the store cannot be written, or undefined when it can. */
  probeWrite(now: Date): Promise<string | undefined>;
  /**
   * Forgets what was said about workloads (and daily nudges) before `before`, except about a
   * workload in `live`. Maintenance (mw:) and archive (archive:) keys stay for ever.
   */
  pruneLedger(before: Date, live: ReadonlySet<string>): Promise<number>;
  close(): Promise<void>;
}

/**
 * A follow-up thread: the alert a workload's later life is told under (README, "Follow-ups").
 * One per chain (keys.ts followUpChain: cluster, namespace, name), so a resubmission finds the
 * thread of the attempt before it. Kept in the store, never in memory only: threading survives
 * restarts and failover. Written by notify/follow-ups.ts, decided by recovery/follow-up-plan.ts.
 */
export interface StoredFollowUpThread {
  chain: string;
  /** The alert the thread hangs under (`wl:<id>:Failed` or `:Stopped`); its ledger row says where it went. */
  rootKey: string;
  /** The workload (workloadId()) the thread follows now: the one alerted, or its latest resubmission. */
  current: string;
  /** The state of `current` as the thread last took note of it. */
  lastState: string;
  /** The state the root alert was about. */
  alerted: 'Failed' | 'Stopped';
  /** When the latest attempt failed or stopped (ISO): a resubmission counts within followups.window of it. */
  endedAt: string;
  /** What happened since the alert, in order (messages/follow-ups.ts FollowUpEvent). */
  events: string[];
  /** The root alert as it was posted: its first line is rewritten from it (chat.update replaces the whole message). */
  rootPayload: OutboxPayload;
  /** The Submission (recovery/submission.ts) of the attempt that failed or stopped last: names, never environment values. */
  submission?: unknown;
  /** Triage's category of the last failure, and whether a plain retry makes sense. */
  category?: string;
  transient?: boolean;
  /** The workload's name and owner, and where its owner's follow-ups go (outbox owner target). */
  name: string;
  owner?: string;
  project: string;
  /** The mute scope of the workload (notify/mutes.ts muteTarget). */
  muteScope: string;
  /** The alert was folded into another's burst: replies go under that message, its first line is not edited. */
  folded?: boolean;
  updatedAt: string;
}

/** Follow-up threads, and the one coalesced edit of each root. */
export interface FollowUpStore {
  /** The threads of these chains that exist (one read for a slice of decisions). */
  followUpThreads(chains: readonly string[]): Promise<Map<string, StoredFollowUpThread>>;
  putFollowUpThread(thread: StoredFollowUpThread): Promise<void>;
  /**
   * Opens the thread of a new alert: writes it unless the chain's thread already hangs under
   * that same alert (two replicas preparing one alert, or one preparing it again after a
   * restart: what the thread has noted since is kept). Returns whether it wrote. One statement.
   */
  openFollowUpThread(thread: StoredFollowUpThread): Promise<boolean>;
  /**
   * Queues an edit of a message already sent, coalesced by key, in one transaction: an item of
   * that key still queued gets the new target and payload (one pending chat.update per root, the
   * latest); otherwise the edit is queued afresh, forgetting the ledger row of an edit sent
   * before (an edit may be sent again: it says where things stand, not that they happened).
   */
  queueCoalescedEdit(item: NewOutboxItem, now: Date): Promise<'queued' | 'replaced'>;
  /** Forgets threads not updated since `before` (past followups.window). */
  pruneFollowUpThreads(before: Date): Promise<number>;
}

export interface Store extends LedgerStore, OutboxStore, BurstStore, WorkloadStore, PreferenceStore, MaintenanceStore, HealthStore, FollowUpStore {}

/**
 * The order in which due items are sent, lowest first, by kind. When a node dies and hundreds of
 * owners must hear at once through Slack's rate limits, each owner's first alert (the burst
 * anchor: later alerts of a burst fold into its rewrite) goes before anything that completes or
 * adds to what was said (rewrites), then digests, warnings and reminders, then daily nudges.
 * Stored per item when it is queued (and by the migration for items queued before it).
 */
export const OUTBOX_PRIORITY = {
  /** A workload's state reached: failed, stopped, completed. */
  alert: 0,
  /** A burst rewrite (kind burst) or another edit of a message already sent. */
  rewrite: 1,
  /** The operators' digest, stuck warnings, maintenance, archive problems, anything else. */
  other: 2,
  /** Daily cleanup nudges. */
  nudge: 3,
} as const;

const ALERT_KINDS = new Set(['failed', 'stopped', 'completed']);

export function outboxPriority(item: Pick<NewOutboxItem, 'kind' | 'target'>): number {
  if (item.target.type === 'burst' || item.target.type === 'update' || item.kind === 'burst') return OUTBOX_PRIORITY.rewrite;
  if (item.target.type === 'thread' && item.target.edit) return OUTBOX_PRIORITY.rewrite;
  if (ALERT_KINDS.has(item.kind)) return OUTBOX_PRIORITY.alert;
  if (item.kind === 'cleanup') return OUTBOX_PRIORITY.nudge;
  return OUTBOX_PRIORITY.other;
}

/** outboxPriority as SQL over the outbox's `kind` column (both stores' migrations use it). */
export const OUTBOX_PRIORITY_SQL = `CASE
     WHEN kind = 'burst' OR target LIKE '{"type":"burst"%' OR target LIKE '{"type":"update"%' THEN ${OUTBOX_PRIORITY.rewrite}
     WHEN kind IN ('failed', 'stopped', 'completed') THEN ${OUTBOX_PRIORITY.alert}
     WHEN kind = 'cleanup' THEN ${OUTBOX_PRIORITY.nudge}
     ELSE ${OUTBOX_PRIORITY.other} END`;
