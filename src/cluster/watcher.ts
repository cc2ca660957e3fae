/**
 * List + watch of the Run:ai workload kinds, in the shape of client-go's reflector: list
 * (paginated, every page from the first page's snapshot) → watch from the list's
 * resourceVersion → on 410 Gone relist → on any other error rewatch with capped backoff.
 *
 * A list and the watch of one reflector never run at once. A relist (on 410, and every
 * `relistMs` if set) first gives the watch up, then lists, hands the handler the whole list
 * (`listed()`: whatever else it holds of this kind and scope is gone), and watches again from
 * the list's resourceVersion, so the changes made after the list's snapshot are replayed in
 * order. Had the watch gone on, it could deliver a change newer than the snapshot the list was
 * still serving: the list would then move a workload back to its older state, and sweep away
 * one created after the snapshot. Resource versions are not compared to prevent that: the API
 * documents them as opaque (equality only), and the pause makes the order hold by construction.
 *
 * A resync is not a list: every `resyncMs` the handler replays what it holds through its
 * decision (level-triggered, so a decision that failed converges) without asking the server.
 *
 * A watch that delivers nothing (no event, no bookmark) for longer than the server could stay
 * silent is cut and started again from its resourceVersion (the watchdog; see silenceLimitMs).
 * Poll mode lists on a timer instead, for clusters whose proxies cut long watches. Both modes
 * feed the same handler; the handler owns all logic.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CustomObjectsApi, type KubeConfig, Watch } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { backoffDelay, type Backoff } from '../lib/backoff.js';
import { withTimeout } from '../lib/timeout.js';
import { describeKubeError, type WorkloadKindRef } from './kinds.js';
import { withSignal } from './request-signal.js';

export interface WorkloadEventHandler {
  upsert(raw: unknown, kind: WorkloadKindRef): void;
  remove(raw: unknown, kind: WorkloadKindRef): void;
  /**
   * After each complete list, during which no watch event of this kind and scope arrived: every
   * uid the cluster has of that kind in that scope. What the handler holds besides is gone.
   */
  listed(kind: WorkloadKindRef, scope: string, uids: Set<string>): void;
  /** Runs a slice of a list's upserts together (one store transaction, say); optional. */
  batch?(work: () => void): void;
  /** Replays what the handler holds through its decision, without a request to the server (watch mode's resync). */
  resync?(): void | Promise<void>;
}

export interface WatcherStats {
  requests: number;
  watchRestarts: number;
  /** Watch restarts the watchdog made: the watch had delivered nothing for longer than its limit. */
  watchStalls: number;
  relists: number;
  resyncs: number;
  errors: number;
  /** The last failure talking to the API server, cleared by the next good list (/readyz shows it). */
  lastError?: string;
}

export function emptyWatcherStats(): WatcherStats {
  return { requests: 0, watchRestarts: 0, watchStalls: 0, relists: 0, resyncs: 0, errors: 0 };
}

/** How the reflector paces its requests; the defaults are for a real API server, tests shorten them. */
export interface WatchTimings {
  /** The server-side timeout each watch asks for, seconds, drawn from [min, max) so bots do not reconnect in step. */
  watchTimeoutSeconds: readonly [number, number];
  /** How much later than its timeoutSeconds a server may end a watch before the watch counts as dead. */
  timeoutGraceMs: number;
  /** Once the server has been seen sending bookmarks: silence longer than this counts as dead. */
  bookmarkSilenceMs: number;
  /** Each page of a list must be answered within this, or the list fails and is tried again. */
  listPageTimeoutMs: number;
}

export const DEFAULT_WATCH_TIMINGS: WatchTimings = {
  watchTimeoutSeconds: [240, 360],
  timeoutGraceMs: 30_000,
  // The API server's watch cache sends a bookmark every minute (the cacher's
  // defaultBookmarkFrequency) and one 2 s before the watch's deadline. Half a minute late is
  // still alive; a bookmark missed outright and half a minute more is not. Cutting a healthy
  // watch costs one watch request resuming from its resourceVersion, never a list.
  bookmarkSilenceMs: 90_000,
  // The API server ends a plain request after 60 s (--request-timeout): a page not answered by
  // then, and a little more, is not coming. The watch waits for the list, so it must not hang.
  listPageTimeoutMs: 70_000,
};

/**
 * How long a watch may deliver nothing before it is cut. The server must end a watch by its
 * timeoutSeconds ("regardless of any activity or inactivity"), so a watch still open well past
 * it is dead. Bookmarks are not promised ("clients should not assume bookmarks are returned at
 * any specific interval"), so the shorter bookmark limit applies only once this reflector has
 * seen the server send them.
 */
export function silenceLimitMs(timeoutSeconds: number, bookmarksSeen: boolean, timings: Pick<WatchTimings, 'timeoutGraceMs' | 'bookmarkSilenceMs'>): number {
  const byTimeout = timeoutSeconds * 1000 + timings.timeoutGraceMs;
  return bookmarksSeen ? Math.min(byTimeout, timings.bookmarkSilenceMs) : byTimeout;
}

export interface WatcherOptions {
  kubeConfig: KubeConfig;
  kinds: WorkloadKindRef[];
  /** Empty: all namespaces (one cluster-wide watch per kind). */
  namespaces: string[];
  mode: 'watch' | 'poll';
  pollIntervalMs: number;
  /** Watch mode: how often the handler replays its cache through the decision (no request). */
  resyncMs: number;
  /** Watch mode: how often a full list replaces the cache; undefined: only at start and after 410 Gone. */
  relistMs?: number;
  handler: WorkloadEventHandler;
  log: Logger;
  stats?: WatcherStats;
  pageSize?: number;
  /** Objects handled between two turns of the event loop during a list (default 100). */
  sliceSize?: number;
  timings?: Partial<WatchTimings>;
}

/** What a test may set on the watchers of a running bot (BotOptions.watcher): shorter schedules. */
export type WatcherOverrides = Partial<Pick<WatcherOptions, 'relistMs' | 'resyncMs' | 'timings'>>;

const WATCH_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000 };
/** Each resync and periodic relist comes after its period ± this share, so kinds and bots drift apart. */
const PERIOD_JITTER = 0.2;

function jittered(ms: number): number {
  return Math.round(ms * (1 + (Math.random() * 2 - 1) * PERIOD_JITTER));
}

export class WorkloadWatcher {
  private readonly reflectors: Reflector[];
  private resyncTimer?: NodeJS.Timeout;
  private stopped = false;
  readonly stats: WatcherStats;

  constructor(private readonly options: WatcherOptions) {
    this.stats = options.stats ?? emptyWatcherStats();
    const scopes = options.namespaces.length ? options.namespaces : [''];
    const timings = { ...DEFAULT_WATCH_TIMINGS, ...options.timings };
    this.reflectors = options.kinds.flatMap((kind) => scopes.map((ns) => new Reflector(kind, ns, options, timings, this.stats)));
  }

  /** Starts every reflector; resolves once each has completed its first list. */
  async start(): Promise<void> {
    await Promise.all(this.reflectors.map((r) => r.start()));
    // In poll mode every poll lists and so decides everything: a resync would add nothing.
    if (this.options.mode === 'watch') this.scheduleResync();
  }

  get synced(): boolean {
    return this.reflectors.every((r) => r.synced);
  }

  /** Where each reflector's watch would resume (diagnostics, tests). */
  resourceVersions(): string[] {
    return this.reflectors.map((r) => r.position);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.resyncTimer);
    for (const r of this.reflectors) r.stop();
  }

  private scheduleResync(): void {
    const { handler, log, resyncMs } = this.options;
    if (this.stopped || !handler.resync) return;
    this.resyncTimer = setTimeout(() => {
      this.stats.resyncs++;
      void Promise.resolve()
        .then(() => handler.resync?.())
        .catch((err: unknown) => log.error({ err: (err as Error)?.message ?? String(err) }, 'resync failed; the next one replays again'))
        .finally(() => this.scheduleResync());
    }, jittered(resyncMs));
    this.resyncTimer.unref();
  }
}

/** The watch in progress: what cuts it, and when it last delivered anything. */
interface LiveWatch {
  abort?: AbortController;
  /** The watch request's own agent: destroying it cuts the watch even before its response headers. */
  agent?: { destroy(): void };
  watchdog?: NodeJS.Timeout;
  lastHeard: number;
  limitMs: number;
  timeoutSeconds: number;
}

class Reflector {
  private readonly api: CustomObjectsApi;
  private readonly log: Logger;
  private resourceVersion = '';
  private stopped = false;
  /** Bumped whenever the watch in progress is given up: the events and the end of an older one are ignored. */
  private watchGeneration = 0;
  private live?: LiveWatch;
  /** The next watch or poll. */
  private timer?: NodeJS.Timeout;
  private relistTimer?: NodeJS.Timeout;
  private relisting = false;
  private failures = 0;
  /** The server has sent this reflector a bookmark: it sends them, so a long silence means a dead watch. */
  private bookmarksSeen = false;
  synced = false;

  constructor(
    private readonly kind: WorkloadKindRef,
    private readonly namespace: string,
    private readonly options: WatcherOptions,
    private readonly timings: WatchTimings,
    private readonly stats: WatcherStats,
  ) {
    this.api = options.kubeConfig.makeApiClient(CustomObjectsApi);
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
      this.startWatch();
      this.scheduleRelist();
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.relistTimer);
    this.stopWatch();
  }

  /** A list must succeed before the watch can go on from it: retry it with backoff until it does. */
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
    let listVersion: string | undefined;
    do {
      this.stats.requests++;
      const params = { group: this.kind.group, version: this.kind.version, plural: this.kind.plural, limit: this.options.pageSize ?? 500, _continue: continueToken };
      const page = (await withTimeout(
        (signal) => (this.namespace
          ? this.api.listNamespacedCustomObject({ ...params, namespace: this.namespace }, withSignal(signal))
          : this.api.listClusterCustomObject(params, withSignal(signal))),
        this.timings.listPageTimeoutMs,
        `listing ${this.kind.plural}`,
      )) as { items?: unknown[]; metadata?: { continue?: string; resourceVersion?: string } };
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
      listVersion = page.metadata?.resourceVersion || listVersion;
      if (this.stopped) return;
    } while (continueToken);
    // Only a complete list says what is gone, and where the watch goes on from.
    this.options.handler.listed(this.kind, this.scope, uids);
    if (listVersion) this.resourceVersion = listVersion;
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

  private scheduleRelist(): void {
    const { relistMs } = this.options;
    if (this.stopped || relistMs === undefined) return;
    this.relistTimer = setTimeout(() => void this.relist('periodic').finally(() => this.scheduleRelist()), jittered(relistMs));
    this.relistTimer.unref();
  }

  /**
   * Gives the watch up, lists until a list succeeds, and watches again from the list's
   * resourceVersion: nothing the watch could deliver meanwhile races the list's older snapshot.
   */
  private async relist(reason: 'periodic' | 'expired'): Promise<void> {
    if (this.stopped || this.relisting) return;
    this.relisting = true;
    this.stats.relists++;
    const started = performance.now();
    try {
      this.stopWatch();
      clearTimeout(this.timer);
      this.log.info({ reason }, 'relisting: the watch pauses until the list is complete');
      await this.listUntilDone();
    } finally {
      this.relisting = false;
    }
    if (this.stopped) return;
    this.log.info({ reason, ms: Math.round(performance.now() - started), resourceVersion: this.resourceVersion }, 'relisted; watching again from the list');
    this.startWatch();
  }

  private startWatch(): void {
    if (this.stopped) return;
    const path = this.namespace
      ? `/apis/${this.kind.group}/${this.kind.version}/namespaces/${encodeURIComponent(this.namespace)}/${this.kind.plural}`
      : `/apis/${this.kind.group}/${this.kind.version}/${this.kind.plural}`;
    const [min, max] = this.timings.watchTimeoutSeconds;
    const timeoutSeconds = min + Math.floor(Math.random() * (max - min));
    const generation = ++this.watchGeneration;
    const current = () => generation === this.watchGeneration && !this.stopped;
    const live: LiveWatch = { lastHeard: performance.now(), limitMs: silenceLimitMs(timeoutSeconds, this.bookmarksSeen, this.timings), timeoutSeconds };
    this.live = live;
    this.armWatchdog(live);
    let gone = false;
    this.stats.requests++;
    const watch = watchWithOwnAgent(this.options.kubeConfig, (agent) => {
      if (current()) live.agent = agent;
      else agent.destroy();
    });
    watch
      .watch(
        path,
        { resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds },
        (type, object) => {
          if (!current()) return;
          live.lastHeard = performance.now();
          const rv = (object as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion;
          if (type === 'ERROR') {
            const code = (object as { code?: number })?.code;
            if (code === 410) gone = true;
            else this.log.warn({ code, message: (object as { message?: string })?.message }, 'watch error event');
            return;
          }
          if (type === 'BOOKMARK') this.bookmarked(live);
          // BOOKMARK events carry only this: the watch's place in history moves on even when
          // nothing of this kind changes, so a reconnect after a quiet hour is no 410 (and no relist).
          if (rv) this.resourceVersion = rv;
          if (type === 'ADDED' || type === 'MODIFIED') this.deliver('upsert', object);
          else if (type === 'DELETED') this.deliver('remove', object);
          this.failures = 0;
        },
        (err) => {
          if (current()) void this.watchEnded(err, gone);
        },
      )
      .then(
        (abort) => {
          if (current()) live.abort = abort;
          else abort.abort();
        },
        (err: unknown) => {
          if (current()) void this.watchEnded(err, gone);
        },
      );
  }

  /** The server sends bookmarks: from now on a watch that hears none for a while is dead sooner. */
  private bookmarked(live: LiveWatch): void {
    if (this.bookmarksSeen) return;
    this.bookmarksSeen = true;
    live.limitMs = silenceLimitMs(live.timeoutSeconds, true, this.timings);
    this.log.debug({ limitMs: live.limitMs }, 'the server sends watch bookmarks: a watch silent for longer is cut');
    this.armWatchdog(live);
  }

  /** Fires once the watch has been silent for its limit; events only move `lastHeard`, not the timer. */
  private armWatchdog(live: LiveWatch): void {
    clearTimeout(live.watchdog);
    const wait = Math.max(0, live.lastHeard + live.limitMs - performance.now());
    live.watchdog = setTimeout(() => {
      if (this.live !== live) return;
      const silentMs = performance.now() - live.lastHeard;
      if (silentMs < live.limitMs) return this.armWatchdog(live);
      this.stats.watchStalls++;
      this.stats.watchRestarts++;
      const delay = this.backoff();
      this.log.warn({ silentMs: Math.round(silentMs), limitMs: live.limitMs, retryInMs: delay }, 'the watch delivered nothing (no event, no bookmark) for longer than the server may stay silent; cutting it and watching again from where it was');
      this.stopWatch();
      this.schedule(() => this.startWatch(), delay);
    }, wait);
    live.watchdog.unref();
  }

  /** Gives up the watch in progress, if any: its connection is cut and whatever it still delivers is ignored. */
  private stopWatch(): void {
    this.watchGeneration++;
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    clearTimeout(live.watchdog);
    live.abort?.abort();
    live.agent?.destroy();
  }

  private async watchEnded(err: unknown, gone: boolean): Promise<void> {
    this.stopWatch();
    if (this.stopped) return;
    this.stats.watchRestarts++;
    const status = (err as { statusCode?: number; code?: number } | null)?.statusCode;
    if (gone || status === 410) {
      // Our resourceVersion is older than the server's history: list afresh, then watch again.
      this.log.info('watch resourceVersion expired (410 Gone); relisting');
      this.resourceVersion = '';
      await this.relist('expired');
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
    return backoffDelay(this.failures, Math.random(), WATCH_BACKOFF);
  }

  private schedule(fn: () => void | Promise<void>, delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void fn(), delay);
  }
}

/**
 * client-node's Watch, with each request's agent handed to `onAgent` before the request goes
 * out. Its Watch has no read timeout (it replaces its own 30 s timeout signal with its abort
 * controller) and returns that controller only once the response headers are in, so a watch
 * stuck before them could not be cut. The kubeconfig makes a new agent for every request;
 * destroying it closes that watch's connection, before the headers or after.
 */
function watchWithOwnAgent(kubeConfig: KubeConfig, onAgent: (agent: { destroy(): void }) => void): Watch {
  const config = Object.create(kubeConfig) as KubeConfig;
  config.applyToFetchOptions = async (opts) => {
    const init = await kubeConfig.applyToFetchOptions(opts);
    const agent = init.agent as { destroy?(): void } | undefined;
    if (agent && typeof agent.destroy === 'function') onAgent(agent as { destroy(): void });
    return init;
  };
  return new Watch(config);
}
