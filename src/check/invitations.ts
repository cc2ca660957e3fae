/**
 * Whether the bot may post in every channel it posts to. With chat:write alone, Slack refuses a
 * post to a public channel the bot was not invited to (not_in_channel) and does not even show
 * it a private one (channel_not_found), so a missed /invite silently loses every message meant
 * for that channel. Pure: conversations.info's answers (or why there are none) come in.
 */
import type { Config } from '../config.js';
import type { ChannelAnswer } from './channels.js';
import { fail, pass, type CheckRow } from './report.js';

/** Each channel the bot posts to, with the config keys that name it (one channel may serve several). */
export function postingChannels(config: Pick<Config, 'slack' | 'maintenance' | 'projects'>): Map<string, string[]> {
  const named: Array<[string, string | undefined]> = [
    ['slack.fallbackChannel', config.slack.fallbackChannel],
    ['slack.opsChannel', config.slack.opsChannel],
    ['maintenance.channel', config.maintenance?.channel],
    ...Object.entries(config.projects).map(([project, p]): [string, string | undefined] => [`projects.${project}.channel`, p.channel]),
  ];
  const channels = new Map<string, string[]>();
  for (const [key, channel] of named) {
    if (channel) channels.set(channel, [...(channels.get(channel) ?? []), key]);
  }
  return channels;
}

export interface Poster {
  /** The bot user's name (auth.test's `user`), for the /invite line. */
  botName: string;
  /** chat:write.public: the bot may post in public channels without being a member. */
  postsToPublicChannels: boolean;
}

/** One row per channel: fine, or why the bot cannot post there and the /invite that fixes it. */
export function invitationRows(channels: ReadonlyMap<string, readonly string[]>, answers: ReadonlyMap<string, ChannelAnswer>, poster: Poster): CheckRow[] {
  const invite = `/invite @${poster.botName}`;
  return [...channels].map(([channel, keys]) => {
    const label = `bot posts in ${channel} (${keys.join(', ')})`;
    const answer = answers.get(channel);
    if (!answer || 'error' in answer) {
      const error = answer?.error ?? 'not asked';
      if (error === 'channel_not_found') {
        return fail(label, `Slack shows the bot no such channel (channel_not_found): if it is a private channel, type ${invite} in it; otherwise correct the ID (the channel's details show it)`);
      }
      return fail(label, `cannot ask Slack whether the bot is in it (${error}): conversations.info needs channels:read and groups:read`);
    }
    const where = answer.name ? `#${answer.name}` : channel;
    if (answer.isMember) return pass(label, `the bot is a member of ${where}`);
    if (!answer.facts.private && poster.postsToPublicChannels) return pass(label, `${where} is public and chat:write.public lets the bot post without joining`);
    return fail(label, `the bot is not a member of ${where}, so Slack refuses its posts there (not_in_channel): type ${invite} in ${where}`);
  });
}
