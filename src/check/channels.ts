/**
 * Whether each project's channel is one whose members the bot counts as the project's: a
 * public or shared channel is allowed, but then its members are not project members (unless
 * the project opts in), which is a warning, not a failure. Pure: conversations.info's answer
 * (or why there is none) comes in.
 */
import type { Config } from '../config.js';
import type { ChannelFacts } from '../notify/access.js';
import { pass, warn, type CheckRow } from './report.js';

/** conversations.info's answer for one channel: its reach, its name and whether the bot is in it. */
export type ChannelAnswer = { facts: ChannelFacts; name?: string; isMember: boolean } | { error: string };

export function channelRows(projects: Config['projects'], answers: ReadonlyMap<string, ChannelAnswer>): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const [project, p] of Object.entries(projects)) {
    if (!p.channel) continue;
    const label = `project ${project} channel ${p.channel}`;
    const answer = answers.get(p.channel);
    if (!answer || 'error' in answer) {
      rows.push(warn(label, `cannot read it (${answer?.error ?? 'not asked'}): its members do not count as project members; for a private channel, invite the bot to it (groups:read)`));
      continue;
    }
    const reach = [answer.facts.private ? undefined : 'public', answer.facts.shared ? 'shared outside the workspace' : undefined].filter(Boolean).join(' and ');
    if (!reach) rows.push(pass(label, 'private and not shared: its members (not guests) count as project members'));
    else if (p.membersFromChannel) rows.push(warn(label, `${reach}, and projects.${project}.membersFromChannel is true: whoever joins it (but guests and people from other workspaces) may read this project's workloads and logs`));
    else rows.push(warn(label, `${reach}: its members do not count as project members; use a private, unshared channel, the members list or a user group, or set projects.${project}.membersFromChannel: true to accept whoever joins`));
  }
  return rows;
}
