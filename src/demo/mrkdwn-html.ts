/**
 * Slack mrkdwn → HTML, as the Slack client would show it: ```code blocks```, `code`, *bold*,
 * _italic_, ~strike~, <url|text> links, <@U…> mentions, <!date…|fallback>, :emoji: and the
 * &amp; &lt; &gt; escapes. Pure. Everything the bot posts may quote workload logs, so every
 * piece of text is HTML-escaped and only http(s)/mailto links become anchors.
 */

export interface MrkdwnContext {
  /** Slack user id → display name, for <@U…> mentions. */
  userName(id: string): string | undefined;
  /** Slack channel id → name, for <#C…> references. */
  channelName(id: string): string | undefined;
}

/** The emoji the bot uses (and a few common ones); others stay as :name: like an unknown custom emoji. */
const EMOJI: Readonly<Record<string, string>> = {
  x: '❌',
  double_vertical_bar: '⏸️',
  hourglass_flowing_sand: '⏳',
  gear: '⚙️',
  arrow_forward: '▶️',
  white_check_mark: '✅',
  wastebasket: '🗑️',
  repeat: '🔁',
  wrench: '🔧',
  warning: '⚠️',
  calendar: '📆',
  date: '📅',
  spiral_calendar_pad: '🗓️',
  construction: '🚧',
  rotating_light: '🚨',
  bulb: '💡',
  floppy_disk: '💾',
  tools: '🛠️',
  hammer_and_wrench: '🛠️',
  information_source: 'ℹ️',
  mag: '🔍',
  bell: '🔔',
  no_bell: '🔕',
  clock3: '🕒',
  zzz: '💤',
  rocket: '🚀',
};

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Slack escapes exactly these three in message text. */
function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Text as HTML: Slack's entities decoded, then everything escaped for HTML. */
function textHtml(text: string): string {
  return escapeHtml(decodeSlackEntities(text));
}

export function emojiHtml(escapedHtml: string): string {
  return escapedHtml.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => EMOJI[name] ?? whole);
}

function safeHref(url: string): string | undefined {
  const decoded = decodeSlackEntities(url).trim();
  return /^(https?:\/\/|mailto:)/i.test(decoded) ? escapeHtml(decoded) : undefined;
}

/** One <…> token: a link, mention, channel, special mention or date. */
function angleTokenHtml(inner: string, ctx: MrkdwnContext): string {
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? inner.slice(bar + 1) : undefined;
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return `<span class="mention">@${escapeHtml(ctx.userName(id) ?? label ?? id)}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return `<span class="mention">#${escapeHtml(ctx.channelName(id) ?? label ?? id)}</span>`;
  }
  if (target.startsWith('!date^')) return `<span class="date">${textHtml(label ?? target)}</span>`;
  if (target.startsWith('!')) {
    const name = target.slice(1).split('^')[0];
    return `<span class="mention">@${escapeHtml(label ?? name)}</span>`;
  }
  const href = safeHref(target);
  const shown = inlineHtml(label ?? target, ctx, false);
  return href ? `<a href="${href}" target="_blank" rel="noopener noreferrer">${shown}</a>` : shown;
}

/** Bold, italic and strike on already escaped HTML: Slack wants the markers at word edges. */
function emphasisHtml(html: string): string {
  const edge = String.raw`(^|[\s(\[{;"'.,:!?\/-])`;
  const after = String.raw`(?=$|[\s)\]}&"'.,;:!?\/-])`;
  const wrap = (marker: string, tag: string) =>
    new RegExp(`${edge}\\${marker}(?=\\S)([^${marker}\\n]*?\\S)\\${marker}${after}`, 'g');
  return html
    .replace(wrap('*', 'b'), '$1<b>$2</b>')
    .replace(wrap('_', 'i'), '$1<i>$2</i>')
    .replace(wrap('~', 's'), '$1<s>$2</s>');
}

/** Inline text: `code` spans, <…> tokens, then emphasis and emoji on the rest. */
function inlineHtml(text: string, ctx: MrkdwnContext, tokens = true): string {
  const out: string[] = [];
  const pattern = tokens ? /`([^`\n]+)`|<([^<>\n]+)>/g : /`([^`\n]+)`/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out.push(plainRunHtml(text.slice(last, m.index)));
    out.push(m[1] !== undefined ? `<code>${textHtml(m[1])}</code>` : angleTokenHtml(m[2], ctx));
    last = m.index + m[0].length;
  }
  out.push(plainRunHtml(text.slice(last)));
  return out.join('');
}

function plainRunHtml(text: string): string {
  return emojiHtml(emphasisHtml(textHtml(text))).replace(/\n/g, '<br>');
}

/** A whole mrkdwn text as HTML: code blocks first (nothing inside them is formatted). */
export function mrkdwnToHtml(text: string, ctx: MrkdwnContext): string {
  const out: string[] = [];
  let last = 0;
  for (const m of text.matchAll(/```([\s\S]*?)```/g)) {
    out.push(inlineHtml(trimNewlineEdges(text.slice(last, m.index)), ctx));
    out.push(`<pre class="code-block">${textHtml(m[1].replace(/^\n/, ''))}</pre>`);
    last = m.index + m[0].length;
  }
  out.push(inlineHtml(trimNewlineEdges(text.slice(last)), ctx));
  return out.join('');
}

/** A newline right before or after a code block is part of the block's frame, not a <br>. */
function trimNewlineEdges(text: string): string {
  return text.replace(/^\n/, '').replace(/\n$/, '');
}

/** plain_text objects: escaped; `:emoji:` shown when the object allows it. */
export function plainTextHtml(text: string, emoji: boolean): string {
  const html = escapeHtml(text).replace(/\n/g, '<br>');
  return emoji ? emojiHtml(html) : html;
}
