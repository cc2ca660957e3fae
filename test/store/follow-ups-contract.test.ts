/**
 * The follow-up part of the store contract, against SQLite (a real file) and PostgreSQL (the
 * real server, a schema of its own): where each alert went survives reopening the store (a
 * restart, or another replica on the same database), threads are kept per chain and pruned past
 * the window, and a root's edit is coalesced — one queued item per root, the latest winning.
 */
import { join } from 'node:path';
import { followUpChain, followUpKey, rootEditKey } from '../../src/keys.js';
import type { NewOutboxItem, Store, StoredFollowUpThread } from '../../src/store/port.js';
import { PostgresStore } from '../../src/store/postgres/index.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/bot.js';
import { createTestSchema, describeWithPostgres } from '../helpers/postgres.js';
import { allOutbox } from '../helpers/store.js';

interface Backend {
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

function sqliteBackend(): Backend {
  const path = join(tempDir('fu-contract-'), 'bot.db');
  return { open: async () => new SqliteStore(path), cleanup: async () => undefined };
}

async function postgresBackend(): Promise<Backend> {
  const schema = await createTestSchema('futest');
  return { open: () => PostgresStore.open({ url: schema.url, schema: schema.schema }), cleanup: () => schema.drop() };
}

const T0 = new Date('2026-11-30T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const thread = (name: string, extra: Partial<StoredFollowUpThread> = {}): StoredFollowUpThread => ({
  chain: followUpChain({ cluster: 'a', namespace: 'runai-vision', name }),
  rootKey: `wl:a/uid-${name}:Failed`,
  current: `a/uid-${name}`,
  lastState: 'Failed',
  alerted: 'Failed',
  endedAt: T0.toISOString(),
  events: [],
  rootPayload: { text: 'Failed: job', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'job failed' } }] },
  submission: { argv: ['python', 'train.py'], env: ['HF_TOKEN'] },
  name,
  project: 'vision',
  owner: 'alice',
  muteScope: `workload:runai-vision/${name}`,
  updatedAt: T0.toISOString(),
  ...extra,
});

const edit = (root: string, text: string): NewOutboxItem => ({ key: rootEditKey(root), kind: 'root-edit', target: { type: 'update', anchorKey: root }, payload: { text } });

function contract(name: string, make: () => Backend | Promise<Backend>, describeFn: typeof describe = describe): void {
  describeFn(`follow-up store contract: ${name}`, () => {
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

    it('keeps the channel and ts of an accepted alert with its ledger row, across reopening the store', async () => {
      await store.enqueue({ key: 'wl:a/u1:Failed', kind: 'failed', target: { type: 'owner', owner: 'alice', project: 'vision' }, payload: { text: 'x' } }, T0);
      const [item] = await store.dueOutbox(T0);
      await store.completeOutbox(item.id, { key: item.key, recipient: 'U1', channel: 'D1', ts: '1764496800.000100', sentAt: T0.toISOString() });
      await store.close();
      store = await backend.open();
      expect(await store.ledgerEntry('wl:a/u1:Failed')).toEqual({ key: 'wl:a/u1:Failed', recipient: 'U1', channel: 'D1', ts: '1764496800.000100', sentAt: T0.toISOString() });
    });

    it('keeps one thread per chain, read back whole in one call for many chains, across reopening', async () => {
      await store.putFollowUpThread(thread('job-1'));
      await store.putFollowUpThread(thread('job-2', { events: ['resubmitted'] }));
      await store.putFollowUpThread(thread('job-1', { events: ['running'], lastState: 'Running' }));
      await store.close();
      store = await backend.open();
      const found = await store.followUpThreads([thread('job-1').chain, thread('job-2').chain, thread('absent').chain, thread('job-1').chain]);
      expect([...found.keys()].sort()).toEqual([thread('job-1').chain, thread('job-2').chain]);
      expect(found.get(thread('job-1').chain)).toEqual(thread('job-1', { events: ['running'], lastState: 'Running' }));
      expect(found.get(thread('job-2').chain)?.submission).toEqual({ argv: ['python', 'train.py'], env: ['HF_TOKEN'] });
      expect((await store.followUpThreads([])).size).toBe(0);
    });

    it('opens a thread unless the chain\'s thread hangs under the same alert already; a new alert\'s replaces it', async () => {
      expect(await store.openFollowUpThread(thread('job-1'))).toBe(true);
      await store.putFollowUpThread(thread('job-1', { events: ['running'], folded: false }));
      // A second replica (or a restart) opening the same alert's thread changes nothing.
      expect(await store.openFollowUpThread(thread('job-1', { folded: true }))).toBe(false);
      expect((await store.followUpThreads([thread('job-1').chain])).get(thread('job-1').chain)).toEqual(thread('job-1', { events: ['running'], folded: false }));
      // A later alert of the chain (another workload of that name, out of the window) opens anew.
      expect(await store.openFollowUpThread(thread('job-1', { rootKey: 'wl:a/uid-other:Stopped', alerted: 'Stopped' }))).toBe(true);
      expect((await store.followUpThreads([thread('job-1').chain])).get(thread('job-1').chain)?.rootKey).toBe('wl:a/uid-other:Stopped');
    });

    it('prunes threads not updated since the window began, and only those', async () => {
      await store.putFollowUpThread(thread('old', { updatedAt: at(-8 * 86_400).toISOString() }));
      await store.putFollowUpThread(thread('new', { updatedAt: at(-86_400).toISOString() }));
      expect(await store.pruneFollowUpThreads(at(-7 * 86_400))).toBe(1);
      expect([...(await store.followUpThreads([thread('old').chain, thread('new').chain])).keys()]).toEqual([thread('new').chain]);
    });

    it('coalesces a root\'s edits: the queued one is replaced by the latest, and after one was sent the next is queued again', async () => {
      const root = 'wl:a/u1:Failed';
      expect(await store.queueCoalescedEdit(edit(root, 'Failed → resubmitted'), T0)).toBe('queued');
      expect(await store.queueCoalescedEdit(edit(root, 'Failed → resubmitted, running'), at(1))).toBe('replaced');
      let queued = (await allOutbox(store)).filter((i) => i.key === rootEditKey(root));
      expect(queued.map((i) => i.payload.text)).toEqual(['Failed → resubmitted, running']);
      await store.completeOutbox(queued[0].id, { key: queued[0].key, recipient: 'U1', channel: 'D1', ts: '1.2', sentAt: at(2).toISOString() });
      expect(await store.wasSent(rootEditKey(root))).toBe(true);
      // Plain enqueue refuses a key already told; a coalesced edit is queued again.
      expect(await store.enqueue(edit(root, 'ignored'), at(3))).toBe(false);
      expect(await store.queueCoalescedEdit(edit(root, 'Failed → resubmitted, completed'), at(3))).toBe('queued');
      queued = (await allOutbox(store)).filter((i) => i.key === rootEditKey(root));
      expect(queued.map((i) => i.payload.text)).toEqual(['Failed → resubmitted, completed']);
      expect(queued[0].target).toEqual({ type: 'update', anchorKey: root });
    });

    it('keeps the latest edit when it replaces one being sent: completing the one in flight does not take the new one with it', async () => {
      const root = 'wl:a/u3:Failed';
      await store.queueCoalescedEdit(edit(root, 'Failed → deleted'), T0);
      const [inFlight] = (await allOutbox(store)).filter((i) => i.key === rootEditKey(root));
      await store.queueCoalescedEdit(edit(root, 'Failed → resubmitted, running'), at(1));
      await store.completeOutbox(inFlight.id, { key: inFlight.key, recipient: 'U1', channel: 'D1', ts: '1.2', sentAt: at(1).toISOString() });
      const left = (await allOutbox(store)).filter((i) => i.key === rootEditKey(root));
      expect(left.map((i) => i.payload.text)).toEqual(['Failed → resubmitted, running']);
    });

    it('keeps a replaced edit\'s wait (a rate limit is not hurried by a newer edit)', async () => {
      const root = 'wl:a/u4:Failed';
      await store.queueCoalescedEdit(edit(root, 'one'), T0);
      const [first] = await allOutbox(store);
      await store.retryOutboxLater(first.id, at(30), 'rate limited', 'rate-limited');
      await store.queueCoalescedEdit(edit(root, 'two'), at(1));
      expect(await store.dueOutbox(at(29))).toEqual([]);
      expect((await store.dueOutbox(at(30))).map((i) => [i.payload.text, i.attempts])).toEqual([['two', 1]]);
    });

    it('coalesces edits queued at once by two writers (two replicas) into one item', async () => {
      const root = 'wl:a/u2:Stopped';
      const other = await backend.open();
      try {
        await Promise.all([store.queueCoalescedEdit(edit(root, 'one'), T0), other.queueCoalescedEdit(edit(root, 'two'), T0), store.queueCoalescedEdit(edit(root, 'three'), T0)]);
      } finally {
        await other.close();
      }
      expect((await allOutbox(store)).filter((i) => i.key === rootEditKey(root))).toHaveLength(1);
    });

    it('gives the unnamed cluster\'s threads to the named cluster that adopts the store: chain, root, followed workload, told and queued follow-ups', async () => {
      await store.putWorkload({ uid: 'u2', namespace: 'runai-vision', name: 'resnet', project: 'vision', owner: 'alice', kind: 'TrainingWorkload', state: 'Running', stateSince: T0.toISOString(), snapshot: '{}' });
      const unnamed = thread('resnet', { chain: followUpChain({ namespace: 'runai-vision', name: 'resnet' }), rootKey: 'wl:u1:Failed', current: 'u2', muteScope: 'runai-vision/resnet', events: ['deleted', 'resubmitted'] });
      await store.putFollowUpThread(unnamed);
      await store.putFollowUpThread(thread('bert'));
      await store.recordSent({ key: 'wl:u1:Failed', recipient: 'U1', channel: 'D1', ts: '1.1', sentAt: T0.toISOString() });
      await store.recordSent({ key: followUpKey('u1', 1, 'deleted'), recipient: 'U1', channel: 'D1', ts: '1.2', sentAt: T0.toISOString() });
      const reply = { type: 'thread' as const, rootKey: 'wl:u1:Failed', project: 'vision', workload: 'runai-vision/resnet' };
      await store.enqueue({ key: followUpKey('u1', 2, 'resubmitted'), kind: 'follow-up', target: reply, payload: { text: 'resubmitted' } }, at(1));
      await store.queueCoalescedEdit({ key: rootEditKey('wl:u1:Failed'), kind: 'root-edit', target: { ...reply, edit: true }, payload: { text: 'resnet: Failed → resubmitted' } }, at(1));

      await store.adoptUnnamedCluster('gpu-east');
      const chain = followUpChain({ cluster: 'gpu-east', namespace: 'runai-vision', name: 'resnet' });
      const threads = await store.followUpThreads([unnamed.chain, chain, thread('bert').chain]);
      expect([...threads.keys()].sort()).toEqual([thread('bert').chain, chain]);
      expect(threads.get(chain)).toEqual({ ...unnamed, chain, rootKey: 'wl:gpu-east/u1:Failed', current: 'gpu-east/u2', muteScope: 'gpu-east/runai-vision/resnet' });
      expect(threads.get(thread('bert').chain)).toEqual(thread('bert'));
      expect([...(await store.ledgerKeys(''))].sort()).toEqual(['fu:gpu-east/u1:1-deleted', 'wl:gpu-east/u1:Failed']);
      const rooted = { ...reply, rootKey: 'wl:gpu-east/u1:Failed' };
      expect((await allOutbox(store)).map((i) => [i.key, i.target])).toEqual([
        ['fu:gpu-east/u1:2-resubmitted', rooted],
        ['fu-root:wl:gpu-east/u1:Failed', { ...rooted, edit: true }],
      ]);
    });
  });
}

contract('SQLite', sqliteBackend);
contract('PostgreSQL', postgresBackend, await describeWithPostgres('the PostgreSQL follow-up store contract tests'));
