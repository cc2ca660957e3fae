/**
 * The "why here" line a message carries when it is not posted where it would normally go: a
 * workload's alert in a channel because its owner has no Slack user (or it names none), and a
 * message posted further down its plan because Slack refused the places before (the bot was
 * not invited there). Rendered right under the header, and in the text fallback.
 */
import { context, type Block } from '../messages/blocks.js';
import { escapeMrkdwn } from '../messages/mrkdwn.js';
import type { Note } from './plan.js';

export interface Payload {
  text: string;
  blocks?: Block[];
}

/** A channel Slack refused on the way here, and what it said (not_in_channel, channel_not_found). */
export interface Refusal {
  channel: string;
  slackError: string;
}

export function noteText(note: Note): string {
  return note.kind === 'no-slack-user'
    ? `Workload of *${escapeMrkdwn(note.owner)}*: no Slack user could be found for this owner, so it is posted here. Map them under \`owners.map\` in the bot's config.`
    : 'This workload names no owner, so it is posted here.';
}

/** Channel IDs are checked by config (C…/G…); Slack renders `<#C…>` as the channel's name. */
export function refusalText(refused: readonly Refusal[]): string {
  const where = refused.map((r) => `<#${r.channel}>`).join(' and ');
  const why = [...new Set(refused.map((r) => r.slackError))].join(', ');
  return `Posted here because I am not in ${where} (Slack said ${why}): type \`/invite\` with my name in ${where} to have these posted there.`;
}

/** `payload` with the notes under its header (and the owner in front of its text fallback). */
export function withNotes(payload: Payload, note: Note | undefined, refused: readonly Refusal[] = []): Payload {
  const lines = [...(note ? [noteText(note)] : []), ...(refused.length ? [refusalText(refused)] : [])];
  if (!lines.length) return payload;
  // The owner comes from the cluster (an annotation, spec.username): through the pipeline like
  // any workload text, or `<!channel>` in it would ping the channel from the fallback.
  const prefix = note ? `[for ${escapeMrkdwn(note.kind === 'no-slack-user' ? note.owner : 'unknown owner')}] ` : '';
  const blocks = payload.blocks ?? [];
  const at = blocks[0]?.type === 'header' ? 1 : 0;
  return {
    text: prefix + payload.text,
    blocks: blocks.length ? [...blocks.slice(0, at), ...lines.map((l) => context(l)), ...blocks.slice(at)].slice(0, 50) : undefined,
  };
}
