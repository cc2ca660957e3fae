/**
 * How mutes name what they cover (one workload or a whole project, for a while or until
 * unmuted). What a mute means for a message is delivery/plan.ts's `wanted`; the planner reads
 * the person's mutes (notify/planner.ts).
 */

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
