import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { FeedFetcher, MemoryFeedCache } from '../../src/maintenance/feed.js';

const FEED = readFileSync(new URL('../fixtures/ics/weekly-cancelled-and-moved.ics', import.meta.url), 'utf8');

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A feed server on 127.0.0.1 whose behaviour each test swaps; it records request headers. */
class FeedServer {
  handler: Handler = (_req, res) => res.end(FEED);
  readonly requests: IncomingMessage['headers'][] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.requests.push(req.headers);
      this.handler(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/calendar/secret/basic.ics`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

describe('FeedFetcher', () => {
  const server = new FeedServer();
  let clock = new Date('2026-06-30T07:00:00Z');
  const now = () => clock;
  beforeEach(async () => {
    server.handler = (_req, res) => res.end(FEED);
    server.requests.length = 0;
    clock = new Date('2026-06-30T07:00:00Z');
    await server.start();
  });
  afterEach(() => server.stop());

  function fetcher(cache = new MemoryFeedCache(), extra: Partial<ConstructorParameters<typeof FeedFetcher>[0]> = {}) {
    return new FeedFetcher({ feed: server.url, cache, now, ...extra });
  }

  it('fetches the feed and keeps it as the last good copy', async () => {
    const cache = new MemoryFeedCache();
    const result = await fetcher(cache).refresh();
    expect(result).toEqual({ body: FEED, fetchedAt: '2026-06-30T07:00:00.000Z', changed: true });
    expect(cache.getFeedCache(server.url)?.body).toBe(FEED);
  });

  it('sends the ETag back and keeps the cached copy on 304 Not Modified', async () => {
    server.handler = (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"' }).end(FEED);
    };
    const f = fetcher();
    await f.refresh();
    const second = await f.refresh();
    expect(server.requests[1]['if-none-match']).toBe('"v1"');
    expect(second).toMatchObject({ body: FEED, changed: false });
    expect(second.error).toBeUndefined();
  });

  it('sends If-Modified-Since from Last-Modified, also after a restart through the persisted cache', async () => {
    const lastModified = 'Mon, 29 Jun 2026 10:00:00 GMT';
    server.handler = (req, res) => {
      if (req.headers['if-modified-since'] === lastModified) return void res.writeHead(304).end();
      res.writeHead(200, { 'last-modified': lastModified }).end(FEED);
    };
    const cache = new MemoryFeedCache();
    await fetcher(cache).refresh();
    const afterRestart = await fetcher(cache).refresh();
    expect(server.requests[1]['if-modified-since']).toBe(lastModified);
    expect(afterRestart).toMatchObject({ body: FEED, changed: true }); // new process: first copy it hands out
  });

  it.each<[string, Handler, RegExp]>([
    ['an HTTP 500', (_req, res) => res.writeHead(500).end('oops'), /^HTTP 500 Internal Server Error$/],
    ['a truncated file', (_req, res) => res.end(FEED.slice(0, FEED.length / 2)), /not usable: the feed is truncated/],
    ['an HTML login page', (_req, res) => res.end('<html><body>Sign in</body></html>'), /not usable: not an iCalendar feed/],
  ])('keeps the last good copy after %s', async (_name, handler, message) => {
    const f = fetcher();
    await f.refresh();
    server.handler = handler;
    clock = new Date('2026-06-30T07:15:00Z');
    const result = await f.refresh();
    expect(result.body).toBe(FEED);
    expect(result.fetchedAt).toBe('2026-06-30T07:00:00.000Z');
    expect(result.error?.message).toMatch(message);
    expect(result.failingSince).toEqual(new Date('2026-06-30T07:15:00Z'));
  });

  it('gives up after the timeout and reports it', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200);
      res.write('BEGIN:VCALENDAR\r\n'); // …and never finishes
    };
    const result = await fetcher(new MemoryFeedCache(), { timeoutMs: 200 }).refresh();
    expect(result.body).toBeUndefined();
    expect(result.error?.message).toBe('no complete answer within 200 ms');
  });

  it('aborts a body larger than the size cap, with or without Content-Length', async () => {
    server.handler = (_req, res) => res.end(FEED.repeat(10));
    expect((await fetcher(new MemoryFeedCache(), { maxBytes: 2000 }).refresh()).error?.message)
      .toMatch(/^the feed is \d+ bytes, more than the 2000-byte limit$/);
    server.handler = (_req, res) => {
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 10; i++) res.write(FEED);
      res.end();
    };
    expect((await fetcher(new MemoryFeedCache(), { maxBytes: 2000 }).refresh()).error?.message)
      .toBe('the feed is more than the 2000-byte limit');
  });

  it('keeps the start of a run of failures until a refresh succeeds', async () => {
    const f = fetcher();
    server.handler = (_req, res) => res.writeHead(503).end();
    const first = await f.refresh();
    clock = new Date('2026-06-30T07:15:00Z');
    const second = await f.refresh();
    expect(second.failingSince).toEqual(first.failingSince);
    server.handler = (_req, res) => res.end(FEED);
    expect((await f.refresh()).failingSince).toBeUndefined();
    server.handler = (_req, res) => res.writeHead(503).end();
    clock = new Date('2026-06-30T08:00:00Z');
    expect((await f.refresh()).failingSince).toEqual(new Date('2026-06-30T08:00:00Z'));
  });

  it('reads file:// URLs and plain paths, and notices when the file changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-'));
    try {
      const path = join(dir, 'maintenance.ics');
      writeFileSync(path, FEED);
      const f = new FeedFetcher({ feed: pathToFileURL(path).href, cache: new MemoryFeedCache(), now });
      expect(await f.refresh()).toMatchObject({ body: FEED, changed: true });
      expect(await f.refresh()).toMatchObject({ body: FEED, changed: false });
      writeFileSync(path, FEED.replace('Weekly GPU node patching', 'Weekly GPU node patching!'));
      expect((await f.refresh()).body).toContain('patching!');
      const plain = await new FeedFetcher({ feed: path, cache: new MemoryFeedCache(), now }).refresh();
      expect(plain.body).toContain('patching!');
      const missing = await new FeedFetcher({ feed: join(dir, 'nope.ics'), cache: new MemoryFeedCache(), now }).refresh();
      expect(missing.error?.message).toMatch(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('follows no redirect to another host, nor to plain http on the same host', async () => {
    const other = new FeedServer();
    await other.start();
    try {
      // Same machine, other host name: what a feed server pointing the bot elsewhere looks like.
      const elsewhere = other.url.replace('127.0.0.1', 'localhost');
      server.handler = (_req, res) => res.writeHead(302, { location: elsewhere }).end();
      const cross = await fetcher().refresh();
      expect(cross.body).toBeUndefined();
      expect(cross.error?.message).toMatch(/^HTTP 302 redirect to another host \(localhost\) not followed; only redirects to https on 127\.0\.0\.1 are/);
      expect(cross.error?.message).not.toContain('/calendar/secret');
      expect(other.requests).toHaveLength(0);

      server.handler = (req, res) => (req.url === '/moved.ics' ? res.end(FEED) : res.writeHead(301, { location: '/moved.ics' }).end());
      const downgrade = await fetcher().refresh();
      expect(downgrade.error?.message).toMatch(/^HTTP 301 redirect to http not followed/);
      expect(server.requests).toHaveLength(2);
    } finally {
      await other.stop();
    }
  });

  describe('file feeds', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'feed-file-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const read = (feed: string, maxBytes?: number) => new FeedFetcher({ feed, cache: new MemoryFeedCache(), now, ...(maxBytes ? { maxBytes } : {}) }).refresh();
    /** Everything a refresh hands back, as operators could see it. */
    const said = (result: Awaited<ReturnType<typeof read>>) => JSON.stringify({ ...result, error: result.error?.message, cause: String(result.error?.cause ?? '') });

    it('refuses /dev/zero as a character device, without reading it', async () => {
      const result = await read('/dev/zero');
      expect(result.body).toBeUndefined();
      expect(result.error?.message).toBe('the feed file is a character device, not a regular file');
      expect(said(result)).not.toMatch(/\\u0000/);
    });

    it('refuses a FIFO at once, even with no writer (opening it must not wait)', async () => {
      const fifo = join(dir, 'feed.ics');
      execFileSync('mkfifo', [fifo]);
      const result = await read(pathToFileURL(fifo).href);
      expect(result.error?.message).toBe('the feed file is a FIFO (named pipe), not a regular file');
    });

    (existsSync('/proc/self/environ') ? it : it.skip)('refuses /proc/self/environ and echoes none of the environment', async () => {
      const environ = readFileSync('/proc/self/environ', 'utf8').split('\0').filter((v) => v.length > 8);
      const result = await read('file:///proc/self/environ');
      expect(result.body).toBeUndefined();
      expect(result.error?.message).toBe('the feed file is on proc, a kernel pseudo file system, not a regular file');
      for (const variable of environ) expect(said(result)).not.toContain(variable);
    });

    it('says what is wrong with a file that is not a calendar, never what it holds', async () => {
      const path = join(dir, 'secrets.env');
      writeFileSync(path, 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\n');
      const result = await read(path);
      expect(result.error?.message).toBe('the feed is not usable: not an iCalendar feed: no BEGIN:VCALENDAR line, and it starts with text that is not iCalendar');
      expect(said(result)).not.toContain('wJalrXUtnFEMI');
      expect(said(result)).not.toContain('AWS_SECRET');
      writeFileSync(path, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]));
      expect((await read(path)).error?.message).toMatch(/it looks like binary data$/);
    });

    it('refuses a file larger than the size cap', async () => {
      const path = join(dir, 'big.ics');
      writeFileSync(path, FEED.repeat(10));
      expect((await read(path, 2000)).error?.message).toMatch(/more than the 2000-byte limit$/);
    });
  });
});
