/**
 * List + watch of the Run:ai workload kinds, in the shape of a Kubernetes reflector: list
 * (paginated) → watch from the list's resourceVersion → on 410 Gone relist → on any other
 * error rewatch with capped backoff → relist now and then anyway, to converge on anything
 * missed. Poll mode lists on a timer instead, for clusters whose proxies cut long watches.
 * Both modes feed the same handler; the handler owns all logic.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CustomObjectsApi, type KubeConfig, Watch } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { describeKubeError, type WorkloadKindRef } from './kinds.js';

export interface WorkloadEventHandler {
  upsert(raw: unknown, kind: WorkloadKindRef): void;
  remove(raw: unknown, kind: WorkloadKindRef): void;
  /** After each complete list: every uid the cluster has of that kind (in that scope). */
  listed(kind: WorkloadKindRef, scope: string, uids: Set<string>): void;
  /** Runs a slice of a list's upserts together (one store transaction, say); optional. */
  batch?(work: () => void): void;
}

export interface WatcherStats {
  requests: number;
  watchRestarts: number;
  relists: number;
  errors: number;
  /** The last failure talking to the API server, cleared by the next good list (/readyz shows it). */
  lastError?: string;
}

export interface WatcherOptions {
  kubeConfig: KubeConfig;
  kinds: WorkloadKindRef[];
  /** Empty: all namespaces (one cluster-wide watch per kind). */
  namespaces: string[];
  mode: 'watch' | 'poll';
  pollIntervalMs: number;
  resyncMs: number;
  handler: WorkloadEventHandler;
  log: Logger;
  stats?: WatcherStats;
  pageSize?: number;
  /** Objects handled between two turns of the event loop during a list (default 100). */
  sliceSize?: number;
}

const MAX_BACKOFF_MS = 30_000;
/** Server-side watch timeout; jittered so many bots don't reconnect in step. */
const WATCH_TIMEOUT_S = [240, 360] as const;
/** Each periodic relist comes after resyncMs ± this share, so kinds and bots drift apart. */
const RESYNC_JITTER = 0.2;

export class WorkloadWatcher {
  private readonly reflectors: Reflector[];
  readonly stats: WatcherStats;

  constructor(private readonly options: WatcherOptions) {
    this.stats = options.stats ?? { requests: 0, watchRestarts: 0, relists: 0, errors: 0 };
    const scopes = options.namespaces.length ? options.namespaces : [''];
    this.reflectors = options.kinds.flatMap((kind) => scopes.map((ns) => new Reflector(kind, ns, options, this.stats)));
  }

  /** Starts every reflector; resolves once each has completed its first list. */
  async start(): Promise<void> {
    await Promise.all(this.reflectors.map((r) => r.start()));
  }

  get synced(): boolean {
    return this.reflectors.every((r) => r.synced);
  }

  /** Where each reflector's watch would resume (diagnostics, tests). */
  resourceVersions(): string[] {
    return this.reflectors.map((r) => r.position);
  }

  stop(): void {
    for (const r of this.reflectors) r.stop();
  }
}

class Reflector {
  private readonly api: CustomObjectsApi;
  private readonly watch: Watch;
  private readonly log: Logger;
  private resourceVersion = '';
  private stopped = false;
  private abort?: AbortController;
  private timer?: NodeJS.Timeout;
  private resyncTimer?: NodeJS.Timeout;
  private failures = 0;
  synced = false;

  constructor(
    private readonly kind: WorkloadKindRef,
    private readonly namespace: string,
    private readonly options: WatcherOptions,
    private readonly stats: WatcherStats,
  ) {
    this.api = options.kubeConfig.makeApiClient(CustomObjectsApi);
    this.watch = new Watch(options.kubeConfig);
    this.log = options.log.child({ kind: kind.plural, namespace: namespace || '*' });
  }

  get position(): string {
    return this.resourceVersion;
  }

  private get scope(): string {
    return this.namespace || '*';
  }

  async start(): Promise<void> {
    await this.listUntilDone();
    if (this.stopped) return;
    if (this.options.mode === 'poll') {
      this.schedule(() => this.poll(), this.options.pollIntervalMs);
    } else {
      void this.startWatch();
      this.scheduleResync();
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.resyncTimer);
    this.abort?.abort();
  }

  /** The first list must succeed before the bot can act: retry it with backoff until it does. */
  private async listUntilDone(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.list();
        this.synced = true;
        this.failures = 0;
        this.stats.lastError = undefined;
        return;
      } catch (err) {
        this.stats.errors++;
        this.stats.lastError = describeKubeError(err);
        const delay = this.backoff();
        this.log.error({ err: describeKubeError(err), retryInMs: delay }, 'listing workloads failed');
        await new Promise((resolve) => (this.timer = setTimeout(resolve, delay)));
      }
    }
  }

  private async list(): Promise<void> {
    const uids = new Set<string>();
    const slice = this.options.sliceSize ?? 100;
    let continueToken: string | undefined;
    do {
      this.stats.requests++;
      const page = (await (this.namespace
        ? this.api.listNamespacedCustomObject({
            group: this.kind.group,
            version: this.kind.version,
            namespace: this.namespace,
            plural: this.kind.plural,
            limit: this.options.pageSize ?? 500,
            _continue: continueToken,
          })
        : this.api.listClusterCustomObject({
            group: this.kind.group,
            version: this.kind.version,
            plural: this.kind.plural,
            limit: this.options.pageSize ?? 500,
            _continue: continueToken,
          }))) as { items?: unknown[]; metadata?: { continue?: string; resourceVersion?: string } };
      const items = page.items ?? [];
      // A 100k relist must not hold the loop for seconds: Slack, probes and the watch of other
      // kinds get a turn every `slice` objects, and each slice is one batch for the handler.
      for (let start = 0; start < items.length; start += slice) {
        this.batch(() => {
          for (const item of items.slice(start, start + slice)) {
            const uid = (item as { metadata?: { uid?: string } })?.metadata?.uid;
            if (uid) uids.add(uid);
            this.deliver('upsert', item);
          }
        });
        if (start + slice < items.length) await nextTurn();
      }
      continueToken = page.metadata?.continue || undefined;
      if (page.metadata?.resourceVersion) this.resourceVersion = page.metadata.resourceVersion;
    } while (continueToken && !this.stopped);
    this.options.handler.listed(this.kind, this.scope, uids);
  }

  private batch(work: () => void): void {
    const { handler } = this.options;
    if (!handler.batch) return work();
    try {
      handler.batch(work);
    } catch (err) {
      // The batch itself failed (its commit, say): the next list converges again.
      this.stats.errors++;
      this.log.error({ err: (err as Error).message }, 'handling a slice of listed workloads failed');
    }
  }

  /** The handler must never break the stream: a bad object is its problem, logged there. */
  private deliver(type: 'upsert' | 'remove', item: unknown): void {
    try {
      if (type === 'upsert') this.options.handler.upsert(item, this.kind);
      else this.options.handler.remove(item, this.kind);
    } catch (err) {
      this.stats.errors++;
      this.log.error({ err: (err as Error).message }, 'handling a workload event failed');
    }
  }

  private async poll(): Promise<void> {
    try {
      await this.list();
      this.failures = 0;
      this.schedule(() => this.poll(), this.options.pollIntervalMs);
    } catch (err) {
      this.stats.errors++;
      this.stats.lastError = describeKubeError(err);
      const delay = Math.min(this.backoff(), this.options.pollIntervalMs);
      this.log.warn({ err: describeKubeError(err), retryInMs: delay }, 'polling workloads failed');
      this.schedule(() => this.poll(), delay);
    }
  }

  private scheduleResync(): void {
    if (this.stopped) return;
    const jitter = 1 + (Math.random() * 2 - 1) * RESYNC_JITTER;
    this.resyncTimer = setTimeout(() => void this.resync().finally(() => this.scheduleResync()), Math.round(this.options.resyncMs * jitter));
    this.resyncTimer.unref();
  }

  private async resync(): Promise<void> {
    if (this.stopped) return;
    this.stats.relists++;
    try {
      await this.list();
    } catch (err) {
      this.stats.errors++;
      this.log.warn({ err: describeKubeError(err) }, 'periodic relist failed; the watch goes on');
    }
  }

  private async startWatch(): Promise<void> {
    if (this.stopped) return;
    const path = this.namespace
      ? `/apis/${this.kind.group}/${this.kind.version}/namespaces/${encodeURIComponent(this.namespace)}/${this.kind.plural}`
      : `/apis/${this.kind.group}/${this.kind.version}/${this.kind.plural}`;
    const [min, max] = WATCH_TIMEOUT_S;
    let gone = false;
    this.stats.requests++;
    try {
      this.abort = await this.watch.watch(
        path,
        {
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: min + Math.floor(Math.random() * (max - min)),
        },
        (type, object) => {
          const rv = (object as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion;
          if (type === 'ERROR') {
            const code = (object as { code?: number })?.code;
            if (code === 410) gone = true;
            else this.log.warn({ code, message: (object as { message?: string })?.message }, 'watch error event');
            return;
          }
          // BOOKMARK events carry only this: the watch's place in history moves on even when
          // nothing of this kind changes, so a reconnect after a quiet hour is no 410 (and no relist).
          if (rv) this.resourceVersion = rv;
          if (type === 'ADDED' || type === 'MODIFIED') this.deliver('upsert', object);
          else if (type === 'DELETED') this.deliver('remove', object);
          this.failures = 0;
        },
        (err) => void this.watchEnded(err, gone),
      );
    } catch (err) {
      void this.watchEnded(err, gone);
    }
  }

  private async watchEnded(err: unknown, gone: boolean): Promise<void> {
    if (this.stopped) return;
    this.stats.watchRestarts++;
    const status = (err as { statusCode?: number; code?: number } | null)?.statusCode;
    if (gone || status === 410) {
      // Our resourceVersion is older than the server's history: list afresh, then watch again.
      this.log.info('watch resourceVersion expired (410 Gone); relisting');
      this.stats.relists++;
      this.resourceVersion = '';
      await this.listUntilDone();
      void this.startWatch();
      return;
    }
    if (err) {
      this.stats.errors++;
      this.stats.lastError = describeKubeError(err);
      const delay = this.backoff();
      this.log.warn({ err: describeKubeError(err), retryInMs: delay }, 'watch failed; reconnecting');
      this.schedule(() => this.startWatch(), delay);
      return;
    }
    // A normal server-side close (timeoutSeconds): resume from where we were.
    this.schedule(() => this.startWatch(), 0);
  }

  private backoff(): number {
    this.failures++;
    const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(this.failures - 1, 10));
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private schedule(fn: () => Promise<void>, delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void fn(), delay);
  }
}
