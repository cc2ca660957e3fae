/**
 * npm run triage:eval — accuracy of the triage on the real corpus (development and held-out
 * halves) and on the blind set (development and held-out splits), each with a per-category
 * confusion table and JSON lines for figures. Misses are listed per log for the development
 * parts only: rules are tuned on them. The real corpus's held-out misses can be shown with
 * --show-held-out; the blind held-out split's never are, whatever the flags. The dev2 set
 * (test/fixtures/logs/dev2) is a second development split: figures, confusion and misses.
 * `--round N` adds the figures and misses of dev2's round N alone: run before a round's
 * vocabulary lands (and before `npm run triage:train` learns from it), that is the round's
 * first run, the honest estimate on kinds never seen.
 */
import { readFileSync } from 'node:fs';
import {
  accuracy,
  confusion,
  otherShare,
  scoreOne,
  type BlindEntry,
  type CorpusEntry,
  type Dev2Entry,
  type Half,
  type Scored,
} from './triage-accuracy.js';

const SPLITS: readonly Half[] = ['dev', 'held-out'];
const showHeldOut = process.argv.includes('--show-held-out');
const roundArg = process.argv.indexOf('--round');
const round = roundArg === -1 ? undefined : Number(process.argv[roundArg + 1]);
if (round !== undefined && !Number.isInteger(round)) throw new Error('--round needs a whole number, e.g. --round 10');

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(6);

function readCorpus<E extends CorpusEntry>(folder: string): Array<[string, string, E]> {
  const dir = new URL(`../../test/fixtures/logs/${folder}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as Record<string, E>;
  return Object.entries(manifest).map(([name, e]) => [name, readFileSync(new URL(name, dir), 'utf8'), e]);
}

/** Rows expected, columns predicted; one JSON line per expected category, from `metric`. */
function printConfusion(title: string, rows: readonly Scored[], metric: (category: string, n: number, correct: number) => object): void {
  const table = confusion(rows);
  const cats = [...new Set(rows.flatMap((s) => [s.expected.category, s.got.category]))].sort();
  console.log(`\nconfusion (${title}): rows expected, columns predicted`);
  console.log(`${''.padEnd(13)}${cats.map((c) => c.slice(0, 9).padStart(10)).join('')}   right`);
  for (const exp of cats) {
    const row = table.get(exp);
    if (!row) continue;
    const total = [...row.values()].reduce((a, b) => a + b, 0);
    const right = row.get(exp) ?? 0;
    console.log(`${exp.padEnd(13)}${cats.map((c) => String(row.get(c) ?? '.').padStart(10)).join('')}   ${right}/${total}`);
    console.log(JSON.stringify(metric(exp, total, right)));
  }
}

function printMisses(title: string, rows: readonly Scored[]): void {
  const misses = rows.filter((s) => !s.lineOk || !s.categoryOk || !s.transientOk);
  if (misses.length > 0) console.log(`\nmisses (${title}):`);
  for (const m of misses) {
    const what = [
      !m.lineOk && `line: want ${JSON.stringify(m.expected.line)}, got ${JSON.stringify(m.got.line?.slice(0, 120) ?? null)}`,
      !m.categoryOk && `category: want ${m.expected.category}, got ${m.got.category}`,
      !m.transientOk && `transient: want ${m.expected.transient}`,
    ].filter(Boolean);
    console.log(`  ${m.name}\n    ${what.join('\n    ')}`);
  }
}

const real = readCorpus<CorpusEntry>('real').map(([name, text, e]) => scoreOne(name, text, e));
for (const half of SPLITS) {
  const rows = real.filter((s) => s.half === half);
  const a = accuracy(rows);
  console.log(`\n${half}: n=${a.n}  first line ${pct(a.line)}  category ${pct(a.category)}  transient ${pct(a.transient)}`);
  console.log(JSON.stringify({ metric: 'triage.accuracy', half, ...a }));
  printConfusion(half, rows, (category, n, correct) => ({ metric: 'triage.category', half, category, n, correct }));
  if (half === 'dev' || showHeldOut) printMisses(half, rows);
}

const blind = readCorpus<BlindEntry>('blind').map(([name, text, e]) => scoreOne(name, text, e, e.split));
for (const split of SPLITS) {
  const rows = blind.filter((s) => s.half === split);
  const a = accuracy(rows);
  const other = otherShare(rows);
  console.log(`\nblind ${split}: n=${a.n}  first line ${pct(a.line)}  category ${pct(a.category)}  transient ${pct(a.transient)}  other ${pct(other)}`);
  console.log(JSON.stringify({ metric: 'triage.blind.accuracy', split, ...a, other }));
  printConfusion(`blind ${split}`, rows, (category, n, correct) => ({ metric: 'triage.blind.category', split, category, n, correct }));
  // Never per log for the held-out split: its misses must not steer a rule.
  if (split === 'dev') printMisses(`blind ${split}`, rows);
}

// dev2 is for tuning only: every miss is listed.
const dev2Corpus = readCorpus<Dev2Entry>('dev2');
const dev2 = dev2Corpus.map(([name, text, e]) => scoreOne(name, text, e, 'dev'));
function printDev2(title: string, rows: readonly Scored[], extra: object): void {
  const a = accuracy(rows);
  const other = otherShare(rows);
  console.log(`\n${title}: n=${a.n}  first line ${pct(a.line)}  category ${pct(a.category)}  transient ${pct(a.transient)}  other ${pct(other)}`);
  console.log(JSON.stringify({ metric: 'triage.dev2.accuracy', split: 'dev2', ...extra, ...a, other }));
  printConfusion(title, rows, (category, n, correct) => ({ metric: 'triage.dev2.category', split: 'dev2', ...extra, category, n, correct }));
  printMisses(title, rows);
}
printDev2('dev2', dev2, {});
if (round !== undefined) {
  const inRound = new Set(dev2Corpus.filter(([, , e]) => e.round === round).map(([name]) => name));
  if (inRound.size === 0) throw new Error(`dev2 has no log of round ${round}`);
  printDev2(`dev2 round ${round}`, dev2.filter((s) => inRound.has(s.name)), { round });
}
