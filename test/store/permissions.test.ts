/**
 * The store holds who was told what, Slack user IDs and the unsent outbox: only the bot's user
 * may read it. Real SQLite on a real directory.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore, sqliteHandleForTests } from '../../src/store/sqlite/index.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('store file permissions', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'store-perm-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates its directory 0700 and its file, WAL and shared-memory files 0600', async () => {
    const dir = join(root, 'state', 'bot');
    const path = join(dir, 'bot.db');
    const store = new SqliteStore(path);
    sqliteHandleForTests(store).exec('CREATE TABLE probe (x); INSERT INTO probe VALUES (1)');
    expect(mode(dir)).toBe('700');
    expect(mode(path)).toBe('600');
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(mode(`${path}-wal`)).toBe('600');
    expect(mode(`${path}-shm`)).toBe('600');
    await store.close();
  });

  it('narrows an existing world-readable store and its WAL files to 0600', async () => {
    const path = join(root, 'bot.db');
    const first = new SqliteStore(path);
    sqliteHandleForTests(first).exec('CREATE TABLE probe (x); INSERT INTO probe VALUES (1)');
    // As an older version left them (SQLite's default 0644), with the WAL still there.
    for (const f of [path, `${path}-wal`, `${path}-shm`]) chmodSync(f, 0o644);
    const second = new SqliteStore(path);
    for (const f of [path, `${path}-wal`, `${path}-shm`]) expect(`${f} ${mode(f)}`).toBe(`${f} 600`);
    expect(sqliteHandleForTests(second).prepare('SELECT x FROM probe').get()).toEqual({ x: 1 });
    await second.close();
    await first.close();
  });

  it('leaves an existing directory as it is (it may be a volume root or the working directory)', () => {
    chmodSync(root, 0o755);
    new SqliteStore(join(root, 'bot.db')).close();
    expect(mode(root)).toBe('755');
  });
});
