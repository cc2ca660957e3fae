/**
 * Making log text safe to show: `cleanLine` removes what a terminal would interpret (ANSI,
 * control characters, bidi overrides, broken UTF-16); `escapeForSlackCode` also neutralises
 * Slack's own syntax so that a log can never ping a channel, mention a user, fake a link or
 * close the code block it is shown in.
 */

const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?/g;
// C0 controls except tab, DEL, C1 controls, and the bidi controls of "Trojan source" attacks.
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const REPLACEMENT = '\ufffd';

/** Default cut for one line shown to a person. */
export const MAX_LINE_CHARS = 300;

export function cleanLine(line: string): string {
  let out = line;
  if (out.includes('\x1b')) out = out.replace(ANSI, '');
  return out.replace(CONTROL, REPLACEMENT).replace(LONE_SURROGATE, REPLACEMENT);
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair, marking the cut. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  let end = Math.max(0, max - 1);
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}

const SLACK_SPECIAL = /[&<>`]|@(?=(?:channel|here|everyone)\b)/gi;
const SLACK_REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  // A modifier letter that looks like a backtick: no run of them can close the code block.
  '`': 'ˋ',
  '@': '@\u200b',
};

function escapeLine(line: string, maxLineChars: number): string {
  return cutLine(cleanLine(line), maxLineChars).replace(SLACK_SPECIAL, (c) => SLACK_REPLACEMENTS[c] ?? c);
}

/** Cuts escaped text without leaving half an entity or half a surrogate pair. */
function cutEscaped(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = text.slice(0, Math.max(0, max - 1)).replace(/&[a-z]{0,3}$/, '');
  if (/[\ud800-\udbff]$/.test(out)) out = out.slice(0, -1);
  return `${out}…`;
}

/**
 * Text for the inside of a ``` block, at most `maxChars` characters. Long lines are cut;
 * when the whole does not fit, the last lines are kept (the end of a log matters most) under
 * a line saying how many were left out.
 */
export function escapeForSlackCode(text: string, maxChars: number, maxLineChars = MAX_LINE_CHARS): string {
  if (maxChars <= 0 || text.length === 0) return '';
  const lines = text.split(/\r\n|\r|\n/);
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const escaped = escapeLine(lines[i], maxLineChars);
    const added = escaped.length + (kept.length > 0 ? 1 : 0);
    const omission = i > 0 ? `… ${i} earlier line${i === 1 ? '' : 's'} not shown\n`.length : 0;
    if (size + added + omission > maxChars) {
      if (kept.length === 0) return cutEscaped(escaped, maxChars);
      const note = `… ${i + 1} earlier line${i === 0 ? '' : 's'} not shown`;
      return size + note.length + 1 <= maxChars ? `${note}\n${kept.reverse().join('\n')}` : kept.reverse().join('\n');
    }
    kept.push(escaped);
    size += added;
  }
  return kept.reverse().join('\n');
}
