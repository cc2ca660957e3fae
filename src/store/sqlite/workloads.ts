/** What the bot last saw of each workload, over SQLite. */
import type { StoredWorkload } from '../port.js';
import type { SqliteDatabase } from './database.js';
import { rowToWorkload } from '../rows.js';
import { adoptUnnamedCluster } from './adoption.js';

export class SqliteWorkloads {
  constructor(private readonly db: SqliteDatabase) {}

  getWorkload(uid: string): StoredWorkload | undefined {
    const row = this.db.prepare('SELECT * FROM workloads WHERE uid = ?').get(uid) as Record<string, unknown> | undefined;
    return row && rowToWorkload(row);
  }

  allWorkloads(): StoredWorkload[] {
    return (this.db.prepare('SELECT * FROM workloads WHERE deleted_at IS NULL').all() as Record<string, unknown>[]).map(rowToWorkload);
  }

  putWorkload(w: StoredWorkload): void {
    this.db
      .prepare(
        `INSERT INTO workloads (uid, cluster, namespace, name, project, owner, kind, state, state_since, snapshot, deleted_at)
         VALUES (@uid, @cluster, @namespace, @name, @project, @owner, @kind, @state, @stateSince, @snapshot, @deletedAt)
         ON CONFLICT(uid) DO UPDATE SET cluster=@cluster, namespace=@namespace, name=@name, project=@project, owner=@owner, kind=@kind,
           state=@state, state_since=@stateSince, snapshot=@snapshot, deleted_at=@deletedAt`,
      )
      .run({ ...w, cluster: w.cluster ?? '', owner: w.owner ?? null, deletedAt: w.deletedAt ?? null });
  }

  getWorkloads(uids: readonly string[]): Map<string, StoredWorkload> {
    // One statement for the slice: the uids go in as one JSON array.
    const rows = this.db.prepare('SELECT * FROM workloads WHERE uid IN (SELECT value FROM json_each(?))').all(JSON.stringify(uids)) as Record<string, unknown>[];
    return new Map(rows.map((row) => [row.uid as string, rowToWorkload(row)]));
  }

  putWorkloads(ws: readonly StoredWorkload[]): void {
    this.db.handle.transaction(() => {
      for (const w of ws) this.putWorkload(w);
    })();
  }

  adoptUnnamedCluster(name: string): number {
    return adoptUnnamedCluster(this.db, name);
  }

  presentWorkloadUids(): string[] {
    return (this.db.prepare('SELECT uid FROM workloads WHERE deleted_at IS NULL').all() as { uid: string }[]).map((r) => r.uid);
  }

  pruneDeletedWorkloads(before: Date): number {
    return this.db.prepare('DELETE FROM workloads WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(before.toISOString()).changes;
  }
}
