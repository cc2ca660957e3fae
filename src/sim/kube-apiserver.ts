/**
 * A simulated Kubernetes API server on 127.0.0.1 that speaks the real REST protocol to
 * @kubernetes/client-node and kubectl: discovery, namespaces, the Run:ai workload kinds, pods,
 * pod logs, events, PodGroups, list with pagination, watch with resourceVersion and 410. The
 * integration tests and the `demo` command drive it through the methods below, which change the
 * cluster the way its controllers would (each change is a watch event).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import type { DenyRule } from './kube-apiserver-access.js';
import { Cluster, EVENTS, typeNamed, typeOfObject } from './kube-apiserver-cluster.js';
import { handleRequest, type ApiContext, type InjectedFailure, type RecordedRequest, type SlowList } from './kube-apiserver-http.js';
import { groupVersionOf, findByName } from './kube-apiserver-resources.js';
import type { KubeObject } from './kube-apiserver-store.js';
import { WatchHub } from './kube-apiserver-watch.js';
import { kubeconfigYaml } from './kubeconfig.js';

export type { KubeObject, ObjectMeta } from './kube-apiserver-store.js';
export type { DenyRule } from './kube-apiserver-access.js';
export type { RecordedRequest } from './kube-apiserver-http.js';

export interface FakeKubeOptions {
  /** Bearer token the server requires (default `sim-token`). */
  token?: string;
  /** User name in Forbidden messages (default `sim-user`). */
  user?: string;
  /** Watch history length; a watch from before it gets 410 (default 10,000 changes). */
  historyLimit?: number;
  /** Clock for timestamps and AGE columns (default: the system clock). */
  now?: () => Date;
  /**
   * How often watches with `allowWatchBookmarks` get a BOOKMARK (default 60 s, the real API
   * server's watch cache; it also sends one 2 s before a watch's timeoutSeconds). 0: never,
   * as a server without a watch cache, which ignores allowWatchBookmarks.
   */
  bookmarkIntervalMs?: number;
  /** Requests these rules match get 403, and SelfSubjectAccessReviews say not allowed. */
  deny?: DenyRule[];
}

/** An object to act on: a kind, plural or short name with namespace and name, or the object itself. */
export type ObjectRef = { kind: string; namespace?: string; name: string } | KubeObject;

export interface EventSpec {
  involvedObject: { kind: string; name: string; namespace?: string; uid?: string; apiVersion?: string; fieldPath?: string };
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  source?: { component: string; host?: string };
  count?: number;
  /** Defaults to now. */
  firstTimestamp?: string;
  lastTimestamp?: string;
}

/** Which requests an injected failure hits: a substring of the path, a RegExp, or a predicate. */
export type RequestMatcher = string | RegExp | ((req: RecordedRequest) => boolean);

function requestPredicate(match: RequestMatcher | undefined): (req: RecordedRequest) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === 'string') return (req) => req.path.includes(match);
  if (match instanceof RegExp) return (req) => match.test(req.path);
  return match;
}

/** The Kubernetes objects of a multi-document YAML text; empty documents are skipped. */
export function parseYamlObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0].message}`);
      return doc.toJS() as KubeObject | null;
    })
    .filter((obj): obj is KubeObject => obj !== null && obj !== undefined);
}

function secondsPrecision(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class FakeKube {
  /** Every request received, in order (for counting API calls). */
  readonly requests: RecordedRequest[] = [];
  readonly token: string;
  private readonly cluster: Cluster;
  private readonly watches: WatchHub;
  private readonly failures: InjectedFailure[] = [];
  private readonly slowLists: SlowList[] = [];
  private readonly denyRules: DenyRule[];
  private readonly now: () => Date;
  private readonly context: ApiContext;
  private server?: Server;
  private address?: AddressInfo;

  constructor(options: FakeKubeOptions = {}) {
    this.token = options.token ?? 'sim-token';
    this.now = options.now ?? (() => new Date());
    this.denyRules = [...(options.deny ?? [])];
    this.cluster = new Cluster({ historyLimit: options.historyLimit ?? 10_000, now: this.now });
    this.watches = new WatchHub(this.cluster.store, { now: this.now, bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000 });
    this.cluster.ensureNamespace('default');
    this.context = {
      cluster: this.cluster,
      watches: this.watches,
      now: this.now,
      token: this.token,
      user: options.user ?? 'sim-user',
      denyRules: this.denyRules,
      failures: this.failures,
      slowLists: this.slowLists,
      requests: this.requests,
      serverAddress: () => `127.0.0.1:${this.address?.port ?? 0}`,
    };
  }

  /** Starts listening on 127.0.0.1 with an ephemeral port. */
  async listen(): Promise<this> {
    const server = createServer((req, res) => void handleRequest(this.context, req, res));
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.address = server.address() as AddressInfo;
    return this;
  }

  get url(): string {
    if (!this.address) throw new Error('the simulated API server is not listening yet');
    return `http://127.0.0.1:${this.address.port}`;
  }

  /** The current (latest) resourceVersion of the cluster. */
  get resourceVersion(): string {
    return String(this.cluster.store.resourceVersion);
  }

  get openWatches(): number {
    return this.watches.count;
  }

  kubeconfigYaml(namespace?: string): string {
    return kubeconfigYaml({ server: this.url, token: this.token, namespace });
  }

  /** Writes `kubeconfig` into `dir` (created if missing) and returns its path. */
  writeKubeconfig(dir: string, namespace?: string): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'kubeconfig');
    writeFileSync(path, this.kubeconfigYaml(namespace), { mode: 0o600 });
    return path;
  }

  /** Creates a namespace, or adds labels to an existing one (e.g. `{ 'runai/queue': 'vision' }`). */
  addNamespace(name: string, labels: Record<string, string> = {}): KubeObject {
    return structuredClone(this.cluster.ensureNamespace(name, labels).obj);
  }

  /**
   * Creates or replaces any served object from a plain object; fills uid, resourceVersion and
   * creationTimestamp, and creates its namespace when missing. Returns the stored copy.
   */
  apply(obj: KubeObject): KubeObject {
    return structuredClone(this.cluster.apply(obj).obj);
  }

  applyAll(objects: KubeObject[]): KubeObject[] {
    return objects.map((obj) => this.apply(obj));
  }

  /** Applies every object of a multi-document YAML file (such as spec/runai-examples/*.yaml). */
  loadYamlFixtures(path: string): KubeObject[] {
    return this.applyAll(parseYamlObjects(readFileSync(path, 'utf8')));
  }

  private locate(ref: ObjectRef): { type: ReturnType<typeof typeNamed>; namespace?: string; name: string } {
    if ('metadata' in ref) {
      return { type: typeOfObject(ref), namespace: ref.metadata.namespace, name: ref.metadata.name };
    }
    return { type: typeNamed(ref.kind), namespace: ref.namespace, name: ref.name };
  }

  get(ref: ObjectRef): KubeObject | undefined {
    const { type, namespace, name } = this.locate(ref);
    const stored = this.cluster.store.get(type, type.namespaced ? (namespace ?? 'default') : undefined, name);
    return stored && structuredClone(stored.obj);
  }

  /** Objects of a kind (kind, plural or short name), in one namespace or all. */
  list(kind: string, namespace?: string): KubeObject[] {
    return this.cluster.store.list(typeNamed(kind), namespace).map((s) => structuredClone(s.obj));
  }

  count(kind: string): number {
    return this.cluster.store.count(typeNamed(kind));
  }

  /**
   * Changes an object through a callback that mutates a copy (or returns a replacement); the
   * change is one MODIFIED event. Throws when the object does not exist.
   */
  patch(ref: ObjectRef, change: (obj: KubeObject) => KubeObject | void): KubeObject {
    const { type, namespace, name } = this.locate(ref);
    const copy = structuredClone(this.cluster.get(type, namespace ?? 'default', name).obj);
    const next = change(copy) ?? copy;
    return structuredClone(this.cluster.store.put(type, next).obj);
  }

  /** Sets `status.phase` of a Run:ai workload (or anything with a status), as its controller would. */
  setPhase(kind: string, namespace: string, name: string, phase: string): KubeObject {
    return this.patch({ kind, namespace, name }, (obj) => {
      obj.status = { ...(obj.status as object | undefined), phase };
    });
  }

  /** Deletes an object (a namespace takes its content along); returns it, or undefined when absent. */
  delete(ref: ObjectRef): KubeObject | undefined {
    const { type, namespace, name } = this.locate(ref);
    if (!this.cluster.store.get(type, type.namespaced ? (namespace ?? 'default') : undefined, name)) return undefined;
    return structuredClone(this.cluster.remove(type, namespace ?? 'default', name).obj);
  }

  /**
   * Appends text to a container's log (`previous: true`: the previous instance's log); its
   * lines were written `at` (default: the server's clock now), as `timestamps=true` shows.
   */
  appendLog(namespace: string, pod: string, container: string, text: string, options: { previous?: boolean; at?: Date } = {}): void {
    this.cluster.logs.append(namespace, pod, container, text, options.previous ?? false, options.at);
  }

  /**
   * Restarts a container as the kubelet would: its log so far becomes the previous instance's
   * (`previous=true`), and the pod status counts the restart and records how the last run ended.
   */
  restartContainer(
    namespace: string, pod: string, container: string,
    lastRun: { exitCode: number; reason?: string } = { exitCode: 1, reason: 'Error' },
  ): KubeObject {
    const now = secondsPrecision(this.now());
    const updated = this.patch({ kind: 'Pod', namespace, name: pod }, (obj) => {
      const status = (obj.status ?? {}) as { containerStatuses?: Array<Record<string, unknown>> };
      const statuses = status.containerStatuses ?? [];
      let entry = statuses.find((c) => c.name === container);
      if (!entry) {
        entry = { name: container, ready: false, restartCount: 0 };
        statuses.push(entry);
      }
      entry.restartCount = Number(entry.restartCount ?? 0) + 1;
      entry.lastState = { terminated: { ...lastRun, reason: lastRun.reason ?? 'Error', finishedAt: now } };
      entry.state = { running: { startedAt: now } };
      obj.status = { ...status, containerStatuses: statuses };
    });
    this.cluster.logs.restart(namespace, pod, container);
    return updated;
  }

  /** Records a core/v1 Event about an object; its uid is looked up when not given. */
  addEvent(spec: EventSpec): KubeObject {
    const involved = { ...spec.involvedObject };
    const namespace = involved.namespace ?? 'default';
    const type = findByName(involved.kind);
    if (type) {
      involved.apiVersion ??= groupVersionOf(type);
      involved.uid ??= this.cluster.store.get(type, type.namespaced ? namespace : undefined, involved.name)?.obj.metadata.uid;
      if (type.namespaced) involved.namespace = namespace;
    }
    const now = secondsPrecision(this.now());
    return this.apply({
      apiVersion: 'v1',
      kind: EVENTS.kind,
      metadata: { name: `${involved.name}.${randomBytes(8).toString('hex')}`, namespace },
      involvedObject: involved,
      reason: spec.reason,
      message: spec.message,
      type: spec.type ?? 'Normal',
      source: spec.source ?? {},
      count: spec.count ?? 1,
      firstTimestamp: spec.firstTimestamp ?? now,
      lastTimestamp: spec.lastTimestamp ?? spec.firstTimestamp ?? now,
    });
  }

  /** The next `n` requests that `match` hits are answered with a Status of code `status`. */
  failNext(n: number, status: number, match?: RequestMatcher): void {
    this.failures.push({ remaining: n, status, matches: requestPredicate(match) });
  }

  /**
   * From now on, list requests `match` hits are answered `ms` after the server took their page
   * from the store, as an API server under load answers a big list: the page (for a first page,
   * the snapshot every continue token walks) is the cluster as it was when the request arrived,
   * while watches stream the changes made meanwhile. `fastLists()` ends it.
   */
  slowListsBy(ms: number, match?: RequestMatcher): void {
    this.slowLists.push({ ms, matches: requestPredicate(match) });
  }

  fastLists(): void {
    this.slowLists.length = 0;
  }

  /** Ends every failure injected by `failNext`, used or not (an outage of unknown length ends). */
  clearFailures(): void {
    this.failures.length = 0;
  }

  /** From now on, requests the rule matches get 403 and access reviews say not allowed. */
  deny(rule: DenyRule): void {
    this.denyRules.push(rule);
  }

  allowAll(): void {
    this.denyRules.length = 0;
  }

  resetRequests(): void {
    this.requests.length = 0;
  }

  /** Makes every resourceVersion before now too old: watches and continue tokens from before get 410. */
  compactHistory(): void {
    this.cluster.store.compact();
    this.cluster.paginator.clear();
  }

  /** Ends all open watches: cleanly by default, or by cutting their sockets (`abrupt`). */
  dropWatches(options: { abrupt?: boolean } = {}): void {
    this.watches.dropAll(options.abrupt ?? false);
  }

  /** Sends a BOOKMARK now on every watch that allows bookmarks. */
  sendBookmarks(): void {
    this.watches.bookmarkAll();
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.watches.dropAll(true);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}

/** Starts a simulated API server on 127.0.0.1 with an ephemeral port. */
export async function startFakeKube(options: FakeKubeOptions = {}): Promise<FakeKube> {
  return new FakeKube(options).listen();
}
