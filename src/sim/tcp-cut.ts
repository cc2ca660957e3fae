/**
 * A TCP relay on 127.0.0.1 in front of a server, whose link can be cut (open connections are
 * destroyed and new ones refused) or stalled (connections stay open and carry nothing, as behind
 * a black-holing firewall) until `restore()`. It stands for one replica losing its network path
 * to the API server while the other keeps it, which a fault in the server itself (shared by both
 * replicas) cannot express. `stallOpen()` stalls only the connections open now and forwards new
 * ones, as a proxy or load balancer that lost its upstream of a long request but still answers
 * (no close, no reset: TCP keepalive sees a live peer).
 *
 * Checked against how TCP fails in the world (RFC 9293 §3.5.2 on resets; iptables REJECT
 * `--reject-with tcp-reset` versus DROP): `cut()` is the kind failure — a reset, as from a server
 * that restarted or a firewall that rejects, so the client learns at once; `stall()` is the
 * unkind one — a partition or a dropping firewall, where nothing ever answers and only the
 * client's own timeouts end the wait. A test of an outage should say which it stands for;
 * test/store/postgres-dropped-connection.test.ts runs PostgreSQL through both.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpCut {
  /** `http://127.0.0.1:PORT` of the relay. */
  url: string;
  cut(): void;
  stall(): void;
  stallOpen(): void;
  /** Client connections open on the relay now (a stalled one the client gave up on is closed). */
  readonly connections: number;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpCut(targetPort: number): Promise<TcpCut> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  const clients = new Set<Socket>();
  let isCut = false;
  let isStalled = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    clients.add(client);
    client.on('close', () => clients.delete(client));
    if (isCut) {
      client.destroy();
      return;
    }
    // Stalled: the connection is accepted and whatever is sent on it goes nowhere.
    if (isStalled) {
      client.resume();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => { upstream.destroy(); pairs.delete(pair); });
    upstream.on('close', () => client.destroy());
  });
  /**
   * Open connections stay open and carry nothing more, either way: what arrives is read and
   * dropped, as a proxy that lost its upstream still acknowledges bytes (and so still sees a
   * close from either side).
   */
  const stallOpen = () => {
    for (const pair of pairs) {
      const [client, upstream] = pair;
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.resume();
      upstream.resume();
      pairs.delete(pair);
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      isCut = true;
      for (const socket of sockets) socket.destroy();
    },
    stall() {
      isStalled = true;
      stallOpen();
    },
    stallOpen,
    get connections() {
      return clients.size;
    },
    restore() {
      isCut = false;
      isStalled = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
