/**
 * /healthz (the process is alive), /readyz (cluster watch synced and Slack connected) and
 * /metrics (Prometheus), on a port of their own (ops.port) in both modes: never beside
 * /slack/events, which in HTTP mode faces the internet, while these are for the cluster.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';
import { StartupError } from './startup.js';

export interface Readiness {
  /** Each check: ok, and a short word on what is missing (the store's check writes, so it may wait on it). */
  checks(): Promise<Record<string, { ok: boolean; detail?: string }>>;
  /** Whether this replica leads (ha): shown in /readyz, never a reason to be unready. */
  leader?(): boolean;
  /** The configured clusters, listed in /readyz when `clusters:` names them (undefined or empty: not listed). */
  clusters?(): Array<{ name?: string; synced: boolean; lastError?: string }>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function opsHandlers(metrics: Metrics, readiness: Readiness): Record<string, Handler> {
  return {
    '/healthz': (_req, res) => send(res, 200, 'text/plain', 'ok\n'),
    '/readyz': (_req, res) => {
      readiness
        .checks()
        .then((checks) => {
          const ok = Object.values(checks).every((c) => c.ok);
          const leader = readiness.leader?.();
          const clusters = readiness.clusters?.().filter((c) => c.name);
          const body = { ready: ok, ...(leader === undefined ? {} : { leader }), checks, ...(clusters?.length ? { clusters } : {}) };
          send(res, ok ? 200 : 503, 'application/json', `${JSON.stringify(body)}\n`);
        })
        .catch((err: Error) => send(res, 503, 'application/json', `${JSON.stringify({ ready: false, error: err.message })}\n`));
    },
    '/metrics': (_req, res) => {
      metrics.registry
        .metrics()
        .then((text) => send(res, 200, metrics.registry.contentType, text))
        .catch((err: Error) => send(res, 500, 'text/plain', `${err.message}\n`));
    },
  };
}

/** A start-up failure (the start command prints it as one line and exits non-zero). */
export class OpsPortError extends StartupError {
  readonly code = 'ops_port_unavailable';
}

/** `host` undefined: every interface. A port that cannot be had is an OpsPortError naming ops.port. */
export function startOpsServer(port: number, handlers: Record<string, Handler>, host?: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handler = req.method === 'GET' ? handlers[path] : undefined;
    if (handler) handler(req, res);
    else send(res, 404, 'text/plain', 'not found\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${host ?? 'all interfaces'}, port ${port}`;
      const why = err.code === 'EADDRINUSE'
        ? 'another process (or slack.port) already uses it'
        : err.code === 'EACCES' ? 'not allowed to bind it (ports below 1024 need privileges)' : err.message;
      reject(new OpsPortError(`cannot serve /healthz, /readyz and /metrics on ${where}: ${why} (${err.code ?? 'error'}); set ops.port (and ops.host) to a free one`, { cause: err }));
    });
    server.listen({ port, host }, () => resolve(server));
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}
