import { splitPrefix } from '../../src/triage/line-prefix.js';
import { PREFILTER, TIER, classifyLine } from '../../src/triage/signatures.js';
import { CATEGORY_ORDER, VOCABULARY, VOCABULARY_ENTRIES } from '../../src/triage/vocabulary.js';

/**
 * The vocabulary row by row: each entry cites where its words come from, its example (a line
 * as the software prints it) is matched by its own words, gets past the prefilter, and is
 * classified as the entry says, whatever broad pattern would also match it.
 */
const rows = VOCABULARY.flatMap((s) => s.entries.map((e) => [`${s.software}: ${e.summary}`, e] as const));

describe('the vocabulary', () => {
  it('has every entry in the order of its category, each entry once', () => {
    expect(VOCABULARY_ENTRIES).toHaveLength(rows.length);
    const order = VOCABULARY_ENTRIES.map((e) => CATEGORY_ORDER.indexOf(e.category));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it.each(rows)('%s', (_name, e) => {
    expect(e.source).toMatch(/[\w-]+\/[\w.-]+ \S+\.\w+|https:\/\/\S+/);
    expect(e.says.flags).toBe('');
    expect(e.says.test(e.example)).toBe(true);
    expect(PREFILTER.test(e.example)).toBe(true);
    const found = classifyLine(splitPrefix(e.example).rest);
    expect(found).toMatchObject({ category: e.category, tier: e.secondary ? TIER.secondary : TIER.recognised });
    if (e.kind) expect(found?.kind).toBe(e.kind);
    if (e.transient !== undefined) expect(found?.transient).toBe(e.transient);
  });
});
