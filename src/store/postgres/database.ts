/**
 * The PostgreSQL pool shared by the concern modules: node-postgres with a statement timeout on
 * every query and a timeout to connect, so a stuck database shows as a failed store call (the
 * outbox backs off, /readyz reports it) rather than a hung process. Migrations are versioned in
 * schema_migrations and run in one transaction under an advisory lock, so two replicas starting
 * together do not race.
 */
import pg from 'pg';
import type { Row } from '../rows.js';
import { redactUrl } from '../url.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';

export interface PostgresStoreOptions {
  url: string;
  /** Schema for every table (search_path); default: the server's (public). Tests use one per run. */
  schema?: string;
  /** Per statement, enforced by the server. Default 10 s. */
  statementTimeoutMs?: number;
  /** To get a connection from the server. Default 5 s. */
  connectionTimeoutMs?: number;
  /** Pool size. Default 10. */
  maxConnections?: number;
}

/** The pool, or a client inside a transaction (PostgresDatabase.tx). */
export type Queryable = Pick<pg.PoolClient, 'query'>;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresDatabase {
  readonly location: string;
  readonly pool: pg.Pool;
  private closed?: Promise<void>;

  constructor(options: PostgresStoreOptions) {
    if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) throw new Error(`invalid schema name: ${options.schema}`);
    this.location = redactUrl(options.url) + (options.schema ? ` (schema ${options.schema})` : '');
    const statementTimeout = options.statementTimeoutMs ?? 10_000;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: statementTimeout,
      // The client gives up a little after the server should have: a dead connection cannot hang a call.
      query_timeout: statementTimeout + 2_000,
      idle_in_transaction_session_timeout: statementTimeout * 3,
      application_name: 'runai-slack-bot',
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process:
    // the pool replaces it, and the next call that fails is reported by its caller.
    this.pool.on('error', () => undefined);
  }

  /** Applies the migrations not yet applied, each recorded in schema_migrations; one transaction, one replica at a time. */
  async migrate(): Promise<void> {
    await this.tx(async (c) => {
      // Keyed by schema: runs in different schemas (tests) do not wait for each other.
      await c.query("SELECT pg_advisory_xact_lock(hashtext('runai-slack-bot:migrate:' || current_schema()))");
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      const { rows } = await c.query('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations');
      for (let v = Number(rows[0].v); v < POSTGRES_MIGRATIONS.length; v++) {
        await c.query(POSTGRES_MIGRATIONS[v]);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [v + 1, new Date().toISOString()]);
      }
    });
  }

  /** The schema version reached (for the contract tests). */
  async schemaVersion(): Promise<number> {
    const { rows } = await this.pool.query('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations');
    return Number(rows[0].v);
  }

  close(): Promise<void> {
    return (this.closed ??= this.pool.end());
  }

  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A checked-out connection that the server drops between two statements (restart,
    // failover) emits 'error' on the client, which the pool's listener does not hear while it
    // is out: unheard, it would be an uncaught exception and end the process. Heard here, the
    // connection is discarded and the transaction's next statement fails to its caller.
    const dropped = (err: Error) => (broken = err);
    client.on('error', dropped);
    try {
      await client.query('BEGIN');
      const value = await fn(client);
      await client.query('COMMIT');
      return value;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      throw err;
    } finally {
      // A connection that could not roll back is discarded, not reused mid-transaction.
      client.off('error', dropped);
      client.release(broken);
    }
  }

  async rows(sql: string, params: unknown[] = [], on: Queryable = this.pool): Promise<Row[]> {
    return (await on.query(sql, params)).rows as Row[];
  }

  /** How many rows the statement changed. */
  async changes(sql: string, params: unknown[] = [], on: Queryable = this.pool): Promise<number> {
    return (await on.query(sql, params)).rowCount ?? 0;
  }

  async run(sql: string, params: unknown[] = [], on: Queryable = this.pool): Promise<void> {
    await on.query(sql, params);
  }
}
