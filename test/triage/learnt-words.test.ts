import { readFileSync } from 'node:fs';
import { blindSplitOf, halfOf, type BlindEntry } from '../../bench/triage-accuracy.js';
import { modelModule, trainingLogs, trainLearntModel, vocabularyLogs } from '../../bench/triage-training.js';
import { verdictSection } from '../../src/messages/alert.js';
import { triageText } from '../../src/triage/index.js';
import {
  addWordsOfLine,
  guessCategory,
  learntEvidence,
  MAX_WORDS_PER_LOG,
  MIN_LOGS_PER_WORD,
  MIN_POSTERIOR,
  scoringModel,
  trainModel,
  WINDOW_LINES,
  WordBag,
  type TrainingLog,
} from '../../src/triage/learnt-words.js';
import { LEARNT_MODEL } from '../../src/triage/learnt-model.js';

const words = (line: string): string[] => {
  const into = new Set<string>();
  addWordsOfLine(line, into);
  return [...into];
};

describe('learnt words: the words of a line', () => {
  it('keeps whole API names in lower case, drops short words, numbers, hashes and device names', () => {
    expect(words('RuntimeError: cudaErrorIllegalAddress at 0x7f3a, rank 3 of 8')).toEqual(['runtimeerror', 'cudaerrorillegaladdress', 'rank']);
    expect(words('tensor on cuda:0 but CUDA failed')).toEqual(['tensor', 'but', 'cuda', 'failed']);
    expect(words(`sha256 ${'a'.repeat(40)} NCCL_SOCKET_IFNAME`)).toEqual(['sha256', 'nccl_socket_ifname']);
  });
});

describe('learnt words: the bag of a log', () => {
  it('holds the words of the last WINDOW_LINES lines only', () => {
    const bag = new WordBag();
    bag.add('early warning about tokenizers');
    for (let i = 0; i < WINDOW_LINES; i++) bag.add('step done');
    expect(bag.words.has('tokenizers')).toBe(false);
    bag.add('failed to allocate');
    expect([...bag.words].sort()).toEqual(['allocate', 'done', 'failed', 'step']);
  });

  it('stays bounded on a flood of new words, and still takes the failure after the flood', () => {
    const bag = new WordBag();
    // 20 new words a line: the window's 256 lines hold 5120, more than the cap.
    for (let i = 0; i < 20_000; i++) bag.add(Array.from({ length: 20 }, (_, k) => `w${i}x${k}`).join(' '));
    expect(bag.words.size).toBe(MAX_WORDS_PER_LOG);
    expect(bag.words.size).toBeLessThanOrEqual(MAX_WORDS_PER_LOG);
    for (let i = 0; i < WINDOW_LINES; i++) bag.add('cudnn handle failed');
    expect(bag.words.has('cudnn')).toBe(true);
  });
});

const toy = (category: TrainingLog['category'], ...ws: string[]): TrainingLog => ({ category, words: new Set(ws) });
const TOY: TrainingLog[] = [
  ...[1, 2, 3, 4].map(() => toy('volume-mount', 'mount', 'volume', 'failed', 'error')),
  ...[1, 2, 3, 4].map(() => toy('nccl', 'socket', 'connect', 'failed', 'error')),
  toy('other', 'value', 'error'),
  toy('other', 'value', 'error'),
  toy('other', 'value', 'error'),
];

describe('learnt words: training and guessing', () => {
  it('learns only words that at least MIN_LOGS_PER_WORD logs share', () => {
    const model = trainModel([...TOY, toy('nccl', 'rareword'), toy('nccl', 'rareword')], 'toy');
    expect(MIN_LOGS_PER_WORD).toBe(3);
    expect(model.words.map(([w]) => w)).not.toContain('rareword');
    expect(model.categories).toEqual(['nccl', 'other', 'volume-mount']);
    expect(model.logs).toEqual([6, 3, 4]);
    expect(model.words.find(([w]) => w === 'mount')?.[1]).toEqual([0, 0, 4]);
  });

  it('guesses the category whose words the log has, and names the words that pointed there', () => {
    const model = scoringModel(trainModel(TOY, 'toy'));
    const guess = guessCategory(model, new Set(['mount', 'volume', 'failed', 'unknownword']));
    expect(guess?.category).toBe('volume-mount');
    expect(guess?.probability).toBeGreaterThan(0.9);
    expect(guess?.words.slice(0, 2).sort()).toEqual(['mount', 'volume']);
    expect(guessCategory(model, new Set(['unknownword']))).toBeUndefined();
  });

  it('gives no evidence for a guess of other, or below MIN_POSTERIOR', () => {
    const model = scoringModel(trainModel(TOY, 'toy'));
    expect(guessCategory(model, new Set(['value']))?.category).toBe('other');
    expect(learntEvidence(model, new Set(['value']))).toBeUndefined();
    const unsure = guessCategory(model, new Set(['failed']));
    expect(unsure!.probability).toBeLessThan(MIN_POSTERIOR);
    expect(learntEvidence(model, new Set(['failed']))).toBeUndefined();
    expect(learntEvidence(model, new Set(['mount', 'volume', 'failed']))).toMatchObject({ role: 'learnt-words', category: 'volume-mount', recognised: false });
  });
});

describe('learnt words: the trained model', () => {
  it('is exactly what training on the development logs gives (run `npm run triage:train` after changing them or the scanner)', () => {
    const committed = readFileSync(new URL('../../src/triage/learnt-model.ts', import.meta.url), 'utf8');
    expect(committed).toBe(modelModule(trainLearntModel()));
  });

  it('is trained on development splits only, never a held-out log', () => {
    const blind = JSON.parse(readFileSync(new URL('../fixtures/logs/blind/manifest.json', import.meta.url), 'utf8')) as Record<string, BlindEntry>;
    const names = trainingLogs().map((l) => l.name);
    expect(names.length + vocabularyLogs().length).toBe(LEARNT_MODEL.logs.reduce((a, b) => a + b, 0));
    for (const name of names) {
      const [folder, file] = name.split('/');
      if (folder === 'real') expect([name, halfOf(file)]).toEqual([name, 'dev']);
      else if (folder === 'blind') expect([name, blind[file].split, blindSplitOf(file)]).toEqual([name, 'dev', 'dev']);
      else expect(folder).toBe('dev2');
    }
  });
});

describe('learnt words in the triage', () => {
  // Written for the mechanism: no rule recognises the line, no layer word is on it, but its
  // words are those of allocator failures.
  const LOG = ['step 1200 loss 2.1', 'Error: the allocator could not reserve the buffer, out of device memory on gpu 0 (tried to allocate 4 GiB)'].join('\n');

  it('decides a log nothing recognised, as a guess the alert calls one', () => {
    const r = triageText(LOG);
    expect(r.category).toBe('gpu-oom');
    expect(r.recognised).toBe(false);
    expect(r.evidence[0].role).toBe('learnt-words');
    expect(r.summary).toMatch(/^A guess from the words of the log's error lines \(words such as "[a-z0-9_]+"/);
    const text = JSON.stringify(verdictSection(r));
    expect(text).toContain('a guess');
  });

  it('never overrules what Kubernetes says or a recognised line', () => {
    expect(triageText(LOG, { exitCode: 137 }).category).toBe('host-oom');
    expect(triageText(LOG, { reason: 'Evicted' }).category).toBe('eviction');
    expect(triageText(`${LOG}\nModuleNotFoundError: No module named 'flash_attn'`).category).toBe('import');
  });

  it('leaves a plain application error other', () => {
    const r = triageText(['Traceback (most recent call last):', '  File "train.py", line 3, in <module>', 'ValueError: expected 3 channels, got 4'].join('\n'));
    expect(r.category).toBe('other');
    expect(r.evidence.some((e) => e.role === 'learnt-words')).toBe(false);
  });
});
