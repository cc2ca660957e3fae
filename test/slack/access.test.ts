import {
  accessReason,
  channelGrantsMembership,
  MEMBERSHIP_CACHE_MAX,
  MEMBERSHIP_TTL_MS,
  userMayJoinByChannel,
  WorkloadAccess,
  type ChannelFacts,
  type MembershipSource,
  type UserFacts,
} from '../../src/notify/access.js';
import { channelFacts, userFacts } from '../../src/slack/membership.js';

const PRIVATE: ChannelFacts = { private: true, shared: false };
const FULL_MEMBER: UserFacts = { guest: false, external: false };

/** A membership directory that counts how often it is asked; channels are private, people full members unless said. */
function directory(
  groups: Record<string, string[]>,
  channels: Record<string, string[]>,
  facts: { channels?: Record<string, ChannelFacts>; users?: Record<string, UserFacts> } = {},
) {
  const asked = { groups: 0, channels: 0 };
  const source: MembershipSource = {
    userGroupMembers: async (id) => {
      asked.groups++;
      if (!groups[id]) throw new Error('no_such_subteam');
      return groups[id];
    },
    channelMembers: async (id) => {
      asked.channels++;
      return channels[id] ?? [];
    },
    channelFacts: async (id) => facts.channels?.[id] ?? PRIVATE,
    userFacts: async (id) => facts.users?.[id] ?? FULL_MEMBER,
  };
  return { source, asked };
}

const config = {
  admins: ['U0ADMIN'],
  projects: { vision: { members: ['U0LISTED'], userGroup: 'S0VISION', channel: 'C0VISION' }, llm: {}, broken: { userGroup: 'S0GONE' } },
};

describe('accessReason', () => {
  it.each([
    [{ admin: true, identities: new Set<string>(), projectMember: false }, 'admin'],
    [{ admin: false, identities: new Set(['Alice@Example.org']), projectMember: false }, 'owner'],
    [{ admin: false, identities: new Set(['bob']), projectMember: true }, 'project member'],
    [{ admin: false, identities: new Set(['bob']), projectMember: false }, undefined],
  ])('decides %j → %s', (facts, reason) => {
    expect(accessReason(facts, { owner: 'alice@example.org' })).toBe(reason);
  });

  it('never lets a workload without an owner be seen by ownership', () => {
    expect(accessReason({ admin: false, identities: new Set(['']), projectMember: false }, { owner: undefined })).toBeUndefined();
  });
});

describe('WorkloadAccess', () => {
  const vision = { owner: 'alice', project: 'vision' };

  it('finds project members by list, user group and channel, and no one else', async () => {
    const { source } = directory({ S0VISION: ['U0GROUP'] }, { C0VISION: ['U0CHAN'] });
    const access = new WorkloadAccess(config, source, () => new Date());
    for (const user of ['U0LISTED', 'U0GROUP', 'U0CHAN']) expect(await access.reasonToSee(user, new Set(), vision)).toBe('project member');
    expect(await access.reasonToSee('U0ADMIN', new Set(), vision)).toBe('admin');
    expect(await access.reasonToSee('U0ALICE', new Set(['alice']), vision)).toBe('owner');
    expect(await access.reasonToSee('U0GROUP', new Set(), { owner: 'alice', project: 'llm' })).toBeUndefined();
    expect(await access.reasonToSee('U0GROUP', new Set(), { owner: 'alice', project: 'unconfigured' })).toBeUndefined();
  });

  it('caches membership for a few minutes, then asks again', async () => {
    let now = new Date('2026-11-29T10:00:00Z');
    const { source, asked } = directory({ S0VISION: [] }, { C0VISION: ['U0CHAN'] });
    const access = new WorkloadAccess(config, source, () => now);
    await access.isProjectMember('U0CHAN', 'vision');
    await access.isProjectMember('U0OTHER', 'vision');
    expect(asked).toEqual({ groups: 1, channels: 1 });
    now = new Date(now.getTime() + MEMBERSHIP_TTL_MS + 1);
    await access.isProjectMember('U0CHAN', 'vision');
    expect(asked).toEqual({ groups: 2, channels: 2 });
  });

  it('keeps at most MEMBERSHIP_CACHE_MAX facts, dropping expired ones first and then the oldest', async () => {
    let now = new Date('2026-11-29T10:00:00Z');
    const people = Array.from({ length: MEMBERSHIP_CACHE_MAX + 50 }, (_, i) => `U0P${i}`);
    const { source } = directory({ S0VISION: [] }, { C0VISION: people });
    const access = new WorkloadAccess(config, source, () => now);
    // Each person by channel leaves one fact about them (plus the channel's info and member list).
    for (const user of people) expect(await access.isProjectMember(user, 'vision')).toBe(true);
    expect(access.cachedFacts).toBe(MEMBERSHIP_CACHE_MAX);
    now = new Date(now.getTime() + MEMBERSHIP_TTL_MS + 1);
    await access.isProjectMember('U0P0', 'vision');
    // Everything older than the TTL went with the next read; only what that read asked is left.
    expect(access.cachedFacts).toBe(4);
  });

  it('treats a failed lookup as not a member, reports it, and does not cache it', async () => {
    const { source, asked } = directory({}, {});
    const failures: string[] = [];
    const access = new WorkloadAccess(config, source, () => new Date(), (what) => failures.push(what));
    expect(await access.isProjectMember('U0X', 'broken')).toBe(false);
    expect(await access.isProjectMember('U0X', 'broken')).toBe(false);
    expect(failures).toEqual(['usergroup S0GONE', 'usergroup S0GONE']);
    expect(asked.groups).toBe(2);
  });

  it('does not ask Slack when ownership or admin already decide', async () => {
    const { source, asked } = directory({ S0VISION: [] }, {});
    const access = new WorkloadAccess(config, source, () => new Date());
    await access.reasonToSee('U0ALICE', new Set(['alice']), vision);
    await access.reasonToSee('U0ADMIN', new Set(), vision);
    expect(asked).toEqual({ groups: 0, channels: 0 });
  });
});

describe('membership by channel', () => {
  const vision = { owner: 'alice', project: 'vision' };
  const channelOnly = (membersFromChannel?: boolean) => ({ admins: [], projects: { vision: { channel: 'C0VISION', membersFromChannel } } });

  it.each([
    ['private, not shared', PRIVATE, false, true],
    ['public', { private: false, shared: false }, false, false],
    ['private but shared', { private: true, shared: true }, false, false],
    ['public, opted in', { private: false, shared: false }, true, true],
    ['shared, opted in', { private: true, shared: true }, true, true],
  ])('a %s channel grants membership: %s / opt-in %s → %s', (_what, channel, optedIn, grants) => {
    expect(channelGrantsMembership(channel, optedIn)).toBe(grants);
  });

  it('never lets guests or people from other workspaces in by channel', () => {
    expect(userMayJoinByChannel(FULL_MEMBER)).toBe(true);
    expect(userMayJoinByChannel({ guest: true, external: false })).toBe(false);
    expect(userMayJoinByChannel({ guest: false, external: true })).toBe(false);
  });

  it('reads Slack flags cautiously: any sharing flag is shared, a foreign or missing team is external', () => {
    expect(channelFacts({ is_private: true })).toEqual(PRIVATE);
    expect(channelFacts({})).toEqual({ private: false, shared: false });
    for (const flag of ['is_shared', 'is_ext_shared', 'is_org_shared', 'is_pending_ext_shared']) {
      expect(channelFacts({ is_private: true, [flag]: true })).toEqual({ private: true, shared: true });
    }
    expect(userFacts({ team_id: 'T1' }, 'T1')).toEqual(FULL_MEMBER);
    expect(userFacts({ team_id: 'T1', is_restricted: true }, 'T1').guest).toBe(true);
    expect(userFacts({ team_id: 'T1', is_ultra_restricted: true }, 'T1').guest).toBe(true);
    expect(userFacts({ team_id: 'T1', is_stranger: true }, 'T1').external).toBe(true);
    expect(userFacts({ team_id: 'T2' }, 'T1').external).toBe(true);
    expect(userFacts({}, 'T1').external).toBe(true);
  });

  it('refuses a public channel member unless the project opts in, and a guest even then', async () => {
    const facts = { channels: { C0VISION: { private: false, shared: false } }, users: { U0GUEST: { guest: true, external: false } } };
    const { source } = directory({}, { C0VISION: ['U0CHAN', 'U0GUEST'] }, facts);
    expect(await new WorkloadAccess(channelOnly(), source, () => new Date()).reasonToSee('U0CHAN', new Set(), vision)).toBeUndefined();
    const optedIn = new WorkloadAccess(channelOnly(true), source, () => new Date());
    expect(await optedIn.reasonToSee('U0CHAN', new Set(), vision)).toBe('project member');
    expect(await optedIn.reasonToSee('U0GUEST', new Set(), vision)).toBeUndefined();
  });

  it('treats a channel or person Slack cannot describe as granting nothing', async () => {
    const source: MembershipSource = {
      userGroupMembers: async () => [],
      channelMembers: async () => ['U0CHAN'],
      channelFacts: async () => {
        throw new Error('channel_not_found');
      },
      userFacts: async () => FULL_MEMBER,
    };
    const failures: string[] = [];
    const access = new WorkloadAccess(channelOnly(true), source, () => new Date(), (what) => failures.push(what));
    expect(await access.reasonToSee('U0CHAN', new Set(), vision)).toBeUndefined();
    expect(failures).toEqual(['channel info C0VISION']);
  });
});
