/**
 * Who may see a workload: its owner, its project's members (explicit list, user group,
 * channel) and admins. A stranger gets exactly the answer given for a workload that does not
 * exist, whatever they ask.
 */
import { ALICE, CAROL, DAVE, ERIN, GRACE, HANK, SECRET, startWorld, type World } from './world.js';

describe('who may see a workload through /runai', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterAll(async () => {
    await world.close();
  });

  it.each([
    ['the owner', ALICE],
    ['a member listed in the project config', CAROL],
    ["a member of the project's user group", GRACE],
    ["a member of the project's channel", HANK],
    ['an admin', DAVE],
  ])("shows %s the workload's logs, redacted", async (_who, user) => {
    const { shown } = await world.ask(user, 'logs resnet');
    expect(shown).toContain('CUDA out of memory');
    expect(shown).not.toContain(SECRET);
  });

  it('gives a stranger the same refusal as for a workload that does not exist', async () => {
    const stranger = await world.ask(ERIN, 'logs resnet');
    const missing = await world.ask(DAVE, 'logs resnet -p llm');
    expect(stranger.reply).toEqual(missing.reply);
    expect(stranger.shown).toContain("I can't show you a workload named `resnet`.");
    expect(stranger.shown).not.toContain('vision');
    expect(stranger.shown).not.toContain('CUDA');
  });

  it('refuses a stranger identically for status, why, logs with -p and mute', async () => {
    const refusal = (await world.ask(ERIN, 'logs resnet')).reply;
    for (const text of ['status resnet', 'why resnet', 'logs resnet -p vision', 'mute resnet for 1h']) {
      expect((await world.ask(ERIN, text)).reply).toEqual(refusal);
    }
    expect(await world.bot.store.activeMutes(ERIN.id, new Date())).toEqual([]);
  });

  it('does not name projects a person cannot see when a name is ambiguous', async () => {
    // Carol sees only vision's twin: no question about llm, just the answer.
    const { shown } = await world.ask(CAROL, 'status twin');
    expect(shown).toContain('runai-vision/twin');
    expect(shown).not.toContain('llm');
  });

  it('asks Slack for user group and channel members once per few minutes, not on every request', async () => {
    const groupCalls = world.slack.callsTo('usergroups.users.list').length;
    const channelCalls = world.slack.callsTo('conversations.members').length;
    await world.ask(HANK, 'status resnet');
    await world.ask(HANK, 'status resnet');
    await world.ask(GRACE, 'status resnet');
    expect(world.slack.callsTo('usergroups.users.list').length).toBe(groupCalls);
    expect(world.slack.callsTo('conversations.members').length).toBe(channelCalls);
  });
});
