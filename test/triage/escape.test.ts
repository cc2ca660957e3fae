import { escapeForSlackCode } from '../../src/triage/index.js';

describe('escapeForSlackCode', () => {
  it('neutralises mentions, channel links and links so Slack renders them as text', () => {
    const out = escapeForSlackCode('<!channel> <!here> <@U024BE7LH> <#C024BE7LR|general> <https://evil.example|click> @everyone', 1000);
    expect(out).not.toMatch(/[<>]/);
    expect(out).toContain('&lt;!channel&gt;');
    expect(out).toContain('&lt;@U024BE7LH&gt;');
    expect(out).not.toContain('@everyone');
  });

  it('escapes ampersands first so that existing entities stay literal', () => {
    expect(escapeForSlackCode('a &lt; b & c', 100)).toBe('a &amp;lt; b &amp; c');
  });

  it('leaves no backtick that could close the code block', () => {
    const out = escapeForSlackCode('```\nend``` and `x`', 100);
    expect(out).not.toContain('`');
  });

  it('strips ANSI escapes and invisible characters, and replaces other control characters and broken UTF-16', () => {
    // Bidi overrides and zero-width characters are removed rather than replaced, so that a
    // secret split by one is seen whole by the redaction that follows.
    const out = escapeForSlackCode('\x1b[31mred\x1b[0m \x1b]0;title\x07bell\x07 nul\x00 del\x7f rtl\u202e zw\u200bsp lone\ud800 pair😀', 1000);
    expect(out).toBe('red bell\ufffd nul\ufffd del\ufffd rtl zwsp lone\ufffd pair😀');
  });

  it('cuts very long lines', () => {
    const out = escapeForSlackCode('x'.repeat(5000), 10_000, 300);
    expect(out.length).toBe(300);
    expect(out.endsWith('…')).toBe(true);
  });

  it('keeps the last lines and says how many earlier ones were left out', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const out = escapeForSlackCode(text, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out).toMatch(/^… \d+ earlier lines not shown\n/);
    expect(out.endsWith('line 99')).toBe(true);
  });

  it('never exceeds maxChars, whatever the input', () => {
    const alphabet = ['<', '>', '&', '`', '\n', 'a', '😀', '\ud800', '\x1b[1m', '@here', ' '];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: next() % 400 }, () => alphabet[next() % alphabet.length]).join('');
      const max = next() % 120;
      const out = escapeForSlackCode(text, max, 1 + (next() % 50));
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out).not.toMatch(/[<>`\x1b]|&[a-z]{0,3}$/);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });

  it('returns nothing for no room or no text', () => {
    expect(escapeForSlackCode('abc', 0)).toBe('');
    expect(escapeForSlackCode('', 10)).toBe('');
  });
});
