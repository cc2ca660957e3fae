/**
 * The REST surface: routes a request to discovery, a resource verb, pod logs or a
 * SelfSubjectAccessReview, and answers in the real server's JSON shapes (lists stream their
 * items; failures are Status objects).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbiddenMessage, isDenied, type DenyRule, type ResourceAttributes } from './kube-apiserver-access.js';
import { Cluster, PODS } from './kube-apiserver-cluster.js';
import {
  VERSION_INFO, apiGroupDocument, apiGroupList, apiResourceList, apiVersions,
} from './kube-apiserver-discovery.js';
import { applyPatch } from './kube-apiserver-patch.js';
import { findByPath, groupVersionOf, type ResourceType } from './kube-apiserver-resources.js';
import { parseFieldSelector, parseLabelSelector } from './kube-apiserver-selectors.js';
import { ApiError, badRequest, failureStatus } from './kube-apiserver-status.js';
import type { KubeObject, StoredObject } from './kube-apiserver-store.js';
import { acceptsTable, renderTable } from './kube-apiserver-table.js';
import type { WatchHub } from './kube-apiserver-watch.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Response body bytes written so far (a watch keeps counting while it streams). */
  bytes: number;
}

/** Counts what a response writes into `recorded.bytes`, so a test can weigh what a read cost. */
function countBytes(res: ServerResponse, recorded: RecordedRequest): void {
  const size = (chunk: unknown) => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0);
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    recorded.bytes += size(chunk);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') recorded.bytes += size(chunk);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}

export interface InjectedFailure {
  remaining: number;
  status: number;
  matches: (req: RecordedRequest) => boolean;
}

/** Lists this matches are answered `ms` after their page was taken from the store. */
export interface SlowList {
  ms: number;
  matches: (req: RecordedRequest) => boolean;
}

export interface ApiContext {
  cluster: Cluster;
  watches: WatchHub;
  now: () => Date;
  token: string;
  user: string;
  denyRules: DenyRule[];
  failures: InjectedFailure[];
  slowLists: SlowList[];
  requests: RecordedRequest[];
  serverAddress: () => string;
}

interface ResourceRoute {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const NOT_FOUND_MESSAGE = 'the server could not find the requested resource';
const LIST_CHUNK = 500;

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendStatus(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.code, error.status);
}

/** JSON only: kubectl's typed clients send protobuf, which this server answers with 415. */
async function readBody(req: IncomingMessage): Promise<unknown> {
  const contentType = (req.headers['content-type'] ?? 'application/json').split(';')[0].trim();
  if (!contentType.endsWith('json')) {
    throw new ApiError(415, `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`, 'UnsupportedMediaType');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('the request body is not valid JSON');
  }
}

/** `/api/v1/...` or `/apis/GROUP/VERSION/...` → resource, namespace, name, subresource. */
function resourceRoute(segments: string[]): ResourceRoute | undefined {
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api') [group, version, rest] = ['', segments[1], segments.slice(2)];
  else [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  const type = plural ? findByPath(group, version, plural) : undefined;
  if (!type || extra.length > 0 || (namespace !== undefined && !type.namespaced)) return undefined;
  if (subresource && !type.subresources.includes(subresource)) return undefined;
  return { type, namespace, name, subresource };
}

function discovery(segments: string[], ctx: ApiContext): object | undefined {
  const path = segments.join('/');
  if (path === 'api') return apiVersions(ctx.serverAddress());
  if (path === 'apis') return apiGroupList();
  if (path === 'version') return VERSION_INFO;
  if (segments[0] === 'api' && segments.length === 2) return apiResourceList('', segments[1]);
  if (segments[0] === 'apis' && segments.length === 2) return apiGroupDocument(segments[1]);
  if (segments[0] === 'apis' && segments.length === 3) return apiResourceList(segments[1], segments[2]);
  return undefined;
}

function verbOf(method: string, route: ResourceRoute, query: Record<string, string>): string {
  const watching = query.watch === 'true' || query.watch === '1';
  switch (method) {
    case 'GET': return watching ? 'watch' : route.name ? 'get' : 'list';
    case 'POST': return 'create';
    case 'PUT': return 'update';
    case 'PATCH': return 'patch';
    case 'DELETE': return route.name ? 'delete' : 'deletecollection';
    default: throw new ApiError(405, `the server does not allow this method on the requested resource`, 'MethodNotAllowed');
  }
}

function optionalInt(query: Record<string, string>, key: string): number | undefined {
  if (query[key] === undefined || query[key] === '') return undefined;
  const n = Number(query[key]);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid value for ${key}: ${query[key]}`);
  return n;
}

function listKind(type: ResourceType): string {
  return `${type.kind}List`;
}

/** Writes a list, streaming cached item JSON in chunks so 30,000 pods never form one string. */
async function streamList(
  res: ServerResponse, type: ResourceType, items: StoredObject[], metadata: Record<string, unknown>,
): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const head = `{"kind":"${listKind(type)}","apiVersion":"${groupVersionOf(type)}","metadata":${JSON.stringify(metadata)},"items":[`;
  if (!res.write(head)) await drained(res);
  for (let i = 0; i < items.length; i += LIST_CHUNK) {
    const chunk = items.slice(i, i + LIST_CHUNK).map((s) => s.json).join(',');
    if (!res.write(i === 0 ? chunk : `,${chunk}`)) await drained(res);
  }
  res.end(']}');
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function handleList(ctx: ApiContext, route: ResourceRoute, query: Record<string, string>, req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest): Promise<void> {
  const labels = parseLabelSelector(query.labelSelector);
  const fields = parseFieldSelector(query.fieldSelector, route.type);
  const matches = (obj: KubeObject) => labels(obj) && fields(obj);
  const { store } = ctx.cluster;
  const page = ctx.cluster.paginator.page({
    list: () => store.list(route.type, route.namespace).filter((s) => matches(s.obj)),
    rv: store.resourceVersion,
    oldestServable: store.oldestServableVersion,
    limit: optionalInt(query, 'limit'),
    continueToken: query.continue || undefined,
  });
  // The page is what the store held when the request arrived (a first page's snapshot is taken
  // then); a slow answer serves it as it was, while watches stream every change made meanwhile.
  const slow = ctx.slowLists.find((s) => s.matches(recorded));
  if (slow) await new Promise((resolve) => setTimeout(resolve, slow.ms));
  const metadata = {
    resourceVersion: String(page.rv),
    ...(page.continueToken ? { continue: page.continueToken } : {}),
    ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
  };
  if (acceptsTable(req.headers.accept)) {
    sendJson(res, 200, renderTable(page.items.map((s) => s.obj), {
      shape: route.type.table, now: ctx.now(), includeObject: query.includeObject !== 'None',
      resourceVersion: metadata.resourceVersion, continueToken: page.continueToken, remainingItemCount: page.remainingItemCount,
    }));
    return;
  }
  await streamList(res, route.type, page.items, metadata);
}

function handleWatch(ctx: ApiContext, route: ResourceRoute, query: Record<string, string>, req: IncomingMessage, res: ServerResponse): void {
  const labels = parseLabelSelector(query.labelSelector);
  const nameSelector = route.name ? `metadata.name=${route.name}` : '';
  const fields = parseFieldSelector([query.fieldSelector, nameSelector].filter(Boolean).join(','), route.type);
  const rv = query.resourceVersion;
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) throw badRequest(`invalid resource version: ${rv}`);
  ctx.watches.start({
    type: route.type,
    namespace: route.namespace,
    matches: (obj) => labels(obj) && fields(obj),
    fromVersion: rv && rv !== '0' ? Number(rv) : undefined,
    table: acceptsTable(req.headers.accept),
    includeObject: query.includeObject !== 'None',
    bookmarks: query.allowWatchBookmarks === 'true',
    timeoutSeconds: optionalInt(query, 'timeoutSeconds'),
  }, res);
}

/**
 * The log as it stands. `follow=true` gets the same and the stream ends (no client of this
 * project follows logs); `sinceSeconds` is ignored. `timestamps=true` prefixes each line with
 * the time it was written, as the kubelet does.
 */
function handleLog(ctx: ApiContext, route: ResourceRoute, query: Record<string, string>, res: ServerResponse): void {
  const pod = ctx.cluster.get(PODS, route.namespace, route.name!);
  const text = ctx.cluster.logs.read(pod.obj, {
    container: query.container || undefined,
    previous: query.previous === 'true',
    tailLines: optionalInt(query, 'tailLines'),
    limitBytes: optionalInt(query, 'limitBytes'),
    timestamps: query.timestamps === 'true',
  });
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A SelfSubjectAccessReview is answered from the deny rules and not stored. */
function accessReview(ctx: ApiContext, body: KubeObject): object {
  const spec = (body.spec ?? {}) as { resourceAttributes?: ResourceAttributes };
  const attrs = spec.resourceAttributes ?? { verb: '' };
  const denied = isDenied(ctx.denyRules, attrs);
  return {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status: denied
      ? { allowed: false, denied: true, reason: forbiddenMessage(attrs, ctx.user) }
      : { allowed: true, reason: 'allowed by the simulated cluster' },
  };
}

async function handleResource(ctx: ApiContext, route: ResourceRoute, req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest): Promise<void> {
  const { query } = recorded;
  const method = req.method ?? 'GET';
  const verb = verbOf(method, route, query);
  if (!route.type.verbs.includes(verb)) {
    throw new ApiError(405, `the server does not allow this method on the requested resource`, 'MethodNotAllowed');
  }
  const attrs: ResourceAttributes = {
    verb, group: route.type.group, resource: route.type.plural,
    subresource: route.subresource, namespace: route.namespace, name: route.name,
  };
  if (isDenied(ctx.denyRules, attrs)) throw new ApiError(403, forbiddenMessage(attrs, ctx.user), 'Forbidden');
  const { cluster } = ctx;
  const { type, namespace, name, subresource } = route;

  if (type.virtual) {
    sendJson(res, 201, accessReview(ctx, (await readBody(req)) as KubeObject));
    return;
  }
  switch (verb) {
    case 'watch':
      handleWatch(ctx, route, query, req, res);
      return;
    case 'list':
      await handleList(ctx, route, query, req, res, recorded);
      return;
    case 'get':
      if (subresource === 'log') handleLog(ctx, route, query, res);
      else sendJson(res, 200, cluster.get(type, namespace, name!).obj);
      return;
    case 'create':
      sendJson(res, 201, cluster.create(type, namespace, (await readBody(req)) as KubeObject).obj);
      return;
    case 'update':
      sendJson(res, 200, cluster.update(type, namespace, name!, (await readBody(req)) as KubeObject, subresource).obj);
      return;
    case 'patch': {
      const current = cluster.get(type, namespace, name!).obj;
      // A patch that sets metadata.resourceVersion makes it a precondition, as on the real
      // server: `kubectl apply` of a manifest carrying a stale resourceVersion gets 409 Conflict.
      // A patch that leaves it alone carries the current one over, which always matches.
      const patched = applyPatch(current, req.headers['content-type'], await readBody(req)) as KubeObject;
      sendJson(res, 200, cluster.update(type, namespace, name!, patched, subresource).obj);
      return;
    }
    case 'delete':
      sendJson(res, 200, cluster.remove(type, namespace, name!).obj);
      return;
    default:
      throw new ApiError(405, `the simulated server does not implement ${verb}`, 'MethodNotAllowed');
  }
}

function takeInjectedFailure(ctx: ApiContext, recorded: RecordedRequest): InjectedFailure | undefined {
  const failure = ctx.failures.find((f) => f.remaining > 0 && f.matches(recorded));
  if (!failure) return undefined;
  failure.remaining -= 1;
  if (failure.remaining === 0) ctx.failures.splice(ctx.failures.indexOf(failure), 1);
  return failure;
}

export async function handleRequest(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sim');
  const query = Object.fromEntries(url.searchParams);
  const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query, bytes: 0 };
  ctx.requests.push(recorded);
  countBytes(res, recorded);
  try {
    const failure = takeInjectedFailure(ctx, recorded);
    if (failure) {
      if (failure.status === 429) res.setHeader('Retry-After', '1');
      sendJson(res, failure.status, failureStatus(failure.status, `injected failure (${failure.status})`));
      return;
    }
    // kubectl (client-go) sends no credentials to an http:// server, so a request without an
    // Authorization header is let in; a wrong token is refused, which keeps client-node honest.
    const auth = req.headers.authorization;
    if (auth !== undefined && auth !== `Bearer ${ctx.token}`) {
      throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    }
    const segments = url.pathname.split('/').filter(Boolean);
    if (['healthz', 'livez', 'readyz'].includes(segments[0] ?? '')) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    const doc = req.method === 'GET' ? discovery(segments, ctx) : undefined;
    if (doc) {
      sendJson(res, 200, doc);
      return;
    }
    const route = segments[0] === 'api' || segments[0] === 'apis' ? resourceRoute(segments) : undefined;
    if (!route) throw new ApiError(404, NOT_FOUND_MESSAGE, 'NotFound');
    await handleResource(ctx, route, req, res, recorded);
  } catch (err) {
    const error = err instanceof ApiError ? err : new ApiError(500, err instanceof Error ? err.message : String(err), 'InternalError');
    if (res.headersSent) res.destroy();
    else sendStatus(res, error);
  }
}
