/**
 * A real HTTP proxy on 127.0.0.1 (TooTallNate's `proxy`: CONNECT tunnels and absolute-URI
 * forwarding, as Squid does) that records every connection it is asked for. Host names under
 * `.invalid` (RFC 6761: they never resolve) are mapped to 127.0.0.1 by the proxy alone, so a
 * simulator reached as `slack.invalid:PORT` is reachable only through it: a client that went
 * around the proxy would fail to resolve the name instead of passing unseen.
 */
import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface RecordingProxy {
  /** `http://127.0.0.1:PORT`: the value for HTTPS_PROXY / HTTP_PROXY or a kubeconfig's proxy-url. */
  url: string;
  /** Every CONNECT target (`host:port`) and forwarded request (`METHOD http://host:port/path`), in order, as asked. */
  seen: string[];
  /** The `host:port`s asked for, once each. */
  hosts(): string[];
  close(): Promise<void>;
}

/** A CONNECT target `name.invalid:PORT`, the name to map. */
const ONLY_THROUGH_THE_PROXY = /^[^:]+\.invalid(?=:\d+$)/i;

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const server = createProxy(http.createServer());
  const seen: string[] = [];
  const targets = new Set<string>();
  // A CONNECT tunnel leaves the server's keeping once it is open: close() ends those too.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Prepended, so the record and the name mapping come before the proxy's own listeners act.
  server.prependListener('connect', (req: IncomingMessage) => {
    seen.push(req.url ?? '');
    targets.add(req.url ?? '');
    req.url = (req.url ?? '').replace(ONLY_THROUGH_THE_PROXY, '127.0.0.1');
  });
  server.prependListener('request', (req: IncomingMessage) => {
    const target = new URL(req.url ?? '/', 'http://invalid');
    seen.push(`${req.method} ${req.url}`);
    targets.add(target.host);
    if (target.hostname.endsWith('.invalid')) {
      target.hostname = '127.0.0.1';
      req.url = target.href;
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    hosts: () => [...targets],
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
