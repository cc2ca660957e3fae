import { readdirSync, readFileSync } from 'node:fs';
import type { CorpusEntry, Dev2Entry } from '../../bench/triage-accuracy.js';
import { CATEGORIES } from '../../src/triage/categories.js';

/**
 * The second development set (test/fixtures/logs/dev2) must be new material: labelled like
 * the blind set, from threads neither the real corpus nor the blind set uses, and with no log
 * whose text equals, contains or sits inside a log of those sets. Otherwise tuning on it would
 * be tuning on the blind held-out split by the back door.
 */
const logs = new URL('../fixtures/logs/', import.meta.url);
const read = <E extends CorpusEntry>(folder: string): Array<{ name: string; entry: E; text: string }> => {
  const dir = new URL(`${folder}/`, logs);
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as Record<string, E>;
  return Object.entries(manifest).map(([name, entry]) => ({ name, entry, text: readFileSync(new URL(name, dir), 'utf8') }));
};
const dev2 = read<Dev2Entry>('dev2');
const others = [...read<CorpusEntry>('real'), ...read<CorpusEntry>('blind')];

/** Whitespace-insensitive, so a re-indented or re-wrapped copy still counts as the same text. */
const normalised = (text: string): string => text.replace(/\s+/g, ' ').trim();
const theirs = others.map((o) => normalised(o.text));

/** Whether a text equals, contains or sits inside one of the other sets' logs (short texts only as equal). */
function clashes(text: string): boolean {
  const mine = normalised(text);
  return theirs.some((t) => t === mine || (t.length > 40 && mine.includes(t)) || (mine.length > 40 && t.includes(mine)));
}

describe('the dev2 triage set', () => {
  it('labels every log in its folder, at least 120, each with its thread, a category and its line found in the log', () => {
    const files = readdirSync(new URL('dev2/', logs)).filter((f) => f.endsWith('.log')).sort();
    expect(dev2.map((d) => d.name).sort()).toEqual(files);
    expect(dev2.length).toBeGreaterThanOrEqual(120);
    expect(new Set(dev2.map((d) => d.entry.source)).size).toBe(dev2.length);
    for (const { name, entry, text } of dev2) {
      expect([name, entry.source]).toEqual([name, expect.stringMatching(/^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull)\/\d+$/)]);
      expect([name, entry.split, entry.category in CATEGORIES, typeof entry.transient, typeof entry.year, typeof entry.framework]).toEqual([name, 'dev2', true, 'boolean', 'number', 'string']);
      for (const want of [entry.line, ...(entry.alternatives ?? [])]) if (want !== null) expect([name, want, text.includes(want)]).toEqual([name, want, true]);
    }
  });

  it('takes no thread from the real corpus or the blind set', () => {
    const used = new Set(others.map((o) => o.entry.source.replace(/\/$/, '')));
    expect(dev2.filter((d) => used.has(d.entry.source.replace(/\/$/, ''))).map((d) => d.name)).toEqual([]);
  });

  it('has no log whose text equals, contains or sits inside a log of the real corpus or the blind set', () => {
    // Names of dev2 logs only: which blind log matched is not shown, since held-out logs are not read.
    expect(dev2.filter((d) => clashes(d.text)).map((d) => d.name)).toEqual([]);
  });

  it('would catch a re-wrapped excerpt of another log, or one with a line added around it', () => {
    const sample = others.find((o) => normalised(o.text).length > 200)!.text;
    const excerpt = normalised(sample).slice(10, 150).replace(/ /g, '\n  ');
    expect([clashes(excerpt), clashes(`a line of our own\n${sample}\nand another\n`), clashes('a log of our own that no set has seen, long enough to count')]).toEqual([true, true, false]);
  });
});
