/**
 * The real PostgreSQL server for the store's tests: 127.0.0.1:5432, trust auth, user postgres,
 * database test (override with TEST_DATABASE_URL). Each use gets its own uniquely named schema,
 * dropped afterwards, so parallel suites and runs never see each other's tables.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresUnavailable as probe } from '../../bench/postgres-probe.js';

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

/**
 * describe() when PostgreSQL answers, else describe.skip with a note saying why, so the rest of
 * the suite still runs on a machine without the server.
 */
export async function describeWithPostgres(): Promise<typeof describe> {
  const why = await postgresUnavailable();
  if (!why) return describe;
  console.warn(`PostgreSQL at ${TEST_DATABASE_URL} is not reachable (${why}): the PostgreSQL store tests are skipped. Start it (or set TEST_DATABASE_URL) to run them.`);
  return describe.skip as unknown as typeof describe;
}
