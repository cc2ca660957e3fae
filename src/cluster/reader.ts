/**
 * Reads what the bot needs about one workload, on demand: its pods, a container's log, the
 * events about it, namespace labels. The watcher only carries the workload CRs; pods, logs and
 * events are fetched when something happened (detect first, then enrich), which keeps the bot
 * light on the API server and on memory.
 */
import { PassThrough } from 'node:stream';
import { CoreV1Api, CustomObjectsApi, type KubeConfig, Log } from '@kubernetes/client-node';
import { RUNAI_GROUP, WORKLOAD_PLURALS } from './kinds.js';
import { withSignal } from './request-signal.js';
import { POD_LINK_LABELS, podWorkloadName } from './normalize.js';
import { afterRead, controllerRef, createdWithOrAfter, MAX_OWNER_DEPTH, ownerStep, type OwnerRef, type Ownership } from './ownership.js';

import type { KubeEvent, Workload } from '../model.js';

export type { KubeEvent };

/** An object whose events are read: `kind` and `name`, and `uid` where known (another object of that name, earlier, is not it). */
export interface InvolvedObject {
  kind: string;
  name: string;
  uid?: string;
}

/**
 * Events read per object. With a limit the API server answers the first of them in its key
 * order (oldest first, for the kubelet's and scheduler's names); they aggregate repeats into one
 * event with a count, so an object rarely has more distinct events than this.
 */
export const EVENTS_PER_OBJECT = 100;

/** What the reader needs of a workload to find what is its own. */
export type WorkloadRef = Pick<Workload, 'namespace' | 'name' | 'uid' | 'createdAt'>;

export interface LogRequest {
  namespace: string;
  pod: string;
  container: string;
  previous?: boolean;
  tailLines?: number;
  limitBytes?: number;
  /** Each line prefixed with when it was written (RFC 3339, as `kubectl logs --timestamps`). */
  timestamps?: boolean;
}

/**
 * Every read takes an optional AbortSignal (see lib/timeout.ts): a read nobody waits for any
 * more is cancelled, not left holding a connection to the API server.
 */
export interface ClusterReader {
  /**
   * The workload's own pods: found by label, kept when their owner chain leads to its uid (or,
   * where the chain cannot be read, when created at or after it). See cluster/ownership.ts.
   */
  podsOf(workload: WorkloadRef, signal?: AbortSignal): Promise<unknown[]>;
  readLog(request: LogRequest, signal?: AbortSignal): Promise<string>;
  /** The whole log as a stream (for archiving and full triage), ended when the server ends it. */
  streamLog(request: Omit<LogRequest, 'tailLines'>): AsyncIterable<Buffer>;
  /** The events about these objects, oldest first: one list per object, by field selector, at most EVENTS_PER_OBJECT each. */
  eventsFor(namespace: string, objects: InvolvedObject[], signal?: AbortSignal): Promise<KubeEvent[]>;
  /** The scheduler's PodGroups of a workload (scheduling.run.ai); empty where none are served. */
  podGroupsOf(namespace: string, workloadName: string, signal?: AbortSignal): Promise<unknown[]>;
  namespaceLabels(signal?: AbortSignal): Promise<Map<string, Record<string, string>>>;
  /**
   * The workload's own object as the cluster stores it (its spec: what it was submitted with),
   * or undefined when it is gone or is another object of that name (another uid). Optional:
   * readers made for one test need not serve it.
   */
  workloadObject?(workload: WorkloadObjectRef, signal?: AbortSignal): Promise<unknown | undefined>;
  requests: number;
}

/** What names a workload's object: its group/version, kind, namespace, name, and the uid it must have. */
export type WorkloadObjectRef = Pick<Workload, 'apiVersion' | 'kind' | 'namespace' | 'name' | 'uid'>;

/** A Run:ai kind's plural is its kind in lower case with an s (runai-reference §1: trainingworkloads, …). */
function runaiPlural(kind: string): string | undefined {
  const plural = `${kind.toLowerCase()}s`;
  return (WORKLOAD_PLURALS as readonly string[]).includes(plural) ? plural : undefined;
}

export function createClusterReader(kubeConfig: KubeConfig): ClusterReader {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const logs = new Log(kubeConfig);
  // KAI serves v2alpha2; older Run:ai releases other versions (runai-reference §9).
  let podGroupVersions = ['v2alpha2', 'v2', 'v1'];
  const reader: ClusterReader = {
    requests: 0,

    async podsOf(workload, signal) {
      // One GET per distinct owner for this call: a workload's pods share their controller (and
      // an earlier run's, of the same name, share its name), so a chain costs one read, not one per pod.
      const owners = new Map<string, Promise<unknown>>();
      const readOwner = (ref: OwnerRef, target: { group: string; plural: string }): Promise<unknown> => {
        const key = `${ref.apiVersion}/${ref.kind}/${ref.name}`;
        let read = owners.get(key);
        if (!read) {
          reader.requests++;
          const version = ref.apiVersion.slice(ref.apiVersion.indexOf('/') + 1);
          read = custom
            .getNamespacedCustomObject({ group: target.group, version, namespace: workload.namespace, plural: target.plural, name: ref.name }, withSignal(signal))
            .catch((err: unknown) => {
              // Gone, not served, or not allowed (an older ClusterRole): the pod is judged by time.
              if ([403, 404].includes((err as { code?: number }).code ?? 0)) return undefined;
              throw err;
            });
          owners.set(key, read);
        }
        return read;
      };
      const ownership = async (pod: unknown): Promise<Ownership> => {
        let ref = controllerRef(pod);
        for (let depth = 0; ref && depth < MAX_OWNER_DEPTH; depth++) {
          const step = ownerStep(ref, workload);
          if (typeof step === 'string') return step;
          const next = afterRead(ref, await readOwner(ref, step.read));
          if (typeof next === 'string') return next;
          ref = next;
        }
        return 'unknown';
      };
      // Run:ai labels pods with workloadName (newer) or release (older); Kubeflow pods with job-name.
      for (const label of POD_LINK_LABELS) {
        reader.requests++;
        const list = await core.listNamespacedPod({ namespace: workload.namespace, labelSelector: `${label}=${workload.name}` }, withSignal(signal));
        const own: unknown[] = [];
        for (const pod of list.items ?? []) {
          if (podWorkloadName(pod) === undefined) continue;
          const verdict = await ownership(pod);
          if (verdict === 'mine' || (verdict === 'unknown' && createdWithOrAfter(toIso(pod.metadata?.creationTimestamp), workload))) own.push(pod);
        }
        if (own.length) return own;
      }
      return [];
    },

    async workloadObject(workload, signal) {
      const slash = workload.apiVersion.indexOf('/');
      const group = workload.apiVersion.slice(0, slash);
      const plural = runaiPlural(workload.kind);
      if (slash <= 0 || group !== RUNAI_GROUP || !plural) return undefined;
      reader.requests++;
      try {
        const obj = await custom.getNamespacedCustomObject({ group, version: workload.apiVersion.slice(slash + 1), namespace: workload.namespace, plural, name: workload.name }, withSignal(signal));
        return (obj as { metadata?: { uid?: string } })?.metadata?.uid === workload.uid ? obj : undefined;
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
    },

    async readLog({ namespace, pod, container, previous, tailLines, limitBytes, timestamps }, signal) {
      reader.requests++;
      const text = await core.readNamespacedPodLog({ name: pod, namespace, container, previous, tailLines, limitBytes, ...(timestamps && { timestamps }) }, withSignal(signal));
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

    async eventsFor(namespace, objects, signal) {
      // A field selector matches one value per field (no sets), so one bounded list per object:
      // a busy namespace holds thousands of events, of which an alert needs a handful.
      const lists = await Promise.all(objects.map((o) => {
        reader.requests++;
        const fieldSelector = [`involvedObject.kind=${o.kind}`, `involvedObject.name=${o.name}`, ...(o.uid ? [`involvedObject.uid=${o.uid}`] : [])].join(',');
        return core.listNamespacedEvent({ namespace, fieldSelector, limit: EVENTS_PER_OBJECT }, withSignal(signal));
      }));
      return lists
        .flatMap((list) => list.items ?? [])
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
