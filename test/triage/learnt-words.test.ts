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
  strongestLine,
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
  it('keeps whole API names in lower case, drops short words, function words, numbers, hashes and device names', () => {
    expect(words('RuntimeError: cudaErrorIllegalAddress at 0x7f3a, rank 3 of 8')).toEqual(['runtimeerror', 'cudaerrorillegaladdress', 'rank']);
    expect(words('tensor on cuda:0 but CUDA failed')).toEqual(['tensor', 'cuda', 'failed']);
    expect(words(`sha256 ${'a'.repeat(40)} NCCL_SOCKET_IFNAME`)).toEqual(['sha256', 'nccl_socket_ifname']);
  });
});

describe('learnt words: the bag of a log', () => {
  it('holds the words of the last WINDOW_LINES lines only', () => {
    const bag = new WordBag();
    bag.add('early warning about tokenizers', 1);
    for (let i = 0; i < WINDOW_LINES; i++) bag.add('step done', 2 + i);
    expect(bag.words.has('tokenizers')).toBe(false);
    bag.add('failed to allocate', WINDOW_LINES + 2);
    expect([...bag.words].sort()).toEqual(['allocate', 'done', 'failed', 'step']);
  });

  it('gives back its lines oldest first, each with its line number, once the window has wrapped too', () => {
    const bag = new WordBag();
    bag.add('first', 10);
    bag.add('second', 12);
    expect(bag.lines()).toEqual([{ text: 'first', lineNumber: 10 }, { text: 'second', lineNumber: 12 }]);
    for (let i = 0; i < WINDOW_LINES + 3; i++) bag.add(`line ${i}`, 100 + i);
    const lines = bag.lines();
    expect(lines).toHaveLength(WINDOW_LINES);
    expect([lines[0], lines.at(-1)]).toEqual([{ text: 'line 3', lineNumber: 103 }, { text: `line ${WINDOW_LINES + 2}`, lineNumber: 100 + WINDOW_LINES + 2 }]);
  });

  it('stays bounded on a flood of new words, and still takes the failure after the flood', () => {
    const bag = new WordBag();
    // 20 new words a line: the window's 256 lines hold 5120, more than the cap.
    for (let i = 0; i < 20_000; i++) bag.add(Array.from({ length: 20 }, (_, k) => `w${i}x${k}`).join(' '), i + 1);
    expect(bag.words.size).toBe(MAX_WORDS_PER_LOG);
    expect(bag.words.size).toBeLessThanOrEqual(MAX_WORDS_PER_LOG);
    for (let i = 0; i < WINDOW_LINES; i++) bag.add('cudnn handle failed', 20_001 + i);
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

  it("names the line whose words point at the guess most, the earliest of equals, none when no word favours it", () => {
    const model = scoringModel(trainModel(TOY, 'toy'));
    const lines = ['epoch 3 failed', 'socket connect error', 'volume mount failed', 'mount volume failed again', 'value error'];
    // 'failed' and 'error' are shared by both kinds and favour neither much; 'mount' and 'volume' only one.
    expect(strongestLine(model, 'volume-mount', lines)).toBe(2);
    expect(strongestLine(model, 'nccl', lines)).toBe(1);
    expect(strongestLine(model, 'volume-mount', ['value error', 'nothing here'])).toBeUndefined();
    expect(strongestLine(model, 'gpu-oom', lines)).toBeUndefined();
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

  // No line is a candidate at all: the one that names the failure is logged at warning level,
  // which the line finder passes over (a program's warning is rarely its failure), but its words
  // are in the bag and are those of allocator failures.
  const WARNED = ['step 1200 loss 2.1', 'WARNING: the allocator could not reserve the buffer, out of device memory on gpu 0 (tried to allocate 4 GiB)', 'step 1201'].join('\n');

  it('shows the line the guess rests on when no line is a candidate, marked as such, with its context', () => {
    expect(triageText(LOG).firstError?.guessed).toBeUndefined();
    const r = triageText(WARNED);
    expect(r.category).toBe('gpu-oom');
    expect(r.firstError).toMatchObject({ lineNumber: 2, guessed: true, contextStartLine: 1 });
    expect(r.firstError!.line).toContain('the allocator could not reserve the buffer');
    expect(r.firstError!.context).toHaveLength(3);
    expect(r.evidence[0].lineNumber).toBe(2);
  });

  it('shows no guessed line when Kubernetes decided instead', () => {
    expect(triageText(WARNED, { exitCode: 137 })).toMatchObject({ category: 'host-oom', firstError: null });
    expect(triageText(WARNED, { reason: 'Evicted' })).toMatchObject({ category: 'eviction', firstError: null });
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
