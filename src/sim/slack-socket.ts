/**
 * The Socket Mode side of the simulated Slack (slack-reference.md §1.3): one-use tickets from
 * apps.connections.open, a websocket at /link/ that says hello, envelopes out, acks back.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Json } from './slack-methods.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface Ack {
  envelope_id: string;
  payload: Json;
  at: Date;
}

/** Slack's own deadline: an envelope not acked within 3 s has failed for the user. */
export const ACK_DEADLINE_MS = 3000;

export class SocketModeLink {
  readonly acks: Ack[] = [];
  readonly connectionsOpened: Date[] = [];
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly sockets = new Set<WebSocket>();
  private readonly awaitingAck = new Map<string, { resolve(ack: Json): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  private envelopeCount = 0;

  constructor(private readonly appId: string, private readonly onConnection: () => void) {}

  /** A fresh ticket URL, as apps.connections.open hands out. */
  issueUrl(origin: string): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `${origin.replace(/^http/, 'ws')}/link/?ticket=${ticket}`;
  }

  /** Takes over an HTTP upgrade on /link/ with a valid ticket; refuses anything else. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  get connected(): number {
    return this.openSockets().length;
  }

  /** Sends an envelope to one open connection and resolves with the app's ack payload. */
  send(type: EnvelopeType, payload: Json, timeoutMs = ACK_DEADLINE_MS): Promise<Json> {
    const socket = this.openSockets().at(-1);
    if (!socket) return Promise.reject(new Error('simulated Slack: no Socket Mode connection is open'));
    this.envelopeCount += 1;
    const envelope_id = `env-${this.envelopeCount}-${randomUUID().slice(0, 8)}`;
    const envelope: Json = { envelope_id, type, accepts_response_payload: type !== 'events_api', payload };
    if (type === 'events_api') Object.assign(envelope, { retry_attempt: 0, retry_reason: '' });
    return new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.awaitingAck.delete(envelope_id);
        reject(new Error(`simulated Slack: envelope ${envelope_id} (${type}) was not acknowledged within ${timeoutMs} ms`));
      }, timeoutMs);
      this.awaitingAck.set(envelope_id, { resolve, reject, timer });
      socket.send(JSON.stringify(envelope));
    });
  }

  /** Sends Slack's `disconnect` message; the client closes and reconnects on its own. */
  disconnectAll(reason: string): void {
    for (const socket of this.sockets) {
      socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'simulated-slack' } }));
    }
  }

  /** Cuts every connection without a close frame: the client sees the socket die. */
  cutAll(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  /**
   * Closes every connection with a proper close handshake: the Slack client keeps a timer
   * until the handshake completes, and a cut socket would leave it running after the test.
   */
  async close(): Promise<void> {
    for (const { reject, timer } of this.awaitingAck.values()) {
      clearTimeout(timer);
      reject(new Error('simulated Slack closed'));
    }
    this.awaitingAck.clear();
    await Promise.all([...this.sockets].map((socket) => closeGracefully(socket)));
    this.wss.close();
  }

  /** Connections that can take an envelope; one being closed by a disconnect cannot. */
  private openSockets(): WebSocket[] {
    return [...this.sockets].filter((s) => s.readyState === WebSocket.OPEN);
  }

  private accept(ws: WebSocket): void {
    this.sockets.add(ws);
    this.connectionsOpened.push(new Date());
    ws.on('close', () => this.sockets.delete(ws));
    ws.on('message', (data) => this.receive(String(data)));
    ws.send(JSON.stringify({
      type: 'hello',
      num_connections: this.sockets.size,
      connection_info: { app_id: this.appId },
      debug_info: { host: 'simulated-slack', approximate_connection_time: 18060 },
    }));
    this.onConnection();
  }

  private receive(text: string): void {
    let message: Json;
    try {
      message = JSON.parse(text) as Json;
    } catch {
      return; // Slack ignores frames it cannot read; so does the simulation.
    }
    if (typeof message.envelope_id !== 'string') return;
    const payload = (message.payload ?? {}) as Json;
    this.acks.push({ envelope_id: message.envelope_id, payload, at: new Date() });
    const waiting = this.awaitingAck.get(message.envelope_id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.awaitingAck.delete(message.envelope_id);
    waiting.resolve(payload);
  }
}

/** Close handshake, or a hard cut when the peer does not answer within `CLOSE_GRACE_MS`. */
const CLOSE_GRACE_MS = 1000;
function closeGracefully(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    socket.close(1001, 'simulated Slack closing');
  });
}
