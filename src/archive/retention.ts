/**
 * Keeping the log archive inside its volume: each workload's directory
 * (`<dir>/<project>/<workload>/<uid>/`, see paths.ts) is kept or deleted whole, oldest first —
 * first those older than archive.retention, then more until the total fits archive.maxTotalBytes.
 * `planArchivePrune` decides (pure); `scanArchive` and `removeArchived` touch the disk.
 */
import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

export interface ArchivedWorkload {
  /** The workload's directory. */
  path: string;
  /** When it was last written (newest file), ms since the epoch. */
  newestMs: number;
  bytes: number;
}

export interface ArchivePrunePolicy {
  nowMs: number;
  retentionMs: number;
  maxTotalBytes?: number;
  /** Directories being written now: never deleted, though they count towards the total. */
  busy: ReadonlySet<string>;
}

export interface ArchivePrune {
  path: string;
  bytes: number;
  reason: 'age' | 'size';
}

export function planArchivePrune(entries: readonly ArchivedWorkload[], policy: ArchivePrunePolicy): ArchivePrune[] {
  const oldestFirst = [...entries].sort((a, b) => a.newestMs - b.newestMs || a.path.localeCompare(b.path));
  const doomed: ArchivePrune[] = [];
  const kept: ArchivedWorkload[] = [];
  for (const entry of oldestFirst) {
    if (!policy.busy.has(entry.path) && policy.nowMs - entry.newestMs > policy.retentionMs) doomed.push({ path: entry.path, bytes: entry.bytes, reason: 'age' });
    else kept.push(entry);
  }
  if (policy.maxTotalBytes === undefined) return doomed;
  let total = kept.reduce((sum, e) => sum + e.bytes, 0);
  for (const entry of kept) {
    if (total <= policy.maxTotalBytes) break;
    if (policy.busy.has(entry.path)) continue;
    doomed.push({ path: entry.path, bytes: entry.bytes, reason: 'size' });
    total -= entry.bytes;
  }
  return doomed;
}

/** Every workload directory of the archive, with its size and last write; a missing archive is empty. */
export async function scanArchive(dir: string): Promise<ArchivedWorkload[]> {
  const found: ArchivedWorkload[] = [];
  for (const project of await subdirectories(dir)) {
    for (const workload of await subdirectories(project)) {
      for (const uid of await subdirectories(workload)) found.push(await measure(uid));
    }
  }
  return found;
}

/** Deletes a workload's directory, then its workload and project directories if left empty. */
export async function removeArchived(dir: string, path: string): Promise<void> {
  // Only ever below the archive: a path from elsewhere is a bug, not something to delete.
  const rel = relative(dir, path);
  if (!rel || rel.startsWith('..') || rel.split(/[\\/]/).length !== 3) throw new Error(`not an archived workload directory: ${path}`);
  await rm(path, { recursive: true, force: true });
  for (let parent = dirname(path); parent !== dir && relative(dir, parent) && !relative(dir, parent).startsWith('..'); parent = dirname(parent)) {
    try {
      await rmdir(parent);
    } catch {
      break; // not empty (or already gone): the levels above are not empty either
    }
  }
}

async function subdirectories(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => join(path, e.name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function measure(path: string): Promise<ArchivedWorkload> {
  let bytes = 0;
  let newestMs = (await lstat(path)).mtimeMs;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const stat = await lstat(join(path, entry.name)).catch(() => undefined);
    if (!stat) continue;
    bytes += stat.size;
    newestMs = Math.max(newestMs, stat.mtimeMs);
  }
  return { path, newestMs, bytes };
}
