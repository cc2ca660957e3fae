/**
 * The operators' notice that Slack refuses the bot's posts in a channel it is meant to post in
 * (not invited: not_in_channel; a private channel it cannot see: channel_not_found). One per
 * channel per day (keys.ts refusedChannelKey).
 */
import { context, section, type SlackMessage } from './blocks.js';
import { forInlineCode } from './mrkdwn.js';

export function buildRefusedChannelMessage(input: { channel: string; slackError: string; retentionDays: number }): SlackMessage {
  // The channel ID passed config validation (C…/G…), so `<#…>` cannot carry markup.
  const where = `<#${input.channel}>`;
  const error = forInlineCode(input.slackError, 60);
  return {
    text: `I cannot post in ${where} (Slack said ${input.slackError}): type /invite with my name in that channel.`,
    blocks: [
      section(`:warning: I cannot post in ${where}: Slack refuses my posts there (${error}).`),
      section(`Messages meant for it go to the next place in their plan (the project channel, the fallback, this channel), saying why; those with nowhere else wait, up to ${input.retentionDays} days (\`slack.outboxRetention\`), and go out once I am in.`),
      context(`Fix: type \`/invite\` with my name in ${where}. For a private channel, a member must invite me.`),
    ],
  };
}
