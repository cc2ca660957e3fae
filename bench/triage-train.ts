/**
 * npm run triage:train — trains the learnt reading (src/triage/learnt-words.ts) on the
 * development logs and the vocabulary's examples, and writes src/triage/learnt-model.ts. With --cv, first prints 10-fold
 * cross-validation figures on the same logs (the vocabulary's examples always in training): how often the model alone names the right
 * category, and at each posterior threshold how many categorised logs it answers and how
 * many of those it gets right. The held-out splits are never read.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { guessCategory, MIN_POSTERIOR, scoringModel, trainModel } from '../src/triage/learnt-words.js';
import { modelModule, REPO_ROOT, trainingLogs, trainLearntModel, vocabularyLogs } from './triage-training.js';

const logs = trainingLogs();
const vocabulary = vocabularyLogs();
if (process.argv.includes('--cv')) {
  const FOLDS = 10;
  const fold = (name: string): number => createHash('sha256').update(`fold:${name}`).digest().readUInt32BE(0) % FOLDS;
  const thresholds = [0.5, 0.6, 0.7, 0.8, 0.9, MIN_POSTERIOR].filter((t, i, a) => a.indexOf(t) === i).sort();
  const answered = thresholds.map(() => ({ n: 0, right: 0 }));
  let categorised = 0;
  let top = 0;
  for (let f = 0; f < FOLDS; f++) {
    const model = scoringModel(trainModel([...logs.filter((l) => fold(l.name) !== f), ...vocabulary], 'cv'));
    for (const log of logs.filter((l) => fold(l.name) === f && l.category !== 'other')) {
      categorised++;
      const guess = guessCategory(model, log.words);
      if (guess?.category === log.category) top++;
      thresholds.forEach((t, i) => {
        if (!guess || guess.category === 'other' || guess.probability < t) return;
        answered[i].n++;
        if (guess.category === log.category) answered[i].right++;
      });
    }
  }
  console.log(JSON.stringify({ metric: 'triage.learnt.cv', folds: FOLDS, logs: logs.length, categorised, top1: top / categorised }));
  thresholds.forEach((t, i) => console.log(JSON.stringify({ metric: 'triage.learnt.cv.threshold', threshold: t, inUse: t === MIN_POSTERIOR, answered: answered[i].n / categorised, precision: answered[i].right / Math.max(1, answered[i].n) })));
}
const model = trainLearntModel([...logs, ...vocabulary]);
writeFileSync(new URL('src/triage/learnt-model.ts', REPO_ROOT), modelModule(model));
console.log(JSON.stringify({ metric: 'triage.learnt.model', logs: logs.length, vocabularyExamples: vocabulary.length, words: model.words.length, categories: model.categories.length }));
