/**
 * npm run triage:other — the logs of the development splits (real dev half, blind dev, dev2)
 * where the triage answers `other` or the label is `other`, and which of them the last-resort
 * vote of layer words (src/triage/layer-words.ts) decided: how often that vote turns an
 * `other` right, turns it wrong, and moves a log whose label is `other`. The blind held-out
 * split is never read here: its logs must not steer the vote.
 */
import { readFileSync } from 'node:fs';
import { halfOf, type BlindEntry, type CorpusEntry } from './triage-accuracy.js';
import { triageText } from '../src/triage/index.js';

function devLogs(folder: string, isDev: (name: string, e: BlindEntry) => boolean): Array<[string, string, CorpusEntry]> {
  const dir = new URL(`../../test/fixtures/logs/${folder}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as Record<string, BlindEntry>;
  return Object.entries(manifest)
    .filter(([name, e]) => isDev(name, e) && (!only || only.has(name)))
    .map(([name, e]) => [name, readFileSync(new URL(name, dir), 'utf8'), e]);
}

/** `--only <file>`: only the logs named in that file, one a line (a round's new logs, say). */
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? new Set(readFileSync(process.argv[onlyAt + 1], 'utf8').split('\n').filter(Boolean)) : undefined;

const splits: Array<[string, Array<[string, string, CorpusEntry]>]> = [
  ['real dev', devLogs('real', (name) => halfOf(name) === 'dev')],
  ['blind dev', devLogs('blind', (_name, e) => e.split === 'dev')],
  ['dev2', devLogs('dev2', () => true)],
];

for (const [split, logs] of splits) {
  const tally = { other: 0, turnedRight: 0, turnedWrong: 0, trueOther: 0, trueOtherMoved: 0 };
  console.log(`\n${split} (${logs.length} logs): label -> answer [by words]`);
  for (const [name, text, e] of logs) {
    const r = triageText(text, e.hints);
    const byWords = r.evidence[0]?.role === 'log-words';
    if (e.category === 'other') tally.trueOther++;
    if (r.category !== 'other' && !byWords && e.category !== 'other') continue;
    if (r.category === 'other') tally.other++;
    if (byWords && r.category === e.category) tally.turnedRight++;
    if (byWords && r.category !== e.category) tally.turnedWrong++;
    if (e.category === 'other' && r.category !== 'other') tally.trueOtherMoved++;
    console.log(`  ${name}: ${e.category} -> ${r.category}${byWords ? ' [by words]' : ''}`);
  }
  console.log(JSON.stringify({ metric: 'triage.other', split, ...tally }));
}
