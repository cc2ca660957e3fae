/**
 * One start, two replicas: the log-saving tip is decided by the replica that decides (the leader),
 * never also by the other one. Two real LogTips on one real SQLite store, the second seeing the
 * start after the first has queued its tip: the order a loaded two-replica run gives sometimes
 * (store/ha-bot.test.ts), made certain here.
 */
import { join } from 'node:path';
import { normalizeWorkload } from '../../src/cluster/normalize.js';
import { LogTips } from '../../src/notify/log-tips.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { allOutbox } from '../helpers/store.js';
import { workloadCr } from '../helpers/workloads.js';

/** tee without pipefail into the container's own disk: two kinds of finding, masked-exit first. */
const TEED = 'bash -c "python -u train.py 2>&1 | tee -a /data/logs/train.log"';

describe('log-saving tips with two replicas', () => {
  let store: SqliteStore;
  beforeEach(() => {
    store = new SqliteStore(join(tempDir(), 'bot.db'));
  });
  afterEach(async () => {
    await store.close();
  });

  const replica = (decides: () => boolean) =>
    new LogTips({ store, deliverable: async () => true, queued: () => undefined, decides, log: captureLog('warn').log, now: () => new Date('2026-12-02T07:00:00Z') });

  const raw = { ...workloadCr({ name: 'resnet', project: 'vision', owner: 'alice', command: TEED, arguments: '' }) };
  (raw.metadata as Record<string, unknown>).uid = 'uid-resnet';
  const resnet = normalizeWorkload(raw);
  const queuedTips = async () => (await allOutbox(store)).map((i) => i.key.split(':')[1]);

  it('queues one tip for a start the leader decided, though the follower sees the start after it was queued', async () => {
    const leader = replica(() => true);
    let following = true;
    const follower = replica(() => !following);
    leader.started(resnet, raw);
    await leader.idle();
    expect(await queuedTips()).toEqual(['masked-exit']);
    // Deciding too, the follower would read masked-exit as told lately and queue the next kind.
    follower.started(resnet, raw);
    await follower.idle();
    expect(await queuedTips()).toEqual(['masked-exit']);
    // Once it leads, it decides the starts it sees: the next start is told the next kind.
    following = false;
    follower.started(resnet, raw);
    await follower.idle();
    expect(await queuedTips()).toEqual(['masked-exit', 'log-not-persistent']);
  });
});
