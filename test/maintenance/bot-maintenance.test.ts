/**
 * The maintenance calendar through the whole bot: real Bolt on the simulated Slack, the real
 * SQLite ledger, a feed file the test rewrites, and a clock the test moves.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from '../fakes/slack.js';
import { tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = new Date('2027-01-12T07:00:00Z');

function feed(event: { start: string; end: string; sequence?: number; status?: string }): string {
  return [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:yearend-2027@cluster.example',
    'DTSTAMP:20261201T000000Z', `SEQUENCE:${event.sequence ?? 0}`, `STATUS:${event.status ?? 'CONFIRMED'}`,
    'SUMMARY:Year-end maintenance', 'DESCRIPTION:All GPU nodes and /data are unavailable.', `DTSTART:${event.start}`, `DTEND:${event.end}`,
    'END:VEVENT', 'END:VCALENDAR', '',
  ].join('\r\n');
}

describe('maintenance reminders through the bot', () => {
  let clock: Date;
  const sims = useSimulators((kube, slack) => {
    slack.addChannel('C0MAINT', 'maintenance');
    slack.inviteBot('C0MAINT');
    slack.addChannel('C0OPS', 'ops');
    slack.inviteBot('C0OPS');
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));
  const dir = tempDir('maint-bot-');
  const feedPath = join(dir, 'maintenance.ics');

  const config = () => ({
    owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
    slack: { opsChannel: 'C0OPS' },
    maintenance: { feed: feedPath, channel: 'C0MAINT', timezone: 'Europe/Berlin' },
  });

  async function at(time: Date): Promise<string[]> {
    clock = time;
    const before = slack.calls.length;
    await bot!.maintenance!.tick();
    // Maintenance messages go through the outbox: what was queued is sent by settle().
    await bot!.settle();
    return slack.calls.slice(before).filter((c) => c.method === 'chat.postMessage').map((c) => `${c.body.channel} ${String(c.body.text).split('\n')[0]}`);
  }

  it('posts reminders at their offsets, once across a restart, announces a move and a cancellation, and DMs owners of running work', async () => {
    writeFileSync(feedPath, feed({ start: '20270112T070000Z', end: '20270112T150000Z' }));
    kube.apply(workloadCr({ name: 'long-run-1', project: 'vision', owner: 'alice' }));
    kube.apply(workloadCr({ name: 'long-run-2', project: 'vision', owner: 'alice' }));
    kube.apply(workloadCr({ name: 'bobs-run', project: 'vision', owner: 'bob' }));
    kube.apply(workloadCr({ name: 'waiting', project: 'vision', owner: 'bob', phase: 'Pending' }));
    clock = new Date(START.getTime() - 20 * DAY);
    const dirOfStore = tempDir('maint-store-');
    bot = await sims.startBot(config(), { dir: dirOfStore, now: () => clock });
    // `waiting` is already stuck at start; its alert goes out now, not inside a tick measured below.
    await bot.settle();

    expect(await at(new Date(START.getTime() - 20 * DAY))).toEqual([]);
    const fourteen = await at(new Date(START.getTime() - 14 * DAY + HOUR));
    expect(fourteen).toHaveLength(1);
    expect(fourteen[0]).toMatch(/^C0MAINT .*Year-end maintenance/);
    expect(await at(new Date(START.getTime() - 13 * DAY))).toEqual([]);

    // A restart: the ledger is on disk, nothing is posted again.
    await bot.stop();
    bot = await sims.startBot(config(), { dir: dirOfStore, now: () => clock });
    expect(await at(new Date(START.getTime() - 13 * DAY + HOUR))).toEqual([]);

    // One day before: the channel reminder and one DM per owner of running work.
    const dayBefore = await at(new Date(START.getTime() - DAY + 60_000));
    expect(dayBefore.filter((p) => p.startsWith('C0MAINT'))).toHaveLength(1);
    const maintenanceDm = (m: { body: { text?: unknown } }) => String(m.body.text).includes('Maintenance');
    const aliceDms = slack.messagesTo(ALICE.id).filter(maintenanceDm);
    expect(aliceDms).toHaveLength(1);
    const aliceText = JSON.stringify(aliceDms[0].body);
    expect(aliceText).toContain('long-run-1');
    expect(aliceText).toContain('long-run-2');
    const bobDms = slack.messagesTo(BOB.id).filter(maintenanceDm);
    expect(bobDms).toHaveLength(1);
    const bobText = JSON.stringify(bobDms[0].body);
    expect(bobText).toContain('bobs-run');
    expect(bobText).not.toContain('waiting');

    // Rescheduled by a day (higher SEQUENCE): announced as a change.
    writeFileSync(feedPath, feed({ start: '20270113T070000Z', end: '20270113T150000Z', sequence: 1 }));
    const moved = await at(new Date(START.getTime() - 20 * HOUR));
    expect(moved.join('\n')).toMatch(/C0MAINT .*(moved|changed|rescheduled)/i);

    // Cancelled: announced as such.
    writeFileSync(feedPath, feed({ start: '20270113T070000Z', end: '20270113T150000Z', sequence: 2, status: 'CANCELLED' }));
    const cancelled = await at(new Date(START.getTime() - 19 * HOUR));
    expect(cancelled.join('\n')).toMatch(/C0MAINT .*cancel/i);
  });

  it('keeps the last good copy when the feed breaks, and tells the operators once', async () => {
    writeFileSync(feedPath, feed({ start: '20270112T070000Z', end: '20270112T150000Z' }));
    clock = new Date(START.getTime() - 10 * DAY);
    bot = await sims.startBot(config(), { now: () => clock });
    await at(clock);
    writeFileSync(feedPath, 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:trunc');
    const broken = [...(await at(new Date(START.getTime() - 9 * DAY))), ...(await at(new Date(START.getTime() - 8 * DAY)))];
    expect(broken.filter((p) => p.startsWith('C0OPS'))).toHaveLength(1);
    // The reminder due 7 days before still goes out, from the last good copy.
    const seven = await at(new Date(START.getTime() - 7 * DAY + HOUR));
    expect(seven.filter((p) => p.startsWith('C0MAINT'))).toHaveLength(1);
    expect(bot.maintenance!.upcoming(clock, 5).map((w) => w.summary)).toEqual(['Year-end maintenance']);
  });

  it('sends reminders through the outbox: queued before marked sent, kept through a rate limit, sent once after Retry-After', async () => {
    writeFileSync(feedPath, feed({ start: '20270112T070000Z', end: '20270112T150000Z' }));
    clock = new Date(START.getTime() - 8 * DAY);
    slack.rateLimitNext('chat.postMessage', 1, 30);
    bot = await sims.startBot(config(), { now: () => clock });
    await at(clock);
    await at(clock);

    // The 14-day reminder: tried once and refused with Retry-After, so still queued, once, under its ledger key.
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
    expect(slack.messagesTo('C0MAINT')).toHaveLength(0);
    expect(await bot.store.outboxDepth()).toBe(1);
    const [key] = [...(await bot.store.ledgerKeys('mw:'))];
    expect(key).toMatch(/^mw:yearend-2027@cluster\.example/);
    expect(await bot.store.queuedItem(key)).toMatchObject({ kind: 'maintenance', target: { type: 'channel', channel: 'C0MAINT' } });

    clock = new Date(clock.getTime() + 31_000);
    await bot.settle();
    const posted = slack.messagesTo('C0MAINT');
    expect(posted).toHaveLength(1);
    expect(String(posted[0].body.text)).toContain('Year-end maintenance');
    expect(await bot.store.outboxDepth()).toBe(0);
    expect(await bot.store.ledgerEntry(key)).toMatchObject({ recipient: 'C0MAINT', channel: 'C0MAINT' });
    expect((await bot.store.ledgerEntry(key))!.ts).toBeTruthy();
    expect(await at(new Date(clock.getTime() + HOUR))).toEqual([]);
  });

  it("names each running workload's last checkpoint in its owner's DM, and sends the DM when a log cannot be read", async () => {
    writeFileSync(feedPath, feed({ start: '20270112T070000Z', end: '20270112T150000Z' }));
    const dayBefore = new Date(START.getTime() - DAY + 60_000);
    clock = dayBefore;
    kube.apply(workloadCr({ name: 'hf-run', project: 'vision', owner: 'alice' }));
    kube.apply(pod({ workload: 'hf-run', project: 'vision' }));
    // Hugging Face Trainer's line (trainer.py Trainer._save), 40 minutes before the reminder; hostile text after it.
    kube.appendLog(ns('vision'), 'hf-run-0-0', 'hf-run', 'Saving model checkpoint to /data/out/checkpoint-500\n', { at: new Date(clock.getTime() - 40 * 60_000) });
    kube.appendLog(ns('vision'), 'hf-run-0-0', 'hf-run', "{'loss': 0.4} <!channel>\n", { at: new Date(clock.getTime() - 60_000) });
    kube.apply(workloadCr({ name: 'quiet-run', project: 'vision', owner: 'alice' }));
    kube.apply(pod({ workload: 'quiet-run', project: 'vision' }));
    kube.appendLog(ns('vision'), 'quiet-run-0-0', 'quiet-run', 'epoch 1\nepoch 2\nepoch 3\n', { at: clock });
    kube.apply(workloadCr({ name: 'bobs-run', project: 'vision', owner: 'bob' }));
    kube.apply(pod({ workload: 'bobs-run', project: 'vision' }));
    // Started well before, so the start's own first round has nothing due (and reads no log).
    clock = new Date(START.getTime() - 20 * DAY);
    bot = await sims.startBot(config(), { now: () => clock });
    await bot.settle();
    await at(clock);
    kube.failNext(1, 500, '/bobs-run-0-0/log');
    await at(dayBefore);

    const dmOf = (id: string) => slack.messagesTo(id).filter((m) => String(m.body.text).includes('Maintenance')).map((m) => JSON.stringify(m.body));
    const [alice] = dmOf(ALICE.id);
    expect(alice).toContain('`hf-run` in vision (TrainingWorkload)\\n      Last checkpoint saved 40 min ago (global step 500, `/data/out/checkpoint-500`)');
    expect(alice).toContain('`quiet-run` in vision (TrainingWorkload)\\n      No checkpoint line in the last 3 lines of its log');
    expect(alice).not.toContain('<!channel>');
    const [bob] = dmOf(BOB.id);
    expect(bob).toContain('`bobs-run` in vision (TrainingWorkload)\\n      Could not look for its last checkpoint: its log could not be read');
    // Each log was read once, its tail with timestamps.
    const reads = kube.requests.filter((r) => r.path.endsWith('/log'));
    expect(reads.map((r) => r.path.split('/').at(-2)).sort()).toEqual(['bobs-run-0-0', 'hf-run-0-0', 'quiet-run-0-0']);
    for (const r of reads) expect(r.query).toMatchObject({ timestamps: 'true', tailLines: '2000' });
  });
});
