/**
 * The simulated etcd: objects keyed by resource type, namespace and name, one global
 * monotonically increasing resourceVersion, and a bounded history of changes that watches replay
 * from. Stored objects are never mutated: every write stores a fresh copy and its JSON, so lists
 * and watches can stream the cached JSON and a list snapshot stays consistent.
 */
import { randomUUID } from 'node:crypto';
import type { ResourceType } from './kube-apiserver-resources.js';
import { tooOldResourceVersion } from './kube-apiserver-status.js';

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface StoredObject {
  readonly type: ResourceType;
  /** `namespace \0 name`: sorts like (namespace, name). */
  readonly key: string;
  readonly obj: KubeObject;
  readonly json: string;
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  readonly rv: number;
  readonly type: ChangeType;
  readonly stored: StoredObject;
  /** The object before a MODIFIED, so a selective watch can tell "left the selection". */
  readonly previous?: StoredObject;
}

export function storageKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}\u0000${name}`;
}

function byKey(a: StoredObject, b: StoredObject): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** A fixed-size ring of changes in resourceVersion order. */
class ChangeHistory {
  private readonly ring: Change[] = [];
  private start = 0;

  constructor(private readonly capacity: number) {}

  /** Adds a change; returns the change it pushed out, if the ring was full. */
  push(change: Change): Change | undefined {
    if (this.ring.length < this.capacity) {
      this.ring.push(change);
      return undefined;
    }
    const evicted = this.ring[this.start];
    this.ring[this.start] = change;
    this.start = (this.start + 1) % this.capacity;
    return evicted;
  }

  private at(i: number): Change {
    return this.ring[(this.start + i) % this.ring.length];
  }

  /** Changes with rv > `rv`, oldest first (binary search: rvs are increasing). */
  after(rv: number): Change[] {
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(mid).rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    const out: Change[] = [];
    for (let i = lo; i < this.ring.length; i++) out.push(this.at(i));
    return out;
  }

  clear(): void {
    this.ring.length = 0;
    this.start = 0;
  }
}

export interface StoreOptions {
  historyLimit: number;
  now: () => Date;
}

type Collection = Map<string, Map<string, StoredObject>>;

export class ObjectStore {
  private readonly collections = new Map<ResourceType, Collection>();
  private readonly sortedCache = new Map<ResourceType, StoredObject[]>();
  private readonly history: ChangeHistory;
  private readonly listeners = new Set<(change: Change) => void>();
  private rv = 1;
  /** Every change with rv <= this is gone from history: a watch from before it gets 410. */
  private compactedThrough = 1;

  constructor(private readonly options: StoreOptions) {
    this.history = new ChangeHistory(options.historyLimit);
  }

  get resourceVersion(): number {
    return this.rv;
  }

  get oldestServableVersion(): number {
    return this.compactedThrough;
  }

  private collection(type: ResourceType): Collection {
    let c = this.collections.get(type);
    if (!c) {
      c = new Map();
      this.collections.set(type, c);
    }
    return c;
  }

  get(type: ResourceType, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.collections.get(type)?.get(namespace ?? '')?.get(name);
  }

  /** Objects of a type, in one namespace or all, sorted by (namespace, name). */
  list(type: ResourceType, namespace?: string): StoredObject[] {
    const c = this.collections.get(type);
    if (!c) return [];
    if (namespace !== undefined) return [...(c.get(namespace)?.values() ?? [])].sort(byKey);
    let sorted = this.sortedCache.get(type);
    if (!sorted) {
      sorted = [...c.values()].flatMap((ns) => [...ns.values()]).sort(byKey);
      this.sortedCache.set(type, sorted);
    }
    return sorted;
  }

  count(type: ResourceType): number {
    let n = 0;
    for (const ns of this.collections.get(type)?.values() ?? []) n += ns.size;
    return n;
  }

  /**
   * Creates or replaces an object. Fills uid, creationTimestamp (kept from the existing object
   * when absent), namespace-less metadata for cluster-scoped kinds, and a new resourceVersion.
   */
  put(type: ResourceType, input: KubeObject): StoredObject {
    const obj = structuredClone(input);
    const namespace = type.namespaced ? (obj.metadata.namespace ?? 'default') : undefined;
    if (namespace === undefined) delete obj.metadata.namespace;
    else obj.metadata.namespace = namespace;
    const previous = this.get(type, namespace, obj.metadata.name);
    this.rv += 1;
    obj.metadata.uid ??= previous?.obj.metadata.uid ?? randomUUID();
    obj.metadata.creationTimestamp ??= previous?.obj.metadata.creationTimestamp ?? this.timestamp();
    obj.metadata.resourceVersion = String(this.rv);
    const stored = this.storedFor(type, obj);
    const c = this.collection(type);
    let ns = c.get(namespace ?? '');
    if (!ns) {
      ns = new Map();
      c.set(namespace ?? '', ns);
    }
    ns.set(obj.metadata.name, stored);
    this.sortedCache.delete(type);
    this.record({ rv: this.rv, type: previous ? 'MODIFIED' : 'ADDED', stored, previous });
    return stored;
  }

  /** Deletes an object; the DELETED event carries it with a new resourceVersion, as etcd does. */
  remove(type: ResourceType, namespace: string | undefined, name: string): StoredObject | undefined {
    const ns = namespace ?? '';
    const existing = this.collections.get(type)?.get(ns)?.get(name);
    if (!existing) return undefined;
    this.collections.get(type)!.get(ns)!.delete(name);
    this.sortedCache.delete(type);
    this.rv += 1;
    const obj = structuredClone(existing.obj);
    obj.metadata.resourceVersion = String(this.rv);
    const stored = this.storedFor(type, obj);
    this.record({ rv: this.rv, type: 'DELETED', stored });
    return stored;
  }

  private storedFor(type: ResourceType, obj: KubeObject): StoredObject {
    return { type, key: storageKey(obj.metadata.namespace, obj.metadata.name), obj, json: JSON.stringify(obj) };
  }

  private timestamp(): string {
    return this.options.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private record(change: Change): void {
    const evicted = this.history.push(change);
    if (evicted) this.compactedThrough = evicted.rv;
    for (const listener of this.listeners) listener(change);
  }

  /** Changes after `rv`; throws 410 Expired when some of them were compacted away. */
  changesAfter(rv: number): Change[] {
    if (rv < this.compactedThrough) throw tooOldResourceVersion(rv, this.compactedThrough);
    return this.history.after(rv);
  }

  /** Forgets all history: every resourceVersion before now becomes too old. */
  compact(): void {
    this.history.clear();
    this.compactedThrough = this.rv;
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
