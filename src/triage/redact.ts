/**
 * Secret redaction for any text the bot shows or stores. Each rule replaces what it matches
 * with a marker naming what was removed (`[REDACTED:github-token]`). The rules are broad on
 * purpose: a false positive costs a few characters of log, a leak costs a credential.
 *
 * Why hand-written rules rather than a secret-scanning library (secretlint, detect-secrets
 * ports): those are asynchronous and per-file, while every renderer here is a synchronous
 * pure function; they report findings instead of rewriting text; and their patterns are not
 * written for untrusted input at line speed. Every pattern below is bounded (`{0,N}`, never
 * `*` or `+` over an open class) and token patterns are anchored at the start of a run of
 * token characters (a one-character lookbehind), so each run is scanned once per rule and a
 * line costs time linear in its length whatever it holds (see bench/redos.ts).
 *
 * `redactLine` works on ONE line that the caller already cut to a bounded length (see
 * sanitize.ts); `redact` takes multi-line text and carries the state "inside a private-key
 * block" from line to line.
 */
import { cleanLine } from './escape.js';

export const marker = (kind: string): string => `[REDACTED:${kind}]`;

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Builds the replacement; by default the whole match becomes the marker. */
  replace?: (match: string, ...groups: string[]) => string;
  /**
   * Cheap test first: a line whose lowercased copy holds none of these cannot match the rule.
   * Literals found with indexOf, not a regex alternation: V8 scans for one literal at memchr
   * speed, while an alternation is tried alternative by alternative at every position.
   */
  needs: readonly string[];
}

/** Longest line a pattern ever sees (callers cut before; redactLine enforces it too). */
export const MAX_REDACT_LINE_CHARS = 8192;

// Key names whose value is a secret: `password=…`, `"client_secret": "…"`, `HF_TOKEN=…`,
// `AccountKey=…`. The name must END with the secret word, so `max_tokens` or `tokenizer`
// stay readable. The key is found from the start of its run of name characters, at most
// KEY_PREFIX characters before the secret word: a longer dotted path is cut there.
const SECRET_WORD = String.raw`(?:pass(?:word|wd|phrase)?|pwd|secret(?:[_-]?(?:access[_-]?)?key)?|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|auth(?:[_-]?key)?|credentials?|private[_-]?key(?:[_-]?id)?|session[_-]?key|cookie|account[_-]?key|shared[_-]?access[_-]?(?:key|signature)|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?key|license[_-]?key|connection[_-]?string)`;
// Command-line flags are read more broadly: any flag whose name ends in "key" takes a secret
// (`--wandb-key`, `--ngc_key`), as does `--password`, `--hf-token` and the like.
const FLAG_WORD = String.raw`(?:${SECRET_WORD}|key)`;
const KEY_PREFIX = 100;
const NAME_START = String.raw`(?<![\w.-])`;
const KEY = String.raw`${NAME_START}([\w.-]{0,${KEY_PREFIX}}?${SECRET_WORD})`;
const FLAG = String.raw`(?<![\w-])(--?[\w.-]{0,${KEY_PREFIX}}?${FLAG_WORD})`;
/** Literals one of which every key name above holds (lowercase). */
const SECRET_NEEDS = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential', 'cookie', 'signature', 'connection'];
const VALUE_MAX = 1024;
const QUOTED_VALUE = String.raw`"(?:[^"\\]|\\.){0,${VALUE_MAX}}"?|'[^']{0,${VALUE_MAX}}'?`;
const BARE_VALUE = String.raw`[^\s"',;&}\]]{1,${VALUE_MAX}}`;
const VALUE = `(${QUOTED_VALUE}|${BARE_VALUE})`;
/** Characters a token is made of; a token rule starts only where a run of them starts. */
const TOKEN_START = String.raw`(?<![A-Za-z0-9_+/=.-])`;

function keepQuotes(value: string, kind: string): string {
  const q = value[0] === '"' || value[0] === "'" ? value[0] : '';
  return `${q}${marker(kind)}${q}`;
}

const RULES: readonly Rule[] = [
  // A key block that begins and ends on this line; one that does not end is handled by the
  // line-to-line state in `redact` and the archive's LineRedactor.
  {
    kind: 'private-key',
    needs: ['private key'],
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!----END)){0,16384}(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    kind: 'private-key',
    needs: ['private_key"'],
    pattern: /("private_key"[ \t]{0,8}:[ \t]{0,8})"(?:[^"\\]|\\.){0,16384}"?/g,
    replace: (_m, key) => `${key}"${marker('private-key')}"`,
  },
  { kind: 'slack-token', needs: ['xox', 'xapp-'], pattern: /\bxox[abposre]-[A-Za-z0-9-]{8,512}|\bxapp-\d-[A-Za-z0-9-]{8,512}/g },
  { kind: 'slack-webhook', needs: ['hooks.slack'], pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{1,256}/g },
  { kind: 'github-token', needs: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], pattern: /\bgh[pousr]_[A-Za-z0-9]{20,255}|\bgithub_pat_[A-Za-z0-9_]{20,255}/g },
  { kind: 'gitlab-token', needs: ['glpat-'], pattern: /\bglpat-[A-Za-z0-9_-]{20,255}/g },
  { kind: 'huggingface-token', needs: ['hf_'], pattern: /\bhf_[A-Za-z0-9]{20,255}/g },
  // NVIDIA NGC personal and service keys (`docker login nvcr.io -p nvapi-…`, NGC_API_KEY).
  { kind: 'ngc-key', needs: ['nvapi-'], pattern: /\bnvapi-[A-Za-z0-9_-]{20,255}/g },
  { kind: 'anthropic-key', needs: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{16,255}/g },
  { kind: 'openai-key', needs: ['sk-'], pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/g },
  { kind: 'stripe-key', needs: ['_live_', '_test_', 'whsec_'], pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,255}|\bwhsec_[A-Za-z0-9]{20,255}/g },
  { kind: 'npm-token', needs: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{30,255}/g },
  { kind: 'google-api-key', needs: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{30,255}/g },
  { kind: 'google-oauth-token', needs: ['ya29.'], pattern: /\bya29\.[0-9A-Za-z_-]{20,2048}/g },
  // An AWS secret key printed bare next to its access key id (`aws configure set …`,
  // `AKIA… wJalr…`): 40 base64 characters on a line that names an access key id. Must run
  // before the id itself is replaced by its marker.
  {
    kind: 'aws-secret-key',
    needs: ['akia', 'asia'],
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    replace: (m) => (/[A-Z]/.test(m) && /[a-z]/.test(m) && /[0-9/+]/.test(m) ? marker('aws-secret-key') : m),
  },
  { kind: 'aws-access-key', needs: ['akia', 'asia', 'agpa', 'aida', 'aroa', 'anpa', 'anva', 'aipa'], pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  {
    kind: 'aws-secret-key',
    needs: ['secret', 'session'],
    pattern: /((?:aws_?)?(?:secret_?access_?key|session_?token|SecretAccessKey|SessionToken)["']?[ \t]{0,8}[=:][ \t]{0,8}["']?)[A-Za-z0-9/+=]{16,2048}/gi,
    replace: (_m, key) => `${key}${marker('aws-secret-key')}`,
  },
  // A 40-hex W&B key anywhere on a line that mentions wandb (`wandb login 0123…`).
  { kind: 'wandb-key', needs: ['wandb'], pattern: /\b[0-9a-f]{40}\b/gi },
  { kind: 'jwt', needs: ['eyj'], pattern: new RegExp(String.raw`${TOKEN_START}eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{0,4096}`, 'g') },
  // Azure storage: connection strings and SAS query signatures.
  {
    kind: 'azure-key',
    needs: ['accountkey', 'sharedaccesskey', 'sig='],
    pattern: /\b((?:AccountKey|SharedAccessKey)=|[?&]sig=)([^\s;&"']{8,1024})/gi,
    replace: (_m, key) => `${key}${marker('azure-key')}`,
  },
  {
    kind: 'bearer-token',
    needs: ['bearer', 'basic', 'token', 'digest'],
    pattern: /\b(Bearer|Basic|Token|Digest)([ \t]{1,8})(?!\[REDACTED)[A-Za-z0-9._~+/=-]{8,4096}/g,
    replace: (_m, scheme, space) => `${scheme}${space}${marker('bearer-token')}`,
  },
  {
    kind: 'authorization',
    needs: ['authorization', 'authorisation'],
    pattern: /\b((?:proxy-)?authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)(?!\[REDACTED|Bearer |Basic |Token |Digest )[^\s"',;]{4,4096}/gi,
    replace: (_m, key) => `${key}${marker('authorization')}`,
  },
  {
    // user:password@ in a URL. The user part stops at `:`, the password at `/` and `@`, so the
    // parts scanned from two different `://` never overlap.
    kind: 'url-password',
    needs: ['://'],
    pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:@/]{0,256}:)(?!\[REDACTED)[^\s@/]{1,256}@/gi,
    replace: (_m, head) => `${head}${marker('password')}@`,
  },
  {
    // curl -u user:password, wget --user=… --password=… is a flag below.
    kind: 'password',
    needs: ['-u'],
    pattern: /((?:^|\s)(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"']{0,128}:)(?!\[REDACTED)([^\s"']{1,1024})/g,
    // `docker run -u 1000:1000` is a uid:gid, not a password.
    replace: (m, head, value: string) => (/^\d+$/.test(value) ? m : `${head}${marker('password')}`),
  },
  {
    // docker/podman/helm login -p VALUE (NGC: `docker login nvcr.io -u '$oauthtoken' -p …`).
    kind: 'password',
    needs: ['login'],
    pattern: /(\blogin\b[^\n;&|]{0,256}?[ \t]-p(?:[ \t]{1,8}|=))(?!\[REDACTED)((?:"(?:[^"\\]|\\.){0,1024}"?|'[^']{0,1024}'?|[^\s"']{1,1024}))/g,
    replace: (_m, head, value: string) => `${head}${keepQuotes(value, 'password')}`,
  },
  {
    // mysql -uUSER -pPASSWORD (attached: a separate word after -p is the database name).
    kind: 'password',
    needs: ['mysql', 'mariadb'],
    pattern: /(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n;&|]{0,256}?[ \t]-p)(?!\[REDACTED)([^\s"']{1,1024}|"(?:[^"\\]|\\.){0,1024}"?|'[^']{0,1024}'?)/g,
    replace: (_m, head, value: string) => `${head}${keepQuotes(value, 'password')}`,
  },
  {
    kind: 'secret-flag',
    needs: SECRET_NEEDS,
    pattern: new RegExp(String.raw`${FLAG}(=|[ \t]{1,8})(?!\[REDACTED|-)${VALUE}`, 'gi'),
    replace: (_m, flag, sep, value: string) => `${flag}${sep}${keepQuotes(value, kindOfKey(flag))}`,
  },
  {
    kind: 'secret-pair',
    needs: SECRET_NEEDS,
    pattern: new RegExp(String.raw`${KEY}(["']?[ \t]{0,8}[=:][ \t]{0,8})(?!\[REDACTED|\s)${VALUE}`, 'gi'),
    replace: (_m, key, sep, value: string) => `${key}${sep}${keepQuotes(value, kindOfKey(key))}`,
  },
];

// A PEM body line whose BEGIN line is out of sight (a cut log, a tail): a long run of base64
// alone on a line, optionally after a timestamp or prefix. Checked by hand on the whole line:
// a run of hex (a git SHA, a checksum) is not key material and stays.
const BASE64_LINE = /^([ \t]{0,64}(?:[^\s]{1,64}[ \t]{1,8})?)([A-Za-z0-9+/]{40,4096}={0,2})[ \t]{0,64}$/;

function kindOfKey(key: string): string {
  const k = key.toLowerCase();
  if (/pass|pwd/.test(k)) return 'password';
  if (/token|auth|cookie|session/.test(k)) return 'token';
  if (/api[_-]?key|apikey/.test(k)) return 'api-key';
  if (/private/.test(k)) return 'private-key';
  return 'secret';
}

/**
 * Finds which of the rules' literals a line holds, in one pass. A regex alternation of ~50
 * literals, or 50 calls of includes(), costs 40-50 ms per MB on text such as `a:a:a:…`, where
 * the first letters of many literals occur everywhere; here each position costs one table
 * look-up on its first two characters, and only a literal starting with those two is compared.
 */
class LiteralSet {
  private readonly buckets: string[][] = [];
  private readonly bucketOf = new Int16Array(128 * 128).fill(-1);

  constructor(literals: Iterable<string>) {
    for (const literal of new Set(literals)) {
      const key = ((literal.charCodeAt(0) & 0x7f) << 7) | (literal.charCodeAt(1) & 0x7f);
      if (this.bucketOf[key] < 0) {
        this.bucketOf[key] = this.buckets.length;
        this.buckets.push([]);
      }
      this.buckets[this.bucketOf[key]].push(literal);
    }
  }

  /** The literals found in `lower` (already lowercased), or null when none is. */
  found(lower: string): Set<string> | null {
    let out: Set<string> | null = null;
    const last = lower.length - 1;
    let next = lower.charCodeAt(0);
    for (let i = 0; i < last; i++) {
      const code = next;
      next = lower.charCodeAt(i + 1);
      if (code > 0x7f || next > 0x7f) continue;
      const bucket = this.bucketOf[(code << 7) | next];
      if (bucket < 0) continue;
      for (const literal of this.buckets[bucket]) {
        if (lower.startsWith(literal, i)) (out ??= new Set()).add(literal);
      }
    }
    return out;
  }
}

const LITERALS = new LiteralSet(RULES.flatMap((r) => r.needs));

/** A piece ends at the last separator within this many characters of its end, if there is one. */
const PIECE_BACKOFF = 1024;
const SEPARATOR = /[\s"'<>,;&(){}[\]|]/;

/**
 * Pieces of at most MAX_REDACT_LINE_CHARS of an over-long line, cut at a separator where one
 * is near, so that a token is not cut in two unless it is itself longer than PIECE_BACKOFF
 * (a blob, not a credential).
 */
export function pieces(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (line.length - start > MAX_REDACT_LINE_CHARS) {
    let end = start + MAX_REDACT_LINE_CHARS;
    for (let i = end - 1; i > end - PIECE_BACKOFF; i--) {
      if (SEPARATOR.test(line[i])) {
        end = i + 1;
        break;
      }
    }
    out.push(line.slice(start, end));
    start = end;
  }
  out.push(line.slice(start));
  return out;
}

/**
 * Redacts one line (no newline). No pattern sees more than MAX_REDACT_LINE_CHARS: a longer
 * line (which the pipeline's callers cut before) is redacted piece by piece.
 */
export function redactLine(line: string): string {
  // The pipeline strips before it redacts; a caller that did not must not let a colour code or
  // an invisible character split a secret past the rules. Rules run on the cleaned line, and a
  // line without a secret comes back exactly as it came (the archive keeps such lines' bytes).
  const clean = HIDDEN.test(line) ? cleanLine(line) : line;
  const out = clean.length > MAX_REDACT_LINE_CHARS ? pieces(clean).map(redactPiece).join('') : redactPiece(clean);
  return out === clean ? line : out;
}

/** What cleanLine removes or replaces: ESC and other controls, and invisible format characters. */
const HIDDEN = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

function redactPiece(line: string): string {
  let out = line;
  // Found once: a literal that an earlier rule replaced only makes a later rule run for nothing.
  const found = LITERALS.found(out.toLowerCase());
  if (found) {
    for (const rule of RULES) {
      if (!rule.needs.some((n) => found.has(n))) continue;
      rule.pattern.lastIndex = 0;
      out = rule.replace
        ? out.replace(rule.pattern, rule.replace as (substring: string, ...args: string[]) => string)
        : out.replace(rule.pattern, marker(rule.kind));
    }
  }
  // Anchored at the line's start: one attempt per line, whatever the line holds.
  const blob = out.length >= 40 ? BASE64_LINE.exec(out) : null;
  if (blob && !/^[0-9a-f]+$/i.test(blob[2])) out = `${blob[1]}${marker('base64-blob')}`;
  return out;
}

/** The armour lines of a PEM private key; triage's scanner uses the same ones to skip key blocks. */
export const KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
export const KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
/** What may sit inside a PEM block: base64 lines, blank lines, RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`). */
const KEY_BODY = /^[ \t]{0,64}(?:[A-Za-z0-9+/=]{0,4096}|[A-Za-z-]{1,64}:[^\n]{0,1024})[ \t]{0,64}$/;
/** A PEM key body is under 100 lines even for RSA-8192; past this the block is taken as ended. */
const MAX_KEY_LINES = 200;

/**
 * The state "inside a private-key block", carried from line to line. `next` answers what to
 * show of a line: the redacted line, or null for a line of key material that disappears.
 */
export class KeyBlockState {
  private inKey = false;
  private keyLines = 0;

  next(line: string): string | null {
    if (this.inKey) {
      const end = KEY_END.exec(line);
      if (end) {
        this.inKey = false;
        const rest = line.slice(end.index + end[0].length);
        return rest.trim() ? redactLine(rest) : null;
      }
      if (KEY_BODY.test(line) && ++this.keyLines <= MAX_KEY_LINES) return null;
      // Not key material: the block was cut short; this line is an ordinary one again.
      this.inKey = false;
    }
    const begin = KEY_BEGIN.exec(line);
    if (begin && !KEY_END.test(line.slice(begin.index))) {
      this.inKey = true;
      this.keyLines = 0;
      return redactLine(line.slice(0, begin.index)) + marker('private-key');
    }
    return redactLine(line);
  }
}

/**
 * Redacts text of any number of lines. A multi-line private key collapses to one marker line;
 * an unterminated one is removed to its last body line.
 */
export function redact(text: string): string {
  if (!text.includes('\n')) return redactLine(text);
  const state = new KeyBlockState();
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const cr = line.endsWith('\r');
    const shown = state.next(cr ? line.slice(0, -1) : line);
    if (shown !== null) out.push(cr ? `${shown}\r` : shown);
  }
  return out.join('\n');
}
