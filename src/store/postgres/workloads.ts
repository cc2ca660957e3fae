/** What the bot last saw of each workload, over PostgreSQL. */
import type { StoredWorkload } from '../port.js';
import { rowToWorkload } from '../rows.js';
import { adoptUnnamedCluster } from './adoption.js';
import type { PostgresDatabase } from './database.js';

export class PostgresWorkloads {
  constructor(private readonly db: PostgresDatabase) {}

  async getWorkload(uid: string): Promise<StoredWorkload | undefined> {
    const [row] = await this.db.rows('SELECT * FROM workloads WHERE uid = $1', [uid]);
    return row && rowToWorkload(row);
  }

  async allWorkloads(): Promise<StoredWorkload[]> {
    return (await this.db.rows('SELECT * FROM workloads WHERE deleted_at IS NULL')).map(rowToWorkload);
  }

  async putWorkload(w: StoredWorkload): Promise<void> {
    await this.db.run(
      `INSERT INTO workloads (uid, cluster, namespace, name, project, owner, kind, state, state_since, snapshot, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (uid) DO UPDATE SET cluster = excluded.cluster, namespace = excluded.namespace, name = excluded.name, project = excluded.project,
         owner = excluded.owner, kind = excluded.kind, state = excluded.state, state_since = excluded.state_since,
         snapshot = excluded.snapshot, deleted_at = excluded.deleted_at`,
      [w.uid, w.cluster ?? '', w.namespace, w.name, w.project, w.owner ?? null, w.kind, w.state, w.stateSince, w.snapshot, w.deletedAt ?? null],
    );
  }

  async getWorkloads(uids: readonly string[]): Promise<Map<string, StoredWorkload>> {
    if (uids.length === 0) return new Map();
    const rows = await this.db.rows('SELECT * FROM workloads WHERE uid = ANY($1::text[])', [uids]);
    return new Map(rows.map((row) => [row.uid as string, rowToWorkload(row)]));
  }

  async putWorkloads(ws: readonly StoredWorkload[]): Promise<void> {
    // One statement (so one implicit transaction) for the slice. ON CONFLICT may touch a row once
    // per statement, so a uid given twice keeps only its last entry, as sequential puts would.
    const last = [...new Map(ws.map((w) => [w.uid, w])).values()];
    if (last.length === 0) return;
    const column = <K extends keyof StoredWorkload>(key: K) => last.map((w) => w[key] ?? null);
    await this.db.run(
      `INSERT INTO workloads (uid, cluster, namespace, name, project, owner, kind, state, state_since, snapshot, deleted_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
       ON CONFLICT (uid) DO UPDATE SET cluster = excluded.cluster, namespace = excluded.namespace, name = excluded.name, project = excluded.project,
         owner = excluded.owner, kind = excluded.kind, state = excluded.state, state_since = excluded.state_since,
         snapshot = excluded.snapshot, deleted_at = excluded.deleted_at`,
      [column('uid'), last.map((w) => w.cluster ?? ''), column('namespace'), column('name'), column('project'), column('owner'), column('kind'), column('state'), column('stateSince'), column('snapshot'), column('deletedAt')],
    );
  }

  adoptUnnamedCluster(name: string): Promise<number> {
    return adoptUnnamedCluster(this.db, name);
  }

  async presentWorkloadUids(): Promise<string[]> {
    return (await this.db.rows('SELECT uid FROM workloads WHERE deleted_at IS NULL')).map((r) => r.uid as string);
  }

  async pruneDeletedWorkloads(before: Date): Promise<number> {
    return this.db.changes('DELETE FROM workloads WHERE deleted_at IS NOT NULL AND deleted_at < $1', [before.toISOString()]);
  }
}
