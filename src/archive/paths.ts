/**
 * Where archived logs go: `<dir>/<project>/<workload>/<uid>/<pod>.<container>[.previous].log`,
 * and `…/<workload>/<cluster>_<uid>/…` for a workload of a cluster named in `clusters:` (its
 * workloadId() made a path component: the same depth, so retention walks every archive alike).
 * Every component comes from the cluster, so each is reduced to a safe charset and can never
 * climb out of the archive (`..`), hide itself (leading dot) or add a level (slash).
 */
import { join } from 'node:path';
import { workloadId, type Workload } from '../model.js';

/** Longest component kept: well under the 255-byte file name limit, with room for suffixes. */
const MAX_COMPONENT = 120;

export function safePathComponent(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, (dots) => '_'.repeat(dots.length))
    .slice(0, MAX_COMPONENT);
  return cleaned || '_';
}

/** The workload's own directory of the archive. */
export function workloadArchiveDir(dir: string, workload: Pick<Workload, 'project' | 'name' | 'uid' | 'cluster'>): string {
  return join(dir, safePathComponent(workload.project), safePathComponent(workload.name), safePathComponent(workloadId(workload)));
}

/** One container's log file name; `previous` is the instance that ran before the last restart. */
export function logFileName(pod: string, container: string, previous: boolean): string {
  return `${safePathComponent(pod)}.${safePathComponent(container)}${previous ? '.previous' : ''}.log`;
}

/** Written first, renamed to `name` when complete: a reader never sees half a file under the real name. */
export function partialFileName(name: string): string {
  return `.${name}.partial`;
}
