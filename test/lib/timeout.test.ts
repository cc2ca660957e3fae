import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { createClusterReader } from '../../src/cluster/reader.js';
import { kubeconfigYaml } from '../../src/sim/kubeconfig.js';
import { TimeoutError, withTimeout } from '../../src/lib/timeout.js';
import { ConcurrencyLimiter } from '../../src/lib/limiter.js';

/** An API server that accepts requests and never answers: the cluster at its worst. */
async function hungApiServer(): Promise<{ server: Server; url: string; requests: IncomingMessage[]; closed: Promise<void> }> {
  const requests: IncomingMessage[] = [];
  let onClosed!: () => void;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const server = createServer((req) => {
    requests.push(req);
    req.socket.once('close', onClosed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, closed };
}

describe('withTimeout', () => {
  it('rejects with the step that did not answer, and aborts the signal the work was given', async () => {
    let seen: AbortSignal | undefined;
    const never = (signal: AbortSignal) => {
      seen = signal;
      return new Promise<never>(() => undefined);
    };
    await expect(withTimeout(never, 50, 'listing the pods')).rejects.toThrow(new TimeoutError('listing the pods', 50));
    await expect(withTimeout(never, 50, 'listing the pods')).rejects.toThrow('the cluster did not answer within 50 ms while listing the pods');
    expect(seen?.aborted).toBe(true);
  });

  it('passes the value and the error of work that finishes in time', async () => {
    await expect(withTimeout(async () => 42, 1000, 'x')).resolves.toBe(42);
    await expect(withTimeout(async () => Promise.reject(new Error('403 forbidden')), 1000, 'x')).rejects.toThrow('403 forbidden');
  });

  it('cancels a cluster read nobody waits for any more: the API server sees the connection close', async () => {
    const api = await hungApiServer();
    try {
      const kc = new KubeConfig();
      kc.loadFromString(kubeconfigYaml({ server: api.url, token: 't' }));
      const reader = createClusterReader(kc);
      await expect(withTimeout((signal) => reader.readLog({ namespace: 'ns', pod: 'p', container: 'c' }, signal), 200, 'reading the log')).rejects.toThrow(TimeoutError);
      expect(api.requests.map((r) => r.url)).toEqual([expect.stringContaining('/api/v1/namespaces/ns/pods/p/log')]);
      await api.closed; // resolves only if the client closed the request's socket
    } finally {
      api.server.closeAllConnections();
      api.server.close();
    }
  });
});

describe('ConcurrencyLimiter', () => {
  it('runs at most max tasks at once and every task in the end', async () => {
    const limiter = new ConcurrencyLimiter(2);
    let running = 0;
    let most = 0;
    const task = async (i: number) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return i;
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => limiter.run(() => task(i))));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(2);
  });
});
