/**
 * The pipeline's own rules: cuts before patterns, long lines redacted whole in pieces, the
 * destinations named and each escaping as it says.
 */
import { cutForScan } from '../../src/triage/escape.js';
import { redactLine } from '../../src/triage/redact.js';
import { DESTINATIONS, forCodeBlock, forInlineCode, forMrkdwn, forPlainText, MAX_SCAN_CHARS, safeLines, safeTail, sanitize } from '../../src/triage/sanitize.js';
import { logSections } from '../../src/messages/replies.js';

const TOKEN = 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';

describe('text pipeline', () => {
  it('redacts a secret anywhere in a line longer than a pattern may see, keeping the rest', () => {
    const line = `${'step loss=0.1 '.repeat(2000)}token ${TOKEN} ${'tail '.repeat(10)}`;
    const out = redactLine(line);
    expect(out).not.toContain(TOKEN);
    expect(out).toContain('[REDACTED:github-token]');
    expect(out.endsWith('tail tail ')).toBe(true);
  });

  it('cuts a line before any pattern runs without leaving half a token at the cut', () => {
    const line = `${'x '.repeat((MAX_SCAN_CHARS - 10) / 2)}${TOKEN}`;
    const cut = cutForScan(line, MAX_SCAN_CHARS);
    expect(cut.length).toBeLessThanOrEqual(MAX_SCAN_CHARS + 1);
    expect(cut).not.toContain('ghp_');
    expect(forCodeBlock(line, 100_000, 100_000)).not.toContain('ghp_aBcD');
  });

  it('names its destinations and escapes for each', () => {
    expect(DESTINATIONS).toEqual(['mrkdwn', 'inline_code', 'code_block', 'plain_text', 'file']);
    const hostile = '<!channel> `x` @here & password=hunter2';
    expect(forMrkdwn(hostile)).toBe('&lt;!channel&gt; ˋxˋ @\u200bhere &amp; password=[REDACTED:password]');
    expect(forInlineCode(hostile)).toBe("`&lt;!channel&gt; 'x' @\u200bhere &amp; password=[REDACTED:password]`");
    expect(forPlainText(`${hostile}\nnext`, 200)).toBe('<!channel> `x` @here & password=[REDACTED:password] next');
    expect(sanitize(hostile, 'code_block', 1000)).toBe(forCodeBlock(hostile, 1000));
  });

  it('reads only the tail of a long log, and still sees a key block begun before it', () => {
    const log = ['-----BEGIN PRIVATE KEY-----', ...Array.from({ length: 50 }, () => 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7'), '-----END PRIVATE KEY-----', ...Array.from({ length: 2000 }, (_, i) => `line ${i}`)].join('\n');
    const { lines, before } = safeTail(log, 10);
    expect(lines).toEqual(Array.from({ length: 10 }, (_, i) => `line ${1990 + i}`));
    expect(before).toBe(2052 - 10);
    const short = safeTail(log.split('\n').slice(0, 60).join('\n'), 30);
    expect(JSON.stringify(short)).not.toContain('MIIEvQ');
  });

  describe('a line redrawn with carriage returns (a progress bar)', () => {
    const bar = 'Epoch 3/10:   0%|          | 0/2503 [00:00<?, ?it/s]\rEpoch 3/10:   0%|          | 1/2503 [00:03<2:05:11,  3.00s/it]\rEpoch 3/10:   0%|          | 2/2503 [00:04<1:31:40,  2.20s/it]';
    const last = 'Epoch 3/10:   0%|          | 2/2503 [00:04<1:31:40,  2.20s/it]';

    it('is shown as its last redraw in every Slack destination, never with replacement characters', () => {
      expect(safeLines(`before\n${bar}\nafter`)).toEqual(['before', last, 'after']);
      expect(forCodeBlock(`${bar}\n`, 1000)).toBe(`${last.replace('<', '&lt;')}\n`);
      expect(forMrkdwn(bar)).toBe(last.replace('<', '&lt;'));
      expect(forPlainText(bar, 200)).toBe(last);
      expect(safeTail(`${bar}\nnext`, 2).lines).toEqual([last, 'next']);
    });

    it('is shown as its last redraw by /runai logs and "Show more of the log"', () => {
      const { blocks } = logSections(`step 1\n${bar}\nTraceback (most recent call last):\n`);
      const text = JSON.stringify(blocks);
      expect(text).not.toContain('\ufffd');
      expect(text).toContain('2/2503 [00:04&lt;1:31:40,  2.20s/it]');
      expect(text).not.toContain('0/2503');
    });

    it('keeps the last redraw that is not blank, and ignores a trailing carriage return', () => {
      expect(safeLines('50%|#####     |\r100%|##########|\r          \r')).toEqual(['100%|##########|']);
      expect(safeLines('done\r\nnext')).toEqual(['done', 'next']);
    });

    it('shows the end of a bar redrawn past the length a pattern may see, and still redacts it', () => {
      const long = `${'10%|#  |\r'.repeat(2000)}token ${TOKEN} 100%|###|`;
      expect(safeLines(long)).toEqual(['token [REDACTED:github-token] 100%|###|']);
    });
  });
});
