import { LineRedactor, MAX_LINE_BYTES } from '../../src/archive/redact-lines.js';

const GITHUB_TOKEN = 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const KEY_BODY = ['MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', 'VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDu', 'ictGeurT8jNbvJZHtCSuYEvuNMoSfm76oqFvAp8Gy0iz5sxjZmSn'];

const log = [
  'Starting training on 8 GPUs',
  `export GITHUB_TOKEN=${GITHUB_TOKEN}`,
  'Epoch 1/10 loss=0.2345 lr=0.001',
  `aws_secret_access_key = ${AWS_SECRET}`,
  'loading deploy key:',
  '-----BEGIN RSA PRIVATE KEY-----',
  ...KEY_BODY,
  '-----END RSA PRIVATE KEY-----',
  'Epoch 2/10 loss=0.1999 lr=0.001',
  '',
].join('\n');

const redacted = [
  'Starting training on 8 GPUs',
  'export GITHUB_TOKEN=[REDACTED:github-token]',
  'Epoch 1/10 loss=0.2345 lr=0.001',
  'aws_secret_access_key = [REDACTED:aws-secret-key]',
  'loading deploy key:',
  '[REDACTED:private-key]',
  'Epoch 2/10 loss=0.1999 lr=0.001',
  '',
].join('\n');

function run(chunks: Buffer[]): string {
  const redactor = new LineRedactor();
  const out: Buffer[] = [];
  for (const chunk of chunks) out.push(...redactor.push(chunk).map((b) => Buffer.from(b)));
  out.push(...redactor.end());
  return Buffer.concat(out).toString('utf8');
}

describe('LineRedactor', () => {
  it('redacts a token, an AWS secret and a multi-line private key, keeping every other line', () => {
    expect(run([Buffer.from(log)])).toBe(redacted);
  });

  it('gives the same output wherever the network cuts the log into two chunks', () => {
    const bytes = Buffer.from(log);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(run([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(redacted);
    }
  });

  it('gives the same output when the log arrives one byte at a time', () => {
    const bytes = Buffer.from(log);
    expect(run([...bytes].map((b) => Buffer.from([b])))).toBe(redacted);
  });

  it('passes clean lines on as the original bytes: CRLF, invalid UTF-8 and a last line without newline', () => {
    const bytes = Buffer.concat([Buffer.from('line one\r\n'), Buffer.from([0xff, 0xfe, 0x41, 0x0a]), Buffer.from('no newline at the end')]);
    expect(Buffer.concat(run2(bytes))).toEqual(bytes);
  });

  it('writes a redrawn line that held a secret as its last redraw, redacted, and keeps one without a secret as its bytes', () => {
    const bar = Buffer.from('Epoch 1: 10%|#  |\rEpoch 1: 20%|## |\rEpoch 1: 30%|###|\n');
    expect(Buffer.concat(run2(bar))).toEqual(bar);
    expect(run([Buffer.from(`10%|#  | token=${GITHUB_TOKEN}\r20%|## | token=${GITHUB_TOKEN}\n`)])).toBe('20%|## | token=[REDACTED:github-token]\n');
    // A secret only in an earlier redraw, which a terminal never shows, is dropped with it.
    expect(run([Buffer.from(`login ${GITHUB_TOKEN}\r100%|###|\n`)])).toBe('100%|###|\n');
  });

  it('keeps the text around a key on its BEGIN and END lines', () => {
    const text = `key: -----BEGIN PRIVATE KEY-----\n${KEY_BODY[0]}\n-----END PRIVATE KEY----- done\n`;
    expect(run([Buffer.from(text)])).toBe('key: [REDACTED:private-key]\n done\n');
  });

  it('ends a key block cut short at the first line that is not key material, so the rest of the log survives', () => {
    const text = `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY[0]}\nTraceback (most recent call last):\n  File "train.py", line 3\n`;
    expect(run([Buffer.from(text)])).toBe('[REDACTED:private-key]\nTraceback (most recent call last):\n  File "train.py", line 3\n');
  });

  it('cuts a line longer than the bound instead of holding it, so memory stays bounded', () => {
    const redactor = new LineRedactor();
    const long = Buffer.alloc(MAX_LINE_BYTES + 10, '.');
    const out = redactor.push(long);
    expect(Buffer.concat(out).equals(long)).toBe(true);
    expect(redactor.end()).toEqual([]);
  });
});

function run2(bytes: Buffer): Buffer[] {
  const redactor = new LineRedactor();
  return [...redactor.push(bytes).map((b) => Buffer.from(b)), ...redactor.end()];
}
