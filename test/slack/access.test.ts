import { accessReason, MEMBERSHIP_TTL_MS, WorkloadAccess, type MembershipSource } from '../../src/notify/access.js';

/** A membership directory that counts how often it is asked. */
function directory(groups: Record<string, string[]>, channels: Record<string, string[]>) {
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
