/**
 * Properties of the text pipeline over random text (fast-check): whatever surrounds a secret
 * or a piece of markup, and however it is split by colour codes and invisible characters,
 * no destination lets the secret or live markup through, and redaction is idempotent.
 */
import fc from 'fast-check';
import { LineRedactor } from '../../src/archive/redact-lines.js';
import { forCodeBlock, forInlineCode, forMrkdwn, forPlainText, redact } from '../../src/triage/index.js';
import { SECRETS } from './corpus.js';

// Secrets already split by a colour code are left whole here: a splitter inserted inside their
// escape sequence makes text that a terminal shows with the sequence's tail (`[0m`) in it.
const single = SECRETS.filter((s) => !s.text.includes('\n') && !s.text.includes('\x1b'));

/** Noise that is not a secret: words, punctuation, numbers, unicode, newlines. */
const noise = fc.array(
  fc.oneof(
    fc.constantFrom(' ', '\n', '\t', ' loss=0.31 ', ' step 12 ', '(', ')', '[', ']', '{', '}', ',', ';', '"', "'", '/', 'é', '😀', 'INFO ', 'Error: '),
    fc.string({ maxLength: 8 }),
  ),
  { maxLength: 12 },
).map((parts) => parts.join(''));

/** Something that ends a token on the left, so a secret stays a separate word. */
const gap = fc.constantFrom(' ', '\n', '\t', ' "', ', ', '; ', ' (');

const splitters = fc.constantFrom('', '\x1b[0m', '\x1b[1;32m', '\u200b', '\u2066', '\u202e', '\ufeff');

/** A secret with a colour code or invisible character inserted at a random place, or not. */
const hiddenSecret = fc.tuple(fc.constantFrom(...single), splitters, fc.nat()).map(([s, splitter, at]) => {
  const i = at % (s.text.length + 1);
  return { secret: s, text: s.text.slice(0, i) + splitter + s.text.slice(i) };
});

const markup = fc.constantFrom('<!channel>', '<!here>', '<!everyone>', '<@U0123ABC>', '<#C123|general>', '<http://evil.example|click me>', '<https://x.y>', '@channel', '@here');

const destinations: Array<[string, (text: string) => string]> = [
  ['mrkdwn', (t) => forMrkdwn(t, 100_000)],
  ['inline code', (t) => forInlineCode(t, 100_000)],
  ['code block', (t) => forCodeBlock(t, 100_000, 100_000)],
  ['plain text', (t) => forPlainText(t, 100_000)],
];

function archive(text: string): string {
  const r = new LineRedactor();
  const out = [...r.push(Buffer.from(text)).map((b) => Buffer.from(b)), ...r.end()];
  return Buffer.concat(out).toString('utf8');
}

describe('text pipeline properties', () => {
  it.each(destinations)('%s: no embedded secret survives, however it is hidden', (_name, render) => {
    fc.assert(
      fc.property(noise, gap, hiddenSecret, gap, noise, (before, g1, { secret, text }, g2, after) => {
        const out = render(`${before}${g1}${text}${g2}${after}`);
        expect(out).not.toContain(secret.leak);
      }),
      { numRuns: 300 },
    );
  });

  it('archive: no embedded secret survives, however it is hidden', () => {
    fc.assert(
      fc.property(noise, gap, hiddenSecret, gap, noise, (before, g1, { secret, text }, g2, after) => {
        expect(archive(`${before}${g1}${text}${g2}${after}\n`)).not.toContain(secret.leak);
      }),
      { numRuns: 300 },
    );
  });

  it.each(destinations.filter(([name]) => name !== 'plain text'))('%s: no live markup, no bidi or zero-width character', (_name, render) => {
    fc.assert(
      fc.property(noise, markup, splitters, noise, (before, m, splitter, after) => {
        const out = render(`${before}${m.slice(0, 2)}${splitter}${m.slice(2)}${after}`);
        expect(out).not.toMatch(/[<>]/);
        expect(out).not.toMatch(/@(?:channel|here|everyone)\b/);
        expect(out.replace(/@\u200b/g, '')).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\ufeff\x1b]/);
      }),
      { numRuns: 300 },
    );
  });

  it('redaction is idempotent on any text', () => {
    fc.assert(
      fc.property(noise, gap, hiddenSecret, noise, (a, g, { text }, b) => {
        const once = redact(`${a}${g}${text} ${b}`);
        expect(redact(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('code blocks never exceed their budget nor leave a backtick', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.nat({ max: 200 }), fc.integer({ min: 1, max: 60 }), (text, max, line) => {
        const out = forCodeBlock(text, max, line);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toContain('`');
      }),
      { numRuns: 300 },
    );
  });
});
