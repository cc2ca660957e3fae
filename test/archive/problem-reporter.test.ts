import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import type { ArchiveResult } from '../../src/archive/archive.js';
import { ArchiveProblemReporter } from '../../src/archive/problem-reporter.js';
import { DEFAULT_RETENTION_MS, Outbox } from '../../src/notify/outbox.js';
import { DeliveryPlanner } from '../../src/notify/planner.js';
import { RefusedChannels } from '../../src/notify/refused-channels.js';

import { OwnerDirectory } from '../../src/notify/owners.js';
import { SlackGateway } from '../../src/slack/client.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { messageViolation, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';

const OPS = 'C0OPS';
const full: ArchiveResult = {
  path: '/archive/vision/resnet/u1',
  files: [],
  problems: ['writing /archive/vision/resnet/u1/.resnet-0-0.resnet.log.partial: ENOSPC (the archive volume is full)'],
  storage: { kind: 'disk-full', code: 'ENOSPC', message: 'writing /archive/vision/resnet/u1/.resnet-0-0.resnet.log.partial: ENOSPC (the archive volume is full)' },
};
const readOnly: ArchiveResult = { ...full, storage: { kind: 'unwritable', code: 'EROFS', message: 'creating /archive/vision/resnet/u1: EROFS' } };
const saved: ArchiveResult = { path: '/archive/vision/vit/u2', files: ['/archive/vision/vit/u2/vit-0-0.vit.log'], problems: [] };

describe('reporting archive problems to the operators', () => {
  let slack: SlackSimulator;
  let store: SqliteStore;
  let outbox: Outbox;
  let path: string;
  const captured = captureLog();
  const now = new Date('2026-11-29T10:00:00Z');

  beforeEach(async () => {
    slack = await startFakeSlack();
    slack.addChannel(OPS, 'runai-ops');
    slack.inviteBot(OPS);
    path = join(tempDir('archive-report-'), 'bot.db');
    store = new SqliteStore(path);
    const gateway = new SlackGateway(new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }));
    outbox = new Outbox({
      store,
      slack: gateway,
      planner: new DeliveryPlanner({ owners: new OwnerDirectory({ map: {} }, gateway, store, () => now), store, projectChannel: () => undefined, now: () => now }),
      refused: new RefusedChannels({ store, log: captured.log, now: () => now, retentionMs: DEFAULT_RETENTION_MS, queued: () => undefined }),
      log: captured.log,
      now: () => now,
    });
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
    await slack.close();
  });

  const reporter = (s = store) => new ArchiveProblemReporter({ store: s, opsChannel: OPS, dir: '/archive', log: captured.log, queued: () => outbox.kick() });

  it('posts a full disk once to the operators channel, however many archives fail', async () => {
    const r = reporter();
    for (let i = 0; i < 5; i++) await r.report(full, `runai-vision/job-${i}`, now);
    await outbox.flush();
    const posts = slack.messagesTo(OPS);
    expect(posts).toHaveLength(1);
    expect(messageViolation(posts[0].body)).toBeUndefined();
    expect(String(posts[0].body.text)).toBe('Log archive is full: logs of runai-vision/job-0 were not saved to /archive (ENOSPC).');
    expect(JSON.stringify(posts[0].body.blocks)).toContain('Free space on the archive volume');
  });

  it('reports each kind of problem once', async () => {
    const r = reporter();
    await r.report(full, 'runai-vision/a', now);
    await r.report(readOnly, 'runai-vision/b', now);
    await r.report(readOnly, 'runai-vision/c', now);
    await outbox.flush();
    expect(slack.messagesTo(OPS).map((m) => String(m.body.text).split(':')[0])).toEqual(['Log archive is full', 'Log archive cannot be written']);
  });

  it('does not report again after a restart while the problem lasts', async () => {
    await reporter().report(full, 'runai-vision/a', now);
    await outbox.flush();
    await store.close();
    store = new SqliteStore(path);
    await reporter(store).report(full, 'runai-vision/b', now);
    expect(await store.outboxDepth()).toBe(0);
  });

  it('says when archiving works again, and reports the problem anew when it breaks after that', async () => {
    const r = reporter();
    await r.report(full, 'runai-vision/a', now);
    await outbox.flush();
    await r.report(saved, 'runai-vision/vit', now);
    await r.report(saved, 'runai-vision/vit2', now);
    await outbox.flush();
    await r.report(full, 'runai-vision/c', now);
    await r.report(full, 'runai-vision/d', now);
    await outbox.flush();
    expect(slack.messagesTo(OPS).map((m) => String(m.body.text))).toEqual([
      'Log archive is full: logs of runai-vision/a were not saved to /archive (ENOSPC).',
      'Log archive works again: logs were saved to /archive/vision/vit/u2.',
      'Log archive is full: logs of runai-vision/c were not saved to /archive (ENOSPC).',
    ]);
  });

  it('says nothing about successful archives when nothing was broken', async () => {
    await reporter().report(saved, 'runai-vision/vit', now);
    await outbox.flush();
    expect(slack.messagesTo(OPS)).toHaveLength(0);
  });
});
