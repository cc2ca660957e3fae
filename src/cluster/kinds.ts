/**
 * Which Run:ai workload kinds this cluster serves, and at which version. Run:ai has moved its
 * CRDs between versions (runai-reference §1, §8), so the bot asks the API server instead of
 * hard-coding one.
 */
import { ApisApi, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';

export const RUNAI_GROUP = 'run.ai';

/** The workload kinds the bot watches, by plural (runai-reference §1). */
export const WORKLOAD_PLURALS = [
  'trainingworkloads',
  'interactiveworkloads',
  'distributedworkloads',
  'inferenceworkloads',
  'distributedinferenceworkloads',
] as const;

export interface WorkloadKindRef {
  group: string;
  version: string;
  plural: string;
  kind: string;
}

export class DiscoveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DiscoveryError';
  }
}

/** Every served Run:ai workload kind at the group's preferred version (falling back to any version serving it). */
export async function discoverWorkloadKinds(kubeConfig: KubeConfig): Promise<WorkloadKindRef[]> {
  const apis = kubeConfig.makeApiClient(ApisApi);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  let groups;
  try {
    groups = await apis.getAPIVersions();
  } catch (err) {
    throw new DiscoveryError(`cannot read API groups from the cluster: ${describeKubeError(err)}`, { cause: err });
  }
  const group = groups.groups.find((g) => g.name === RUNAI_GROUP);
  if (!group) throw new DiscoveryError('the cluster serves no run.ai API group: is Run:ai installed, and does the bot talk to the right cluster?');
  const versions = [group.preferredVersion?.version, ...group.versions.map((v) => v.version)].filter(
    (v, i, all): v is string => !!v && all.indexOf(v) === i,
  );
  const found = new Map<string, WorkloadKindRef>();
  for (const version of versions) {
    let resources;
    try {
      resources = await custom.getAPIResources({ group: RUNAI_GROUP, version });
    } catch {
      continue; // a listed but broken version: the next one may serve the kind
    }
    for (const r of resources.resources) {
      if (r.name.includes('/')) continue; // subresources such as trainingworkloads/status
      if ((WORKLOAD_PLURALS as readonly string[]).includes(r.name) && !found.has(r.name)) {
        found.set(r.name, { group: RUNAI_GROUP, version, plural: r.name, kind: r.kind });
      }
    }
  }
  if (!found.size) throw new DiscoveryError(`run.ai serves none of the workload kinds ${WORKLOAD_PLURALS.join(', ')}`);
  return [...found.values()];
}

/** A Kubernetes client error in one line, with the fix where we know it. */
export function describeKubeError(err: unknown): string {
  const e = err as { code?: number; statusCode?: number; body?: unknown; message?: string };
  const status = e.code ?? e.statusCode;
  if (status === 401) return 'HTTP 401 Unauthorized: the kubeconfig credentials were rejected';
  if (status === 403) {
    return 'HTTP 403 Forbidden: the service account lacks a permission; apply deploy/base/clusterrole.yaml (get/list/watch on Run:ai workloads, pods, pods/log, events, namespaces)';
  }
  if (status) return `HTTP ${status}${e.message ? `: ${firstLine(e.message)}` : ''}`;
  return firstLine(e.message ?? String(err));
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300);
}
