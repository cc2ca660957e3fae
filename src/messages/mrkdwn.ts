/**
 * Slack text helpers. Anything from the cluster (names, owners, commands, Run:ai messages) is
 * untrusted: it goes through the text pipeline (src/triage/sanitize.ts), which cleans,
 * redacts and escapes it for its destination.
 */
import type { PlainTextElement } from '@slack/types';
import { forInlineCode, forMrkdwn, forPlainText } from '../triage/sanitize.js';

export { forCodeBlock, forInlineCode, forMrkdwn, forPlainText } from '../triage/sanitize.js';

/**
 * @deprecated use forMrkdwn. Kept, and routed through the pipeline, so that code written
 * against the old name (on other branches) is safe too.
 */
export function escapeMrkdwn(text: string): string {
  return forMrkdwn(text, Number.MAX_SAFE_INTEGER);
}

/** @deprecated use forInlineCode (same pipeline). */
export function inlineCode(text: string, max = 200): string {
  return forInlineCode(text, max);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Plain text for headers and buttons: cleaned and redacted, no mrkdwn, within the limit. */
export function plain(text: string, max: number): PlainTextElement {
  return { type: 'plain_text', text: forPlainText(text, max), emoji: true };
}

/** Slack's date formatting: every reader sees their own local time; the fallback names the zone. */
export function slackDate(date: Date, fallback: string, format = '{date_short_pretty} {time}'): string {
  return `<!date^${Math.floor(date.getTime() / 1000)}^${format}|${forMrkdwn(fallback)}>`;
}
