/**
 * Project membership as Slack knows it: the members of a user group and of a channel, read
 * with the Web API (usergroups:read, channels:read / groups:read), every page of them.
 */
import type { WebClient } from '@slack/web-api';
import type { MembershipSource } from '../notify/access.js';

/** Safety stop: a channel with more members than this is not a project channel. */
const MAX_PAGES = 50;

export function slackMembershipSource(client: WebClient): MembershipSource {
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
  };
}
