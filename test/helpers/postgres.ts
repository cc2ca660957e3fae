/**
 * The real PostgreSQL server for the store's tests: 127.0.0.1:5432, trust auth, user postgres,
 * database test (override with TEST_DATABASE_URL). Each use gets its own uniquely named schema,
 * dropped afterwards, so parallel suites and runs never see each other's tables.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresUnavailable as probe } from '../../bench/postgres-probe.js';
import { describeNeeding } from './needs.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why the test server cannot be used, or undefined when it can. */
export const postgresUnavailable = (url = TEST_DATABASE_URL): Promise<string | undefined> => probe(url);

export interface TestSchema {
  url: string;
  schema: string;
  /** Runs SQL in the schema (fault injection, inspection). */
  sql(text: string): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

export async function createTestSchema(prefix = 'storetest'): Promise<TestSchema> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.query(`SET search_path TO ${schema}`);
  return {
    url: TEST_DATABASE_URL,
    schema,
    sql: (text) => admin.query(text),
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** How to get a server, as .ci/run starts one when it is down. */
export const START_POSTGRES = 'Start it as .ci/run does (pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start), or set TEST_DATABASE_URL to a server that answers.';

/**
 * describe() when PostgreSQL at `url` answers. Without it: skipped with a note on a developer's
 * machine (the rest of the suite still runs); failed under CI, which must test the store.
 */
export async function describeWithPostgres(skipped = 'the PostgreSQL store tests', url = TEST_DATABASE_URL): Promise<typeof describe> {
  return describeNeeding({ what: `PostgreSQL at ${url}`, skipped, fix: START_POSTGRES, requiredInCi: true }, await postgresUnavailable(url));
}
