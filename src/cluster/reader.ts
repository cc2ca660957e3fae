/**
 * Reads what the bot needs about one workload, on demand: its pods, a container's log, the
 * events about it, namespace labels. The watcher only carries the workload CRs; pods, logs and
 * events are fetched when something happened (detect first, then enrich), which keeps the bot
 * light on the API server and on memory.
 */
import { PassThrough } from 'node:stream';
import { CoreV1Api, CustomObjectsApi, type KubeConfig, Log } from '@kubernetes/client-node';
import { withSignal } from './request-signal.js';
import { POD_LINK_LABELS, podWorkloadName } from './normalize.js';

import type { KubeEvent } from '../model.js';

export type { KubeEvent };

export interface LogRequest {
  namespace: string;
  pod: string;
  container: string;
  previous?: boolean;
  tailLines?: number;
  limitBytes?: number;
}

/**
 * Every read takes an optional AbortSignal (see lib/timeout.ts): a read nobody waits for any
 * more is cancelled, not left holding a connection to the API server.
 */
export interface ClusterReader {
  podsOf(namespace: string, workloadName: string, signal?: AbortSignal): Promise<unknown[]>;
  readLog(request: LogRequest, signal?: AbortSignal): Promise<string>;
  /** The whole log as a stream (for archiving and full triage), ended when the server ends it. */
  streamLog(request: Omit<LogRequest, 'tailLines'>): AsyncIterable<Buffer>;
  eventsFor(namespace: string, names: string[], signal?: AbortSignal): Promise<KubeEvent[]>;
  /** The scheduler's PodGroups of a workload (scheduling.run.ai); empty where none are served. */
  podGroupsOf(namespace: string, workloadName: string, signal?: AbortSignal): Promise<unknown[]>;
  namespaceLabels(signal?: AbortSignal): Promise<Map<string, Record<string, string>>>;
  requests: number;
}

export function createClusterReader(kubeConfig: KubeConfig): ClusterReader {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const logs = new Log(kubeConfig);
  // KAI serves v2alpha2; older Run:ai releases other versions (runai-reference §9).
  let podGroupVersions = ['v2alpha2', 'v2', 'v1'];
  const reader: ClusterReader = {
    requests: 0,

    async podsOf(namespace, workloadName, signal) {
      // Run:ai labels pods with workloadName (newer) or release (older); Kubeflow pods with job-name.
      for (const label of POD_LINK_LABELS) {
        reader.requests++;
        const list = await core.listNamespacedPod({ namespace, labelSelector: `${label}=${workloadName}` }, withSignal(signal));
        const items = (list.items ?? []) as unknown[];
        if (items.length) return items.filter((p) => podWorkloadName(p) !== undefined);
      }
      return [];
    },

    async readLog({ namespace, pod, container, previous, tailLines, limitBytes }, signal) {
      reader.requests++;
      const text = await core.readNamespacedPodLog({ name: pod, namespace, container, previous, tailLines, limitBytes }, withSignal(signal));
      return typeof text === 'string' ? text : String(text ?? '');
    },

    streamLog({ namespace, pod, container, previous, limitBytes }) {
      reader.requests++;
      const out = new PassThrough();
      logs
        .log(namespace, pod, container, out, { follow: false, previous, limitBytes })
        .catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
      return out;
    },

    async eventsFor(namespace, names, signal) {
      // One request for the namespace, filtered here: a fieldSelector takes one name only.
      reader.requests++;
      const list = await core.listNamespacedEvent({ namespace }, withSignal(signal));
      const wanted = new Set(names);
      return (list.items ?? [])
        .filter((e) => wanted.has(e.involvedObject?.name ?? '') || [...wanted].some((n) => e.involvedObject?.name?.startsWith(`pg-${n}-`)))
        .map((e) => ({
          type: e.type,
          reason: e.reason,
          message: e.message,
          count: e.count,
          component: e.source?.component ?? e.reportingComponent,
          involvedKind: e.involvedObject?.kind,
          involvedName: e.involvedObject?.name,
          lastSeen: toIso(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp),
        }))
        .sort((a, b) => (a.lastSeen ?? '').localeCompare(b.lastSeen ?? ''));
    },

    async podGroupsOf(namespace, workloadName, signal) {
      for (const version of podGroupVersions) {
        reader.requests++;
        try {
          const list = (await custom.listNamespacedCustomObject({
            group: 'scheduling.run.ai',
            version,
            namespace,
            plural: 'podgroups',
            labelSelector: `workloadName=${workloadName}`,
          }, withSignal(signal))) as { items?: unknown[] };
          podGroupVersions = [version];
          return list.items ?? [];
        } catch (err) {
          if ((err as { code?: number }).code !== 404) throw err;
        }
      }
      podGroupVersions = [];
      return [];
    },

    async namespaceLabels(signal) {
      reader.requests++;
      const list = await core.listNamespace({}, withSignal(signal));
      return new Map((list.items ?? []).map((ns) => [ns.metadata?.name ?? '', (ns.metadata?.labels ?? {}) as Record<string, string>]));
    },
  };
  return reader;
}

function toIso(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : undefined;
}
