/**
 * Project membership as Slack knows it: the members of a user group and of a channel, read
 * with the Web API (usergroups:read, channels:read / groups:read), every page of them; and
 * the facts that decide whether a channel's members count (conversations.info) and whether a
 * person is a full member of the bot's workspace (users.info, users:read).
 */
import type { WebClient } from '@slack/web-api';
import type { ChannelFacts, MembershipSource, UserFacts } from '../notify/access.js';

/** Safety stop: a channel with more members than this is not a project channel. */
const MAX_PAGES = 50;

/** The fields of conversations.info's channel object that say how far a channel reaches. */
export interface ChannelInfo {
  is_private?: boolean;
  is_shared?: boolean;
  is_ext_shared?: boolean;
  is_org_shared?: boolean;
  is_pending_ext_shared?: boolean;
}

/** The fields of users.info's user object that say who a person is to the workspace. */
export interface UserInfo {
  team_id?: string;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_stranger?: boolean;
}

/** A missing flag is read the cautious way: not private, or shared. */
export function channelFacts(channel: ChannelInfo): ChannelFacts {
  return {
    private: channel.is_private === true,
    shared: !!(channel.is_shared || channel.is_ext_shared || channel.is_org_shared || channel.is_pending_ext_shared),
  };
}

/** Someone whose home team is not the bot's is external, whatever the other flags say. */
export function userFacts(user: UserInfo, botTeamId: string): UserFacts {
  return {
    guest: !!(user.is_restricted || user.is_ultra_restricted),
    external: user.is_stranger === true || !user.team_id || user.team_id !== botTeamId,
  };
}

export function slackMembershipSource(client: WebClient): MembershipSource {
  let botTeam: Promise<string> | undefined;
  const botTeamId = () =>
    (botTeam ??= client.auth.test().then((r) => {
      if (!r.team_id) throw new Error('auth.test did not say which workspace the bot is in');
      return r.team_id;
    })).catch((err: unknown) => {
      botTeam = undefined; // ask again next time rather than refuse everyone forever
      throw err;
    });
  return {
    async userGroupMembers(userGroupId) {
      const result = await client.usergroups.users.list({ usergroup: userGroupId });
      return result.users ?? [];
    },
    async channelMembers(channelId) {
      const members: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = await client.conversations.members({ channel: channelId, limit: 1000, ...(cursor ? { cursor } : {}) });
        members.push(...(result.members ?? []));
        cursor = result.response_metadata?.next_cursor || undefined;
        if (!cursor) break;
      }
      return members;
    },
    async channelFacts(channelId) {
      const result = await client.conversations.info({ channel: channelId });
      if (!result.channel) throw new Error('conversations.info returned no channel');
      return channelFacts(result.channel);
    },
    async userFacts(userId) {
      const [result, team] = await Promise.all([client.users.info({ user: userId }), botTeamId()]);
      if (!result.user) throw new Error('users.info returned no user');
      return userFacts(result.user, team);
    },
  };
}
