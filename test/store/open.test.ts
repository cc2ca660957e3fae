/** Choosing and opening the store from the config, and what an operator reads when it cannot be opened. */
import { join } from 'node:path';
import { storeError } from '../../src/ops/startup.js';
import { openConfiguredStore } from '../../src/store/open.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/bot.js';

describe('opening the configured store', () => {
  it('opens SQLite at store.path when no URL is given', async () => {
    const path = join(tempDir('open-'), 'bot.db');
    const store = await openConfiguredStore({ path });
    expect(store).toBeInstanceOf(SqliteStore);
    expect(store.location).toBe(path);
    await store.close();
  });

  it('rejects when PostgreSQL cannot be reached, and the start-up line names store.url without its password', async () => {
    // Nothing listens on port 1: refused at once, whatever the machine runs.
    const url = 'postgres://bot:s3cret@127.0.0.1:1/bot';
    const err = await openConfiguredStore({ path: 'unused.db', url }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ECONNREFUSED' });
    const line = storeError(err, { url }).message;
    expect(line).toContain('store.url postgres://bot:***@127.0.0.1:1/bot cannot be opened for writing (ECONNREFUSED)');
    expect(line).not.toContain('s3cret');
  });
});
