/**
 * Watch streams: chunked JSON lines `{"type":…,"object":…}`. A watch without a resourceVersion
 * (or "0") starts with the current objects as ADDED; one with a resourceVersion replays the
 * history after it, or gets one ERROR event with a 410 Status (as the real server does: HTTP 200,
 * then the error in the stream). Selective watches see an object that leaves their selection as
 * DELETED and one that enters it as ADDED.
 */
import type { ServerResponse } from 'node:http';
import type { ResourceType } from './kube-apiserver-resources.js';
import { groupVersionOf } from './kube-apiserver-resources.js';
import type { Change, ChangeType, KubeObject, ObjectStore, StoredObject } from './kube-apiserver-store.js';
import { ApiError } from './kube-apiserver-status.js';
import { renderTable } from './kube-apiserver-table.js';

export interface WatchRequest {
  type: ResourceType;
  namespace?: string;
  matches: (obj: KubeObject) => boolean;
  /** Replay changes after this version; undefined sends the current state first. */
  fromVersion?: number;
  /** Render each object as a one-row Table (`kubectl get -w`). */
  table: boolean;
  includeObject: boolean;
  bookmarks: boolean;
  timeoutSeconds?: number;
}

/** The watch cache sends a watch its last bookmark this long before the watch's timeoutSeconds. */
const PRE_DEADLINE_BOOKMARK_S = 2;

interface OpenWatch {
  res: ServerResponse;
  bookmarks: boolean;
  type: ResourceType;
  close(abrupt: boolean): void;
}

export class WatchHub {
  private readonly open = new Set<OpenWatch>();

  constructor(
    private readonly store: ObjectStore,
    private readonly options: { now: () => Date; bookmarkIntervalMs: number },
  ) {}

  get count(): number {
    return this.open.size;
  }

  start(req: WatchRequest, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const frame = (type: ChangeType, stored: StoredObject): string => {
      const body = req.table
        ? JSON.stringify(renderTable([stored.obj], { shape: req.type.table, now: this.options.now(), includeObject: req.includeObject }))
        : stored.json;
      return `{"type":"${type}","object":${body}}\n`;
    };

    let backlog: Change[] = [];
    if (req.fromVersion === undefined) {
      for (const stored of this.store.list(req.type, req.namespace)) {
        if (req.matches(stored.obj)) res.write(frame('ADDED', stored));
      }
    } else {
      try {
        backlog = this.store.changesAfter(req.fromVersion);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        res.end(`{"type":"ERROR","object":${JSON.stringify(err.status)}}\n`);
        return;
      }
    }

    const inScope = (stored: StoredObject) =>
      stored.type === req.type && (req.namespace === undefined || stored.obj.metadata.namespace === req.namespace);
    const deliver = (change: Change) => {
      // Ended by the server (timeout, dropAll) but not yet closed: nothing more goes out.
      if (res.writableEnded || !inScope(change.stored)) return;
      if (req.fromVersion !== undefined && change.rv <= req.fromVersion) return;
      const now = req.matches(change.stored.obj);
      const before = change.type === 'MODIFIED' && change.previous ? req.matches(change.previous.obj) : now;
      if (now && before) res.write(frame(change.type, change.stored));
      else if (now) res.write(frame('ADDED', change.stored));
      else if (before) res.write(frame('DELETED', change.stored));
    };
    backlog.forEach(deliver);
    const unsubscribe = this.store.subscribe(deliver);

    let timeout: NodeJS.Timeout | undefined;
    let bookmarks: NodeJS.Timeout | undefined;
    let lastBookmark: NodeJS.Timeout | undefined;
    const { bookmarkIntervalMs } = this.options;
    const watch: OpenWatch = {
      res,
      bookmarks: req.bookmarks && bookmarkIntervalMs > 0,
      type: req.type,
      close: (abrupt) => {
        if (abrupt) res.destroy();
        else res.end();
      },
    };
    const cleanup = () => {
      unsubscribe();
      clearTimeout(timeout);
      clearInterval(bookmarks);
      clearTimeout(lastBookmark);
      this.open.delete(watch);
    };
    res.on('close', cleanup);
    res.on('finish', cleanup);
    if (req.timeoutSeconds !== undefined) timeout = setTimeout(() => res.end(), req.timeoutSeconds * 1000);
    if (watch.bookmarks) {
      bookmarks = setInterval(() => this.bookmark(watch), bookmarkIntervalMs);
      // As the watch cache does: one more right before the deadline, so the next watch resumes from now.
      if (req.timeoutSeconds !== undefined && req.timeoutSeconds > PRE_DEADLINE_BOOKMARK_S) {
        lastBookmark = setTimeout(() => this.bookmark(watch), (req.timeoutSeconds - PRE_DEADLINE_BOOKMARK_S) * 1000);
      }
    }
    this.open.add(watch);
  }

  /** A BOOKMARK carries only the current resourceVersion, in an object of the watched kind. */
  private bookmark(watch: OpenWatch): void {
    if (!watch.bookmarks || watch.res.writableEnded) return;
    const object = {
      kind: watch.type.kind,
      apiVersion: groupVersionOf(watch.type),
      metadata: { resourceVersion: String(this.store.resourceVersion) },
    };
    watch.res.write(`{"type":"BOOKMARK","object":${JSON.stringify(object)}}\n`);
  }

  /** Sends a BOOKMARK now on every watch that asked for them (`allowWatchBookmarks`). */
  bookmarkAll(): void {
    for (const watch of this.open) this.bookmark(watch);
  }

  /** Ends every open watch: cleanly (the stream ends) or abruptly (the socket is cut). */
  dropAll(abrupt: boolean): void {
    for (const watch of [...this.open]) watch.close(abrupt);
  }
}
