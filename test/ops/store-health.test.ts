/**
 * The store refusing writes at runtime (a full or read-only volume): readiness says so until
 * writes work again, and the bot keeps running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { eventually, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, workloadCr } from '../helpers/workloads.js';
import { sqliteOf } from '../helpers/store.js';

describe('a store that cannot be written', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let bot: TestBot;
  beforeEach(() => ({ kube } = sims));

  const readiness = async () => {
    const res = await fetch(`http://127.0.0.1:${bot.port}/readyz`);
    return { status: res.status, body: (await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> } };
  };

  it('makes the bot unready with the reason, and ready again once writes succeed', async () => {
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' } });
    expect((await readiness()).status).toBe(200);

    // SQLite's own switch for refusing every write: what a read-only volume looks like to the bot.
    sqliteOf(bot.store).pragma('query_only = ON');
    const during = await readiness();
    expect(during.status).toBe(503);
    expect(during.body.checks.store.ok).toBe(false);
    expect(during.body.checks.store.detail).toMatch(/^cannot write the store \(SQLITE_READONLY\)/);
    expect(await bot.ready()).toBe(false);

    // The bot keeps running through failed writes: the watcher logs them and goes on.
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    await eventually(() => bot.captured.entries.some((e) => e.level === 'error' && String(e.err).includes('readonly')), 'the failed write logged');
    expect((await readiness()).status).toBe(503);

    sqliteOf(bot.store).pragma('query_only = OFF');
    const after = await readiness();
    expect(after.status).toBe(200);
    expect(after.body.checks.store).toEqual({ ok: true });
  });

  it('waits out a store another process holds locked at start, rather than exiting into the same lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runai-locked-'));
    const path = join(dir, 'bot.db');
    await new SqliteStore(path).close();
    const other = new Database(path);
    try {
      // Longer than the store's 5 s busy timeout: a restart during a backup or a replica handover.
      other.exec('BEGIN EXCLUSIVE');
      const release = setTimeout(() => other.exec('COMMIT'), 7000);
      bot = await sims.startBot({ store: { path } });
      clearTimeout(release);
      expect(bot.captured.entries.some((e) => e.msg === 'the store is locked by another process; waiting')).toBe(true);
      expect((await readiness()).status).toBe(200);
    } finally {
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
