/**
 * /healthz (the process is alive), /readyz (cluster watch synced and Slack connected) and
 * /metrics (Prometheus). In HTTP mode Bolt serves these beside /slack/events; in Socket Mode
 * the bot serves them itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Metrics } from './metrics.js';

export interface Readiness {
  /** Each check: ok, and a short word on what is missing. */
  checks(): Record<string, { ok: boolean; detail?: string }>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function opsHandlers(metrics: Metrics, readiness: Readiness): Record<string, Handler> {
  return {
    '/healthz': (_req, res) => send(res, 200, 'text/plain', 'ok\n'),
    '/readyz': (_req, res) => {
      const checks = readiness.checks();
      const ok = Object.values(checks).every((c) => c.ok);
      send(res, ok ? 200 : 503, 'application/json', `${JSON.stringify({ ready: ok, checks })}\n`);
    },
    '/metrics': (_req, res) => {
      metrics.registry
        .metrics()
        .then((text) => send(res, 200, metrics.registry.contentType, text))
        .catch((err: Error) => send(res, 500, 'text/plain', `${err.message}\n`));
    },
  };
}

export function opsCustomRoutes(handlers: Record<string, Handler>): CustomRoute[] {
  return Object.entries(handlers).map(([path, handler]) => ({ path, method: ['GET'], handler }));
}

export function startOpsServer(port: number, handlers: Record<string, Handler>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handler = req.method === 'GET' ? handlers[path] : undefined;
    if (handler) handler(req, res);
    else send(res, 404, 'text/plain', 'not found\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}
