/**
 * A transaction's connection dropped by the network between two of its statements, on the
 * real PostgreSQL through a relay that can be cut: the transaction fails to its caller, the
 * process goes on, and the pool serves the next call once the path is back. (Found by the HA
 * chaos test: a checked-out client's 'error' event, unheard, ended a replica while PostgreSQL
 * was unreachable.)
 */
import { PostgresDatabase } from '../../src/store/postgres/database.js';
import { startTcpCut, type TcpCut } from '../../src/sim/tcp-cut.js';
import { TEST_DATABASE_URL, describeWithPostgres } from '../helpers/postgres.js';

const describePg = await describeWithPostgres('the PostgreSQL connection tests');

describePg('a PostgreSQL connection dropped mid-transaction', () => {
  let relay: TcpCut;
  let db: PostgresDatabase;
  beforeEach(async () => {
    relay = await startTcpCut(Number(new URL(TEST_DATABASE_URL).port || 5432));
    const url = new URL(TEST_DATABASE_URL);
    url.host = new URL(relay.url).host;
    db = new PostgresDatabase({ url: url.toString(), connectionTimeoutMs: 1_000, statementTimeoutMs: 500 });
  });
  afterEach(async () => {
    relay.restore();
    await db.close();
    await relay.close();
  });

  it('fails the transaction, not the process, and the next call works once the path is back', async () => {
    const uncaught: unknown[] = [];
    const listener = (err: unknown) => uncaught.push(err);
    process.prependListener('uncaughtException', listener);
    try {
      const failed = db.tx(async (c) => {
        await c.query('SELECT 1');
        // Cut between two statements, and wait until the client has seen its connection end.
        const ended = new Promise((resolve) => c.once('end', resolve));
        relay.cut();
        await ended;
        await c.query('SELECT 2');
      });
      await expect(failed).rejects.toThrow();
      expect(uncaught).toEqual([]);
      relay.restore();
      expect(await db.rows('SELECT 3 AS n')).toEqual([{ n: 3 }]);
    } finally {
      process.off('uncaughtException', listener);
    }
    // Without the client's error listener the second statement never settles: fail in bounded time.
  }, 15_000);

  it('fails a transaction whose path went silent (packets dropped, no reset) instead of waiting on it, and recovers', async () => {
    // A partition or a firewall that drops, as opposed to cut()'s reset: the server never answers
    // and TCP never says so. Only the client's own query timeout can end the wait.
    expect(await db.rows('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    relay.stall();
    await expect(db.tx((c) => c.query('SELECT 2'))).rejects.toThrow(/timeout/i);
    relay.restore();
    expect(await db.rows('SELECT 3 AS n')).toEqual([{ n: 3 }]);
  }, 15_000);
});
