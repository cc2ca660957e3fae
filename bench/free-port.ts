import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The lowest port of the kernel's ephemeral range: the ports `listen(0)` hands out and outgoing
 * connections take. A port found free there can be taken by any test's client socket before a
 * child process binds it (seen in CI as EADDRINUSE), so ports for other processes are chosen
 * below it instead. Read once: the range does not change while the tests run.
 */
const EPHEMERAL_LOW = ((): number => {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low)) return low;
  } catch {
    // not Linux: the IANA dynamic range, which most other kernels use
  }
  return 49152;
})();

/** Ports below the ephemeral range no kernel hands out on its own; 10000 keeps clear of well-known services. */
const FLOOR = 10_000;

function tryListen(port: number): Promise<number | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 just now, for a process the caller is about to start on it.
 * Chosen at random below the ephemeral range, so that only another caller of this function (one
 * chance in thousands per pair) could take it before that process binds it; where the range
 * leaves no room, any port the kernel gives.
 */
export async function freePort(): Promise<number> {
  if (EPHEMERAL_LOW - FLOOR >= 1000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = await tryListen(FLOOR + Math.floor(Math.random() * (EPHEMERAL_LOW - FLOOR)));
      if (port !== undefined) return port;
    }
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}
