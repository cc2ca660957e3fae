/**
 * MaintenanceService with in-memory deps, a real FeedFetcher on a feed file the test rewrites,
 * and an injected clock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MaintenanceConfig } from '../../src/maintenance/config.js';
import { FeedFetcher, MemoryFeedCache } from '../../src/maintenance/feed.js';
import { MemoryMaintenanceLedger } from '../../src/maintenance/ledger.js';
import type { SlackMessage } from '../../src/messages/maintenance.js';
import { MaintenanceService } from '../../src/maintenance/service.js';
import type { Workload } from '../../src/model.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

function feedWith(event: { start: string; end: string; sequence?: number; status?: string }): string {
  return [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:storage-2026@cluster.example',
    'DTSTAMP:20260101T000000Z', `SEQUENCE:${event.sequence ?? 0}`, `STATUS:${event.status ?? 'CONFIRMED'}`,
    'SUMMARY:Storage upgrade', 'DESCRIPTION:All GPU nodes go down.', `DTSTART:${event.start}`, `DTEND:${event.end}`,
    'END:VEVENT', 'END:VCALENDAR', '',
  ].join('\r\n');
}

const ORIGINAL = { start: '20260707T070000Z', end: '20260707T150000Z' };
const START = new Date('2026-07-07T07:00:00Z');

function workload(name: string, owner: string | undefined, state: Workload['state'] = 'Running'): Workload {
  return { uid: name, kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name, namespace: 'runai-p', project: 'p', owner, state, pods: [] };
}

class Harness {
  readonly dir = mkdtempSync(join(tmpdir(), 'maintenance-'));
  readonly path = join(this.dir, 'maintenance.ics');
  readonly cache = new MemoryFeedCache();
  readonly ledger = new MemoryMaintenanceLedger();
  readonly posts: Array<{ channel: string; msg: SlackMessage }> = [];
  readonly dms: Array<{ owner: string; msg: SlackMessage }> = [];
  readonly logs: Array<{ level: string; msg?: string }> = [];
  failPosts = 0;
  /** Workloads whose log was read for a checkpoint line, in order. */
  readonly checkpointReads: string[] = [];
  clock = new Date(START.getTime() - 20 * DAY);
  workloads: Workload[] = [];
  readonly config: MaintenanceConfig = {
    feed: this.path, channel: 'C-MAINT', opsChannel: 'C-OPS', refreshCron: '*/15 * * * *',
    remindBefore: [14 * DAY, 7 * DAY, DAY, 2 * HOUR], notifyOwnersBefore: DAY, timezone: 'Europe/Berlin',
  };
  service = this.newService();

  writeFeed(text: string) {
    writeFileSync(this.path, text);
  }

  /** A new process: fresh service and fetcher, same persisted cache and ledger. */
  newService(): MaintenanceService {
    const now = () => this.clock;
    const log = (level: string) => (_obj: object, msg?: string) => void this.logs.push({ level, msg });
    return new MaintenanceService({
      fetcher: new FeedFetcher({ feed: this.path, cache: this.cache, now }),
      ledger: this.ledger,
      post: async (channel, msg) => {
        if (this.failPosts > 0) {
          this.failPosts--;
          throw new Error('slack_unavailable');
        }
        this.posts.push({ channel, msg });
      },
      dm: async (owner, msg) => void this.dms.push({ owner, msg }),
      runningWorkloads: () => this.workloads,
      checkpointsOf: async (workloads) => {
        this.checkpointReads.push(...workloads.map((w) => w.name));
        await new Promise((resolve) => setImmediate(resolve));
        return workloads.map(() => ({ problem: 'no checkpoint line' }));
      },
      config: this.config,
      now,
      log: { info: log('info'), warn: log('warn'), error: log('error') },
    });
  }

  /** Runs the service every `stepMs` until `until`; returns the headlines posted meanwhile. */
  async runUntil(until: Date, stepMs = HOUR): Promise<string[]> {
    const before = this.posts.length;
    while (this.clock < until) {
      this.clock = new Date(this.clock.getTime() + stepMs);
      await this.service.tick();
    }
    return this.posts.slice(before).map((p) => `${p.channel} ${p.msg.text.replace(/ \(.*$/, '')}`);
  }

  cleanup() {
    rmSync(this.dir, { recursive: true });
  }
}

describe('MaintenanceService', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    h.writeFeed(feedWith(ORIGINAL));
  });
  afterEach(() => h.cleanup());

  it('posts the reminders at their offsets, at the start and at the end, each once', async () => {
    expect(await h.runUntil(new Date(START.getTime() + DAY))).toEqual([
      'C-MAINT 🔧 Planned maintenance in 14 days: Storage upgrade',
      'C-MAINT 🔧 Planned maintenance in 7 days: Storage upgrade',
      'C-MAINT 🔧 Planned maintenance in 24 hours: Storage upgrade',
      'C-MAINT 🔧 Planned maintenance in 2 hours: Storage upgrade',
      'C-MAINT 🚧 Maintenance has started: Storage upgrade',
      'C-MAINT 🟢 Maintenance is over, the cluster is back: Storage upgrade',
    ]);
  });

  it('posts nothing twice across a restart', async () => {
    await h.runUntil(new Date(START.getTime() - 6 * DAY));
    h.service = h.newService();
    const afterRestart = await h.runUntil(new Date(START.getTime() - 3 * DAY));
    expect(afterRestart).toEqual([]);
    expect(h.posts).toHaveLength(2);
  });

  it('announces a rescheduled and then a cancelled window', async () => {
    await h.runUntil(new Date(START.getTime() - 6 * DAY));
    h.writeFeed(feedWith({ start: '20260709T070000Z', end: '20260709T110000Z', sequence: 1 }));
    expect(await h.runUntil(new Date(START.getTime() - 5 * DAY))).toEqual(['C-MAINT 🔁 Maintenance changed: Storage upgrade']);
    expect(JSON.stringify(h.posts.at(-1)!.msg.blocks)).toContain('*Previously:* <!date^1783407600^');
    h.writeFeed(feedWith({ ...ORIGINAL, sequence: 2, status: 'CANCELLED' }));
    expect(await h.runUntil(new Date(START.getTime() + 5 * DAY))).toEqual(['C-MAINT ✅ Maintenance cancelled: Storage upgrade']);
  });

  it('keeps reminding from the last good copy while the feed is broken, and tells operators once', async () => {
    await h.runUntil(new Date(START.getTime() - 10 * DAY));
    h.writeFeed(feedWith(ORIGINAL).slice(0, 120)); // truncated
    const whileBroken = await h.runUntil(new Date(START.getTime() - 5 * DAY));
    expect(whileBroken).toEqual([
      'C-OPS The maintenance calendar feed is failing: the feed is not usable: the feed is truncated: BEGIN:VCALENDAR has no matching END:VCALENDAR',
      'C-MAINT 🔧 Planned maintenance in 7 days: Storage upgrade',
    ]);
    expect(h.logs.filter((l) => l.msg === 'maintenance feed refresh failed; keeping the last good copy').length).toBeGreaterThan(100);
    h.writeFeed(feedWith(ORIGINAL));
    expect(await h.runUntil(new Date(START.getTime() - 4 * DAY))).toEqual(['C-OPS The maintenance calendar feed works again.']);
  });

  it('sends one DM per owner of running workloads, listing all of them', async () => {
    h.workloads = [
      ...Array.from({ length: 10 }, (_, i) => workload(`alice-${i}`, 'alice')),
      workload('bob-1', 'bob'), workload('bob-2', 'bob'),
      workload('carol-pending', 'carol', 'Pending'), workload('nobody', undefined),
    ];
    await h.runUntil(new Date(START.getTime() - 20 * HOUR));
    expect(h.dms.map((d) => d.owner)).toEqual(['alice', 'bob']);
    expect(JSON.stringify(h.dms[0].msg.blocks)).toContain('10 workloads of yours are running');
    expect(JSON.stringify(h.dms[1].msg.blocks)).toMatch(/`bob-1`.*`bob-2`/);
    await h.runUntil(new Date(START.getTime()));
    expect(h.dms).toHaveLength(2);
  });

  it('runs two rounds that fall together one after the other: each owner is DM\'d once and their logs read once', async () => {
    h.workloads = [workload('alice-1', 'alice'), workload('bob-1', 'bob')];
    await h.runUntil(new Date(START.getTime() - 25 * HOUR));
    expect(h.dms).toEqual([]);
    h.clock = new Date(START.getTime() - 23 * HOUR);
    // The minute's cron round and the round a tick makes, at once.
    const [first, second] = await Promise.all([h.service.remind(), h.service.remind()]);
    expect(first.map((r) => r.kind)).toContain('owners');
    expect(second.map((r) => r.kind)).not.toContain('owners');
    expect(h.dms.map((d) => d.owner)).toEqual(['alice', 'bob']);
    expect(h.checkpointReads).toEqual(['alice-1', 'bob-1']);
  });

  it('retries a reminder whose post failed, and posts it only once', async () => {
    await h.runUntil(new Date(START.getTime() - 8 * DAY));
    h.failPosts = 2;
    const posted = await h.runUntil(new Date(START.getTime() - 7 * DAY + 3 * HOUR));
    expect(posted).toEqual(['C-MAINT 🔧 Planned maintenance in 7 days: Storage upgrade']);
    expect(h.logs.filter((l) => l.msg === 'maintenance reminder not sent; will retry')).toHaveLength(2);
  });

  it('lists the upcoming windows that are not cancelled', async () => {
    await h.service.tick();
    expect(h.service.upcoming(h.clock, 5).map((w) => w.summary)).toEqual(['Storage upgrade']);
    h.writeFeed(feedWith({ ...ORIGINAL, status: 'CANCELLED' }));
    await h.service.tick();
    expect(h.service.upcoming(h.clock, 5)).toEqual([]);
  });
});
