/**
 * The Kubernetes permissions the bot uses, as a table, and how to word the result of asking
 * the API server about each one (SelfSubjectAccessReview). Pure. The list follows what the
 * code does: list and watch the Run:ai workload kinds (src/cluster/watcher.ts); list pods,
 * get the controllers between a pod and its workload, read logs, list events, PodGroups and
 * namespaces (src/cluster/reader.ts).
 * deploy/base/clusterrole.yaml grants exactly these (and create on selfsubjectaccessreviews, to ask).
 */
import { OWNER_PLURALS } from '../cluster/ownership.js';
import { fail, pass, warn, type CheckRow } from './report.js';

export interface Permission {
  verb: string;
  /** '' for the core API group. */
  group: string;
  resource: string;
  subresource?: string;
  /** Undefined: cluster-wide. */
  namespace?: string;
  /** One object by name (RBAC resourceNames), e.g. the HA Lease. */
  name?: string;
  why: string;
  /** How to grant it, when not by the ClusterRole. */
  fix?: string;
  /** What the bot does without it: a denial is a warning, not a failure. */
  without?: string;
}

const WORKLOAD_VERBS = [
  ['list', 'to find every workload at start and at each relist'],
  ['watch', 'to see workload state changes as they happen'],
] as const;

/** Core permissions, per namespace the bot watches (all namespaces when none are configured). */
const CORE_PERMISSIONS: ReadonlyArray<Omit<Permission, 'namespace'>> = [
  { verb: 'list', group: '', resource: 'pods', why: "to find a workload's pods and their exit codes" },
  { verb: 'get', group: '', resource: 'pods', subresource: 'log', why: "to read the failed container's log" },
  { verb: 'list', group: '', resource: 'events', why: 'to quote the scheduler and kubelet reasons' },
  { verb: 'list', group: 'scheduling.run.ai', resource: 'podgroups', why: 'to explain why a workload is Pending (quota, incomplete gang)' },
];

/** Reading a pod's owner chain (cluster/ownership.ts); without it pods are judged by creation time. */
const OWNER_PERMISSIONS: ReadonlyArray<Omit<Permission, 'namespace'>> = [...OWNER_PLURALS.values()].map(({ group, plural }) => ({
  verb: 'get', group, resource: plural,
  why: "to follow a pod's owners to its workload (not an earlier run's or a Helm release's pods)",
  without: "pods are matched by label and creation time, so a resubmitted workload's alert may quote the earlier run's pods",
}));

export const CLUSTERROLE_FIX = 'grant it with deploy/base/clusterrole.yaml and its binding (kubectl apply -k deploy/), or ask a cluster admin to';

export function requiredPermissions(workloadPlurals: readonly string[], group: string, namespaces: readonly string[]): Permission[] {
  const scopes = namespaces.length ? [...namespaces] : [undefined];
  const perScope = (namespace: string | undefined): Permission[] => [
    ...workloadPlurals.flatMap((resource) => WORKLOAD_VERBS.map(([verb, why]) => ({ verb, group, resource, namespace, why }))),
    ...CORE_PERMISSIONS.map((p) => ({ ...p, namespace })),
    ...OWNER_PERMISSIONS.map((p) => ({ ...p, namespace })),
  ];
  return [
    ...scopes.flatMap(perScope),
    { verb: 'list', group: '', resource: 'namespaces', why: 'to map namespaces to Run:ai projects' },
  ];
}

export const LEASE_ROLE_FIX = "grant it with the Role and RoleBinding of deploy/ha/ (kubectl apply -k deploy/ha/), in the Lease's namespace";

/**
 * With ha.enabled, the Lease that elects the one sender (src/cluster/lease.ts): read and renew
 * that one Lease, and create it the first time (create cannot be limited to one name in RBAC).
 */
export function leasePermissions(lease: { namespace: string; name: string }): Permission[] {
  const on = { group: 'coordination.k8s.io', resource: 'leases', namespace: lease.namespace, fix: LEASE_ROLE_FIX };
  return [
    { ...on, verb: 'get', name: lease.name, why: 'to see which replica leads' },
    { ...on, verb: 'update', name: lease.name, why: 'to take and renew the lead' },
    { ...on, verb: 'create', why: 'to create the Lease the first time' },
  ];
}

/** "get pods/log", "watch trainingworkloads.run.ai in runai-vision": how kubectl auth can-i names it. */
export function permissionLabel(p: Permission): string {
  const resource = `${p.resource}${p.subresource ? `/${p.subresource}` : ''}${p.group ? `.${p.group}` : ''}${p.name ? `/${p.name}` : ''}`;
  return `${p.verb} ${resource}${p.namespace ? ` in ${p.namespace}` : ''}`;
}

export interface AccessAnswer {
  allowed: boolean;
  /** The authorizer's reason, when it gave one. */
  reason?: string;
}

export function permissionRow(p: Permission, answer: AccessAnswer): CheckRow {
  const label = permissionLabel(p);
  if (answer.allowed) return pass(label, `allowed (${p.why})`);
  const reason = answer.reason ? ` (${answer.reason})` : '';
  if (p.without) return warn(label, `denied${reason}: without it ${p.without}; ${p.fix ?? CLUSTERROLE_FIX}`);
  return fail(label, `denied${reason}: the bot needs it ${p.why}; ${p.fix ?? CLUSTERROLE_FIX}`);
}
