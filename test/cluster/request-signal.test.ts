/**
 * The one way the bot cancels a call of client-node's generated APIs: a request middleware that
 * puts the AbortSignal on the request. Against a server that accepts the request and never
 * answers, aborting must close the connection, for the reader's CoreV1Api and the Lease's
 * CoordinationV1Api alike.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoordinationV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { withSignal } from '../../src/cluster/request-signal.js';
import { kubeconfigYaml } from '../../src/sim/kubeconfig.js';

describe('withSignal', () => {
  let server: Server;
  let kubeConfig: KubeConfig;
  const arrived: IncomingMessage[] = [];
  const closed: string[] = [];

  beforeAll(async () => {
    // Takes every request and never answers: only the client can end it.
    server = createServer((req) => {
      arrived.push(req);
      req.socket.on('close', () => closed.push(req.url ?? ''));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(kubeconfigYaml({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't' }));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function abortedAfterArrival(call: (signal: AbortSignal) => Promise<unknown>, path: string): Promise<void> {
    const controller = new AbortController();
    const before = arrived.length;
    const outcome = call(controller.signal).then(() => 'answered', (err: unknown) => (err as Error).name);
    while (arrived.length === before) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect(await outcome).toBe('AbortError');
    while (!closed.some((url) => url.startsWith(path))) await new Promise((r) => setTimeout(r, 5));
  }

  it('cancels a pod list of CoreV1Api in flight, closing its connection', async () => {
    const core = kubeConfig.makeApiClient(CoreV1Api);
    await abortedAfterArrival((signal) => core.listNamespacedPod({ namespace: 'runai-a' }, withSignal(signal)), '/api/v1/namespaces/runai-a/pods');
  });

  it('cancels a Lease read of CoordinationV1Api in flight, closing its connection', async () => {
    const leases = kubeConfig.makeApiClient(CoordinationV1Api);
    await abortedAfterArrival((signal) => leases.readNamespacedLease({ name: 'l', namespace: 'bot' }, withSignal(signal)), '/apis/coordination.k8s.io/v1/namespaces/bot/leases/l');
  });

  it('adds nothing without a signal', () => {
    expect(withSignal(undefined)).toBeUndefined();
  });
});
