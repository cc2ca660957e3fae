/**
 * The single-cluster store given to the first named cluster (WorkloadStore.adoptUnnamedCluster),
 * over SQLite, in one transaction: the workload rows here, every key about them as
 * ../adoption-plan.ts decides.
 */
import { WORKLOAD_KEY_PREFIXES } from '../../keys.js';
import { workloadIdPrefix } from '../../model.js';
import { planAdoption, type AdoptionPlan, type AdoptionRows } from '../adoption-plan.js';
import { escapeLike, type Row } from '../rows.js';
import type { OutboxTarget, StoredFollowUpThread } from '../port.js';
import type { SqliteDatabase } from './database.js';

export function adoptUnnamedCluster(db: SqliteDatabase, name: string): number {
  // Every start with named clusters asks; once adopted there is nothing unnamed, and the ledger
  // is not scanned again (a bare key whose workload row is gone names a deleted workload).
  if (!db.prepare("SELECT 1 FROM workloads WHERE cluster = '' LIMIT 1").get()) return 0;
  return db.transaction(() => {
    // Where the named row exists already, it wins; the unnamed one goes.
    const moved = db
      .prepare("UPDATE OR IGNORE workloads SET uid = @prefix || uid, cluster = @name, snapshot = json_set(snapshot, '$.cluster', @name) WHERE cluster = ''")
      .run({ prefix: workloadIdPrefix(name), name }).changes;
    db.prepare("DELETE FROM workloads WHERE cluster = ''").run();
    applyPlan(db, planAdoption(keyedRows(db), name));
    return moved;
  });
}

function keyedRows(db: SqliteDatabase): AdoptionRows {
  const where = WORKLOAD_KEY_PREFIXES.map(() => "key LIKE ? ESCAPE '\\'").join(' OR ');
  const ledger = db.prepare(`SELECT key FROM ledger WHERE ${where}`).all(...WORKLOAD_KEY_PREFIXES.map((p) => `${escapeLike(p)}%`)) as { key: string }[];
  const outbox = db.prepare('SELECT id, key, target FROM outbox').all() as Row[];
  const bursts = db.prepare('SELECT anchor_key FROM bursts').all() as { anchor_key: string }[];
  const entries = db.prepare('SELECT key, anchor_key, told FROM burst_entries').all() as Row[];
  const threads = db.prepare('SELECT json FROM follow_up_threads').all() as { json: string }[];
  return {
    ledger: ledger.map((r) => r.key),
    outbox: outbox.map((r) => ({ id: Number(r.id), key: r.key as string, target: JSON.parse(r.target as string) as OutboxTarget })),
    bursts: bursts.map((r) => r.anchor_key),
    entries: entries.map((r) => ({ key: r.key as string, anchorKey: r.anchor_key as string, told: r.told === 1 })),
    threads: threads.map((r) => JSON.parse(r.json) as StoredFollowUpThread),
  };
}

/** In the order that keeps every key unique and every entry's burst present at each step. */
function applyPlan(db: SqliteDatabase, plan: AdoptionPlan): void {
  for (const key of plan.ledger.drops) db.prepare('DELETE FROM ledger WHERE key = ?').run(key);
  for (const [from, to] of plan.ledger.renames) db.prepare('UPDATE ledger SET key = ? WHERE key = ?').run(to, from);
  for (const id of plan.outbox.drops) db.prepare('DELETE FROM outbox WHERE id = ?').run(id);
  for (const { id, key, target } of plan.outbox.updates) db.prepare('UPDATE outbox SET key = ?, target = ? WHERE id = ?').run(key, JSON.stringify(target), id);
  for (const { from, to } of plan.bursts.filter((b) => b.copy)) {
    db.prepare('INSERT INTO bursts (anchor_key, destination, anchor_entry, opened_at, closes_at) SELECT ?, destination, anchor_entry, opened_at, closes_at FROM bursts WHERE anchor_key = ?').run(to, from);
  }
  for (const key of plan.entries.drops) db.prepare('DELETE FROM burst_entries WHERE key = ?').run(key);
  for (const { key, newKey, anchorKey } of plan.entries.updates) db.prepare('UPDATE burst_entries SET key = ?, anchor_key = ? WHERE key = ?').run(newKey, anchorKey, key);
  for (const { from } of plan.bursts) db.prepare('DELETE FROM bursts WHERE anchor_key = ?').run(from);
  for (const chain of plan.threads.drops) db.prepare('DELETE FROM follow_up_threads WHERE chain = ?').run(chain);
  for (const { from, thread } of plan.threads.updates) {
    db.prepare('UPDATE follow_up_threads SET chain = ?, root_key = ?, json = ? WHERE chain = ?').run(thread.chain, thread.rootKey, JSON.stringify(thread), from);
  }
}
