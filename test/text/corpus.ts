/**
 * One hostile corpus for every output path: secrets of every kind the bot redacts (each with
 * the part that must not survive), secrets split by colour codes and invisible characters,
 * Slack markup that would ping, mention or fake a link, and a huge line.
 */

export interface Secret {
  what: string;
  /** As it appears in a log line or a command. */
  text: string;
  /** What must not appear in any output. */
  leak: string;
}

const ESC = '\x1b';

export const SECRETS: Secret[] = [
  { what: 'Hugging Face flag', text: '--hf-token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123', leak: 'hf_AbCdEfGhIjKlMnOp' },
  { what: 'password flag', text: '--password Tr0ub4dor-and-3', leak: 'Tr0ub4dor' },
  { what: 'push token flag', text: '--push_token=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', leak: 'ghp_aBcDeFgHiJ' },
  { what: 'flag ending in key', text: '--wandb-key 5f3c0a7e-this-is-secret', leak: '5f3c0a7e-this' },
  { what: 'NGC key in docker login', text: "docker login nvcr.io -u '$oauthtoken' -p nvapi-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe", leak: 'nvapi-Zx9Yw8Vu7' },
  { what: 'docker login -p', text: 'docker login registry.example.org -u bob -p Pl41nP4ssw0rd', leak: 'Pl41nP4ssw0rd' },
  { what: 'curl -u', text: 'curl -u alice:Sup3rS3cretPw https://api.example.org', leak: 'Sup3rS3cretPw' },
  { what: 'mysql -p', text: 'mysql -h db -u root -pMyDbP4ss training', leak: 'MyDbP4ss' },
  { what: 'Azure AccountKey', text: 'DefaultEndpointsProtocol=https;AccountName=x;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net', leak: 'Zm9vYmFyYmF6cXV4' },
  { what: 'Azure SAS sig', text: 'https://x.blob.core.windows.net/c/f?sv=2022-11-02&sig=AbCdEf0123456789%2Bxyz&se=2026', leak: 'AbCdEf0123456789' },
  { what: 'Stripe live key', text: 'STRIPE=sk_live_4eC39HqLyjWDarjtT1zdp7dc', leak: '4eC39HqLyjWDarjtT1zdp7dc' },
  { what: 'Google OAuth token', text: 'token ya29.a0AfH6SMBx3Yz-Example_Token-0123456789', leak: 'a0AfH6SMBx3Yz' },
  { what: 'Google API key', text: 'maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW', leak: 'AIzaSyA1b2C3d4E5' },
  { what: 'AWS id and bare secret', text: 'aws configure AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', leak: 'wJalrXUtnFEMI' },
  { what: 'Slack token', text: 'SLACK=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', leak: 'AbCdEfGhIjKlMnOpQrStUvWx' },
  { what: 'JWT', text: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c', leak: 'SflKxwRJSMeKKF2QT4fw' },
  { what: 'URL password', text: 'postgres://trainer:S3cr3t-P4ss@db.internal:5432/metrics', leak: 'S3cr3t-P4ss' },
  { what: 'colour codes around password', text: `${ESC}[32mpassword ${ESC}[0m=hunter2`, leak: 'hunter2' },
  { what: 'Slack token split by a reset', text: `xoxb-123456789012-${ESC}[0m1234567890123-ZyXwVuTsRqPoNmLkJiHgFeDc`, leak: 'ZyXwVuTsRqPoNmLkJiHgFeDc' },
  { what: 'token split by a zero-width space', text: 'hf_Qw\u200bErTyUiOpAsDfGhJkLzXcVbNm99', leak: 'ErTyUiOpAsDfGhJkLzXc' },
  { what: 'key split by a bidi override', text: 'pass\u202eword=Bidi-S3cret-Value', leak: 'Bidi-S3cret' },
];

export const PRIVATE_KEY_LINES = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEogIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  '-----END RSA PRIVATE KEY-----',
];
SECRETS.push({ what: 'private key block', text: PRIVATE_KEY_LINES.join('\n'), leak: 'VTLw7onLRnrq0' });

/** Markup that must never be live in Slack output. */
export const MARKUP = ['<!channel>', '<!here>', '<@U123>', '<#C123|general>', '<http://evil.example|reset your password>', '```', '\u202e', '\u2066', '\u200b', `${ESC}[31m`];

export const HOSTILE_LINE = `${MARKUP.join(' ')} \`tick\` @channel`;

/** A log: ordinary lines, every secret, the markup, an error, a huge line. */
export function hostileLog(): string {
  return [
    'Starting training on 8 GPUs',
    ...SECRETS.map((s) => `[rank0]: ${s.text}`),
    HOSTILE_LINE,
    `${'eyJ-'.repeat(20_000)} huge`,
    'Traceback (most recent call last):',
    '  File "train.py", line 3, in <module>',
    `RuntimeError: CUDA out of memory. ${SECRETS[0].text} ${HOSTILE_LINE}`,
    ...SECRETS.slice(0, 8).map((s) => `after ${s.text}`),
    `final ${HOSTILE_LINE} ${SECRETS[1].text}`,
  ].join('\n');
}

/** The command line of a workload that passes every flag-shaped secret. */
export const HOSTILE_COMMAND = 'python train.py';
export const HOSTILE_ARGUMENTS = `${SECRETS.filter((s) => !s.text.includes('\n')).map((s) => s.text).join(' ')} ${HOSTILE_LINE}`;
export const HOSTILE_OWNER = '<!channel> <http://evil|reset your password> xoxb-123456789012-1234567890123-OwNeRsEcReTtOkEnVaLuE';
export const OWNER_LEAK = 'OwNeRsEcReTtOkEnVaLuE';

/**
 * Every string inside a value (a Slack message, a view), with where it is. Paths of
 * plain_text objects end in `.plain`: Slack shows those literally, so `<` there is no markup.
 */
export function strings(value: unknown, path = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.type === 'plain_text' && typeof o.text === 'string') return [[`${path}.plain`, o.text]];
    return Object.entries(o).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  }
  return [];
}

export function leakIn(text: string): string | undefined {
  for (const s of SECRETS) if (text.includes(s.leak)) return `leaks ${s.what}`;
  if (text.includes(OWNER_LEAK)) return 'leaks the owner token';
  return undefined;
}

/** What is wrong with one string sent to Slack, or undefined. Our own `<!date^…>` is allowed. */
export function slackProblem(text: string, plainText = false): string | undefined {
  const leak = leakIn(text);
  if (leak) return leak;
  if (/[\u202a-\u202e\u2066-\u2069\x1b]/.test(text) || /\u200b/.test(text.replace(/@\u200b/g, '@'))) return 'control or invisible character';
  if (plainText) return undefined;
  const live = text.replace(/<!date\^\d+\^[^|>]*\|[^<>]*>/g, '').replace(/<https:\/\/runai\.example\.org[^<>]*>/g, '');
  if (/[<>]/.test(live)) return `live markup ${JSON.stringify(live.match(/.{0,20}[<>].{0,20}/)?.[0])}`;
  if (/@(?:channel|here|everyone)\b/.test(text)) return 'live @channel';
  return undefined;
}
