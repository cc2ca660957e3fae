/**
 * Block Kit primitives that stay inside Slack's limits (spec/slack-reference.md §3) by
 * construction: text is truncated to fit rather than rejected by Slack.
 */
import type { ActionsBlock, Button, ContextBlock, DividerBlock, HeaderBlock, KnownBlock, MrkdwnElement, SectionBlock } from '@slack/types';
import { plain, truncate } from './mrkdwn.js';

/** A message as chat.postMessage, chat.update and respond() take it. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

/** Slack's own Block Kit types, so a malformed block fails to compile rather than at Slack. */
export type Block = KnownBlock;
export type { ActionsBlock, Button, ContextBlock, MrkdwnElement, SectionBlock };

/** Limits from spec/slack-reference.md §3. */
export const LIMITS = { sectionText: 3000, header: 150, blocks: 50, field: 2000, buttonText: 75 } as const;

export function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } };
}

export function header(text: string): HeaderBlock {
  return { type: 'header', text: plain(text, LIMITS.header) };
}

export function context(text: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) }] };
}

export function fields(pairs: Array<[string, string | undefined]>): SectionBlock {
  const present = pairs.filter((p): p is [string, string] => !!p[1]).slice(0, 10);
  return {
    type: 'section',
    fields: present.map(([k, v]): MrkdwnElement => ({ type: 'mrkdwn', text: truncate(`*${k}*\n${v}`, LIMITS.field) })),
  };
}


export const divider: DividerBlock = { type: 'divider' };
