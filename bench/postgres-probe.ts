/**
 * Whether a PostgreSQL server answers: the failover benchmark and the PostgreSQL tests both skip
 * (saying why) rather than fail on a machine without one.
 */
import pg from 'pg';

/** Why PostgreSQL at `url` cannot be used, or undefined when it can. */
export async function postgresUnavailable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return (err as { code?: string; message?: string }).code ?? (err as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}
