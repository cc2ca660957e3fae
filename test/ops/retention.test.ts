/**
 * Retention with a moving clock, on a real SQLite store and a real archive directory: the
 * ledger, deleted workloads and ended mutes go once past their horizon (never an alert about a
 * workload still present), and archived logs go oldest first, by age and by total size.
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RetentionPruner } from '../../src/ops/retention.js';
import { planArchivePrune } from '../../src/archive/retention.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import type { StoredWorkload } from '../../src/store/port.js';
import { ConfigError, parseConfig } from '../../src/config.js';
import { captureLog } from '../helpers/log.js';
import { tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';

const DAY = 86_400_000;
const T0 = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

function workload(uid: string, deletedAt?: Date): StoredWorkload {
  return {
    uid,
    namespace: 'runai-vision',
    name: uid,
    project: 'vision',
    owner: 'alice',
    kind: 'TrainingWorkload',
    state: deletedAt ? 'Deleted' : 'Failed',
    stateSince: T0.toISOString(),
    snapshot: '{}',
    deletedAt: deletedAt?.toISOString(),
  };
}

/** A workload's archive directory with one log of `bytes`, last written at `when`. */
function archived(dir: string, name: string, bytes: number, when: Date): string {
  const path = join(dir, 'vision', name, `uid-${name}`);
  mkdirSync(path, { recursive: true });
  const file = join(path, `${name}-0-0.main.log`);
  writeFileSync(file, 'x'.repeat(bytes));
  utimesSync(file, when, when);
  utimesSync(path, when, when);
  return path;
}

describe('retention', () => {
  let clock: Date;
  const now = () => clock;

  it('prunes ledger rows, deleted workloads and ended mutes past the horizon, keeping anything about a workload still present', async () => {
    const store = new SqliteStore(join(tempDir('retention-'), 'bot.db'));
    clock = T0;
    await store.putWorkload(workload('gone', T0));
    await store.putWorkload(workload('present'));
    for (const key of ['wl:gone:Failed', 'wl:present:Failed', 'wl:cached:Failed', 'burst:wl:gone:Failed:3', 'cleanup:alice:2026-01-01', 'mw:window-1:start', 'archive:problem:disk-full:0']) {
      await store.recordSent({ key, recipient: 'U0ALICE', sentAt: T0.toISOString() });
    }
    await store.mute('U0ALICE', 'project:vision', at(1));
    await store.mute('U0ALICE', 'workload:runai-vision/a', at(40));
    await store.mute('U0ALICE', 'workload:runai-vision/b', undefined);
    const captured = captureLog('info');
    const pruner = new RetentionPruner({ store, liveWorkloads: () => ['cached'], keepMs: 30 * DAY, log: captured.log, now });

    clock = at(29);
    expect(await pruner.run()).toMatchObject({ ledger: 0, workloads: 0, mutes: 1 });
    expect((await store.activeMutes('U0ALICE', T0)).map((m) => m.scope).sort()).toEqual(['workload:runai-vision/a', 'workload:runai-vision/b']);

    clock = at(31);
    expect(await pruner.run()).toMatchObject({ ledger: 3, workloads: 1, mutes: 0 });
    const kept = ['wl:present:Failed', 'wl:cached:Failed', 'mw:window-1:start', 'archive:problem:disk-full:0'];
    for (const key of kept) expect(await store.wasSent(key)).toBe(true);
    for (const key of ['wl:gone:Failed', 'burst:wl:gone:Failed:3', 'cleanup:alice:2026-01-01']) expect(await store.wasSent(key)).toBe(false);
    expect(await store.getWorkload('gone')).toBeUndefined();
    expect(await store.getWorkload('present')).toBeDefined();

    clock = at(41);
    expect(await pruner.run()).toMatchObject({ mutes: 1 });
    expect((await store.activeMutes('U0ALICE', T0)).map((m) => m.scope)).toEqual(['workload:runai-vision/b']);
    expect(captured.entries.some((e) => e.msg === 'pruned old ledger rows, deleted workloads and ended mutes' && e.ledger === 3)).toBe(true);
    await store.close();
  });

  it('deletes archived logs older than archive.retention, then the oldest until the total fits archive.maxTotalBytes', async () => {
    const store = new SqliteStore(join(tempDir('retention-'), 'bot.db'));
    const dir = join(tempDir('retention-'), 'logs');
    const oldest = archived(dir, 'oldest', 100, at(0));
    const old = archived(dir, 'old', 100, at(5));
    const middle = archived(dir, 'middle', 300, at(35));
    const busy = archived(dir, 'busy', 300, at(36));
    const newest = archived(dir, 'newest', 300, at(38));
    const captured = captureLog('info');
    const pruner = new RetentionPruner({
      store,
      liveWorkloads: () => [],
      keepMs: 30 * DAY,
      archive: { dir, retentionMs: 30 * DAY, maxTotalBytes: 700, busy: () => [busy] },
      log: captured.log,
      now,
    });

    clock = at(39);
    // 100+100 are past 30 days; the rest, 900 bytes, is over 700: the oldest not being written goes.
    expect((await pruner.run()).archive).toEqual({ byAge: 2, bySize: 1, bytes: 500 });
    expect([oldest, old, middle].map(existsSync)).toEqual([false, false, false]);
    expect([busy, newest].map(existsSync)).toEqual([true, true]);
    // Emptied workload directories go too; the project directory stays while it holds any.
    expect(existsSync(join(dir, 'vision', 'oldest'))).toBe(false);
    expect(existsSync(join(dir, 'vision'))).toBe(true);
    const logged = captured.entries.filter((e) => e.component === undefined && typeof e.path === 'string').map((e) => [e.path, e.reason]);
    expect(logged).toEqual([[oldest, 'age'], [old, 'age'], [middle, 'size']]);

    clock = at(100);
    expect((await pruner.run()).archive).toEqual({ byAge: 1, bySize: 0, bytes: 300 });
    expect(existsSync(busy)).toBe(true);
    await store.close();
  });

  it('plans deletions oldest first and never picks a directory being written', () => {
    const entries = [
      { path: 'c', newestMs: 3, bytes: 10 },
      { path: 'a', newestMs: 1, bytes: 10 },
      { path: 'b', newestMs: 2, bytes: 10 },
    ];
    expect(planArchivePrune(entries, { nowMs: 4, retentionMs: 100, maxTotalBytes: 15, busy: new Set(['a']) })).toEqual([
      { path: 'b', bytes: 10, reason: 'size' },
      { path: 'c', bytes: 10, reason: 'size' },
    ]);
    expect(planArchivePrune(entries, { nowMs: 4, retentionMs: 100, busy: new Set() })).toEqual([]);
    expect(planArchivePrune(entries, { nowMs: 4, retentionMs: 1.5, busy: new Set() }).map((p) => p.path)).toEqual(['a', 'b']);
  });

  it('reads archive.retention (default 30d) and archive.maxTotalBytes (default: no cap)', () => {
    const defaults = parseConfig({ archive: { dir: '/logs' } }).archive!;
    expect(defaults.retention).toBe(30 * DAY);
    expect(defaults.maxTotalBytes).toBeUndefined();
    expect(parseConfig({ archive: { dir: '/logs', retention: '7d', maxTotalBytes: '9GiB' } }).archive).toMatchObject({ retention: 7 * DAY, maxTotalBytes: 9 * 1024 ** 3 });
    expect(() => parseConfig({ archive: { dir: '/logs', retention: 7 } })).toThrow(ConfigError);
    expect(() => parseConfig({ archive: { dir: '/logs', maxTotalBytes: 'lots' } })).toThrow(/archive.maxTotalBytes: "lots" is not a size/);
  });

  describe('through the bot', () => {
    const sims = useSimulators();
    let bot: TestBot;

    it('keeps the ledger for cleanup.after when that is longer than 30 days', async () => {
      clock = T0;
      bot = await sims.startBot({ cleanup: { after: '45d' } }, { now });
      await bot.store.putWorkload(workload('gone', T0));
      await bot.store.recordSent({ key: 'wl:gone:Failed', recipient: 'U0ALICE', sentAt: T0.toISOString() });
      clock = at(40);
      await bot.retention.run();
      expect(await bot.store.wasSent('wl:gone:Failed')).toBe(true);
      clock = at(46);
      expect((await bot.retention.run()).ledger).toBe(1);
      expect(await bot.store.wasSent('wl:gone:Failed')).toBe(false);
    });
  });
});
