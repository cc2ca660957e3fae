/**
 * Block Kit primitives that stay inside Slack's limits (spec/slack-reference.md §3) by
 * construction: text is truncated to fit rather than rejected by Slack.
 */
import { plain, truncate } from './mrkdwn.js';

export interface SlackMessage {
  text: string;
  blocks: Block[];
}

// Block Kit is a large union; the builders below only make well-formed blocks.
export type Block = Record<string, unknown>;

/** Limits from spec/slack-reference.md §3. */
export const LIMITS = { sectionText: 3000, header: 150, blocks: 50, field: 2000, buttonText: 75 } as const;

export function section(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } };
}

export function header(text: string): Block {
  return { type: 'header', text: plain(text, LIMITS.header) };
}

export function context(text: string): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) }] };
}

export function fields(pairs: Array<[string, string | undefined]>): Block {
  const present = pairs.filter((p): p is [string, string] => !!p[1]).slice(0, 10);
  return {
    type: 'section',
    fields: present.map(([k, v]) => ({ type: 'mrkdwn', text: truncate(`*${k}*\n${v}`, LIMITS.field) })),
  };
}

