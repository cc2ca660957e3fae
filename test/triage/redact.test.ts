import { redact } from '../../src/triage/index.js';
import { triageStream } from '../../src/triage/index.js';

describe('redact', () => {
  it.each([
    ['slack-token', 'SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', 'xoxb-123456789012'],
    ['slack-token', 'app token xapp-1-A0123456789-1234567890123-abcdef0123456789', 'xapp-1-A0123456789'],
    ['github-token', 'git clone https://github.com/x/y using ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'ghp_aBcDeF'],
    ['github-token', 'gho_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 was refused', 'gho_aBcDeF'],
    ['github-token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF', 'github_pat_11ABC'],
    ['huggingface-token', 'login with hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'hf_AbCdEf'],
    ['openai-key', 'client = OpenAI(api=sk-proj-AbCdEf0123456789GhIjKlMnOpQrStUvWxYz)', 'sk-proj-AbCdEf'],
    ['openai-key', 'key sk-AbCdEf0123456789GhIjKlMnOpQrStUvWxYz', 'sk-AbCdEf'],
    ['anthropic-key', 'using sk-ant-api03-AbCdEf0123456789GhIjKlMnOpQrStUvWxYz-_AA now', 'sk-ant-api03'],
    ['aws-access-key', 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['aws-access-key', 'temporary ASIAIOSFODNN7EXAMPLE in use', 'ASIAIOSFODNN7EXAMPLE'],
    ['aws-secret-key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['jwt', 'cookie eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c', 'eyJhbGciOiJIUzI1NiIs'],
    ['bearer-token', "curl -H 'Authorization: Bearer abcDEF123456ghiJKL789' https://x", 'abcDEF123456'],
    ['password', 'DATABASE_URL=postgres://trainer:S3cr3t-P4ss@db.internal:5432/metrics', 'S3cr3t-P4ss'],
    ['password', 'password=hunter2 user=bob', 'hunter2'],
    ['password', '{"user": "svc", "password": "correct horse battery"}', 'correct horse'],
    ['secret', "client_secret: 'abc123xyz'", 'abc123xyz'],
    ['token', 'HF_TOKEN=notAnHfPrefixButStillSecret', 'notAnHfPrefix'],
    ['wandb-key', 'WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567', '0123456789abcdef0123'],
    ['api-key', 'MY_SERVICE_API_KEY=abcdef123456', 'abcdef123456'],
    ['wandb-key', 'wandb: logging in with 0123456789abcdef0123456789abcdef01234567', '0123456789abcdef0123'],
    ['token', 'python train.py --hf-token abcdef123456', 'abcdef123456'],
    ['private-key', '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n",', 'MIIEvQIBADANBg'],
  ])('replaces a %s with a marker naming it', (kind, text, secret) => {
    const out = redact(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(`[REDACTED:${kind}]`);
  });

  it('removes a multi-line private key block whole, and an unterminated one to the end', () => {
    const text = ['before', '-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', '-----END OPENSSH PRIVATE KEY-----', 'after'].join('\n');
    expect(redact(text)).toBe('before\n[REDACTED:private-key]\nafter');
    expect(redact('x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEogIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun')).toBe('x\n[REDACTED:private-key]');
  });

  it('removes a lone base64 key line even when its BEGIN line is out of sight', () => {
    expect(redact('2024-05-01T12:00:00Z MIIEogIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun')).toBe('2024-05-01T12:00:00Z [REDACTED:base64-blob]');
  });

  it('keeps ordinary training output readable', () => {
    const line = 'step 100 max_tokens=512 tokenizer=gpt2 num_tokens: 4096 loss=0.31 lr=3e-4 Traceback (most recent call last):';
    expect(redact(line)).toBe(line);
  });

  it('is idempotent: redacting twice changes nothing more', () => {
    const text = 'password=hunter2 Authorization: Bearer abcDEF123456ghiJKL789 ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
    expect(redact(redact(text))).toBe(redact(text));
  });
});

describe('redaction in streamed triage', () => {
  const pemLines = [
    'MIIEogIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
    'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
    'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo',
  ];

  async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }

  it.each([1, 5, 17, 64, 4096])('hides a private key split across %i-byte chunks in context and snippet', async (size) => {
    const log = ['start', '-----BEGIN RSA PRIVATE KEY-----', ...pemLines, '-----END RSA PRIVATE KEY-----', 'ValueError: bad key format', 'end'].join('\n');
    const r = await triageStream(chunks(log, size));
    expect(r.firstError?.line).toBe('ValueError: bad key format');
    const all = JSON.stringify(r);
    for (const line of pemLines) expect(all).not.toContain(line.slice(0, 30));
    expect(r.firstError?.context).toContain('[REDACTED:private-key]');
  });

  it('hides the body of a key whose BEGIN line scrolled out of the context window', async () => {
    const body = Array.from({ length: 30 }, (_, i) => `Q${String(i).padStart(2, '0')}${'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/'.repeat(2).slice(0, 61)}`);
    const log = ['-----BEGIN PRIVATE KEY-----', ...body, '-----END PRIVATE KEY-----', 'RuntimeError: boom'].join('\n');
    const r = await triageStream(chunks(log, 33));
    const all = JSON.stringify(r);
    for (const line of body) expect(all).not.toContain(line.slice(0, 20));
  });
});
