/**
 * Who may see a workload's details and logs: its owner, the members of its project (an
 * explicit list, a Slack user group or the project's channel), and the configured admins.
 * Nobody else; the callers answer everyone else exactly as they answer for a workload that
 * does not exist, so a refusal reveals nothing.
 *
 * Joining a channel is something anyone may do to a public channel, and a shared channel holds
 * people from other workspaces; so a channel's members count as the project's only when the
 * channel is private and not shared outside the workspace, or when the project opts in
 * (`membersFromChannel: true`). Guests and people from other workspaces never count by channel.
 *
 * The decisions are pure (`accessReason`, `channelGrantsMembership`, `userMayJoinByChannel`);
 * only the facts need Slack, asked through `MembershipSource` and cached for a few minutes.
 */
import type { Workload } from '../model.js';
import { sameOwner } from './owners.js';

export type AccessReason = 'admin' | 'owner' | 'project member';

export interface AccessConfig {
  admins: readonly string[];
  projects: Readonly<Record<string, { members?: readonly string[]; userGroup?: string; channel?: string; membersFromChannel?: boolean }>>;
}

/** What conversations.info says about a channel's reach. */
export interface ChannelFacts {
  private: boolean;
  /** Shared with another workspace or organization, or an invitation to is pending. */
  shared: boolean;
}

/** What users.info says about a person's standing in the bot's workspace. */
export interface UserFacts {
  /** A multi- or single-channel guest. */
  guest: boolean;
  /** From another workspace or organization (Slack Connect). */
  external: boolean;
}

/** The Slack lookups membership needs (see slack/membership.ts for the Web API version). */
export interface MembershipSource {
  userGroupMembers(userGroupId: string): Promise<string[]>;
  channelMembers(channelId: string): Promise<string[]>;
  channelFacts(channelId: string): Promise<ChannelFacts>;
  userFacts(userId: string): Promise<UserFacts>;
}

/** Whether a channel's members are the project's: private and unshared, or the project says so. */
export function channelGrantsMembership(channel: ChannelFacts, optedIn: boolean): boolean {
  return optedIn || (channel.private && !channel.shared);
}

/** Guests and people from elsewhere never become project members by being in a channel. */
export function userMayJoinByChannel(user: UserFacts): boolean {
  return !user.guest && !user.external;
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
/**
 * At most this many facts are kept. One is kept per person who clicked or asked, so a large
 * workspace would otherwise grow the cache for as long as the bot runs.
 */
export const MEMBERSHIP_CACHE_MAX = 10_000;

export class WorkloadAccess {
  /** In the order the facts were read (a re-read moves to the end), so the oldest are first. */
  private readonly cache = new Map<string, { value: unknown; at: number }>();

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
    if (p.channel) return this.isMemberByChannel(userId, p.channel, p.membersFromChannel === true);
    return false;
  }

  /** In `channelId`, which counts for the project, and a full member of the bot's workspace. */
  private async isMemberByChannel(userId: string, channelId: string, optedIn: boolean): Promise<boolean> {
    const channel = await this.cached(`channel info ${channelId}`, () => this.source.channelFacts(channelId));
    if (!channel || !channelGrantsMembership(channel, optedIn)) return false;
    if (!(await this.members(`channel ${channelId}`, () => this.source.channelMembers(channelId))).has(userId)) return false;
    const user = await this.cached(`user ${userId}`, () => this.source.userFacts(userId));
    return !!user && userMayJoinByChannel(user);
  }

  /** Why `userId` (who answers to `identities` in the cluster) may see `workload`, or undefined. */
  async reasonToSee(userId: string, identities: ReadonlySet<string>, workload: Pick<Workload, 'owner' | 'project'>): Promise<AccessReason | undefined> {
    const admin = this.isAdmin(userId);
    // Membership costs a Slack call; skip it when admin or ownership already decide.
    const projectMember = admin || ownsWorkload(identities, workload.owner) ? false : await this.isProjectMember(userId, workload.project);
    return accessReason({ admin, identities, projectMember }, workload);
  }

  private async members(what: string, lookup: () => Promise<string[]>): Promise<ReadonlySet<string>> {
    return (await this.cached(what, async () => new Set(await lookup()))) ?? new Set();
  }

  /** A Slack fact, fresh for MEMBERSHIP_TTL_MS; undefined when it cannot be read (not cached). */
  private async cached<T>(what: string, lookup: () => Promise<T>): Promise<T | undefined> {
    const hit = this.cache.get(what);
    const now = this.now().getTime();
    if (hit && now - hit.at < MEMBERSHIP_TTL_MS) return hit.value as T;
    try {
      const value = await lookup();
      this.remember(what, value, now);
      return value;
    } catch (err) {
      this.onLookupError(what, err);
      return undefined;
    }
  }

  /** Keeps the newest facts: drops the expired ones (all at the front) and, past the cap, the oldest. */
  private remember(what: string, value: unknown, now: number): void {
    this.cache.delete(what);
    this.cache.set(what, { value, at: now });
    for (const [key, entry] of this.cache) {
      if (this.cache.size <= MEMBERSHIP_CACHE_MAX && now - entry.at < MEMBERSHIP_TTL_MS) break;
      this.cache.delete(key);
    }
  }

  /** How many facts are held (for tests and gauges). */
  get cachedFacts(): number {
    return this.cache.size;
  }
}
