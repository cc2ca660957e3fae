/**
 * The one pipeline for every piece of workload text the bot shows or stores: log lines, the
 * command and its arguments, names, owners, Run:ai and Kubernetes messages, CR fields.
 *
 *   decode → the last redraw of a line (a progress bar's \r) → cut to a bounded length
 *          → strip control, ANSI, bidi and invisible characters → redact secrets
 *          → escape for the destination
 *
 * Stripping comes before redaction so that a colour code or a zero-width space inside a
 * secret cannot hide it (`ESC[32mpassword ESC[0m=hunter2`); cutting comes before everything so
 * that no pattern ever sees more than MAX_SCAN_CHARS of one line, whatever the cluster sends.
 * One exported function per destination; call sites use these and nothing lower.
 */
import { cleanLine, cutEscaped, cutForScan, cutLine, escapeSlack, lastRedraw, lastRedrawSpan, MAX_LINE_CHARS } from './escape.js';
import { KeyBlockState, MAX_REDACT_LINE_CHARS, pieces, redactLine } from './redact.js';

/** Where text goes; each has its own escaping. */
export type Destination =
  /** Inside a mrkdwn `text` (a section, a context, a message's fallback text). */
  | 'mrkdwn'
  /** Inside single backticks in mrkdwn: one line, no backtick. */
  | 'inline_code'
  /** Inside a ``` block in mrkdwn. */
  | 'code_block'
  /** A plain_text object (header, button): shown literally by Slack, never parsed. */
  | 'plain_text'
  /** A file on disk (the log archive): not escaped, lines without secrets kept as they were. */
  | 'file';

export const DESTINATIONS: readonly Destination[] = ['mrkdwn', 'inline_code', 'code_block', 'plain_text', 'file'];

/** Longest piece of one line that any pattern (strip or redact) ever sees. */
export const MAX_SCAN_CHARS = 4096;

const NEWLINE = /\r?\n/;

/** Bytes are decoded as UTF-8 (invalid sequences become U+FFFD); strings are taken as they are. */
export function decode(input: string | Uint8Array): string {
  return typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
}

/**
 * One line as a terminal shows it (its last redraw), cut, cleaned and redacted: what may be
 * shown of it before escaping. The redraw is taken before the cut, so that a bar redrawn a
 * thousand times shows its end, not its first redraws.
 */
export function safeLine(raw: string, max = MAX_SCAN_CHARS): string {
  return redactLine(cleanLine(cutForScan(lastRedraw(raw), Math.min(max, MAX_SCAN_CHARS))));
}

/** Lines cut, cleaned and redacted, a private-key block collapsed to one marker line. */
export function safeLines(text: string | Uint8Array): string[] {
  const lines = decode(text).split(NEWLINE);
  const state = new KeyBlockState();
  const out: string[] = [];
  for (const raw of lines) {
    const shown = state.next(cleanLine(cutForScan(lastRedraw(raw), MAX_SCAN_CHARS)));
    if (shown !== null) out.push(shown);
  }
  return out;
}

/**
 * The head of a text that can still show within `max` characters: a 1 MB command line is
 * not cleaned and redacted whole to show 600 characters of it. Cut like a line (no partial
 * word at the cut), so what is dropped cannot leave half a secret behind.
 */
function headFor(text: string, max: number): string {
  return cutForScan(text, Math.min(max, 50_000) * 2 + MAX_SCAN_CHARS);
}

/** Text for a mrkdwn field: every line cleaned, redacted and escaped; at most `max` characters. */
export function forMrkdwn(text: string | undefined | null, max = 3000): string {
  if (!text) return '';
  return cutEscaped(escapeSlack(safeLines(headFor(text, max)).join('\n')), max);
}

/** A short value as inline code (backticks included): one line, no backtick to break out of it. */
export function forInlineCode(text: string | undefined | null, max = 200): string {
  const flat = safeLines(headFor(text ?? '', max)).join(' ').replace(/[\t]+/g, ' ').replace(/`/g, "'");
  return `\`${cutEscaped(escapeSlack(cutLine(flat, max)), max + 40)}\``;
}

/** A plain_text object's text: one line, cleaned and redacted, at most `max` characters. */
export function forPlainText(text: string | undefined | null, max: number): string {
  return cutLine(safeLines(headFor(text ?? '', max)).join(' '), max);
}

/** Lines a private-key block may span: the tail kept for display starts this far back, so a block begun before it is seen. */
const KEY_LOOKBACK_LINES = 210;

/**
 * The last `count` lines of a text, cleaned and redacted, and how many came before them.
 * Only the tail is read (plus KEY_LOOKBACK_LINES for a key block begun before it), so showing
 * the end of a 1 MB log costs what the end costs.
 */
export function safeTail(text: string, count: number): { lines: string[]; before: number } {
  let start = text.length;
  let seen = 0;
  const wanted = count + KEY_LOOKBACK_LINES;
  while (seen < wanted && start > 0) {
    const nl = text.lastIndexOf('\n', start - 1);
    seen++;
    start = nl === -1 ? 0 : nl;
  }
  if (start === 0) {
    const lines = safeLines(text);
    const keep = Math.min(count, lines.length);
    return { lines: lines.slice(lines.length - keep), before: lines.length - keep };
  }
  // text[start] is the newline before the tail: count the lines before it.
  let earlier = 1;
  for (let i = text.lastIndexOf('\n', start - 1); i !== -1; i = i > 0 ? text.lastIndexOf('\n', i - 1) : -1) earlier++;
  const lines = safeLines(text.slice(start + 1));
  const keep = Math.min(count, lines.length);
  return { lines: lines.slice(lines.length - keep), before: earlier + lines.length - keep };
}

/**
 * Text for the inside of a ``` block, at most `maxChars` characters. Long lines are cut;
 * when the whole does not fit, the last lines are kept (the end of a log matters most) under
 * a line saying how many were left out.
 */
export function forCodeBlock(text: string | Uint8Array, maxChars: number, maxLineChars = MAX_LINE_CHARS): string {
  if (maxChars <= 0 || text.length === 0) return '';
  // Each shown line takes at least two characters (itself and its newline).
  const { lines, before } = safeTail(decode(text), Math.ceil(maxChars / 2) + 1);
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const escaped = escapeSlack(cutLine(lines[i], maxLineChars));
    const added = escaped.length + (kept.length > 0 ? 1 : 0);
    const earlier = before + i;
    const omission = earlier > 0 ? `… ${earlier} earlier line${earlier === 1 ? '' : 's'} not shown\n`.length : 0;
    if (size + added + omission > maxChars) {
      if (kept.length === 0) return cutEscaped(escaped, maxChars);
      const note = `… ${earlier + 1} earlier line${earlier === 0 ? '' : 's'} not shown`;
      return size + note.length + 1 <= maxChars ? `${note}\n${kept.reverse().join('\n')}` : kept.reverse().join('\n');
    }
    kept.push(escaped);
    size += added;
  }
  return kept.reverse().join('\n');
}

/** Longest piece of a file line redacted at once; longer lines are redacted piece by piece. */
export const FILE_PIECE_CHARS = MAX_REDACT_LINE_CHARS;

/**
 * A line for a file, given the state of the file so far: the cleaned and redacted line when
 * it held a secret (or key material: null, the line is dropped), else `undefined`, meaning
 * "keep the original bytes" so that an archive differs from the log only where a secret was
 * removed. Colour codes are stripped before redaction here too, so they cannot split a secret.
 * A line redrawn with carriage returns is kept whole when it holds no secret (a terminal shows
 * it as the log did); when any redraw held one, the redacted copy is its last redraw, as a
 * terminal shows it, so no carriage return turns into a replacement character.
 */
export function forFile(line: string, state: KeyBlockState): string | null | undefined {
  if (!line.includes('\r')) return forFileLine(line, state);
  const { start, end } = lastRedrawSpan(line);
  const shown = forFileLine(line.slice(start, end), state);
  // Earlier redraws are never shown, so they need no key-block state: only whether they hide a secret.
  const earlier = cleanLine(line.slice(0, start));
  if (shown !== undefined || redactLine(earlier) === earlier) return shown;
  return cleanLine(line.slice(start, end));
}

function forFileLine(line: string, state: KeyBlockState): string | null | undefined {
  if (line.length <= FILE_PIECE_CHARS) {
    const clean = cleanLine(line);
    const shown = state.next(clean);
    return shown === clean ? undefined : shown;
  }
  let changed = false;
  const out: string[] = [];
  for (const piece of pieces(line)) {
    const clean = cleanLine(piece);
    const shown = state.next(clean);
    if (shown !== clean) changed = true;
    if (shown !== null) out.push(shown);
  }
  return changed ? out.join('') : undefined;
}

/** The pipeline by destination name, for code that picks the destination at run time. */
export function sanitize(text: string, destination: Exclude<Destination, 'file'>, max: number): string {
  switch (destination) {
    case 'mrkdwn':
      return forMrkdwn(text, max);
    case 'inline_code':
      return forInlineCode(text, max);
    case 'code_block':
      return forCodeBlock(text, max);
    case 'plain_text':
      return forPlainText(text, max);
  }
}

/**
 * Text for the inside of a ``` block: kept for the callers that know it by this name; it is
 * the pipeline's code-block destination (clean, redact, escape). It lives here rather than in
 * escape.ts, which this module imports: an import back would be a cycle.
 */
export function escapeForSlackCode(text: string, maxChars: number, maxLineChars = MAX_LINE_CHARS): string {
  return forCodeBlock(text, maxChars, maxLineChars);
}
