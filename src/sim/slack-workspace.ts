/**
 * The state of the simulated workspace: people, channels, user groups, the bot's DMs, and what
 * the bot has posted (with updates and response_url replies applied), so the demo page can
 * render the conversation as a person would see it.
 */

export interface SlackUser {
  id: string;
  name: string;
  email?: string;
  real_name?: string;
  tz?: string;
  is_bot?: boolean;
  deleted?: boolean;
  /** A guest: multi-channel (is_restricted) or single-channel (also is_ultra_restricted). */
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  /** From another organization, seen through a Slack Connect channel. */
  is_stranger?: boolean;
  /** Their home workspace; absent: this workspace. */
  team_id?: string;
}

/** Visibility and sharing, as conversations.info reports them. */
export interface ChannelFlags {
  is_private?: boolean;
  /** Shared with another organization (Slack Connect). */
  is_ext_shared?: boolean;
  /** Shared with any other workspace, in or outside the organization. */
  is_shared?: boolean;
  /** Shared across the workspaces of an Enterprise Grid organization. */
  is_org_shared?: boolean;
  /** A Slack Connect invitation is out but not yet accepted. */
  is_pending_ext_shared?: boolean;
}

export interface SlackChannel extends ChannelFlags {
  id: string;
  name: string;
  members: string[];
  /** A 1:1 DM between the bot and `user`. */
  user?: string;
}

/** A message as it now stands in a conversation. */
export interface PostedMessage {
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  /** Set for chat.postEphemeral and ephemeral respond(): only this user sees it. */
  visibleTo?: string;
  thread_ts?: string;
  /** A thread reply also shown in the channel (chat.postMessage `reply_broadcast`), recorded so tests can say it never is. */
  reply_broadcast?: boolean;
  /** Who posted it: the bot unless a test posted as a person (postAs); Slack lets an app edit only its own. */
  author?: string;
  /** Files shared with it (files.completeUploadExternal with a channel). */
  files?: string[];
  /** How it got there: the Web API or a response_url post. */
  via: 'api' | 'response_url';
  edited: boolean;
}

export interface HomeView {
  user: string;
  view: Record<string, unknown>;
  publishedAt: Date;
}

export class SlackWorkspace {
  readonly users = new Map<string, SlackUser>();
  readonly channels = new Map<string, SlackChannel>();
  readonly userGroups = new Map<string, string[]>();
  readonly homeViews = new Map<string, HomeView>();
  private readonly messages: PostedMessage[] = [];
  private lastTs = 0;

  constructor(readonly teamId: string, readonly botUserId: string) {}

  addUser(user: SlackUser): SlackUser {
    this.users.set(user.id, user);
    return user;
  }

  userByEmail(email: string): SlackUser | undefined {
    // Slack matches addresses without regard to case (inference; the docs do not say).
    const wanted = email.trim().toLowerCase();
    return [...this.users.values()].find((u) => !u.deleted && u.email?.toLowerCase() === wanted);
  }

  addChannel(id: string, name: string, members: string[] = [], flags: ChannelFlags = {}): SlackChannel {
    const channel = { id, name, members: [...members], ...flags };
    this.channels.set(id, channel);
    return channel;
  }

  /** `userId` joins channel `id` (an invitation accepted); a channel that does not exist is a mistake in the test. */
  join(id: string, userId: string): void {
    const channel = this.channels.get(id);
    if (!channel) throw new Error(`simulated Slack: no channel ${id} to join`);
    if (!channel.members.includes(userId)) channel.members.push(userId);
  }

  addUserGroup(id: string, members: string[]): void {
    this.userGroups.set(id, [...members]);
  }

  /**
   * A channel as the bot may read it: like Slack, a private channel the bot is not in answers
   * channel_not_found (undefined), as if it did not exist.
   */
  visibleChannel(id: string): SlackChannel | undefined {
    const channel = this.channels.get(id);
    if (channel?.is_private && !channel.members.includes(this.botUserId)) return undefined;
    return channel;
  }

  /** The bot's DM with `userId`: the same D… id every time for the same person. */
  dmWith(userId: string): SlackChannel {
    const id = `D${userId.replace(/^[UW]/, '')}`;
    const existing = this.channels.get(id);
    if (existing) return existing;
    const channel: SlackChannel = { id, name: `dm-${userId}`, members: [userId, this.botUserId], user: userId };
    this.channels.set(id, channel);
    return channel;
  }

  /**
   * The conversation a `channel` argument names. Like Slack, a user id means the bot's DM with
   * that user. Undefined when Slack would answer channel_not_found.
   */
  resolveChannel(channel: string): SlackChannel | undefined {
    if (this.users.has(channel)) return this.dmWith(channel);
    return this.channels.get(channel);
  }

  /** A unique, increasing Slack-style timestamp ("seconds.micros"). */
  nextTs(now: Date): string {
    this.lastTs = Math.max(this.lastTs + 1, now.getTime() * 1000);
    return `${Math.floor(this.lastTs / 1e6)}.${String(this.lastTs % 1e6).padStart(6, '0')}`;
  }

  post(message: Omit<PostedMessage, 'edited'>): PostedMessage {
    const posted = { ...message, edited: false };
    this.messages.push(posted);
    return posted;
  }

  /** A person's own message in a conversation (a test's stand-in for someone typing): the bot may not edit it. */
  postAs(user: string, channel: string, text: string, now: Date): PostedMessage {
    const conversation = this.resolveChannel(channel);
    if (!conversation) throw new Error(`simulated Slack: no conversation ${channel} to post in`);
    return this.post({ channel: conversation.id, ts: this.nextTs(now), text, author: user, via: 'api' });
  }

  find(channel: string, ts: string): PostedMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts);
  }

  remove(message: PostedMessage): void {
    this.messages.splice(this.messages.indexOf(message), 1);
  }

  /** What is now shown in a conversation (channel id, DM id or user id), oldest first. */
  conversation(channelOrUser: string): PostedMessage[] {
    const channel = this.resolveChannel(channelOrUser);
    return channel ? this.messages.filter((m) => m.channel === channel.id) : [];
  }

  /** Every conversation the bot has posted into, for a page that renders them all. */
  conversations(): SlackChannel[] {
    const ids = new Set(this.messages.map((m) => m.channel));
    return [...this.channels.values()].filter((c) => ids.has(c.id));
  }
}
