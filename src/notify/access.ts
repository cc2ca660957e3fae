/**
 * Who may see a workload's details and logs: its owner, the members of its project (an
 * explicit list, a Slack user group or the project's channel), and the configured admins.
 * Nobody else; the callers answer everyone else exactly as they answer for a workload that
 * does not exist, so a refusal reveals nothing.
 *
 * The decision is pure (`accessReason`); only project membership by user group or channel
 * needs Slack, and that is asked through `MembershipSource` and cached for a few minutes.
 */
import type { Workload } from '../model.js';
import { sameOwner } from './owners.js';

export type AccessReason = 'admin' | 'owner' | 'project member';

export interface AccessConfig {
  admins: readonly string[];
  projects: Readonly<Record<string, { members?: readonly string[]; userGroup?: string; channel?: string }>>;
}

/** The Slack lookups membership needs (see slack/membership.ts for the Web API version). */
export interface MembershipSource {
  userGroupMembers(userGroupId: string): Promise<string[]>;
  channelMembers(channelId: string): Promise<string[]>;
}

/** What is known about a viewer and a workload's project, for the pure decision. */
export interface AccessFacts {
  admin: boolean;
  identities: ReadonlySet<string>;
  projectMember: boolean;
}

export function accessReason(facts: AccessFacts, workload: Pick<Workload, 'owner'>): AccessReason | undefined {
  if (facts.admin) return 'admin';
  if (ownsWorkload(facts.identities, workload.owner)) return 'owner';
  if (facts.projectMember) return 'project member';
  return undefined;
}

export function ownsWorkload(identities: ReadonlySet<string>, owner: string | undefined): boolean {
  for (const id of identities) if (sameOwner(owner, id)) return true;
  return false;
}

/** Membership lists change rarely; a few minutes of staleness saves a Slack call per click. */
export const MEMBERSHIP_TTL_MS = 5 * 60_000;

export class WorkloadAccess {
  private readonly cache = new Map<string, { members: ReadonlySet<string>; at: number }>();

  constructor(
    private readonly config: AccessConfig,
    private readonly source: MembershipSource,
    private readonly now: () => Date,
    /** A failed lookup counts as "not a member" (never as one); the caller may want to log it. */
    private readonly onLookupError: (what: string, err: unknown) => void = () => undefined,
  ) {}

  isAdmin(userId: string): boolean {
    return this.config.admins.includes(userId);
  }

  /** In the project's explicit list, its user group, or its channel. */
  async isProjectMember(userId: string, project: string): Promise<boolean> {
    const p = this.config.projects[project];
    if (!p) return false;
    if (p.members?.includes(userId)) return true;
    if (p.userGroup && (await this.members(`usergroup ${p.userGroup}`, () => this.source.userGroupMembers(p.userGroup!))).has(userId)) return true;
    if (p.channel && (await this.members(`channel ${p.channel}`, () => this.source.channelMembers(p.channel!))).has(userId)) return true;
    return false;
  }

  /** Why `userId` (who answers to `identities` in the cluster) may see `workload`, or undefined. */
  async reasonToSee(userId: string, identities: ReadonlySet<string>, workload: Pick<Workload, 'owner' | 'project'>): Promise<AccessReason | undefined> {
    const admin = this.isAdmin(userId);
    // Membership costs a Slack call; skip it when admin or ownership already decide.
    const projectMember = admin || ownsWorkload(identities, workload.owner) ? false : await this.isProjectMember(userId, workload.project);
    return accessReason({ admin, identities, projectMember }, workload);
  }

  private async members(what: string, lookup: () => Promise<string[]>): Promise<ReadonlySet<string>> {
    const cached = this.cache.get(what);
    const now = this.now().getTime();
    if (cached && now - cached.at < MEMBERSHIP_TTL_MS) return cached.members;
    try {
      const members = new Set(await lookup());
      this.cache.set(what, { members, at: now });
      return members;
    } catch (err) {
      this.onLookupError(what, err);
      return new Set();
    }
  }
}
