/**
 * The simulated cluster's state and its rules, shared by the REST handlers and the test-facing
 * API: namespaces must exist for what lives in them, deleting a namespace deletes its content,
 * deleting a pod drops its logs, and create / update refuse what the real server refuses.
 */
import { randomBytes } from 'node:crypto';
import { PodLogs } from './kube-apiserver-logs.js';
import { Paginator } from './kube-apiserver-pagination.js';
import {
  RESOURCE_TYPES, findByApiVersionKind, findByName, groupVersionOf, type ResourceType,
} from './kube-apiserver-resources.js';
import { ApiError, notFound } from './kube-apiserver-status.js';
import { ObjectStore, type KubeObject, type StoredObject } from './kube-apiserver-store.js';

export const NAMESPACES = RESOURCE_TYPES.find((t) => t.plural === 'namespaces')!;
export const PODS = RESOURCE_TYPES.find((t) => t.plural === 'pods')!;
export const EVENTS = RESOURCE_TYPES.find((t) => t.plural === 'events')!;

/** `generateName` gets five random lowercase alphanumerics, like the real server. */
function generatedName(prefix: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return prefix + [...randomBytes(5)].map((b) => alphabet[b % alphabet.length]).join('');
}

export function typeOfObject(obj: Partial<KubeObject>): ResourceType {
  const type = obj.apiVersion && obj.kind ? findByApiVersionKind(obj.apiVersion, obj.kind) : undefined;
  if (!type || type.virtual) {
    const served = RESOURCE_TYPES.filter((t) => !t.virtual).map((t) => `${groupVersionOf(t)} ${t.kind}`).join(', ');
    throw new Error(`the simulated API server does not serve ${obj.apiVersion ?? '?'} ${obj.kind ?? '?'} (serves: ${served})`);
  }
  return type;
}

/** A kind, plural or short name (as in `kubectl get`), or an error listing what is served. */
export function typeNamed(name: string): ResourceType {
  const type = findByName(name);
  if (!type || type.virtual) throw new Error(`the simulated API server serves no resource named "${name}"`);
  return type;
}

/**
 * The API server's checks of metadata.ownerReferences (apimachinery's ValidateOwnerReferences):
 * each names its owner's apiVersion, kind, name and uid, and at most one is the controller.
 * The server stores and serves them as given; it never adds one (controllers do).
 */
function validateOwnerReferences(type: ResourceType, obj: KubeObject): void {
  const refs = obj.metadata?.ownerReferences;
  if (refs === undefined || refs === null) return;
  const invalid = (detail: string) => new ApiError(422, `${type.kind} "${obj.metadata.name}" is invalid: ${detail}`, 'Invalid');
  if (!Array.isArray(refs)) throw invalid('metadata.ownerReferences: Invalid value: not a list');
  for (const ref of refs as Array<Record<string, unknown>>) {
    for (const [field, what] of [['apiVersion', 'version'], ['kind', 'kind'], ['name', 'name'], ['uid', 'uid']] as const) {
      if (typeof ref?.[field] !== 'string' || ref[field] === '') throw invalid(`metadata.ownerReferences.${field}: Invalid value: "": ${what} must not be empty`);
    }
  }
  const controllers = (refs as Array<Record<string, unknown>>).filter((r) => r.controller === true);
  if (controllers.length > 1) {
    throw invalid(`metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true. Found "true" in references for ${controllers.map((r) => `${String(r.kind)}/${String(r.name)}`).join(' and ')}`);
  }
}

function qualified(type: ResourceType): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

export class Cluster {
  readonly store: ObjectStore;
  readonly logs: PodLogs;
  readonly paginator = new Paginator();

  constructor(options: { historyLimit: number; now: () => Date }) {
    this.store = new ObjectStore(options);
    this.logs = new PodLogs(options.now);
  }

  get(type: ResourceType, namespace: string | undefined, name: string): StoredObject {
    const stored = this.store.get(type, type.namespaced ? namespace : undefined, name);
    if (!stored) throw notFound(type.plural, name, type.group);
    return stored;
  }

  /** Create or replace without preconditions (the test-facing `apply`); creates a missing namespace. */
  apply(obj: KubeObject): StoredObject {
    const type = typeOfObject(obj);
    if (!obj.metadata?.name) throw new Error(`${obj.kind} without metadata.name cannot be stored`);
    validateOwnerReferences(type, obj);
    if (type.namespaced) this.ensureNamespace(obj.metadata.namespace ?? 'default');
    if (type === NAMESPACES) {
      obj = { ...obj, status: { phase: 'Active', ...(obj.status as object | undefined) } };
    }
    return this.store.put(type, obj);
  }

  ensureNamespace(name: string, labels?: Record<string, string>): StoredObject {
    const existing = this.store.get(NAMESPACES, undefined, name);
    if (existing && !labels) return existing;
    const base = existing?.obj ?? { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase: 'Active' } };
    return this.store.put(NAMESPACES, {
      ...base,
      metadata: { ...base.metadata, labels: { ...base.metadata.labels, ...labels } },
    });
  }

  /** POST: 409 when the name is taken, 404 when the namespace does not exist. */
  create(type: ResourceType, namespace: string | undefined, body: KubeObject): StoredObject {
    const metadata = { ...body.metadata };
    if (!metadata.name && typeof metadata.generateName === 'string') metadata.name = generatedName(metadata.generateName);
    if (!metadata.name) throw new ApiError(422, `${type.kind} "" is invalid: metadata.name: Required value: name or generateName is required`);
    if (type.namespaced) {
      metadata.namespace = namespace ?? metadata.namespace ?? 'default';
      if (!this.store.get(NAMESPACES, undefined, metadata.namespace)) throw notFound('namespaces', metadata.namespace);
    }
    if (this.store.get(type, type.namespaced ? metadata.namespace : undefined, metadata.name)) {
      throw new ApiError(409, `${qualified(type)} "${metadata.name}" already exists`, 'AlreadyExists',
        { name: metadata.name, group: type.group || undefined, kind: type.plural });
    }
    delete metadata.resourceVersion;
    delete metadata.uid;
    // Set by the server at creation, whatever the client sent (read-only in ObjectMeta).
    delete metadata.creationTimestamp;
    validateOwnerReferences(type, { ...body, metadata });
    return this.store.put(type, { ...body, apiVersion: groupVersionOf(type), kind: type.kind, metadata });
  }

  /**
   * PUT: the object must exist; a resourceVersion in the body must be the current one (optimistic
   * concurrency, 409 otherwise). `status` replaces only the status.
   */
  update(type: ResourceType, namespace: string | undefined, name: string, body: KubeObject, subresource?: string): StoredObject {
    const current = this.get(type, namespace, name);
    const expected = body.metadata?.resourceVersion;
    if (expected && expected !== current.obj.metadata.resourceVersion) {
      throw new ApiError(409,
        `Operation cannot be fulfilled on ${qualified(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        'Conflict', { name, group: type.group || undefined, kind: type.plural });
    }
    const next: KubeObject = subresource === 'status'
      ? { ...current.obj, status: body.status }
      : { ...body, apiVersion: groupVersionOf(type), kind: type.kind, metadata: { ...body.metadata, name, namespace: current.obj.metadata.namespace } };
    next.metadata = { ...next.metadata, uid: current.obj.metadata.uid, creationTimestamp: current.obj.metadata.creationTimestamp };
    validateOwnerReferences(type, next);
    return this.store.put(type, next);
  }

  /** DELETE: a namespace takes its content with it; a pod takes its logs. */
  remove(type: ResourceType, namespace: string | undefined, name: string): StoredObject {
    const current = this.get(type, namespace, name);
    if (type === NAMESPACES) {
      for (const t of RESOURCE_TYPES) {
        if (!t.namespaced) continue;
        for (const stored of this.store.list(t, name)) this.remove(t, name, stored.obj.metadata.name);
      }
    }
    if (type === PODS) this.logs.forget(current.obj.metadata.namespace ?? '', name);
    return this.store.remove(type, current.obj.metadata.namespace, name)!;
  }
}
