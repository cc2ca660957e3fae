/**
 * One contract, two stores: the same cases run against SQLite (a real file) and PostgreSQL (the
 * real server, a schema of its own per run; skipped with a note when no server answers, failed
 * under CI). What the core relies on is here: the ledger, the outbox's order and its
 * one-transaction complete, retries, bursts (fold, complete, release, one opener per
 * destination), workloads, mutes, settings, the feed cache, pruning, the health probe, and
 * migrations from empty and re-run.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { BurstAdmission, NewOutboxItem, Store, StoredBurst, StoredOpsBurst, StoredWorkload } from '../../src/store/port.js';
import { PostgresStore } from '../../src/store/postgres/index.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { SqliteStore, sqliteHandleForTests, sqliteSchemaVersion } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/bot.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../helpers/postgres.js';
import { allOutbox } from '../helpers/store.js';

/** How a case reaches one implementation: open (again) the same database, read its version, break a write. */
interface Backend {
  open(): Promise<Store>;
  schemaVersion(store: Store): Promise<number>;
  /** Makes every `op` on `table` fail (like a full disk) until the returned function is called. */
  failWrites(store: Store, table: string, op: 'INSERT' | 'UPDATE' | 'DELETE'): Promise<() => Promise<void>>;
  /** Before open(): the database as the release before outbox priorities left it, with `seed` run in it. */
  beforePriorities(seed: string): Promise<void>;
  cleanup(): Promise<void>;
}

function sqliteBackend(): Backend {
  const path = join(tempDir('contract-'), 'bot.db');
  return {
    open: async () => new SqliteStore(path),
    schemaVersion: async (store) => sqliteSchemaVersion(store as SqliteStore),
    failWrites: async (store, table, op) => {
      const db = sqliteHandleForTests(store as SqliteStore);
      db.exec(`CREATE TRIGGER contract_fault BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
      return async () => void db.exec('DROP TRIGGER contract_fault');
    },
    beforePriorities: async (seed) => {
      const db = new Database(path);
      for (const migration of SQLITE_MIGRATIONS.slice(0, 2)) db.exec(migration);
      db.pragma('user_version = 2');
      db.exec(seed);
      db.close();
    },
    cleanup: async () => undefined,
  };
}

async function postgresBackend(): Promise<Backend> {
  const schema: TestSchema = await createTestSchema();
  return {
    open: () => PostgresStore.open({ url: schema.url, schema: schema.schema }),
    schemaVersion: (store) => (store as PostgresStore).schemaVersion(),
    failWrites: async (_store, table, op) => {
      await schema.sql(`CREATE FUNCTION contract_fault() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full' USING ERRCODE = '53100'; END $$ LANGUAGE plpgsql`);
      await schema.sql(`CREATE TRIGGER contract_fault BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION contract_fault()`);
      return async () => void (await schema.sql(`DROP TRIGGER contract_fault ON ${table}; DROP FUNCTION contract_fault()`));
    },
    beforePriorities: async (seed) => {
      await schema.sql('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      for (const [i, migration] of POSTGRES_MIGRATIONS.slice(0, 1).entries()) {
        await schema.sql(migration);
        await schema.sql(`INSERT INTO schema_migrations VALUES (${i + 1}, '${T0.toISOString()}')`);
      }
      await schema.sql(seed);
    },
    cleanup: () => schema.drop(),
  };
}

const T0 = new Date('2026-11-30T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const owner = (key: string, who = 'alice'): NewOutboxItem => ({
  key,
  kind: 'failed',
  target: { type: 'owner', owner: who, project: 'vision', workload: 'runai-vision/job' },
  payload: { text: `about ${key}`, blocks: [{ type: 'section' }] },
});
const workload = (uid: string, extra: Partial<StoredWorkload> = {}): StoredWorkload => ({
  uid,
  namespace: 'runai-vision',
  name: `job-${uid}`,
  project: 'vision',
  owner: 'alice',
  kind: 'TrainingWorkload',
  state: 'Running',
  stateSince: T0.toISOString(),
  snapshot: '{}',
  ...extra,
});
/** notify/burst.ts's rule, in short: join the open burst, else open one for 30 s. */
const decide = (now: Date) => (open: StoredBurst | undefined): BurstAdmission =>
  open ? { grouped: true, anchorKey: open.anchorKey, rewriteAt: now.getTime() + 1500 } : { grouped: false, closesAt: now.getTime() + 30_000 };

/**
 * A failed write rejects with the driver's error, which carries its code. (better-sqlite3's
 * SqliteError is not an Error in every jest realm, so `rejects.toThrow()` would misjudge it.)
 */
function contract(name: string, make: () => Backend | Promise<Backend>, describeFn: typeof describe = describe): void {
  describeFn(`store contract: ${name}`, () => {
    let backend: Backend;
    let store: Store;

    beforeEach(async () => {
      backend = await make();
      store = await backend.open();
    });
    afterEach(async () => {
      await store.close();
      await backend.cleanup();
    });

    it('migrates an empty database to the latest version, and opening again changes nothing', async () => {
      const version = await backend.schemaVersion(store);
      expect(version).toBeGreaterThan(0);
      await store.recordSent({ key: 'wl:1:Failed', recipient: 'U1', sentAt: T0.toISOString() });
      await store.close();
      // Two replicas starting together: both open, neither fails, the schema is migrated once.
      const [a, b] = await Promise.all([backend.open(), backend.open()]);
      expect(await backend.schemaVersion(a)).toBe(version);
      expect(await b.wasSent('wl:1:Failed')).toBe(true);
      await a.close();
      store = b;
    });

    it('keeps the ledger by key, matches prefixes literally, and lists a person’s recent alerts newest first', async () => {
      expect(await store.wasSent('wl:1:Failed')).toBe(false);
      await store.recordSent({ key: 'wl:1:Failed', recipient: 'U1', channel: 'D1', ts: '1.1', sentAt: at(1).toISOString() });
      await store.recordSent({ key: 'wl:2:Failed', recipient: 'U1', sentAt: at(3).toISOString() });
      await store.recordSent({ key: 'mw:a_b:1d', recipient: 'maintenance', sentAt: at(2).toISOString() });
      await store.recordSent({ key: 'mw:axb:1d', recipient: 'maintenance', sentAt: at(2).toISOString() });
      expect(await store.wasSent('wl:1:Failed')).toBe(true);
      expect(await store.ledgerEntry('wl:1:Failed')).toEqual({ key: 'wl:1:Failed', recipient: 'U1', channel: 'D1', ts: '1.1', sentAt: at(1).toISOString() });
      expect(await store.ledgerEntry('wl:2:Failed')).toEqual({ key: 'wl:2:Failed', recipient: 'U1', sentAt: at(3).toISOString() });
      expect(await store.ledgerEntry('nope')).toBeUndefined();
      // `_` is a LIKE wildcard: the prefix must match only itself.
      expect([...(await store.ledgerKeys('mw:a_'))]).toEqual(['mw:a_b:1d']);
      expect(await store.recentAlertsFor('U1', 1)).toEqual([expect.objectContaining({ key: 'wl:2:Failed' })]);
      expect((await store.recentAlertsFor('U1', 10)).map((e) => e.key)).toEqual(['wl:2:Failed', 'wl:1:Failed']);
    });

    it('queues once per key, in order, never what was sent, and completes into the ledger', async () => {
      expect(await store.enqueue(owner('wl:a:Failed'), at(0))).toBe(true);
      expect(await store.enqueue(owner('wl:b:Failed'), at(1))).toBe(true);
      expect(await store.enqueue(owner('wl:a:Failed'), at(2))).toBe(false);
      await store.recordSent({ key: 'wl:c:Failed', recipient: 'U1', sentAt: T0.toISOString() });
      expect(await store.enqueue(owner('wl:c:Failed'), at(2))).toBe(false);
      expect(await store.enqueue({ key: 'ops', kind: 'ops-burst', target: { type: 'channel', channel: 'C1' }, payload: { text: 'x' } }, at(2))).toBe(true);

      const due = await store.dueOutbox(at(5));
      expect(due.map((i) => i.key)).toEqual(['wl:a:Failed', 'wl:b:Failed', 'ops']);
      expect(due[0]).toMatchObject({ kind: 'failed', target: owner('x').target, payload: owner('wl:a:Failed').payload, attempts: 0, createdAt: at(0).toISOString() });
      expect(await store.dueOutbox(at(5), 1)).toHaveLength(1);
      expect((await store.dueOutbox(at(0))).map((i) => i.key)).toEqual(['wl:a:Failed']);
      expect(await store.outboxDepth()).toBe(3);
      expect(await store.isQueued('wl:b:Failed')).toBe(true);
      expect((await store.queuedItem('wl:b:Failed'))?.id).toBe(due[1].id);

      await store.completeOutbox(due[0].id, { key: 'wl:a:Failed', recipient: 'U1', channel: 'D1', ts: '2.2', sentAt: at(6).toISOString() });
      expect(await store.isQueued('wl:a:Failed')).toBe(false);
      expect(await store.ledgerEntry('wl:a:Failed')).toMatchObject({ channel: 'D1', ts: '2.2' });
      expect((await allOutbox(store)).map((i) => i.key)).toEqual(['wl:b:Failed', 'ops']);
    });

    it('completes in one transaction: when the queue delete fails, no ledger row is written either', async () => {
      await store.enqueue(owner('wl:a:Failed'), T0);
      const [item] = await store.dueOutbox(T0);
      const restore = await backend.failWrites(store, 'outbox', 'DELETE');
      await expect(store.completeOutbox(item.id, { key: item.key, recipient: 'U1', sentAt: T0.toISOString() })).rejects.toHaveProperty('code');
      expect(await store.wasSent(item.key)).toBe(false);
      expect(await store.isQueued(item.key)).toBe(true);
      await restore();
      await store.completeOutbox(item.id, { key: item.key, recipient: 'U1', sentAt: T0.toISOString() });
      expect(await store.wasSent(item.key)).toBe(true);
    });

    it('claims what is due under the sender\'s fence: a live claim of an earlier turn is skipped until it ends, its own taken again', async () => {
      await store.enqueue(owner('wl:a:Failed'), at(0));
      await store.enqueue(owner('wl:b:Failed'), at(1));
      await store.enqueue(owner('wl:later:Failed'), at(30));
      const first = await store.beginSending('replica-a', at(0));
      expect((await store.claimOutbox(first, at(2), at(10), 1)).map((i) => i.key)).toEqual(['wl:a:Failed']);
      // The same turn takes its unfinished claims again (one drain at a time per sender), in queue order.
      expect((await store.claimOutbox(first, at(3), at(10))).map((i) => i.key)).toEqual(['wl:a:Failed', 'wl:b:Failed']);

      // Another replica (its own connection) starts a turn: the first one's fence is stale from now on.
      const other = await backend.open();
      try {
        const second = await other.beginSending('replica-b', at(4));
        expect(second).toBeGreaterThan(first);
        await expect(store.claimOutbox(first, at(4), at(10))).rejects.toMatchObject({ name: 'StaleSenderError', fence: first, current: second });
        // What the first turn claimed is not taken while its claims last …
        expect(await other.claimOutbox(second, at(9), at(20))).toEqual([]);
        // … and is once they end; nothing due later is claimed early.
        const taken = await other.claimOutbox(second, at(10), at(20));
        expect(taken.map((i) => i.key)).toEqual(['wl:a:Failed', 'wl:b:Failed']);
        expect(await other.outboxDepth()).toBe(3);
      } finally {
        await other.close();
      }
    });

    it('records a send only under the current fence: a stale turn\'s completion writes nothing, the current one\'s lands', async () => {
      await store.enqueue(owner('wl:a:Failed'), at(0));
      const stale = await store.beginSending('replica-a', at(0));
      const [item] = await store.claimOutbox(stale, at(1), at(10));
      const current = await store.beginSending('replica-b', at(2));
      const entry = { key: item.key, recipient: 'U1', channel: 'D1', ts: '1.1', sentAt: at(3).toISOString() };
      await expect(store.completeOutbox(item.id, entry, stale)).rejects.toMatchObject({ name: 'StaleSenderError' });
      expect(await store.wasSent(item.key)).toBe(false);
      expect(await store.isQueued(item.key)).toBe(true);
      await store.completeOutbox(item.id, entry, current);
      expect(await store.ledgerEntry(item.key)).toMatchObject({ recipient: 'U1', ts: '1.1' });
      expect(await store.isQueued(item.key)).toBe(false);

      // A burst rewrite likewise: the stale turn's rewrite tells no folded alert.
      const decide = (open: StoredBurst | undefined): BurstAdmission =>
        open ? { grouped: true, anchorKey: open.anchorKey, rewriteAt: at(5).getTime() } : { grouped: false, closesAt: at(60).getTime() };
      await store.admitToBurst('user:U1', owner('wl:anchor:Failed'), { n: 0 }, at(4), decide);
      await store.admitToBurst('user:U1', owner('wl:folded:Failed'), { n: 1 }, at(4), decide);
      const rewrite = (await allOutbox(store)).find((i) => i.target.type === 'burst')!;
      const told = [{ key: 'wl:folded:Failed', recipient: 'U1', channel: 'D1', ts: '2.2', sentAt: at(6).toISOString() }];
      await expect(store.completeBurstRewrite(rewrite.id, 'wl:anchor:Failed', told, [], stale)).rejects.toMatchObject({ name: 'StaleSenderError' });
      expect(await store.wasSent('wl:folded:Failed')).toBe(false);
      await store.completeBurstRewrite(rewrite.id, 'wl:anchor:Failed', told, [], current);
      expect(await store.wasSent('wl:folded:Failed')).toBe(true);
    });

    /**
     * A deposed sender woken after a freeze holds a stale fence: every write it would make to
     * the queue is refused whole, as its completion is, and the current turn's lands.
     */
    const deposed = async () => {
      const stale = await store.beginSending('replica-a', at(0));
      const current = await store.beginSending('replica-b', at(1));
      return { stale, current };
    };
    const refused = { name: 'StaleSenderError' };

    it('reschedules only under the current fence: a stale turn\'s retryOutboxLater changes nothing', async () => {
      await store.enqueue(owner('wl:a:Failed'), at(0));
      const { stale, current } = await deposed();
      const [item] = await store.dueOutbox(at(2));
      await expect(store.retryOutboxLater(item.id, at(600), 'HTTP 503', 'backoff', stale)).rejects.toMatchObject(refused);
      expect(await store.queuedItem(item.key)).toEqual(item);
      await store.retryOutboxLater(item.id, at(600), 'HTTP 503', 'backoff', current);
      expect(await store.queuedItem(item.key)).toMatchObject({ attempts: 1, nextAttemptAt: at(600).toISOString(), lastError: 'HTTP 503' });
    });

    it('drops only under the current fence: a stale turn\'s dropOutbox leaves the item queued', async () => {
      await store.enqueue(owner('wl:a:Failed'), at(0));
      const { stale, current } = await deposed();
      const [item] = await store.dueOutbox(at(2));
      await expect(store.dropOutbox(item.id, stale)).rejects.toMatchObject(refused);
      expect(await store.isQueued(item.key)).toBe(true);
      await store.dropOutbox(item.id, current);
      expect(await store.isQueued(item.key)).toBe(false);
    });

    it('replaces a payload only under the current fence: a stale turn\'s text fallback is not written', async () => {
      await store.enqueue(owner('wl:a:Failed'), at(0));
      const { stale, current } = await deposed();
      const [item] = await store.dueOutbox(at(2));
      await expect(store.replaceOutboxPayload(item.id, { text: 'plain' }, stale)).rejects.toMatchObject(refused);
      expect((await store.queuedItem(item.key))?.payload).toEqual(owner('wl:a:Failed').payload);
      await store.replaceOutboxPayload(item.id, { text: 'plain' }, current);
      expect((await store.queuedItem(item.key))?.payload).toEqual({ text: 'plain' });
    });

    it('releases a burst only under the current fence: a stale turn\'s releaseBurst keeps the burst and its folds', async () => {
      await store.admitToBurst('user:U1', owner('wl:1:Failed'), {}, at(0), decide(at(0)));
      await store.admitToBurst('user:U1', owner('wl:2:Failed'), {}, at(0), decide(at(0)));
      const { stale, current } = await deposed();
      const before = await allOutbox(store);
      await expect(store.releaseBurst('wl:1:Failed', at(2), stale)).rejects.toMatchObject(refused);
      expect(await allOutbox(store)).toEqual(before);
      expect(await store.burstEntries('wl:1:Failed')).toHaveLength(1);
      expect(await store.burst('wl:1:Failed')).toBeDefined();
      expect(await store.releaseBurst('wl:1:Failed', at(2), current)).toEqual(['wl:2:Failed']);
      expect(await store.burst('wl:1:Failed')).toBeUndefined();
    });

    it('drops a burst only under the current fence: a stale turn\'s dropBurst loses no folded alert', async () => {
      await store.admitToBurst('user:U1', owner('wl:1:Failed'), {}, at(0), decide(at(0)));
      await store.admitToBurst('user:U1', owner('wl:2:Failed'), {}, at(0), decide(at(0)));
      const { stale, current } = await deposed();
      await expect(store.dropBurst('wl:1:Failed', stale)).rejects.toMatchObject(refused);
      expect(await store.isQueued('wl:2:Failed')).toBe(true);
      expect(await store.isQueued('burst:wl:1:Failed')).toBe(true);
      expect(await store.dropBurst('wl:1:Failed', current)).toEqual(['wl:2:Failed']);
      expect(await store.isQueued('wl:2:Failed')).toBe(false);
    });

    it('counts each alert once into the stored operators\' burst however many replicas count it, and queues one summary for it', async () => {
      const compose = (b: StoredOpsBurst) => (b.entries.length >= 2 ? { key: b.key, kind: 'ops-burst', target: { type: 'channel' as const, channel: 'C0OPS' }, payload: { text: `${b.entries.length} failed` } } : undefined);
      const other = await backend.open();
      try {
        // Two replicas see the same three failures, at slightly different times, concurrently (the first opens the burst).
        await store.admitToOpsBurst('wl:1:Failed', { key: 'wl:1:Failed' }, at(0), 30_000, compose);
        await Promise.all(['wl:1:Failed', 'wl:2:Failed', 'wl:3:Failed'].flatMap((key, i) => [
          store.admitToOpsBurst(key, { key }, at(i), 30_000, compose),
          other.admitToOpsBurst(key, { key }, at(i + 0.5), 30_000, compose),
        ]));
      } finally {
        await other.close();
      }
      const summaries = (await allOutbox(store)).filter((i) => i.kind === 'ops-burst');
      expect(summaries).toHaveLength(1);
      expect(summaries[0]).toMatchObject({ key: 'ops-burst:' + at(0).toISOString(), payload: { text: '3 failed' }, target: { type: 'channel', channel: 'C0OPS' } });
      // Due when the burst closes, a window after it opened (burstRewritesDueNow hurries it).
      expect(await store.dueOutbox(at(29))).toEqual([]);
      expect((await store.dueOutbox(at(30))).map((i) => i.key)).toEqual([summaries[0].key]);

      // Once sent, a late count changes nothing; after the window a new burst starts.
      await store.completeOutbox(summaries[0].id, { key: summaries[0].key, recipient: 'C0OPS', sentAt: at(30).toISOString() });
      await store.admitToOpsBurst('wl:4:Failed', { key: 'wl:4:Failed' }, at(20), 30_000, compose);
      expect(await store.outboxDepth()).toBe(0);
      await store.admitToOpsBurst('wl:5:Failed', { key: 'wl:5:Failed' }, at(31), 30_000, compose);
      await store.admitToOpsBurst('wl:6:Failed', { key: 'wl:6:Failed' }, at(32), 30_000, compose);
      expect((await allOutbox(store)).map((i) => [i.key, i.payload.text])).toEqual([['ops-burst:' + at(31).toISOString(), '2 failed']]);
    });

    it('retries later, counts only failures, expedites only what failed for a passing reason, and drops', async () => {
      for (const key of ['a', 'b', 'c', 'd']) await store.enqueue(owner(key), T0);
      const [a, b, c, d] = await store.dueOutbox(T0);
      await store.retryOutboxLater(a.id, at(60), 'HTTP 503', 'backoff');
      await store.retryOutboxLater(b.id, at(60), 'quiet hours', 'deliberate');
      // The wait, not the text of the error, says what may be hurried.
      await store.retryOutboxLater(c.id, at(60), 'HTTP 429', 'rate-limited');
      await store.retryOutboxLater(d.id, at(60), 'x'.repeat(800), 'backoff');
      expect((await store.dueOutbox(at(30))).map((i) => i.key)).toEqual([]);
      const all = await allOutbox(store);
      expect(all.map((i) => [i.key, i.attempts, i.nextAttemptAt])).toEqual([
        ['a', 1, at(60).toISOString()],
        ['b', 0, at(60).toISOString()],
        ['c', 1, at(60).toISOString()],
        ['d', 1, at(60).toISOString()],
      ]);
      expect(all[0].lastError).toBe('HTTP 503');
      expect(all[3].lastError).toHaveLength(500);
      expect(await store.expediteOutbox(at(30))).toBe(2);
      expect((await store.dueOutbox(at(30))).map((i) => i.key)).toEqual(['a', 'd']);

      await store.replaceOutboxPayload(a.id, { text: 'plain' });
      expect((await store.queuedItem('a'))?.payload).toEqual({ text: 'plain' });
      await store.dropOutbox(a.id);
      expect(await store.isQueued('a')).toBe(false);
      expect(await store.wasSent('a')).toBe(false);
    });

    it('sends each owner\'s first alert before rewrites, then digests and warnings, then nudges; the longest due first within each', async () => {
      const channel = (key: string, kind: string): NewOutboxItem => ({ key, kind, target: { type: 'channel', channel: 'C1' }, payload: { text: key } });
      await store.enqueue({ ...owner('cleanup:alice:d1'), kind: 'cleanup' }, at(0));
      await store.enqueue(channel('ops-burst:1', 'ops-burst'), at(0));
      await store.enqueue({ ...owner('wl:p:Pending:stuck'), kind: 'pending' }, at(0));
      await store.enqueue(channel('mw:w1:1d', 'maintenance'), at(0));
      // alice's first alert opens her burst; her second folds into its rewrite (due in 1.5 s).
      await store.admitToBurst('user:U1', owner('wl:1:Failed'), {}, at(1), decide(at(1)));
      await store.admitToBurst('user:U1', owner('wl:2:Failed'), {}, at(1), decide(at(1)));
      // bob's first alert comes last of all, and is still among the first sent.
      await store.admitToBurst('user:U2', owner('wl:3:Failed', 'bob'), {}, at(2), decide(at(2)));
      await store.enqueue({ ...owner('wl:4:Stopped', 'carol'), kind: 'stopped' }, at(3));
      const order = async (when: Date) => (await store.dueOutbox(when)).map((i) => i.key);
      expect(await order(at(10))).toEqual(['wl:1:Failed', 'wl:3:Failed', 'wl:4:Stopped', 'burst:wl:1:Failed', 'ops-burst:1', 'wl:p:Pending:stuck', 'mw:w1:1d', 'cleanup:alice:d1']);
      // The batch limit takes from the front: first alerts are never stuck behind a backlog.
      expect(await order(at(10)).then((keys) => keys.slice(0, 2))).toEqual((await store.dueOutbox(at(10), 2)).map((i) => i.key));
      // Within a priority, the item due longest goes first (a retried alert waits its turn).
      const first = (await store.queuedItem('wl:1:Failed'))!;
      await store.retryOutboxLater(first.id, at(5), 'rate limited by Slack', 'rate-limited');
      expect((await order(at(10))).slice(0, 3)).toEqual(['wl:3:Failed', 'wl:4:Stopped', 'wl:1:Failed']);
      // Released from a burst whose first message never went, a folded alert is a first alert again.
      await store.releaseBurst('wl:1:Failed', at(6));
      expect((await order(at(10))).slice(0, 4)).toEqual(['wl:3:Failed', 'wl:4:Stopped', 'wl:1:Failed', 'wl:2:Failed']);
    });

    it('gives items queued before priorities existed their kind\'s priority when it migrates', async () => {
      await store.close();
      await backend.cleanup();
      backend = await make();
      const row = (key: string, kind: string, target: object) =>
        `('${key}', '${kind}', '${JSON.stringify(target)}', '{"text":"${key}"}', '${T0.toISOString()}', '${T0.toISOString()}')`;
      await backend.beforePriorities(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at) VALUES
           ${row('cleanup:alice:d1', 'cleanup', { type: 'owner', owner: 'alice', project: 'vision' })},
           ${row('burst:wl:1:Failed', 'burst', { type: 'burst', anchorKey: 'wl:1:Failed' })},
           ${row('upd:wl:0:Failed', 'failed', { type: 'update', anchorKey: 'wl:0:Failed' })},
           ${row('wl:p:Pending:stuck', 'pending', { type: 'owner', owner: 'alice', project: 'vision' })},
           ${row('wl:1:Failed', 'failed', { type: 'owner', owner: 'alice', project: 'vision' })}`,
      );
      store = await backend.open();
      expect((await store.dueOutbox(at(1))).map((i) => i.key)).toEqual(['wl:1:Failed', 'burst:wl:1:Failed', 'upd:wl:0:Failed', 'wl:p:Pending:stuck', 'cleanup:alice:d1']);
    });

    it('keeps why each item waits across the migration: only a failure\'s backoff is hurried when Slack comes back', async () => {
      await store.close();
      await backend.cleanup();
      backend = await make();
      const later = at(60).toISOString();
      const row = (key: string, attempts: number, lastError: string) =>
        `('${key}', 'failed', '${JSON.stringify({ type: 'owner', owner: 'alice', project: 'vision' })}', '{"text":"${key}"}', '${later}', '${T0.toISOString()}', ${attempts}, '${lastError}')`;
      await backend.beforePriorities(
        `INSERT INTO outbox (key, kind, target, payload, next_attempt_at, created_at, attempts, last_error) VALUES
           ${row('backoff', 2, 'HTTP 503')}, ${row('rate-limited', 1, 'chat.postMessage is rate limited')}, ${row('quiet', 0, 'quiet hours')}`,
      );
      store = await backend.open();
      expect(await store.expediteOutbox(at(1))).toBe(1);
      expect((await store.dueOutbox(at(1))).map((i) => i.key)).toEqual(['backoff']);
      // From now on the wait is written with the item, whatever its error says.
      const [backoff] = await store.dueOutbox(at(1));
      await store.retryOutboxLater(backoff.id, at(60), 'rate limit exceeded upstream (HTTP 503)', 'backoff');
      expect(await store.expediteOutbox(at(2))).toBe(1);
    });

    it('opens a burst with the first alert, folds the next with its rewrite, and completes it in one go', async () => {
      expect(await store.admitToBurst('user:U1', owner('wl:1:Failed'), { n: 1 }, at(0), decide(at(0)))).toEqual({ folded: false });
      expect(await store.admitToBurst('user:U1', owner('wl:2:Failed'), { n: 2 }, at(1), decide(at(1)))).toEqual({ folded: true, anchorKey: 'wl:1:Failed' });
      // The open burst, as the admission's decision sees it.
      const seen: Array<StoredBurst | undefined> = [];
      const watched = (now: Date) => (open: StoredBurst | undefined) => {
        seen.push(open);
        return decide(now)(open);
      };
      expect(await store.admitToBurst('user:U1', owner('wl:3:Failed'), { n: 3 }, at(2), watched(at(2)))).toEqual({ folded: true, anchorKey: 'wl:1:Failed' });
      expect(seen).toEqual([expect.objectContaining({ anchorKey: 'wl:1:Failed', destination: 'user:U1', anchorEntry: { n: 1 }, openedAt: at(0).toISOString() })]);
      // The same alert again, or one already queued, is not folded twice.
      expect(await store.admitToBurst('user:U1', owner('wl:2:Failed'), { n: 2 }, at(2), decide(at(2)))).toBeUndefined();
      expect(await store.admitToBurst('user:U1', owner('wl:1:Failed'), { n: 1 }, at(2), decide(at(2)))).toBeUndefined();

      expect(await store.burst('wl:1:Failed')).toMatchObject({ closesAt: at(30).toISOString() });
      // Folded alerts are on their way: not queued again on their own.
      expect(await store.isQueued('wl:2:Failed')).toBe(true);
      expect(await store.enqueue(owner('wl:2:Failed'), at(3))).toBe(false);
      const entries = await store.burstEntries('wl:1:Failed');
      expect(entries.map((e) => [e.key, e.entry, e.told])).toEqual([['wl:2:Failed', { n: 2 }, false], ['wl:3:Failed', { n: 3 }, false]]);
      expect(entries[0].item).toEqual({ kind: 'failed', target: owner('x').target, payload: owner('wl:2:Failed').payload });
      // One rewrite per burst, re-timed as it grows (debounced from the latest fold).
      const rewrite = (await allOutbox(store)).filter((i) => i.kind === 'burst');
      expect(rewrite).toEqual([expect.objectContaining({ key: 'burst:wl:1:Failed', target: { type: 'burst', anchorKey: 'wl:1:Failed' }, nextAttemptAt: at(3.5).toISOString() })]);
      await store.burstRewritesDueNow(at(2));
      expect((await store.queuedItem('burst:wl:1:Failed'))?.nextAttemptAt).toBe(at(2).toISOString());

      const told = { key: 'wl:2:Failed', recipient: 'U1', channel: 'D1', ts: '1.1', sentAt: at(4).toISOString() };
      const muted = { key: 'wl:3:Failed', recipient: 'muted:U1', sentAt: at(4).toISOString() };
      await store.completeBurstRewrite(rewrite[0].id, 'wl:1:Failed', [told], [muted]);
      expect(await store.ledgerEntry('wl:2:Failed')).toEqual(told);
      expect(await store.ledgerEntry('wl:3:Failed')).toMatchObject({ recipient: 'muted:U1' });
      expect((await store.burstEntries('wl:1:Failed')).map((e) => [e.key, e.told])).toEqual([['wl:2:Failed', true]]);
      expect(await store.isQueued('burst:wl:1:Failed')).toBe(false);
      expect(await store.isQueued('wl:2:Failed')).toBe(false);
      // Closed and all told: forgotten once a burst opens after it closed, not before.
      await store.admitToBurst('user:U2', owner('wl:4:Failed', 'bob'), {}, at(10), decide(at(10)));
      expect(await store.burst('wl:1:Failed')).toBeDefined();
      expect(await store.admitToBurst('user:U1', owner('wl:5:Failed'), {}, at(31), watched(at(31)))).toEqual({ folded: false });
      expect(seen.at(-1)).toBeUndefined();
      expect(await store.burst('wl:1:Failed')).toBeUndefined();
      expect(await store.burst('wl:4:Failed')).toMatchObject({ destination: 'user:U2' });
    });

    it('keeps a message\'s delivery plan with it: queued, folded into a burst, and released on its own', async () => {
      const plan = {
        destinations: [
          { channel: 'C0VISION', via: 'project' as const, note: { kind: 'no-slack-user' as const, owner: 'mallory' } },
          { channel: 'C0FALLBACK', via: 'fallback' as const, note: { kind: 'no-slack-user' as const, owner: 'mallory' } },
        ],
        at: at(0).toISOString(),
      };
      const planned = (key: string): NewOutboxItem => ({ ...owner(key, 'mallory'), target: { type: 'owner', owner: 'mallory', project: 'vision', workload: 'runai-vision/job', plan } });
      expect(await store.admitToBurst('channel:C0VISION:vision', planned('wl:1:Failed'), {}, at(0), decide(at(0)))).toEqual({ folded: false });
      expect(await store.admitToBurst('channel:C0VISION:vision', planned('wl:2:Failed'), {}, at(1), decide(at(1)))).toEqual({ folded: true, anchorKey: 'wl:1:Failed' });
      expect((await store.queuedItem('wl:1:Failed'))?.target).toEqual(planned('x').target);
      expect((await store.burstEntries('wl:1:Failed'))[0].item.target).toEqual(planned('x').target);
      await store.dropOutbox((await store.queuedItem('wl:1:Failed'))!.id);
      expect(await store.releaseBurst('wl:1:Failed', at(2))).toEqual(['wl:2:Failed']);
      expect((await store.queuedItem('wl:2:Failed'))?.target).toEqual(planned('x').target);
    });

    it('folds in one transaction: when the rewrite cannot be queued, the fold is not kept either', async () => {
      await store.admitToBurst('user:U1', owner('wl:1:Failed'), {}, at(0), decide(at(0)));
      const restore = await backend.failWrites(store, 'outbox', 'INSERT');
      await expect(store.admitToBurst('user:U1', owner('wl:2:Failed'), {}, at(1), decide(at(1)))).rejects.toHaveProperty('code');
      await restore();
      expect(await store.burstEntries('wl:1:Failed')).toEqual([]);
      expect(await store.isQueued('wl:2:Failed')).toBe(false);
      expect(await store.admitToBurst('user:U1', owner('wl:2:Failed'), {}, at(1), decide(at(1)))).toEqual({ folded: true, anchorKey: 'wl:1:Failed' });
    });

    it('lets one of many simultaneous alerts for a destination open its burst; the rest fold into it', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => store.admitToBurst('user:U9', owner(`wl:${n}:Failed`), { n }, at(0), decide(at(0)))),
      );
      expect(results.filter((r) => r && !r.folded)).toHaveLength(1);
      expect(results.filter((r) => r?.folded)).toHaveLength(5);
      const anchors = new Set(results.map((r) => r?.folded && r.anchorKey).filter(Boolean) as string[]);
      expect(anchors.size).toBe(1);
      const [anchor] = anchors;
      expect(await store.burstEntries(anchor)).toHaveLength(5);
      expect(await store.burst(anchor)).toMatchObject({ destination: 'user:U9' });
    });

    it('releases a burst whose first message never went: each folded alert is queued on its own', async () => {
      await store.admitToBurst('channel:C1:vision', owner('wl:1:Failed'), {}, at(0), decide(at(0)));
      await store.admitToBurst('channel:C1:vision', owner('wl:2:Failed'), {}, at(1), decide(at(1)));
      await store.admitToBurst('channel:C1:vision', owner('wl:3:Failed'), {}, at(1), decide(at(1)));
      const released = await store.releaseBurst('wl:1:Failed', at(2));
      expect(released.sort()).toEqual(['wl:2:Failed', 'wl:3:Failed']);
      expect((await allOutbox(store)).map((i) => [i.key, i.kind])).toEqual([['wl:1:Failed', 'failed'], ['wl:2:Failed', 'failed'], ['wl:3:Failed', 'failed']]);
      expect(await store.burst('wl:1:Failed')).toBeUndefined();
    });

    it('drops an expired burst with the alerts it still owed, and says which', async () => {
      await store.admitToBurst('user:U1', owner('wl:1:Failed'), {}, at(0), decide(at(0)));
      await store.admitToBurst('user:U1', owner('wl:2:Failed'), {}, at(1), decide(at(1)));
      expect(await store.dropBurst('wl:1:Failed')).toEqual(['wl:2:Failed']);
      expect(await store.isQueued('wl:2:Failed')).toBe(false);
      expect(await store.isQueued('burst:wl:1:Failed')).toBe(false);
      expect(await store.isQueued('wl:1:Failed')).toBe(true);
    });

    it('remembers workloads, lists the present ones, and prunes those deleted long ago', async () => {
      await store.putWorkload(workload('a', { stateSince: at(1).toISOString() }));
      await store.putWorkload(workload('b', { stateSince: at(2).toISOString(), owner: undefined }));
      await store.putWorkload(workload('c', { stateSince: at(3).toISOString() }));
      await store.putWorkload(workload('a', { state: 'Failed', stateSince: at(4).toISOString() }));
      await store.putWorkload(workload('d', { deletedAt: at(5).toISOString() }));
      expect(await store.getWorkload('a')).toEqual(workload('a', { state: 'Failed', stateSince: at(4).toISOString() }));
      expect(await store.getWorkload('b')).toEqual(workload('b', { stateSince: at(2).toISOString(), owner: undefined }));
      expect((await store.allWorkloads()).map((w) => w.uid).sort()).toEqual(['a', 'b', 'c']);
      expect((await store.presentWorkloadUids()).sort()).toEqual(['a', 'b', 'c']);
      expect(await store.pruneDeletedWorkloads(at(5))).toBe(0);
      expect(await store.pruneDeletedWorkloads(at(6))).toBe(1);
      expect(await store.getWorkload('d')).toBeUndefined();
    });

    it('keeps one row per cluster for the same uid and name, each with its cluster', async () => {
      // workloadId(): the same Kubernetes uid in two named clusters gives two rows; '' is the unnamed cluster of old configs.
      const inEast = workload('gpu-east/u1', { cluster: 'gpu-east', name: 'train', stateSince: at(1).toISOString() });
      const inWest = workload('gpu-west/u1', { cluster: 'gpu-west', name: 'train', state: 'Failed', stateSince: at(2).toISOString() });
      const unnamed = workload('u1', { name: 'train', stateSince: at(3).toISOString() });
      for (const w of [inEast, inWest, unnamed, workload('gpu-east/u2', { cluster: 'gpu-east', name: 'other' })]) await store.putWorkload(w);
      expect(await store.getWorkload('gpu-east/u1')).toEqual(inEast);
      expect(await store.getWorkload('gpu-west/u1')).toEqual(inWest);
      expect(await store.getWorkload('u1')).toEqual(unnamed);
      expect((await store.getWorkload('u1'))?.cluster).toBeUndefined();
      const trains = (await store.allWorkloads()).filter((w) => w.name === 'train');
      expect(trains.map((w) => [w.uid, w.cluster]).sort()).toEqual([['gpu-east/u1', 'gpu-east'], ['gpu-west/u1', 'gpu-west'], ['u1', undefined]]);
      // Ledger keys carry the id, so pruning keeps a live workload's keys in its own cluster only.
      for (const key of ['wl:gpu-east/u1:Failed', 'wl:gpu-west/u1:Failed', 'burst:wl:gpu-west/u1:Failed']) await store.recordSent({ key, recipient: 'U1', sentAt: at(0).toISOString() });
      expect(await store.pruneLedger(at(50), new Set(['gpu-east/u1']))).toBe(2);
      expect([...(await store.ledgerKeys('wl:'))]).toEqual(['wl:gpu-east/u1:Failed']);
    });

    it('gives a single-cluster store to a named cluster once: rows, their alerts told and their bursts, the named ones winning', async () => {
      await store.putWorkload(workload('u1', { state: 'Failed', snapshot: JSON.stringify({ uid: 'u1', name: 'job-u1' }) }));
      await store.putWorkload(workload('u2'));
      // Already known under its named id (say, a replica that moved first): that row is kept.
      await store.putWorkload(workload('gpu-east/u2', { cluster: 'gpu-east', state: 'Completed' }));
      await store.putWorkload(workload('gpu-west/u9', { cluster: 'gpu-west' }));
      const told = ['wl:u1:Failed', 'wl:u1:stuck-Pending', 'burst:wl:u1:Failed', 'wl:gpu-west/u9:Failed', 'cleanup:alice:2026-11-30', 'mw:w1:1d'];
      for (const key of told) await store.recordSent({ key, recipient: 'U1', sentAt: at(0).toISOString() });

      expect(await store.adoptUnnamedCluster('gpu-east')).toBe(1);
      expect(await store.getWorkload('u1')).toBeUndefined();
      const adopted = await store.getWorkload('gpu-east/u1');
      expect(adopted).toMatchObject({ uid: 'gpu-east/u1', cluster: 'gpu-east', state: 'Failed' });
      expect(JSON.parse(adopted!.snapshot)).toEqual({ uid: 'u1', name: 'job-u1', cluster: 'gpu-east' });
      expect(await store.getWorkload('gpu-east/u2')).toMatchObject({ state: 'Completed' });
      expect(await store.getWorkload('u2')).toBeUndefined();
      expect([...(await store.ledgerKeys(''))].sort()).toEqual(
        ['burst:wl:gpu-east/u1:Failed', 'cleanup:alice:2026-11-30', 'mw:w1:1d', 'wl:gpu-east/u1:Failed', 'wl:gpu-east/u1:stuck-Pending', 'wl:gpu-west/u9:Failed'],
      );
      expect(await store.wasSent('wl:gpu-east/u1:Failed')).toBe(true);
      // Every later start finds nothing unnamed.
      expect(await store.adoptUnnamedCluster('gpu-east')).toBe(0);
      expect(await store.getWorkload('gpu-west/u9')).toMatchObject({ cluster: 'gpu-west' });
    });

    it('gives a single-cluster store\'s queue and open bursts to the named cluster with it: each owed alert sent once, under its named key', async () => {
      for (const uid of ['u1', 'u2', 'u3', 'u4']) await store.putWorkload(workload(uid, { state: 'Failed' }));
      // Queued on its own, the anchor of an open burst, and folded into that burst's rewrite.
      await store.enqueue(owner('wl:u1:Failed'), at(0));
      await store.admitToBurst('user:U1', owner('wl:u2:Failed'), {}, at(0), decide(at(0)));
      await store.admitToBurst('user:U1', owner('wl:u3:Failed'), { n: 3 }, at(1), decide(at(1)));
      // Owed under both names (a replica that moved first queued the named one): the named one stays.
      await store.enqueue(owner('wl:gpu-east/u4:Failed'), at(1));
      await store.enqueue(owner('wl:u4:Failed'), at(2));
      const namedFirst = (await store.queuedItem('wl:gpu-east/u4:Failed'))!.id;

      expect(await store.adoptUnnamedCluster('gpu-east')).toBe(4);
      const queue = await store.dueOutbox(at(10));
      expect(queue.map((i) => i.key).sort()).toEqual(['burst:wl:gpu-east/u2:Failed', 'wl:gpu-east/u1:Failed', 'wl:gpu-east/u2:Failed', 'wl:gpu-east/u4:Failed']);
      expect(queue.find((i) => i.kind === 'burst')?.target).toEqual({ type: 'burst', anchorKey: 'wl:gpu-east/u2:Failed' });
      expect((await store.queuedItem('wl:gpu-east/u4:Failed'))?.id).toBe(namedFirst);
      expect(await store.burst('wl:u2:Failed')).toBeUndefined();
      expect(await store.burst('wl:gpu-east/u2:Failed')).toMatchObject({ destination: 'user:U1' });
      expect(await store.burstEntries('wl:gpu-east/u2:Failed')).toEqual([expect.objectContaining({ key: 'wl:gpu-east/u3:Failed', entry: { n: 3 }, told: false })]);
      for (const key of ['wl:u1:Failed', 'wl:u2:Failed', 'wl:u3:Failed', 'wl:u4:Failed']) expect(await store.isQueued(key)).toBe(false);

      // The bot now owes each under its named key: nothing is queued or folded a second time.
      expect(await store.enqueue(owner('wl:gpu-east/u1:Failed'), at(11))).toBe(false);
      expect(await store.admitToBurst('user:U1', owner('wl:gpu-east/u3:Failed'), {}, at(11), decide(at(11)))).toBeUndefined();
      const u1 = queue.find((i) => i.key === 'wl:gpu-east/u1:Failed')!;
      await store.completeOutbox(u1.id, { key: u1.key, recipient: 'U1', sentAt: at(12).toISOString() });
      expect(await store.enqueue(owner('wl:gpu-east/u1:Failed'), at(13))).toBe(false);
      expect(await store.outboxDepth()).toBe(3);
    });

    it('reads and writes a slice of workloads at once: all or none, a repeated uid ending as its last entry', async () => {
      await store.putWorkload(workload('a'));
      await store.putWorkloads([
        workload('a', { state: 'Failed', stateSince: at(1).toISOString() }),
        workload('b', { owner: undefined }),
        workload('c', { deletedAt: at(2).toISOString() }),
        workload('b', { state: 'Succeeded', owner: undefined }),
      ]);
      await store.putWorkloads([]);
      // A slice keeps the cluster of each row as putWorkload does.
      const inEast = workload('gpu-east/a', { cluster: 'gpu-east' });
      await store.putWorkloads([inEast]);
      expect((await store.getWorkloads(['gpu-east/a'])).get('gpu-east/a')).toEqual(inEast);
      const read = await store.getWorkloads(['a', 'b', 'c', 'missing']);
      expect([...read.keys()].sort()).toEqual(['a', 'b', 'c']);
      expect(read.get('a')).toEqual(workload('a', { state: 'Failed', stateSince: at(1).toISOString() }));
      expect(read.get('b')).toEqual(workload('b', { state: 'Succeeded', owner: undefined }));
      expect(read.get('c')).toEqual(workload('c', { deletedAt: at(2).toISOString() }));
      expect(await store.getWorkloads([])).toEqual(new Map());

      // One row the table refuses (no namespace) and the slice leaves nothing behind.
      const refused = { ...workload('e'), namespace: null } as unknown as StoredWorkload;
      await expect(store.putWorkloads([workload('d'), refused])).rejects.toHaveProperty('code');
      expect(await store.getWorkloads(['d', 'e'])).toEqual(new Map());
    });

    it('keeps mutes until they end, settings per person, and the Slack user cache including “not found”', async () => {
      await store.mute('U1', 'project:vision', at(60));
      await store.mute('U1', 'workload:runai-vision/a', undefined);
      await store.mute('U2', 'project:nlp', at(10));
      expect(await store.activeMutes('U1', at(0))).toEqual([{ scope: 'project:vision', until: at(60).toISOString() }, { scope: 'workload:runai-vision/a' }]);
      expect(await store.activeMutes('U1', at(60))).toEqual([{ scope: 'workload:runai-vision/a' }]);
      await store.mute('U1', 'project:vision', at(120));
      expect(await store.activeMutes('U1', at(60))).toHaveLength(2);
      expect(await store.unmute('U1', 'project:vision')).toBe(true);
      expect(await store.unmute('U1', 'project:vision')).toBe(false);
      expect(await store.pruneExpiredMutes(at(10))).toBe(1);
      expect(await store.activeMutes('U2', at(0))).toEqual([]);

      expect(await store.getSettings('U1')).toBeUndefined();
      await store.putSettings('U1', { completed: true });
      await store.putSettings('U1', { completed: false, tips: false, quietHours: { from: '22:00', to: '07:00', timezone: 'UTC' } });
      expect(await store.getSettings('U1')).toEqual({ completed: false, tips: false, quietHours: { from: '22:00', to: '07:00', timezone: 'UTC' } });

      await store.cacheSlackUser('alice@example.org', 'U1', at(0));
      await store.cacheSlackUser('ghost@example.org', null, at(1));
      expect(await store.cachedSlackUser('alice@example.org')).toEqual({ userId: 'U1', lookedUpAt: at(0).toISOString() });
      expect(await store.cachedSlackUser('ghost@example.org')).toEqual({ userId: null, lookedUpAt: at(1).toISOString() });
      expect(await store.cachedSlackUser('nobody@example.org')).toBeUndefined();
    });

    it('keeps the last good feed per URL and the announced window versions', async () => {
      expect(await store.getFeedCache('https://x/feed.ics')).toBeUndefined();
      await store.putFeedCache('https://x/feed.ics', { body: 'BEGIN:VCALENDAR', etag: '"1"', fetchedAt: at(0).toISOString() });
      await store.putFeedCache('https://x/feed.ics', { body: 'BEGIN:VCALENDAR 2', lastModified: 'Mon', fetchedAt: at(1).toISOString() });
      expect(await store.getFeedCache('https://x/feed.ics')).toEqual({ body: 'BEGIN:VCALENDAR 2', lastModified: 'Mon', fetchedAt: at(1).toISOString() });
      await store.rememberWindow('w1', { sequence: 1 });
      await store.rememberWindow('w1', { sequence: 2 });
      await store.rememberWindow('w2', { sequence: 0 });
      expect(await store.knownWindows()).toEqual(new Map<string, unknown>([['w1', { sequence: 2 }], ['w2', { sequence: 0 }]]));
    });

    it('prunes old workload keys (not of live workloads) and keeps maintenance and archive keys for ever', async () => {
      const old = at(0).toISOString();
      for (const key of ['wl:gone:Failed', 'wl:live:Failed', 'burst:wl:gone:Failed', 'ops-burst:x', 'cleanup:alice:2026-01-01', 'mw:w1:1d', 'archive:recovered:0']) {
        await store.recordSent({ key, recipient: 'U1', sentAt: old });
      }
      await store.recordSent({ key: 'wl:new:Failed', recipient: 'U1', sentAt: at(100).toISOString() });
      expect(await store.pruneLedger(at(50), new Set(['live']))).toBe(4);
      const left = [...(await store.ledgerKeys(''))].sort();
      expect(left).toEqual(['archive:recovered:0', 'mw:w1:1d', 'wl:live:Failed', 'wl:new:Failed']);
    });

    it('answers the health probe with a real write, and says why when writes fail', async () => {
      expect(await store.probeWrite(T0)).toBeUndefined();
      // Both stores write the probe row by an upsert, which fires insert triggers.
      const restore = await backend.failWrites(store, 'store_probe', 'INSERT');
      expect(await store.probeWrite(at(1))).toEqual(expect.any(String));
      await restore();
      expect(await store.probeWrite(at(2))).toBeUndefined();
    });

    it('names where it lives without a password', () => {
      expect(store.location).not.toMatch(/secret/);
      expect(store.location.length).toBeGreaterThan(0);
    });
  });
}

contract('SQLite', sqliteBackend);
contract('PostgreSQL', postgresBackend, await describeWithPostgres('the PostgreSQL store contract tests'));
