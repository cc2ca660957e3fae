/**
 * Mutes: a person can silence one workload or a whole project, for a while or until they
 * unmute. Checked when a message is about to be sent, since only then is the person known.
 */
import type { OutboxItem, Store } from '../store/sqlite.js';

export const muteScope = {
  workload: (namespace: string, name: string) => `workload:${namespace}/${name}`,
  project: (project: string) => `project:${project}`,
};

export function isMutedFor(store: Store, userId: string, item: OutboxItem, now: Date): boolean {
  if (item.target.type !== 'owner') return false;
  const scopes = new Set(store.activeMutes(userId, now).map((m) => m.scope));
  if (scopes.has(muteScope.project(item.target.project))) return true;
  return !!item.target.workload && scopes.has(`workload:${item.target.workload}`);
}
