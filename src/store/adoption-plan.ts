/**
 * What the adoption of a single-cluster store by its first named cluster changes besides the
 * workload rows (WorkloadStore.adoptUnnamedCluster): every key about a workload of the unnamed
 * cluster becomes the same key in the named one (keys.ts keyInCluster) wherever it is kept — the
 * ledger, the queued outbox items and the rewrites' anchors, the bursts and what is folded into
 * them, the follow-ups (`fu:`, `fu-root:`) and their threads (follow_up_threads: chain, root,
 * the workload followed) — so that no alert told, queued or folded before the move is told
 * again after it, none is lost, and a workload that failed before it is still followed in the
 * thread of its alert after it. Pure: each store reads the rows inside its transaction, asks planAdoption, and
 * applies the answer in the same transaction.
 *
 * Where a renamed key meets one already there, what was there wins: a named row over a renamed
 * one, and what was told (the ledger) over anything queued or folded under the same key. So
 * after the move no key is both told and owed, and none is owed twice.
 */
import { chainInCluster, keyInCluster } from '../keys.js';
import { splitWorkloadId, workloadId } from '../model.js';
import type { OutboxTarget, StoredFollowUpThread } from './port.js';

export interface AdoptionRows {
  /** Ledger keys under keys.ts WORKLOAD_KEY_PREFIXES (others are about no workload). */
  ledger: readonly string[];
  outbox: readonly { id: number; key: string; target: OutboxTarget }[];
  /** Anchor keys of the bursts. */
  bursts: readonly string[];
  entries: readonly { key: string; anchorKey: string; told: boolean }[];
  /** The follow-up threads (few: pruned past followups.window); the unnamed cluster's chains are keys.ts followUpChain `/<ns>/<name>`. */
  threads: readonly StoredFollowUpThread[];
}

export interface AdoptionPlan {
  ledger: { renames: Array<[from: string, to: string]>; drops: string[] };
  outbox: { updates: Array<{ id: number; key: string; target: OutboxTarget }>; drops: number[] };
  /**
   * Bursts anchored at a renamed key: `copy` when no burst has the new anchor yet (copied under
   * it before the entries move), else the entries join the one there. Either way the old one
   * goes once its entries have moved.
   */
  bursts: Array<{ from: string; to: string; copy: boolean }>;
  entries: { updates: Array<{ key: string; newKey: string; anchorKey: string }>; drops: string[] };
  /** Threads renamed (`from` its old chain to `thread`, rewritten whole), or dropped where the named chain has one. */
  threads: { updates: Array<{ from: string; thread: StoredFollowUpThread }>; drops: string[] };
}

const isRewrite = (target: OutboxTarget): target is Extract<OutboxTarget, { anchorKey: string }> => target.type === 'burst' || target.type === 'update';

/** A queued item's target once its workload is in `cluster`: a rewrite's anchor, a follow-up's root. */
function targetInCluster(target: OutboxTarget, cluster: string): OutboxTarget {
  if (isRewrite(target)) {
    const anchorKey = keyInCluster(target.anchorKey, cluster);
    return anchorKey === undefined ? target : { ...target, anchorKey };
  }
  if (target.type === 'thread') {
    const rootKey = keyInCluster(target.rootKey, cluster);
    return rootKey === undefined ? target : { ...target, rootKey };
  }
  return target;
}

/**
 * A thread of the unnamed cluster as the named cluster's: its chain, its root alert, the workload
 * it follows and the mute scope its follow-ups carry (notify/mutes.ts muteTarget: `<ns>/<name>`
 * becomes `<cluster>/<ns>/<name>`, as the cluster's own alerts are muted).
 */
function threadInCluster(thread: StoredFollowUpThread, chain: string, cluster: string): StoredFollowUpThread {
  const current = splitWorkloadId(thread.current).cluster === undefined ? workloadId({ cluster, uid: thread.current }) : thread.current;
  // The unnamed form is the chain without its empty cluster (`/<ns>/<name>` → `<ns>/<name>`).
  const named = thread.muteScope === thread.chain.slice(1) ? `${cluster}/${thread.muteScope}` : thread.muteScope;
  return { ...thread, chain, rootKey: keyInCluster(thread.rootKey, cluster) ?? thread.rootKey, current, muteScope: named };
}

export function planAdoption(rows: AdoptionRows, cluster: string): AdoptionPlan {
  const renamed = (key: string) => keyInCluster(key, cluster);
  const inCluster = (key: string) => renamed(key) ?? key;

  const ledgerKeys = new Set(rows.ledger);
  const ledger: AdoptionPlan['ledger'] = { renames: [], drops: [] };
  for (const key of rows.ledger) {
    const to = renamed(key);
    if (to === undefined) continue;
    if (ledgerKeys.has(to)) ledger.drops.push(key);
    else ledger.renames.push([key, to]);
  }
  const toldAfter = new Set([...rows.ledger.filter((key) => renamed(key) === undefined), ...ledger.renames.map(([, to]) => to)]);
  const newlyTold = new Set(ledger.renames.map(([, to]) => to));

  // What is owed under a key nobody renames: it wins over a renamed key that meets it.
  const owedAlready = new Set([
    ...rows.outbox.filter((item) => !isRewrite(item.target) && renamed(item.key) === undefined).map((item) => item.key),
    ...rows.entries.filter((entry) => !entry.told && renamed(entry.key) === undefined).map((entry) => entry.key),
  ]);
  /** Whether something owed under `key` (after the move) would be told twice or owed twice. */
  const owedTwice = (key: string, moved: boolean) => (moved ? toldAfter.has(key) || owedAlready.has(key) : newlyTold.has(key));

  const outboxKeys = new Set(rows.outbox.map((item) => item.key));
  const outbox: AdoptionPlan['outbox'] = { updates: [], drops: [] };
  const queuedAfter = new Set<string>();
  for (const item of rows.outbox) {
    const key = inCluster(item.key);
    const moved = key !== item.key;
    const target = targetInCluster(item.target, cluster);
    if ((moved && outboxKeys.has(key)) || (!isRewrite(item.target) && owedTwice(key, moved))) {
      outbox.drops.push(item.id);
      continue;
    }
    if (!isRewrite(item.target)) queuedAfter.add(key);
    if (moved || target !== item.target) outbox.updates.push({ id: item.id, key, target });
  }

  const burstAnchors = new Set(rows.bursts);
  const bursts = rows.bursts.flatMap((from) => {
    const to = renamed(from);
    return to === undefined ? [] : [{ from, to, copy: !burstAnchors.has(to) }];
  });

  const entryKeys = new Set(rows.entries.map((entry) => entry.key));
  const entries: AdoptionPlan['entries'] = { updates: [], drops: [] };
  for (const entry of rows.entries) {
    const newKey = inCluster(entry.key);
    const anchorKey = inCluster(entry.anchorKey);
    const moved = newKey !== entry.key;
    if ((moved && entryKeys.has(newKey)) || (!entry.told && (owedTwice(newKey, moved) || (moved && queuedAfter.has(newKey))))) entries.drops.push(entry.key);
    else if (moved || anchorKey !== entry.anchorKey) entries.updates.push({ key: entry.key, newKey, anchorKey });
  }
  const chains = new Set(rows.threads.map((thread) => thread.chain));
  const threads: AdoptionPlan['threads'] = { updates: [], drops: [] };
  for (const thread of rows.threads) {
    const chain = chainInCluster(thread.chain, cluster);
    if (chain === undefined) continue;
    if (chains.has(chain)) threads.drops.push(thread.chain);
    else threads.updates.push({ from: thread.chain, thread: threadInCluster(thread, chain, cluster) });
  }
  return { ledger, outbox, bursts, entries, threads };
}
