/**
 * Fetches the maintenance feed (https://, http://, webcal://, file:// or a plain path) with
 * conditional requests, a timeout and a size cap, and keeps the last good copy in a persistent
 * store. A failed refresh (network, HTTP error, too big, not a calendar, truncated) never
 * replaces that copy; it is reported with the time the current run of failures began, so the
 * caller can tell operators once per outage.
 *
 * What is fetched is untrusted, and failures are posted to the operators' channel: an error
 * says what kind of problem there is, never the bytes. A file feed must be a regular file (not
 * a device, FIFO or /proc or /sys pseudo-file, which could block, never end, or hold the
 * process's environment); an HTTP feed follows at most MAX_REDIRECTS redirects, each to https
 * on the same host, so a feed server cannot point the bot at another host or at plain http.
 */
import { constants } from 'node:fs';
import { open, statfs } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normalizeFeedText } from './feed-text.js';

export interface FeedCacheEntry {
  body: string;
  etag?: string;
  lastModified?: string;
  /** ISO time of the last successful fetch (or 304). */
  fetchedAt: string;
}

/** Persisted last good copy per feed URL (the store implements it, asynchronously; the memory cache at once). */
export interface FeedCacheStore {
  getFeedCache(url: string): FeedCacheEntry | undefined | Promise<FeedCacheEntry | undefined>;
  putFeedCache(url: string, entry: FeedCacheEntry): void | Promise<void>;
}

export class MemoryFeedCache implements FeedCacheStore {
  private readonly entries = new Map<string, FeedCacheEntry>();
  getFeedCache(url: string): FeedCacheEntry | undefined {
    return this.entries.get(url);
  }
  putFeedCache(url: string, entry: FeedCacheEntry): void {
    this.entries.set(url, entry);
  }
}

export interface FeedFetchResult {
  /** The text to use: the fresh copy, or the last good one when this refresh failed. */
  body?: string;
  /** When `body` was last fetched successfully. */
  fetchedAt?: string;
  /** `body` differs from what the previous refresh returned. */
  changed: boolean;
  /** Why this refresh failed; the last good copy (if any) is still in `body`. */
  error?: Error;
  /** Start of the current run of failures. */
  failingSince?: Date;
}

export interface FeedFetcherOptions {
  feed: string;
  cache: FeedCacheStore;
  now?: () => Date;
  timeoutMs?: number;
  maxBytes?: number;
  /** Throws when a body is not acceptable as a feed; default: it must look like a whole calendar. */
  validate?: (body: string) => void;
  /** How HTTP feeds are fetched (through a proxy: lib/proxy.ts); default: the global fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Calendar hosts redirect once or twice (http → https, old path → new); more is a loop. */
export const MAX_REDIRECTS = 3;

/** statfs f_type of the Linux pseudo file systems whose files are not data (linux/magic.h). */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x62656570, 'configfs'],
  [0xde5e81e4, 'efivarfs'],
  [0x1cd1, 'devpts'],
]);

type Fetched = { notModified: true } | { notModified: false; body: string; etag?: string; lastModified?: string };

export class FeedFetchError extends Error {
  readonly code = 'maintenance_feed_fetch_failed';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FeedFetchError';
  }
}

function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

export class FeedFetcher {
  private readonly url: string;
  private readonly now: () => Date;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly validate: (body: string) => void;
  private failingSince: Date | undefined;
  private lastBody: string | undefined;

  constructor(private readonly opts: FeedFetcherOptions) {
    this.url = opts.feed.replace(/^webcal:\/\//i, 'https://');
    this.now = opts.now ?? (() => new Date());
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.validate = opts.validate ?? ((body) => void normalizeFeedText(body));
  }

  /** The last good copy, without fetching. */
  async lastGood(): Promise<FeedCacheEntry | undefined> {
    return await this.opts.cache.getFeedCache(this.opts.feed);
  }

  async refresh(): Promise<FeedFetchResult> {
    const cached = await this.lastGood();
    try {
      const fetched = /^https?:\/\//i.test(this.url) ? await this.fetchHttp(cached) : await this.readFile(cached);
      const fetchedAt = this.now().toISOString();
      let entry: FeedCacheEntry;
      if (fetched.notModified && cached) {
        entry = { ...cached, fetchedAt };
      } else if (fetched.notModified) {
        throw new FeedFetchError('the server answered 304 Not Modified, but there is no cached copy');
      } else {
        try {
          this.validate(fetched.body);
        } catch (err) {
          throw new FeedFetchError(`the feed is not usable: ${describeCause(err)}`, { cause: err });
        }
        entry = { body: fetched.body, etag: fetched.etag, lastModified: fetched.lastModified, fetchedAt };
      }
      await this.opts.cache.putFeedCache(this.opts.feed, entry);
      this.failingSince = undefined;
      return this.result(entry);
    } catch (err) {
      this.failingSince ??= this.now();
      const error = err instanceof FeedFetchError ? err : new FeedFetchError(describeCause(err), { cause: err });
      return { ...this.result(cached), error, failingSince: this.failingSince };
    }
  }

  private result(entry: FeedCacheEntry | undefined): FeedFetchResult {
    const changed = entry !== undefined && entry.body !== this.lastBody;
    this.lastBody = entry?.body;
    return { body: entry?.body, fetchedAt: entry?.fetchedAt, changed };
  }

  private async fetchHttp(cached: FeedCacheEntry | undefined): Promise<Fetched> {
    const headers: Record<string, string> = { accept: 'text/calendar, text/plain;q=0.9, */*;q=0.1' };
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      const response = await this.fetchFollowingSafeRedirects(headers, abort.signal);
      if (response.status === 304) return { notModified: true };
      if (!response.ok) {
        await response.body?.cancel();
        throw new FeedFetchError(`HTTP ${response.status} ${response.statusText}`.trim());
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (declared > this.maxBytes) {
        await response.body?.cancel();
        throw new FeedFetchError(`the feed is ${declared} bytes, more than the ${this.maxBytes}-byte limit`);
      }
      const body = await this.readCapped(response, abort);
      return {
        notModified: false,
        body,
        etag: response.headers.get('etag') ?? undefined,
        lastModified: response.headers.get('last-modified') ?? undefined,
      };
    } catch (err) {
      if (abort.signal.aborted && !(err instanceof FeedFetchError)) {
        throw new FeedFetchError(`no complete answer within ${this.timeoutMs} ms`, { cause: err });
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Follows redirects by hand: fetch's own following would go to any host and to plain http.
   * Refusals name the host at most (feed paths often carry a secret token), never the body.
   */
  private async fetchFollowingSafeRedirects(headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const origin = new URL(this.url);
    let url = origin;
    for (let hops = 0; ; hops++) {
      const response = await (this.opts.fetch ?? fetch)(url, { headers, signal, redirect: 'manual' });
      if (response.status < 300 || response.status > 399 || response.status === 304) return response;
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location) throw new FeedFetchError(`HTTP ${response.status} redirect without a Location`);
      const next = new URL(location, url);
      if (next.hostname !== origin.hostname) {
        throw new FeedFetchError(`HTTP ${response.status} redirect to another host (${next.hostname}) not followed; only redirects to https on ${origin.hostname} are; point maintenance.feed at the final address`);
      }
      if (next.protocol !== 'https:') {
        throw new FeedFetchError(`HTTP ${response.status} redirect to ${next.protocol.replace(':', '')} not followed; only redirects to https on ${origin.hostname} are; point maintenance.feed at the final address`);
      }
      if (hops + 1 > MAX_REDIRECTS) throw new FeedFetchError(`more than ${MAX_REDIRECTS} redirects; point maintenance.feed at the final address`);
      url = next;
    }
  }

  /** Reads the body, aborting as soon as it grows past the cap (the server may not say its size). */
  private async readCapped(response: Response, abort: AbortController): Promise<string> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      for await (const chunk of response.body) {
        size += chunk.byteLength;
        if (size > this.maxBytes) {
          abort.abort();
          throw new FeedFetchError(`the feed is more than the ${this.maxBytes}-byte limit`);
        }
        chunks.push(chunk);
      }
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  }

  private async readFile(cached: FeedCacheEntry | undefined): Promise<Fetched> {
    const path = this.url.startsWith('file:') ? fileURLToPath(this.url) : this.url;
    let handle: FileHandle;
    try {
      // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, forever.
      handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    } catch (err) {
      throw new FeedFetchError(`cannot open the feed file (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
    }
    try {
      // The opened file itself, so it cannot be swapped between the check and the read.
      const info = await handle.stat();
      if (!info.isFile()) throw new FeedFetchError(`the feed file is ${fileKind(info)}, not a regular file`);
      const pseudo = await pseudoFileSystem(path);
      if (pseudo) throw new FeedFetchError(`the feed file is on ${pseudo}, a kernel pseudo file system, not a regular file`);
      if (info.size > this.maxBytes) {
        throw new FeedFetchError(`the feed is ${info.size} bytes, more than the ${this.maxBytes}-byte limit`);
      }
      // A file has no ETag: its modification time and size stand in for one.
      const lastModified = `${info.mtime.toISOString()} ${info.size}`;
      if (cached?.lastModified === lastModified) return { notModified: true };
      return { notModified: false, body: await this.readCappedFile(handle), lastModified };
    } finally {
      await handle.close();
    }
  }

  /** Reads at most maxBytes: st_size is only a hint (it can grow, and pseudo-files say 0). */
  private async readCappedFile(handle: FileHandle): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, this.maxBytes + 1 - size));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > this.maxBytes) throw new FeedFetchError(`the feed is more than the ${this.maxBytes}-byte limit`);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  }
}

function fileKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The pseudo file system `path` lies on (proc, sysfs, …), if any; undefined where statfs cannot say. */
async function pseudoFileSystem(path: string): Promise<string | undefined> {
  try {
    return PSEUDO_FILESYSTEMS.get(Number((await statfs(path)).type));
  } catch {
    return undefined;
  }
}
