/**
 * The character-level steps of the text pipeline (sanitize.ts puts them in order): `cleanLine`
 * removes what a terminal would interpret or hide (ANSI, control characters, bidi overrides,
 * zero-width characters, broken UTF-16); `escapeSlack` neutralises Slack's own syntax so that
 * text can never ping a channel, mention a user, fake a link or close the code block it is
 * shown in. Every regex here is bounded: they run on lines already cut to a bounded length.
 */
/** One escape sequence, tried where an ESC was found (sticky, bounded): CSI, OSC, or a lone ESC and its next byte. */
const ANSI_AT = /\x1b\[[0-?]{0,64}[ -/]{0,16}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?|\x1b[@-_]?/y;
const REPLACEMENT = '\ufffd';

/**
 * What happens to a character: kept (0), removed (1), replaced by U+FFFD (2).
 * Invisible format characters are removed, not replaced: a secret split by a bidi override or
 * a zero-width space must come out whole so that redaction can see it. Bidi controls are those
 * of "Trojan source" attacks; then zero-width spaces and joiners, word joiner and invisible
 * operators, the BOM, the soft hyphen and the Mongolian vowel separator. C0 controls except
 * tab, DEL and C1 controls are shown as a replacement character.
 */
function actionOf(code: number): 0 | 1 | 2 {
  if (code >= 0x20 && code < 0x7f) return 0;
  if (code < 0x20) return code === 0x09 ? 0 : 2;
  if (code <= 0x9f) return 2;
  if (code === 0xad || code === 0x61c || code === 0x180e || code === 0xfeff) return 1;
  if ((code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x2069)) return 1;
  return 0;
}
/** The line without its ANSI escape sequences, and nothing else changed (triage reads it so). */
export function stripAnsi(line: string): string {
  if (!line.includes('\x1b')) return line;
  let out = '';
  let from = 0;
  for (let at = line.indexOf('\x1b'); at !== -1; at = line.indexOf('\x1b', from)) {
    out += line.slice(from, at);
    ANSI_AT.lastIndex = at;
    from = ANSI_AT.exec(line) ? ANSI_AT.lastIndex : at + 1;
  }
  return out + line.slice(from);
}

/**
 * Where the last redraw of a line starts and ends: a progress bar (tqdm) rewrites its line
 * with carriage returns, and a terminal shows only what was drawn last. Blank redraws after it
 * (a bar cleared before the next line) are not what stays on screen, so the last piece that is
 * not blank counts. One backward pass over the line, whatever it holds.
 */
export function lastRedrawSpan(line: string): { start: number; end: number } {
  let end = line.length;
  for (let cr = line.lastIndexOf('\r'); cr !== -1; cr = end > 0 ? line.lastIndexOf('\r', end - 1) : -1) {
    for (let i = cr + 1; i < end; i++) if (!isBlank(line.charCodeAt(i))) return { start: cr + 1, end };
    end = cr;
  }
  return { start: 0, end };
}

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;

/** What a terminal shows of a line redrawn with carriage returns: its last redraw. */
export function lastRedraw(line: string): string {
  if (!line.includes('\r')) return line;
  const { start, end } = lastRedrawSpan(line);
  return line.slice(start, end);
}

/** Default cut for one line shown to a person. */
export const MAX_LINE_CHARS = 300;

/**
 * One pass over the line, character by character: regex replacements cost a call per match,
 * which a line of ten thousand zero-width spaces turns into the bulk of the work.
 */
export function cleanLine(line: string): string {
  let out = '';
  let from = 0;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const code = line.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f) continue;
    let action: 0 | 1 | 2;
    let skip = 1;
    if (code === 0x1b) {
      ANSI_AT.lastIndex = i;
      skip = ANSI_AT.exec(line)?.[0].length ?? 1;
      action = 1;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = line.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      action = 2;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      action = 2;
    } else {
      action = actionOf(code);
      if (action === 0) continue;
    }
    out += line.slice(from, i) + (action === 2 ? REPLACEMENT : '');
    from = i + skip;
    i += skip - 1;
  }
  return from === 0 ? line : out + line.slice(from);
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair, marking the cut. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  let end = Math.max(0, max - 1);
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}

/** Token characters: a cut inside a run of them drops the whole run (half a secret is still one). */
function isTokenChar(code: number): boolean {
  return code > 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0x9f) && code !== 0x3c && code !== 0x3e && code !== 0x22 && code !== 0x27;
}

/** Credentials are shorter than this; a longer run at a cut is a blob or a bar, kept in part. */
const CUT_BACKOFF = 1024;

/**
 * The first `max` characters of a raw line, cut before any pattern runs, without the partial
 * word at the cut: a secret cut in two would no longer match its rule but still leak its
 * first half. A plain loop, not `/\S*$/`, which is quadratic on a long run followed by a space.
 */
export function cutForScan(line: string, max: number): string {
  if (line.length <= max) return line;
  let end = max;
  if (isTokenChar(line.charCodeAt(end))) {
    const floor = Math.max(0, max - CUT_BACKOFF);
    while (end > floor && isTokenChar(line.charCodeAt(end - 1))) end--;
    if (end === floor && floor > 0 && isTokenChar(line.charCodeAt(end - 1))) end = max;
  }
  if (end > 0 && (line.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
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

/**
 * Escapes cleaned text for Slack mrkdwn, in or out of code: `&<>` (mentions, links), the
 * @channel words, and backticks, so that cluster text can neither open a code span that
 * swallows the message's own formatting nor close the block it is quoted in.
 */
export function escapeSlack(text: string): string {
  return text.replace(SLACK_SPECIAL, (c) => SLACK_REPLACEMENTS[c] ?? c);
}

/** Cuts escaped text without leaving half an entity or half a surrogate pair. */
export function cutEscaped(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = text.slice(0, Math.max(0, max - 1)).replace(/&[a-z]{0,3}$/, '');
  if (/[\ud800-\udbff]$/.test(out)) out = out.slice(0, -1);
  return `${out}…`;
}
