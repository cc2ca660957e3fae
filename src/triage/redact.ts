/**
 * Secret redaction for any text the bot shows or logs. Each rule replaces what it matches
 * with a marker naming what was removed (`[REDACTED:github-token]`). The rules are broad on
 * purpose: a false positive costs a few characters of log, a leak costs a credential.
 */

export const marker = (kind: string): string => `[REDACTED:${kind}]`;

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Builds the replacement; by default the whole match becomes the marker. */
  replace?: (match: string, ...groups: string[]) => string;
}

// Key names whose value is a secret: `password=…`, `"client_secret": "…"`, `HF_TOKEN=…`.
// The name must end with the secret word, so `max_tokens` or `tokenizer` stay readable.
const SECRET_KEY = String.raw`[\w.-]*?(?:pass(?:word|wd|phrase)?|pwd|secret(?:[_-]?(?:access[_-]?)?key)?|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|auth(?:[_-]?key)?|credentials?|private[_-]?key(?:[_-]?id)?|session[_-]?key|cookie)`;
const QUOTED_VALUE = String.raw`"(?:[^"\\]|\\.)*"?|'[^']*'?`;
const BARE_VALUE = String.raw`[^\s"',;&}\]]+`;

const RULES: readonly Rule[] = [
  // Multi-line blocks first, so nothing below sees half of one. An unterminated block is
  // removed to the end of the text.
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'private-key', pattern: /("private_key"\s*:\s*)(?:"(?:[^"\\]|\\.)*"?)/g, replace: (_m, key) => `${key}"${marker('private-key')}"` },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{8,}|\bxapp-\d-[A-Za-z0-9-]{8,}/g },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]+/g },
  { kind: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{20,}/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{30,}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{30,}/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  {
    kind: 'aws-secret-key',
    pattern: /((?:aws_?)?(?:secret_?access_?key|session_?token|SecretAccessKey|SessionToken)["']?\s*[=:]\s*["']?)[A-Za-z0-9/+=]{16,}/gi,
    replace: (_m, key) => `${key}${marker('aws-secret-key')}`,
  },
  { kind: 'wandb-key', pattern: /(?<=wandb[^\n]{0,80}?)\b[0-9a-f]{40}\b/gi },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  {
    kind: 'bearer-token',
    pattern: /\b(Bearer|Basic|Token|Digest)(\s+)[A-Za-z0-9._~+/=-]{8,}/g,
    replace: (_m, scheme, space) => `${scheme}${space}${marker('bearer-token')}`,
  },
  {
    kind: 'authorization',
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?!\[REDACTED|Bearer |Basic |Token |Digest )[^\s"',;]{4,}/gi,
    replace: (_m, key) => `${key}${marker('authorization')}`,
  },
  {
    kind: 'url-password',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)\S*@/gi,
    replace: (_m, head) => `${head}${marker('password')}@`,
  },
  {
    kind: 'secret-flag',
    pattern: new RegExp(String.raw`(--${SECRET_KEY})(=|\s+)(?!\[REDACTED)(${QUOTED_VALUE}|${BARE_VALUE})`, 'gi'),
    replace: (_m, flag, sep) => `${flag}${sep}${marker(kindOfKey(flag))}`,
  },
  {
    kind: 'secret-pair',
    pattern: new RegExp(String.raw`\b(${SECRET_KEY})(["']?\s*[=:]\s*)(?!\[REDACTED|\s)(${QUOTED_VALUE}|${BARE_VALUE})`, 'gi'),
    replace: (_m, key, sep, value: string) => {
      const q = value[0] === '"' || value[0] === "'" ? value[0] : '';
      return `${key}${sep}${q}${marker(kindOfKey(key))}${q}`;
    },
  },
  // Body lines of a PEM block whose BEGIN line is out of sight (a cut log, a tail): a long
  // run of base64 alone on a line, optionally after a timestamp or prefix.
  {
    kind: 'base64-blob',
    pattern: /^(\s*(?:\S+\s+)?)[A-Za-z0-9+/]{40,}={0,2}[ \t]*$/gm,
    replace: (_m, head) => `${head}${marker('base64-blob')}`,
  },
];

function kindOfKey(key: string): string {
  const k = key.toLowerCase();
  if (/pass|pwd/.test(k)) return 'password';
  if (/token|auth|cookie|session/.test(k)) return 'token';
  if (/api[_-]?key|apikey/.test(k)) return 'api-key';
  if (/private/.test(k)) return 'private-key';
  return 'secret';
}

/** Cheap test before the rules: text without any of these cannot match a rule. */
const MAY_HOLD_SECRET = /PRIVATE KEY|private_key|xox|xapp-|hooks\.slack|gh[pousr]_|github_pat_|glpat-|hf_|sk-|npm_|AIza|A[KS]IA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|secret|session|wandb|eyJ|bearer|basic|token|digest|authori[sz]ation|:\/\/[^\s/]*@|pass|pwd|key|credential|cookie|[A-Za-z0-9+/]{40}/i;

export function redact(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    out = rule.replace
      ? out.replace(rule.pattern, rule.replace as (substring: string, ...args: string[]) => string)
      : out.replace(rule.pattern, marker(rule.kind));
  }
  return out;
}
