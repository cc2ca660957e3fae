/**
 * The single-cluster store given to the first named cluster (WorkloadStore.adoptUnnamedCluster),
 * over PostgreSQL, in one transaction: the workload rows here, every key about them as
 * ../adoption-plan.ts decides, each change one statement over arrays (the ledger may hold a row
 * per alert ever told).
 */
import type pg from 'pg';
import { WORKLOAD_KEY_PREFIXES } from '../../keys.js';
import { workloadIdPrefix } from '../../model.js';
import { planAdoption, type AdoptionPlan, type AdoptionRows } from '../adoption-plan.js';
import type { OutboxTarget, StoredFollowUpThread } from '../port.js';
import { escapeLike } from '../rows.js';
import type { PostgresDatabase } from './database.js';

export async function adoptUnnamedCluster(db: PostgresDatabase, name: string): Promise<number> {
  // Every start with named clusters asks; once adopted there is nothing unnamed, and the ledger
  // is not scanned again (a bare key whose workload row is gone names a deleted workload).
  if (!(await db.rows("SELECT 1 FROM workloads WHERE cluster = '' LIMIT 1")).length) return 0;
  return db.tx(async (c) => {
    // Where the named row exists already, it wins; the unnamed one goes.
    const moved = await db.changes(
      `UPDATE workloads w SET uid = $1 || w.uid, cluster = $2, snapshot = (w.snapshot::jsonb || jsonb_build_object('cluster', $2::text))::text
       WHERE w.cluster = '' AND NOT EXISTS (SELECT 1 FROM workloads t WHERE t.uid = $1 || w.uid)`,
      [workloadIdPrefix(name), name],
      c,
    );
    await c.query("DELETE FROM workloads WHERE cluster = ''");
    await applyPlan(c, planAdoption(await keyedRows(db, c), name));
    return moved;
  });
}

async function keyedRows(db: PostgresDatabase, c: pg.PoolClient): Promise<AdoptionRows> {
  const where = WORKLOAD_KEY_PREFIXES.map((_, i) => `key LIKE $${i + 1} ESCAPE '\\'`).join(' OR ');
  const ledger = await db.rows(`SELECT key FROM ledger WHERE ${where}`, WORKLOAD_KEY_PREFIXES.map((p) => `${escapeLike(p)}%`), c);
  const outbox = await db.rows('SELECT id, key, target FROM outbox', [], c);
  const bursts = await db.rows('SELECT anchor_key FROM bursts', [], c);
  const entries = await db.rows('SELECT key, anchor_key, told FROM burst_entries', [], c);
  const threads = await db.rows('SELECT json FROM follow_up_threads', [], c);
  return {
    ledger: ledger.map((r) => r.key as string),
    outbox: outbox.map((r) => ({ id: Number(r.id), key: r.key as string, target: JSON.parse(r.target as string) as OutboxTarget })),
    bursts: bursts.map((r) => r.anchor_key as string),
    entries: entries.map((r) => ({ key: r.key as string, anchorKey: r.anchor_key as string, told: r.told === true })),
    threads: threads.map((r) => JSON.parse(r.json as string) as StoredFollowUpThread),
  };
}

/** In the order that keeps every key unique and every entry's burst present at each statement. */
async function applyPlan(c: pg.PoolClient, plan: AdoptionPlan): Promise<void> {
  const { ledger, outbox, bursts, entries } = plan;
  await c.query('DELETE FROM ledger WHERE key = ANY($1::text[])', [ledger.drops]);
  await c.query('UPDATE ledger l SET key = r.to_key FROM unnest($1::text[], $2::text[]) AS r(from_key, to_key) WHERE l.key = r.from_key', [
    ledger.renames.map(([from]) => from),
    ledger.renames.map(([, to]) => to),
  ]);
  await c.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [outbox.drops]);
  await c.query('UPDATE outbox o SET key = u.key, target = u.target FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, key, target) WHERE o.id = u.id', [
    outbox.updates.map((u) => u.id),
    outbox.updates.map((u) => u.key),
    outbox.updates.map((u) => JSON.stringify(u.target)),
  ]);
  const copied = bursts.filter((b) => b.copy);
  await c.query(
    `INSERT INTO bursts (anchor_key, destination, anchor_entry, opened_at, closes_at)
     SELECT u.to_key, b.destination, b.anchor_entry, b.opened_at, b.closes_at FROM unnest($1::text[], $2::text[]) AS u(from_key, to_key) JOIN bursts b ON b.anchor_key = u.from_key`,
    [copied.map((b) => b.from), copied.map((b) => b.to)],
  );
  await c.query('DELETE FROM burst_entries WHERE key = ANY($1::text[])', [entries.drops]);
  await c.query('UPDATE burst_entries e SET key = u.new_key, anchor_key = u.anchor_key FROM unnest($1::text[], $2::text[], $3::text[]) AS u(key, new_key, anchor_key) WHERE e.key = u.key', [
    entries.updates.map((u) => u.key),
    entries.updates.map((u) => u.newKey),
    entries.updates.map((u) => u.anchorKey),
  ]);
  await c.query('DELETE FROM bursts WHERE anchor_key = ANY($1::text[])', [bursts.map((b) => b.from)]);
  await c.query('DELETE FROM follow_up_threads WHERE chain = ANY($1::text[])', [plan.threads.drops]);
  await c.query(
    'UPDATE follow_up_threads t SET chain = u.chain, root_key = u.root_key, json = u.json FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(from_chain, chain, root_key, json) WHERE t.chain = u.from_chain',
    [plan.threads.updates.map((u) => u.from), plan.threads.updates.map((u) => u.thread.chain), plan.threads.updates.map((u) => u.thread.rootKey), plan.threads.updates.map((u) => JSON.stringify(u.thread))],
  );
}
