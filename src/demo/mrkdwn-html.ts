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
  /** For <!date> "today"/"yesterday"/"tomorrow" and "ago"; without it dates are shown in full. */
  now?: Date;
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
  // The resubmitted reply in an alert's thread (messages/follow-ups.ts).
  leftwards_arrow_with_hook: '↩️',
  broom: '🧹',
  memo: '📝',
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
  if (target.startsWith('!date^')) {
    const [, seconds, format] = target.split('^');
    const shown = /^\d+$/.test(seconds ?? '') && format ? formatSlackDate(Number(seconds), decodeSlackEntities(format), ctx.now) : undefined;
    return `<span class="date">${shown !== undefined ? escapeHtml(shown) : textHtml(label ?? target)}</span>`;
  }
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

/** Stand-ins for code spans and <…> tokens while emphasis is applied around them (private-use characters). */
const HOLE_OPEN = '\uE000';
const HOLE_CLOSE = '\uE001';

/**
 * Inline text: `code` spans and <…> tokens are rendered first and held out as placeholders,
 * so that emphasis may span them (`*Log of `x`*` is bold around the code, as in Slack) but
 * never reaches into them; then escaping, emphasis and emoji on the whole.
 */
function inlineHtml(text: string, ctx: MrkdwnContext, tokens = true): string {
  const held: string[] = [];
  const pattern = tokens ? /`([^`\n]+)`|<([^<>\n]+)>/g : /`([^`\n]+)`/g;
  const clean = text.replace(/[\uE000\uE001]/g, '\uFFFD');
  const withHoles = clean.replace(pattern, (_whole, code: string | undefined, token: string | undefined) => {
    held.push(code !== undefined ? `<code>${textHtml(code)}</code>` : angleTokenHtml(token!, ctx));
    return `${HOLE_OPEN}${held.length - 1}${HOLE_CLOSE}`;
  });
  return emojiHtml(emphasisHtml(textHtml(withHoles)))
    .replace(/\n/g, '<br>')
    .replace(/\uE000(\d+)\uE001/g, (_whole, i: string) => held[Number(i)]);
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

function ago(ms: number): string {
  const future = ms < 0;
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const [n, unit] = minutes < 1 ? [0, ''] : minutes < 60 ? [minutes, 'minute'] : minutes < 2880 ? [Math.round(minutes / 60), 'hour'] : [Math.round(minutes / 1440), 'day'];
  if (!unit) return 'just now';
  const amount = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${amount}` : `${amount} ago`;
}

/**
 * A <!date^seconds^format|fallback> as Slack shows it, in UTC like the rest of the page:
 * {date_num}, {date}, {date_short}, {date_long}, their _pretty forms (today, yesterday,
 * tomorrow when `now` is known), {time}, {time_secs} and {ago}. Unknown tokens stay as written.
 */
export function formatSlackDate(seconds: number, format: string, now?: Date): string {
  const date = new Date(seconds * 1000);
  const y = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const iso = date.toISOString();
  const full = `${MONTHS[month]} ${ordinal(day)}, ${y}`;
  const short = `${MONTHS[month].slice(0, 3)} ${day}, ${y}`;
  const long = `${WEEKDAYS[date.getUTCDay()]}, ${full}`;
  const pretty = (otherwise: string) => {
    if (!now) return otherwise;
    const days = Math.round((Date.UTC(y, month, day) - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) / DAY_MS);
    return ({ [-1]: 'yesterday', 0: 'today', 1: 'tomorrow' } as Record<number, string>)[days] ?? otherwise;
  };
  const tokens: Record<string, () => string> = {
    date_num: () => iso.slice(0, 10),
    date: () => full,
    date_short: () => short,
    date_long: () => long,
    date_pretty: () => pretty(full),
    date_short_pretty: () => pretty(short),
    date_long_pretty: () => pretty(long),
    time: () => `${iso.slice(11, 16)} UTC`,
    time_secs: () => `${iso.slice(11, 19)} UTC`,
    ago: () => (now ? ago(now.getTime() - date.getTime()) : `${short} ${iso.slice(11, 16)} UTC`),
  };
  const shown = format.replace(/\{([a-z_]+)\}/g, (whole, name: string) => tokens[name]?.() ?? whole);
  return shown.charAt(0).toUpperCase() + shown.slice(1);
}
