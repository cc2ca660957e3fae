/**
 * `/runai` end to end in Socket Mode: the real bot acks each command at once and answers
 * ephemerally through the response_url, for every subcommand.
 */
import { GUIDE } from '../../src/lifecycle/states.js';
import { messageViolation } from '../fakes/slack.js';
import { ALICE, BOB, CAROL, DAVE, ERIN, GRACE, SECRET, startWorld, type World } from './world.js';
import type { SlackUser } from '../fakes/slack.js';

describe('/runai in Socket Mode', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterAll(async () => {
    await world.close();
  });

  const ask = (user: SlackUser, text: string) => world.ask(user, text);

  it('acks at once with an empty body and answers ephemerally afterwards', async () => {
    const { ack, reply } = await world.ask(ALICE, 'help');
    expect(ack).toEqual({});
    expect(reply.response_type).toBe('ephemeral');
    expect(messageViolation(reply)).toBeUndefined();
  });

  it('answers help and an empty command with the usage of every subcommand', async () => {
    for (const text of ['help', '']) {
      const { shown } = await world.ask(ALICE, text);
      for (const sub of ['list', 'status NAME', 'logs NAME', 'why NAME', 'maintenance', 'mute NAME', 'unmute', 'settings']) expect(shown).toContain(`/runai ${sub}`);
      expect(shown).toContain('/runai list [-p PROJECT] [--cluster C] [--state failed|pending|running]');
      expect(shown).toContain('settings tips on|off');
    }
  });

  it('answers unknown or malformed input with usage help naming the problem, never a stack trace', async () => {
    const cases: Array<[string, string]> = [
      ['frobnicate', "I don't know the command"],
      ['status', 'needs exactly one workload name'],
      ['logs resnet --tail many', 'whole number of lines'],
      ['mute resnet for ever', 'should look like'],
      ['settings quiet 25:00-07:00', 'settings quiet 22:00-07:00'],
      ['status resnet --force', 'unknown option'],
    ];
    for (const [text, problem] of cases) {
      const { shown } = await world.ask(ALICE, text);
      expect(shown).toContain(problem);
      expect(shown).toContain('/runai list');
      expect(shown).not.toMatch(/\bat .+\.(ts|js):\d+/);
    }
  });

  it('lists my workloads grouped by state, and no one else\'s', async () => {
    const { shown } = await world.ask(ALICE, 'list');
    expect(shown).toContain('Your 2 workloads');
    expect(shown.indexOf('*Failed*')).toBeLessThan(shown.indexOf('*Running*'));
    expect(shown).toContain('`resnet`');
    expect(shown).toContain('`bert`');
    expect(shown).not.toContain('sdxl');
    expect(shown).not.toContain('twin');
  });

  it('lists a project for its members with -p, and only what each may see', async () => {
    const carol = await ask(CAROL, 'list -p vision');
    expect(carol.shown).toContain('2 workloads in project `vision` that you may see');
    expect(carol.shown).toContain('`resnet` in vision');
    expect(carol.shown).toContain('`twin` in vision');
    expect(carol.shown).not.toContain('`bert`');
    expect(carol.shown).not.toContain('in llm');
    // Not a member: the same answer as for a project that does not exist.
    const erin = await ask(ERIN, 'list -p vision');
    expect(erin.shown).toContain('There are no workloads in project `vision` that you may see.');
    expect((await ask(ERIN, 'list -p nosuch')).shown).toContain('There are no workloads in project `nosuch` that you may see.');
    // Alice owns bert in llm, but is no llm member: she sees hers, not bob's twin there.
    const alice = await ask(ALICE, 'list -p llm');
    expect(alice.shown).toContain('1 workload in project `llm` that you may see');
    expect(alice.shown).toContain('`bert`');
    expect(alice.shown).not.toContain('`twin`');
  });

  it('lists by state across projects: an admin sees every cluster workload in it, a member those of their projects', async () => {
    const dave = await ask(DAVE, 'list --state pending');
    expect(dave.shown).toContain('1 pending workload that you may see');
    expect(dave.shown).toContain('`sdxl` in genai');
    expect(dave.shown).not.toContain('`resnet`');
    const failed = await ask(DAVE, 'list --state failed');
    expect(failed.shown).toContain('`resnet`');
    expect(failed.shown).not.toContain('`sdxl`');
    const grace = await ask(GRACE, 'list --state running');
    expect(grace.shown).toContain('`twin` in vision');
    expect(grace.shown).not.toContain('`bert`');
    expect(grace.shown).not.toContain('in llm');
    // Without a filter, list is still the asker's own: an admin owning nothing has none.
    expect((await ask(DAVE, 'list')).shown).toContain('You have no workloads');
  });

  it('tells someone without workloads that they have none', async () => {
    const { shown } = await world.ask(CAROL, 'list');
    expect(shown).toContain('You have no workloads');
  });

  it('shows status with the guide meaning and next step, the pod with its node and container state', async () => {
    const { reply, shown } = await world.ask(ALICE, 'status resnet');
    expect(shown).toContain(GUIDE.Failed.meaning);
    expect(shown).toContain(GUIDE.Failed.nextAction);
    expect(shown).toContain('resnet-0-0');
    expect(shown).toContain('gpu-node-07');
    expect(shown).toContain('exit code 1');
    expect(shown).toContain('https://runai.example.org/workloads?search=resnet');
    expect(messageViolation(reply)).toBeUndefined();
  });

  it('shows the last 50 log lines by default, redacted and escaped', async () => {
    const { reply, shown } = await world.ask(ALICE, 'logs resnet');
    expect(shown).toContain('CUDA out of memory');
    expect(shown).not.toContain(SECRET);
    expect(shown).toContain('[REDACTED');
    expect(shown).not.toContain('<!channel>');
    expect(shown).not.toContain('<@U0ALICE>');
    expect(shown).toContain('last 50 lines');
    // 65 lines in all: the last 50 start at step 16.
    expect(shown).not.toContain('step 15:');
    expect(shown).toContain('step 16:');
    expect(messageViolation(reply)).toBeUndefined();
  });

  it('takes --tail N, caps it at 1000 and says so', async () => {
    expect((await world.ask(ALICE, 'logs resnet --tail 3')).shown).toContain('last 3 lines');
    const { shown } = await world.ask(ALICE, 'logs resnet --tail 5000');
    expect(shown).toContain('at most 1000 lines');
    expect(shown).toContain('step 1:');
  });

  it('splits a long log over several code sections and says how much did not fit', async () => {
    const long = Array.from({ length: 800 }, (_, i) => `line ${i} ${'x'.repeat(100)}`).join('\n');
    world.kube.appendLog('runai-llm', 'bert-0-0', 'bert', `${long}\n`);
    const { reply, shown } = await world.ask(ALICE, 'logs bert --tail 1000');
    const codeSections = (reply.blocks as Array<{ text?: { text: string } }>).filter((b) => b.text?.text.startsWith('```'));
    expect(codeSections.length).toBeGreaterThan(2);
    expect(shown).toMatch(/\d+ earlier lines of the \d+ read did not fit/);
    expect(shown).toContain('line 799');
    expect(messageViolation(reply)).toBeUndefined();
  });

  it('explains why a workload failed: the first relevant error and the advice', async () => {
    const { shown } = await world.ask(ALICE, 'why resnet');
    expect(shown).toContain('First relevant error');
    expect(shown).toContain('torch.OutOfMemoryError');
    expect(shown).toContain('Do not just retry');
    expect(shown).toContain(GUIDE.Failed.nextAction);
  });

  it("explains why a Pending workload waits with the scheduler's reasons", async () => {
    const { shown } = await world.ask(DAVE, 'why sdxl');
    expect(shown).toContain('Why it waits');
    expect(shown).toContain('Unschedulable');
    expect(shown).toContain("didn't have enough resources: GPUs");
    expect(shown).toContain(GUIDE.Pending.nextAction);
  });

  it('asks for -p when several visible projects have the name, and answers with it', async () => {
    const { shown } = await world.ask(BOB, 'status twin');
    expect(shown).toContain('Several projects');
    expect(shown).toContain('`llm`');
    expect(shown).toContain('`vision`');
    const withProject = await world.ask(BOB, 'status twin -p llm');
    expect(withProject.shown).toContain('runai-llm/twin');
  });

  it('says no maintenance calendar is configured when there is none', async () => {
    const { shown } = await world.ask(ALICE, 'maintenance');
    expect(shown).toContain('No maintenance calendar configured');
  });

  it('mutes a workload for a while, shows it in settings, and unmutes it', async () => {
    const muted = await world.ask(ALICE, 'mute resnet for 2h');
    expect(muted.shown).toContain('Muted `resnet`');
    const mutes = await world.bot.store.activeMutes(ALICE.id, new Date());
    expect(mutes).toEqual([{ scope: 'workload:runai-vision/resnet', until: expect.any(String) }]);
    expect(Date.parse(mutes[0].until!) - Date.now()).toBeGreaterThan(7_100_000);
    expect((await world.ask(ALICE, 'settings')).shown).toContain('workload runai-vision/resnet');
    expect((await world.ask(ALICE, 'unmute resnet')).shown).toContain('Unmuted `resnet`');
    expect(await world.bot.store.activeMutes(ALICE.id, new Date())).toEqual([]);
  });

  it('mutes a project until unmuted when no duration is given', async () => {
    expect((await world.ask(CAROL, 'mute project vision')).shown).toContain('until you unmute it');
    expect(await world.bot.store.activeMutes(CAROL.id, new Date())).toEqual([{ scope: 'project:vision', until: undefined }]);
    expect((await world.ask(CAROL, 'unmute project vision')).shown).toContain('Unmuted project');
    expect((await world.ask(CAROL, 'unmute project vision')).shown).toContain('was not muted');
  });

  it('shows and changes settings: completed, pending, quiet hours in my Slack time zone or a given one', async () => {
    const shown = (await world.ask(CAROL, 'settings')).shown;
    expect(shown).toContain('Completed workloads: *off*');
    expect(shown).toContain('Quiet hours: *off*');
    expect((await world.ask(CAROL, 'settings completed on')).shown).toContain('Completed workloads: *on*');
    expect((await world.ask(CAROL, 'settings pending off')).shown).toContain('Pending and Initializing warnings: *off*');
    expect((await world.ask(CAROL, 'settings quiet 22:00-07:00')).shown).toContain('22:00–07:00 America/New_York');
    expect((await world.ask(CAROL, 'settings quiet 23:30-6:00 europe/berlin')).shown).toContain('23:30–06:00 Europe/Berlin');
    expect(await world.bot.store.getSettings(CAROL.id)).toEqual({
      completed: true,
      pending: false,
      tips: true,
      quietHours: { from: '23:30', to: '06:00', timezone: 'Europe/Berlin' },
    });
    expect((await world.ask(CAROL, 'settings quiet off')).shown).toContain('Quiet hours: *off*');
  });

  it('turns log-saving tips off and on again (on by default), and keeps the other settings', async () => {
    expect((await world.ask(CAROL, 'settings')).shown).toContain('Log-saving tips, at most one a week per kind: *on*');
    const before = await world.bot.store.getSettings<Record<string, unknown>>(CAROL.id);
    const off = (await world.ask(CAROL, 'settings tips off')).shown;
    expect(off).toContain('no longer send you tips');
    expect(off).toContain('Log-saving tips, at most one a week per kind: *off*');
    expect(await world.bot.store.getSettings(CAROL.id)).toEqual({ ...before, tips: false });
    expect((await world.ask(CAROL, 'settings tips on')).shown).toContain('Log-saving tips, at most one a week per kind: *on*');
    expect(await world.bot.store.getSettings(CAROL.id)).toMatchObject({ tips: true });
  });

  it('answers a cluster that fails with a polite message, not a stack trace', async () => {
    world.kube.failNext(1, 500, '/pods');
    const { shown } = await world.ask(ALICE, 'status bert');
    expect(shown).toContain('could not be read');
    world.kube.failNext(3, 500, '/log');
    const logs = await world.ask(ALICE, 'logs bert');
    expect(logs.shown).toContain("Sorry, I couldn't do that");
    expect(logs.shown).not.toMatch(/\bat .+\.(ts|js):\d+/);
  });
});
