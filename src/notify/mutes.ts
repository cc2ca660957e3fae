/**
 * Whether a message may go to a person now: their mutes (one workload or a whole project, for
 * a while or until unmuted) and their settings (opt-ins, quiet hours). Checked when the message
 * is about to be sent, since only then is the person known.
 */
import type { OutboxItem, PreferenceStore } from '../store/port.js';
import { quietUntil, settingsOf } from './settings.js';

/**
 * What a mute covers. A workload of a named cluster is `workload:<cluster>/<ns>/<name>`, so
 * muting it in one cluster leaves the same name in another alone; the one unnamed cluster of an
 * old config keeps `workload:<ns>/<name>`, so mutes made before clusters had names still hold.
 * A project mute covers the project in every cluster (projects are people's, not clusters').
 */
export const muteScope = {
  workload: (namespace: string, name: string, cluster?: string) => `workload:${muteTarget(namespace, name, cluster)}`,
  project: (project: string) => `project:${project}`,
};

/** The workload part of a scope, as owner messages carry it (`OutboxTarget.workload`). */
export function muteTarget(namespace: string, name: string, cluster?: string): string {
  return cluster ? `${cluster}/${namespace}/${name}` : `${namespace}/${name}`;
}

/** A workload scope read back: its cluster (if named), namespace and name; undefined for other scopes. */
export function parseWorkloadScope(scope: string): { cluster?: string; namespace: string; name: string } | undefined {
  const match = /^workload:(?:([^/]+)\/)?([^/]+)\/([^/]+)$/.exec(scope);
  if (!match) return undefined;
  return { ...(match[1] ? { cluster: match[1] } : {}), namespace: match[2], name: match[3] };
}

/** Kinds of owner message a person can opt out of (or must opt in to) in their settings. */
const OPT_IN = { completed: 'completed', pending: 'pending', initializing: 'pending', 'log-tip': 'tips' } as const;

export type Delivery = { action: 'send' } | { action: 'drop'; why: string } | { action: 'defer'; until: Date };

export async function deliveryFor(store: Pick<PreferenceStore, 'activeMutes' | 'getSettings'>, userId: string, item: OutboxItem, now: Date): Promise<Delivery> {
  // A follow-up (a thread reply, a root edit) is about an owner's workload: the same mutes hold.
  if (item.target.type !== 'owner' && item.target.type !== 'thread') return { action: 'send' };
  const scopes = new Set((await store.activeMutes(userId, now)).map((m) => m.scope));
  if (scopes.has(muteScope.project(item.target.project))) return { action: 'drop', why: 'project muted' };
  if (item.target.workload && scopes.has(`workload:${item.target.workload}`)) return { action: 'drop', why: 'workload muted' };
  const settings = await settingsOf(store, userId);
  const optIn = OPT_IN[item.kind as keyof typeof OPT_IN];
  if (optIn && !settings[optIn]) return { action: 'drop', why: `${optIn} messages turned off in settings` };
  const until = quietUntil(settings.quietHours, now);
  return until ? { action: 'defer', until } : { action: 'send' };
}
