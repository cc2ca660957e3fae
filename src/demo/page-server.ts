/**
 * The demo's web page on 127.0.0.1: the shell, its stylesheet and script, the state as one
 * person sees it (JSON, and pushed as Server-Sent Events whenever it changes), and `POST
 * /act/<kind>`, through which the visitor types commands, clicks buttons, opens the Home tab
 * and plays the scenario's next step.
 *
 * The page drives actions, so a POST must come from the page itself: the Host must be this
 * server (no DNS rebinding), the Origin must be the same, the body JSON (a cross-origin form
 * cannot send that without a preflight, which is never granted), and it must carry the token
 * this server put into its page. Every request also needs the right Host.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_JS, CONTENT_SECURITY_POLICY, indexHtml, STYLE_CSS } from './page-assets.js';
import type { PageStates } from './page-state.js';
import type { VisitorResult } from './visitor.js';

export type { PageState } from './page-state.js';

export interface PageSource extends PageStates {
  /** Does what the visitor asked (`kind`: command, action, home, next) and says how it went. */
  act(kind: string, body: unknown): Promise<VisitorResult>;
}

export interface DemoPage {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** How often the server looks for a new state to push (the Slack simulation emits no events). */
const PUSH_INTERVAL_MS = 250;
/** Far more than any command or click needs. */
const MAX_BODY_BYTES = 16 * 1024;
export const TOKEN_HEADER = 'x-demo-token';

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS }).end(JSON.stringify(body));
}

function sameToken(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

function readLimitedBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startDemoPage(port: number, source: PageSource): Promise<DemoPage> {
  const token = randomBytes(24).toString('base64url');
  const listeners = new Map<ServerResponse, { viewer: string | undefined; pushed: number }>();
  let hosts: ReadonlySet<string> = new Set();

  const serveGet = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const viewer = url.searchParams.get('user') ?? undefined;
    switch (url.pathname) {
      case '/':
        return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS }).end(indexHtml(token));
      case '/style.css':
        return res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', ...SECURITY_HEADERS }).end(STYLE_CSS);
      case '/client.js':
        return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...SECURITY_HEADERS }).end(CLIENT_JS);
      case '/favicon.ico':
        return res.writeHead(204, SECURITY_HEADERS).end();
      case '/state.json':
        return sendJson(res, 200, source.state(viewer));
      case '/events': {
        res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'keep-alive', ...SECURITY_HEADERS });
        const state = source.state(viewer);
        res.write(`data: ${JSON.stringify(state)}\n\n`);
        listeners.set(res, { viewer, pushed: state.version });
        req.on('close', () => listeners.delete(res));
        return;
      }
      default:
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('not found');
    }
  };

  const servePost = async (req: IncomingMessage, res: ServerResponse, url: URL, host: string) => {
    const kind = /^\/act\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (!kind) return sendJson(res, 404, { ok: false, error: 'not found' });
    if (req.headers.origin !== `http://${host}`) return sendJson(res, 403, { ok: false, error: 'cross-origin requests are refused' });
    if (!sameToken(req.headers[TOKEN_HEADER], token)) return sendJson(res, 403, { ok: false, error: 'the page token is missing or wrong; reload the page' });
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return sendJson(res, 415, { ok: false, error: 'JSON expected' });
    const raw = await readLimitedBody(req);
    if (raw === undefined) return sendJson(res, 413, { ok: false, error: 'request too large' });
    let body: unknown;
    try {
      body = raw.length ? JSON.parse(raw) : {};
    } catch {
      return sendJson(res, 400, { ok: false, error: 'malformed JSON' });
    }
    const result = await source.act(kind, body);
    sendJson(res, result.ok ? 200 : result.status, result.ok ? { ok: true } : { ok: false, error: result.error });
  };

  const server: Server = createServer((req, res) => {
    const host = req.headers.host ?? '';
    if (!hosts.has(host)) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('wrong host');
      return;
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (req.method === 'GET' || req.method === 'HEAD') return serveGet(req, res, url);
    if (req.method === 'POST') {
      void servePost(req, res, url, host).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: (err as Error).message });
      });
      return;
    }
    res.writeHead(405, { allow: 'GET, HEAD, POST', ...SECURITY_HEADERS }).end();
  });

  const pusher = setInterval(() => {
    if (!listeners.size) return;
    const version = source.version();
    for (const [res, listener] of listeners) {
      if (listener.pushed === version) continue;
      const state = source.state(listener.viewer);
      listener.pushed = state.version;
      res.write(`data: ${JSON.stringify(state)}\n\n`);
    }
  }, PUSH_INTERVAL_MS);
  pusher.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  hosts = new Set([`127.0.0.1:${actual}`, `localhost:${actual}`]);
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/`,
    close: async () => {
      clearInterval(pusher);
      for (const res of listeners.keys()) res.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
