/**
 * The demo's web page on 127.0.0.1: the shell, its stylesheet and script, the current state
 * as JSON, and the same state pushed as Server-Sent Events whenever it changes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_JS, CONTENT_SECURITY_POLICY, INDEX_HTML, STYLE_CSS } from './page-assets.js';

export interface PageState {
  /** Changes whenever anything shown changes. */
  version: number;
  /** The conversations, as escaped HTML. */
  html: string;
  /** One line about the scenario's progress. */
  status: string;
  done: boolean;
}

export interface DemoPage {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** How often the server looks for a new state to push (the Slack simulation emits no events). */
const PUSH_INTERVAL_MS = 250;

const STATIC: Record<string, { type: string; body: string }> = {
  '/': { type: 'text/html; charset=utf-8', body: INDEX_HTML },
  '/style.css': { type: 'text/css; charset=utf-8', body: STYLE_CSS },
  '/client.js': { type: 'text/javascript; charset=utf-8', body: CLIENT_JS },
};

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export async function startDemoPage(port: number, state: () => PageState): Promise<DemoPage> {
  const listeners = new Set<ServerResponse>();
  let pushed = -1;

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', ...SECURITY_HEADERS }).end();
      return;
    }
    const asset = STATIC[path];
    if (asset) {
      res.writeHead(200, { 'content-type': asset.type, ...SECURITY_HEADERS }).end(asset.body);
    } else if (path === '/state.json') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS }).end(JSON.stringify(state()));
    } else if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'keep-alive', ...SECURITY_HEADERS });
      res.write(`data: ${JSON.stringify(state())}\n\n`);
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('not found');
    }
  });

  const pusher = setInterval(() => {
    if (!listeners.size) return;
    const current = state();
    if (current.version === pushed) return;
    pushed = current.version;
    const frame = `data: ${JSON.stringify(current)}\n\n`;
    for (const res of listeners) res.write(frame);
  }, PUSH_INTERVAL_MS);
  pusher.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/`,
    close: async () => {
      clearInterval(pusher);
      for (const res of listeners) res.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
