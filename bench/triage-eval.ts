/**
 * npm run triage:eval — accuracy of the triage on the real corpus, development and held-out
 * halves apart, with a per-category confusion table and JSON lines for figures. Misses are
 * listed for the development half only: rules are tuned on it, never on the held-out half.
 */
import { readFileSync } from 'node:fs';
import { accuracy, confusion, scoreOne, type CorpusEntry, type Half, type Scored } from './triage-accuracy.js';

const dir = new URL('../../test/fixtures/logs/real/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as Record<string, CorpusEntry>;
const scored = Object.entries(manifest).map(([name, e]) => scoreOne(name, readFileSync(new URL(name, dir), 'utf8'), e));
const showHeldOut = process.argv.includes('--show-held-out');

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(6);

function printConfusion(half: Half, rows: readonly Scored[]): void {
  const table = confusion(rows);
  const cats = [...new Set(rows.flatMap((s) => [s.expected.category, s.got.category]))].sort();
  console.log(`\nconfusion (${half}): rows expected, columns predicted`);
  console.log(`${''.padEnd(13)}${cats.map((c) => c.slice(0, 9).padStart(10)).join('')}   right`);
  for (const exp of cats) {
    const row = table.get(exp);
    if (!row) continue;
    const total = [...row.values()].reduce((a, b) => a + b, 0);
    const right = row.get(exp) ?? 0;
    console.log(`${exp.padEnd(13)}${cats.map((c) => String(row.get(c) ?? '.').padStart(10)).join('')}   ${right}/${total}`);
    console.log(JSON.stringify({ metric: 'triage.category', half, category: exp, n: total, correct: right }));
  }
}

for (const half of ['dev', 'held-out'] as const) {
  const rows = scored.filter((s) => s.half === half);
  const a = accuracy(rows);
  console.log(`\n${half}: n=${a.n}  first line ${pct(a.line)}  category ${pct(a.category)}  transient ${pct(a.transient)}`);
  console.log(JSON.stringify({ metric: 'triage.accuracy', half, ...a }));
  printConfusion(half, rows);
  if (half === 'held-out' && !showHeldOut) continue;
  const misses = rows.filter((s) => !s.lineOk || !s.categoryOk || !s.transientOk);
  if (misses.length > 0) console.log(`\nmisses (${half}):`);
  for (const m of misses) {
    const what = [
      !m.lineOk && `line: want ${JSON.stringify(m.expected.line)}, got ${JSON.stringify(m.got.line?.slice(0, 120) ?? null)}`,
      !m.categoryOk && `category: want ${m.expected.category}, got ${m.got.category}`,
      !m.transientOk && `transient: want ${m.expected.transient}`,
    ].filter(Boolean);
    console.log(`  ${m.name}\n    ${what.join('\n    ')}`);
  }
}
