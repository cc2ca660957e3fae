/**
 * What the cluster shows now: every watched workload, normalised once, by workloadId(). The
 * reconciler writes it (it alone follows the watch); the parts that only need to read it (the
 * notifier's last look before it sends, the owner prefetcher, the maintenance notices, retention)
 * take this value instead of the reconciler, so the composition root builds them in a straight
 * line: cache → notifier → reconciler, with no part waiting for another to be built.
 */
import type { LifecycleState, Workload } from '../model.js';

/**
 * One workload as the cache keeps it: the normalised value, not the raw object (a busy cluster
 * holds 100,000 of them). Enrichment, commands and the archive take this value and attach the
 * pods they read (cluster/normalize withPods): a CR is normalised once, when it arrives.
 */
export interface Cached {
  workload: Workload;
  /** The kind's plural, for telling which list a workload belongs to. */
  plural: string;
}

/** Read-only view for the parts that only look. */
export interface WorkloadView {
  /** The owners of the workloads the cluster shows now. */
  ownersPresent(): Set<string>;
  /** Workloads as last seen (read-only snapshots without pods). */
  workloads(): Workload[];
  /** The state the cluster shows now, or undefined when the workload is gone; `id` is workloadId(). */
  currentState(id: string): LifecycleState | undefined;
}

export class WorkloadCache implements WorkloadView, Iterable<[string, Cached]> {
  private readonly byId = new Map<string, Cached>();
  /**
   * One copy of each repeated string (namespace, project, owner, kind, image, …): JSON gives
   * every object its own copies, and 100,000 workloads share a few thousand distinct values.
   */
  private readonly strings = new Map<string, string>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Cached | undefined {
    return this.byId.get(id);
  }

  /** Keeps the workload with its repeated strings shared. */
  set(id: string, workload: Workload, plural: string): Workload {
    const kept = this.interned(workload);
    this.byId.set(id, { workload: kept, plural: this.intern(plural) });
    return kept;
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  values(): IterableIterator<Cached> {
    return this.byId.values();
  }

  [Symbol.iterator](): IterableIterator<[string, Cached]> {
    return this.byId[Symbol.iterator]();
  }

  ownersPresent(): Set<string> {
    const owners = new Set<string>();
    for (const { workload } of this.byId.values()) if (workload.owner) owners.add(workload.owner);
    return owners;
  }

  workloads(): Workload[] {
    return [...this.byId.values()].map((c) => c.workload);
  }

  currentState(id: string): LifecycleState | undefined {
    return this.byId.get(id)?.workload.state;
  }

  private intern(value: string): string;
  private intern(value: string | undefined): string | undefined;
  private intern(value: string | undefined): string | undefined {
    if (value === undefined) return undefined;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  private interned(w: Workload): Workload {
    return {
      ...w,
      ...(w.cluster ? { cluster: this.intern(w.cluster) } : {}),
      kind: this.intern(w.kind),
      apiVersion: this.intern(w.apiVersion),
      namespace: this.intern(w.namespace),
      project: this.intern(w.project),
      owner: this.intern(w.owner),
      phase: this.intern(w.phase),
      image: this.intern(w.image),
      command: this.intern(w.command),
    };
  }
}
