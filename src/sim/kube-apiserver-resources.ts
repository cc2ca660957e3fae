/**
 * The resource types the simulated API server serves: one table that drives discovery, routing,
 * storage and `kubectl get` columns. Add a row to serve another kind.
 */

export type TableShape = 'pod' | 'namespace' | 'event' | 'lease' | 'default';

export interface ResourceType {
  /** API group; '' for the core group (served under /api/v1). */
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: readonly string[];
  verbs: readonly string[];
  /** Subresources named in discovery (`pods/log`). */
  subresources: readonly string[];
  /** Which server-side `kubectl get` table the kind prints as. */
  table: TableShape;
  /** Not stored: a POST is answered and forgotten (SelfSubjectAccessReview). */
  virtual?: boolean;
  /**
   * Field selector labels beyond metadata.name (and metadata.namespace, when namespaced): the
   * lists of the Field Selectors page of the Kubernetes documentation. Any other label is 400.
   */
  fieldLabels: readonly string[];
  /** Labels that name another path of the object (an Event's `source` is source.component). */
  fieldPaths?: Readonly<Record<string, string>>;
  /**
   * How an unknown label is refused: `conversion` (kinds with their own field label conversion,
   * and custom resources: "field label not supported: X"), or `meta` (built-in kinds with none,
   * such as Ingress or Lease: "\"X\" is not a known field selector: only …").
   */
  unknownField: 'conversion' | 'meta';
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function row(
  group: string, version: string, kind: string, plural: string,
  extra: Partial<ResourceType> = {},
): ResourceType {
  return {
    group, version, kind, plural,
    singular: kind.toLowerCase(),
    namespaced: true,
    shortNames: [],
    verbs: CRUD,
    subresources: [],
    table: 'default',
    fieldLabels: [],
    unknownField: 'conversion',
    ...extra,
  };
}

/**
 * Run:ai rows follow spec/runai-reference.md §1. The workload short names (tw, iw, dw, infw) are
 * the abbreviations Run:ai's log collector uses; whether the CRDs declare them is unconfirmed.
 * Custom resources print NAME and AGE, which is what kubectl shows for a CRD without
 * additionalPrinterColumns (whether Run:ai's CRDs declare columns is unconfirmed).
 */
export const RESOURCE_TYPES: readonly ResourceType[] = [
  row('', 'v1', 'Namespace', 'namespaces', { namespaced: false, shortNames: ['ns'], table: 'namespace', fieldLabels: ['status.phase'] }),
  row('', 'v1', 'Pod', 'pods', {
    shortNames: ['po'], subresources: ['log', 'status'], table: 'pod',
    fieldLabels: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  }),
  row('', 'v1', 'Event', 'events', {
    shortNames: ['ev'], table: 'event',
    fieldLabels: [
      'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
      'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type',
    ],
    fieldPaths: { source: 'source.component' },
  }),
  row('run.ai', 'v2alpha1', 'TrainingWorkload', 'trainingworkloads', { shortNames: ['tw'], subresources: ['status'] }),
  row('run.ai', 'v2alpha1', 'InteractiveWorkload', 'interactiveworkloads', { shortNames: ['iw'], subresources: ['status'] }),
  row('run.ai', 'v2alpha1', 'DistributedWorkload', 'distributedworkloads', { shortNames: ['dw'], subresources: ['status'] }),
  row('run.ai', 'v2alpha1', 'InferenceWorkload', 'inferenceworkloads', { shortNames: ['infw'], subresources: ['status'] }),
  row('run.ai', 'v1', 'RunaiJob', 'runaijobs', { shortNames: ['rj'], subresources: ['status'] }),
  row('scheduling.run.ai', 'v2alpha2', 'PodGroup', 'podgroups', { shortNames: ['pg'], subresources: ['status'] }),
  row('kubeflow.org', 'v1', 'PyTorchJob', 'pytorchjobs', { subresources: ['status'] }),
  // What Helm hooks and plain jobs run as: a controller of pods that no Run:ai workload owns.
  row('batch', 'v1', 'Job', 'jobs', { subresources: ['status'], fieldLabels: ['status.successful'] }),
  // Leader election of the bot's replicas (src/cluster/lease.ts); no short name, as in Kubernetes.
  row('coordination.k8s.io', 'v1', 'Lease', 'leases', { table: 'lease', unknownField: 'meta' }),
  row('authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', {
    namespaced: false, verbs: ['create'], virtual: true,
  }),
];

/** Preferred version of a group when it serves several (the newest Run:ai workload API). */
export const PREFERRED_VERSIONS: Readonly<Record<string, string>> = { 'run.ai': 'v2alpha1' };

export function groupVersionOf(type: ResourceType): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

export function findByPath(group: string, version: string, plural: string): ResourceType | undefined {
  return RESOURCE_TYPES.find((t) => t.group === group && t.version === version && t.plural === plural);
}

export function findByApiVersionKind(apiVersion: string, kind: string): ResourceType | undefined {
  return RESOURCE_TYPES.find((t) => groupVersionOf(t) === apiVersion && t.kind === kind);
}

/** A kind (`TrainingWorkload`), plural (`trainingworkloads`), singular or short name (`tw`). */
export function findByName(name: string): ResourceType | undefined {
  const lower = name.toLowerCase();
  return RESOURCE_TYPES.find((t) =>
    t.kind.toLowerCase() === lower || t.plural === lower || t.singular === lower || t.shortNames.includes(lower));
}

/** Groups in the order discovery lists them, each with its versions, preferred first. */
export function servedGroups(): Array<{ name: string; versions: string[]; preferred: string }> {
  const groups = new Map<string, string[]>();
  for (const t of RESOURCE_TYPES) {
    if (!t.group) continue;
    const versions = groups.get(t.group) ?? [];
    if (!versions.includes(t.version)) versions.push(t.version);
    groups.set(t.group, versions);
  }
  return [...groups].map(([name, versions]) => {
    const preferred = PREFERRED_VERSIONS[name] ?? versions[0];
    return { name, versions: [preferred, ...versions.filter((v) => v !== preferred)], preferred };
  });
}
