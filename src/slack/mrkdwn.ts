/**
 * Slack text helpers. Anything from the cluster (names, owners, Run:ai messages) is untrusted:
 * `&`, `<` and `>` must be escaped or Slack reads them as mentions (`<!channel>`) and links.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Inline code for a short value: escaped, one line, no backticks to break out of it. */
export function inlineCode(text: string, max = 200): string {
  const flat = escapeMrkdwn(text.replace(/[\r\n\t]+/g, ' ').replace(/`/g, "'"));
  return `\`${truncate(flat, max)}\``;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Plain text for headers and buttons: no mrkdwn, within the limit. */
export function plain(text: string, max: number): { type: 'plain_text'; text: string; emoji: boolean } {
  return { type: 'plain_text', text: truncate(text.replace(/[\r\n]+/g, ' '), max), emoji: true };
}

/** Slack's date formatting: every reader sees their own local time; the fallback names the zone. */
export function slackDate(date: Date, fallback: string, format = '{date_short_pretty} {time}'): string {
  return `<!date^${Math.floor(date.getTime() / 1000)}^${format}|${escapeMrkdwn(fallback)}>`;
}
