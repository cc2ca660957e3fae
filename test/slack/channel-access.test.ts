/**
 * Membership by channel through the real bot and the simulated Slack: only a private channel
 * that is not shared outside the workspace makes its members project members, unless the
 * project opts in; guests and people from other workspaces never become members by channel.
 */
import type { ChannelFlags, SlackUser } from '../fakes/slack.js';
import { baseConfig, HANK, startWorld, type World } from './world.js';

const GUEST: SlackUser = { id: 'U0GUEST', name: 'guest', email: 'guest@contractor.example', is_restricted: true };
const SINGLE_CHANNEL_GUEST: SlackUser = { id: 'U0SCG', name: 'scg', email: 'scg@contractor.example', is_restricted: true, is_ultra_restricted: true };
const STRANGER: SlackUser = { id: 'W0STRANGER', name: 'stranger', email: 'someone@partner.example', is_stranger: true, team_id: 'TPARTNER' };
const OTHER_TEAM: SlackUser = { id: 'U0OTHERTEAM', name: 'other', email: 'other@partner.example', team_id: 'TPARTNER' };

const sees = (shown: string) => shown.includes('runai-vision/resnet');

describe('project membership by channel', () => {
  let world: World | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  /** The world, with vision's channel given `flags` and these people added to it, before anyone asks. */
  async function worldWith(flags: ChannelFlags, people: SlackUser[] = [], membersFromChannel?: boolean): Promise<World> {
    const vision = { ...baseConfig.projects.vision, ...(membersFromChannel === undefined ? {} : { membersFromChannel }) };
    world = await startWorld({ ...baseConfig, projects: { ...baseConfig.projects, vision } });
    const channel = world.slack.workspace.channels.get('C0VISION')!;
    Object.assign(channel, { is_private: false }, flags);
    for (const person of people) {
      world.slack.addUser(person);
      channel.members.push(person.id);
    }
    return world;
  }

  it('lets a member of a private, unshared channel see the workload', async () => {
    const w = await worldWith({ is_private: true });
    expect(sees((await w.ask(HANK, 'status resnet')).shown)).toBe(true);
    expect(w.slack.callsTo('conversations.info')).toHaveLength(1);
  });

  it('refuses a member of a public channel, as for a workload that does not exist', async () => {
    const w = await worldWith({ is_private: false });
    const { shown } = await w.ask(HANK, 'status resnet');
    expect(sees(shown)).toBe(false);
    expect(shown).toContain("I can't show you a workload named `resnet`.");
    // The channel's members are not even read: it does not count.
    expect(w.slack.callsTo('conversations.members')).toHaveLength(0);
  });

  it.each<[string, ChannelFlags]>([
    ['shared with another organization', { is_ext_shared: true, is_shared: true }],
    ['shared within the organization', { is_org_shared: true, is_shared: true }],
    ['about to be shared (invitation pending)', { is_pending_ext_shared: true }],
  ])('refuses a member of a private channel %s', async (_what, flags) => {
    const w = await worldWith({ is_private: true, ...flags });
    expect(sees((await w.ask(HANK, 'status resnet')).shown)).toBe(false);
  });

  it.each([
    ['a multi-channel guest', GUEST],
    ['a single-channel guest', SINGLE_CHANNEL_GUEST],
    ['a Slack Connect stranger', STRANGER],
    ['someone from another workspace', OTHER_TEAM],
  ])('refuses %s in a private channel, and also when the project opts in', async (_who, person) => {
    const w = await worldWith({ is_private: true }, [person], true);
    for (const text of ['status resnet', 'logs resnet', 'why resnet']) {
      expect(sees((await w.ask(person, text)).shown)).toBe(false);
    }
    // Hank, a full member, is let in by the same channel: the refusal is about the person.
    expect(sees((await w.ask(HANK, 'status resnet')).shown)).toBe(true);
  });

  it('lets a public channel count when the project opts in (membersFromChannel: true)', async () => {
    const w = await worldWith({ is_private: false }, [GUEST], true);
    expect(sees((await w.ask(HANK, 'status resnet')).shown)).toBe(true);
    expect(sees((await w.ask(GUEST, 'status resnet')).shown)).toBe(false);
  });
});
