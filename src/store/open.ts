/**
 * Opens the store the config names: PostgreSQL when `store.url` (or DATABASE_URL) is set, else
 * the embedded SQLite file at `store.path`. PostgreSQL's driver is loaded only when used.
 */
import type { Store } from './port.js';
import { SqliteStore } from './sqlite/index.js';

export async function openConfiguredStore(options: { path: string; url?: string; schema?: string }): Promise<Store> {
  if (!options.url) return new SqliteStore(options.path);
  const { PostgresStore } = await import('./postgres/index.js');
  return PostgresStore.open({ url: options.url, schema: options.schema });
}
