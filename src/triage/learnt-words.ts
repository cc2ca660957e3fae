import { isWordChar } from './layer-words.js';
import { LEARNT_MODEL } from './learnt-model.js';
import type { Category, EvidenceItem } from './types.js';

/**
 * A learnt last resort before `other`: a naive Bayes reading of the words on a log's
 * error-looking lines, trained on the labelled development logs (bench/triage-train.ts writes
 * the counts to learnt-model.ts). It answers only where the rules recognised nothing and the
 * layers' own words (layer-words.ts) gave no clear reading, and the alert calls its answer a
 * guess.
 *
 * Why a learnt model and not more rules: each rule covers one wording a failure is reported
 * in, and logs nobody here has read keep bringing new wordings. Words that many labelled logs
 * of one kind share ("handle", "allocate", "resolver", "bucket", "mount") still point at the
 * layer when the exact message is new. Only words that at least MIN_LOGS_PER_WORD training
 * logs contain are kept, so no one log's names or paths are learnt, and the model is a table
 * of counts that training reproduces exactly (test/triage/learnt-words.test.ts checks it).
 *
 * Why naive Bayes: a few hundred labelled logs are too few for anything with more freedom,
 * the counts are readable, and scoring is one Map lookup per distinct word: linear in the
 * text, with no regular expression.
 *
 * Each log is a set of words (a word counts once per log however often it repeats), so a
 * flood of one line cannot outvote the rest.
 */

/** Words shorter than this are mostly noise (`a`, `of`); longer than MAX_WORD_CHARS, hashes and paths. */
export const MIN_WORD_CHARS = 3;
export const MAX_WORD_CHARS = 32;
/** A word must appear in this many training logs to be learnt at all. */
export const MIN_LOGS_PER_WORD = 3;
/** At most this many distinct words of one log are read. */
export const MAX_WORDS_PER_LOG = 2048;
/** Additive smoothing of the per-category word frequencies (chosen by cross-validation, bench/triage-train.ts --cv). */
export const SMOOTHING = 0.1;
/**
 * The guess must have at least this posterior probability, and must not be `other`. Naive
 * Bayes is overconfident, so the bar is high: in cross-validation it answers about three in
 * four categorised logs and is right on about 95 % of those. On logs of kinds it has not seen
 * it does worse (on five collection rounds' first runs it was right on 19 of the 33 logs it
 * decided, where `other` would have been right on 2), and a plain application error of few
 * words (a batch-size ValueError) can read past the bar as configuration: the alert calls it a
 * guess and shows the line it rests on.
 */
export const MIN_POSTERIOR = 0.99;

/** The counts a model is: per category, how many training logs it had and how many contained each word. */
export interface LearntModel {
  /** The categories, in the order of every count array. */
  categories: readonly Category[];
  /** Training logs per category. */
  logs: readonly number[];
  /** Word → training logs per category that contain it. */
  words: ReadonlyArray<readonly [string, readonly number[]]>;
  /** Where the training logs came from, for the record. */
  trainedOn: string;
}

/**
 * English function words: they say nothing of a layer, and with a few hundred logs the phrasing
 * of one message ("requires X, but you have Y") was enough to make them point somewhere (`but`
 * read as import). Words that do carry meaning in an error (`not`, `out`, `no`) are kept.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'the', 'and', 'but', 'for', 'with', 'from', 'this', 'that', 'these', 'those', 'are', 'was', 'were',
  'been', 'being', 'has', 'have', 'had', 'you', 'your', 'its', 'all', 'any', 'some', 'into', 'onto',
  'than', 'then', 'there', 'their', 'they', 'them', 'which', 'what', 'when', 'where', 'who', 'will',
  'would', 'could', 'should', 'may', 'might', 'also', 'just', 'only', 'such', 'our', 'can', 'does',
  'did', 'how', 'why', 'here', 'his', 'her', 'she', 'him', 'each', 'other', 'more', 'most', 'very',
]);

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/**
 * Adds the words of one line to `into`, lower case: runs of letters, digits and underscores
 * that start with a letter and are MIN_WORD_CHARS..MAX_WORD_CHARS long. camelCase and
 * snake_case names stay whole (`cudaerrorillegaladdress`), as the software spells them.
 */
export function addWordsOfLine(line: string, into: Set<string>, limit = MAX_WORDS_PER_LOG): void {
  const n = line.length;
  let i = 0;
  while (i < n && into.size < limit) {
    while (i < n && !isWordChar(line.charCodeAt(i))) i++;
    const start = i;
    while (i < n && isWordChar(line.charCodeAt(i))) i++;
    const length = i - start;
    if (length < MIN_WORD_CHARS || length > MAX_WORD_CHARS || !isLetter(line.charCodeAt(start))) continue;
    const word = line.slice(start, i).toLowerCase();
    if (STOP_WORDS.has(word)) continue;
    // `cuda:0` is a device's name (PyTorch c10/core/Device.cpp), not the CUDA layer failing: a
    // device mismatch names it in passing (the same rule as layer-words.ts).
    if (word === 'cuda' && line.charCodeAt(i) === 58) continue;
    into.add(word);
  }
}

/** The error-looking lines whose words are read: the last ones, where a log ends in its failure. */
export const WINDOW_LINES = 256;

/** Characters of one line that are read: an error's words come first, a long line's tail is data. */
export const LINE_CHARS = 512;

/**
 * The words of a log's last WINDOW_LINES error-looking lines (lines the prefilter hits, and the
 * lines the layer vote reads), as first-error.ts streams them. A long log's early warnings
 * drop out of the window as later lines come.
 *
 * The lines are kept and read only when the words are asked for: a noisy log has tens of
 * thousands of such lines, and splitting each into words as it passes cost a third of the
 * scan's time, while keeping one is a small copy. Each is kept as its own bytes (at most
 * LINE_CHARS characters) so that it does not hold the chunk it was cut from alive: memory
 * stays under WINDOW_LINES × LINE_CHARS characters whatever the log.
 */
export class WordBag {
  private readonly ring: Buffer[] = [];
  /** The log line number of each ring entry, for naming the line a guess rests on. */
  private readonly numbers: number[] = [];
  private next = 0;
  /**
   * The line added last and its copy: a line repeated (a rank's message on every rank, a flood)
   * takes the same copy again instead of a new one. The reference holds at most the one chunk
   * that line was cut from.
   */
  private lastLine: string | undefined;
  private lastCopy: Buffer | undefined;

  add(line: string, lineNumber: number): void {
    const copy = this.lastLine === line && this.lastCopy ? this.lastCopy : Buffer.from(line.length > LINE_CHARS ? line.slice(0, LINE_CHARS) : line, 'utf8');
    this.lastLine = line;
    this.lastCopy = copy;
    if (this.ring.length < WINDOW_LINES) {
      this.ring.push(copy);
      this.numbers.push(lineNumber);
    } else {
      this.ring[this.next] = copy;
      this.numbers[this.next] = lineNumber;
    }
    this.next = (this.next + 1) % WINDOW_LINES;
  }

  /** The words of the window, at most MAX_WORDS_PER_LOG. */
  get words(): ReadonlySet<string> {
    const words = new Set<string>();
    for (const line of this.ring) addWordsOfLine(line.toString('utf8'), words);
    return words;
  }

  /** The window's lines, oldest first, each with its line number (a line added twice in a row appears twice). */
  lines(): Array<{ text: string; lineNumber: number }> {
    const out: Array<{ text: string; lineNumber: number }> = [];
    const start = this.ring.length < WINDOW_LINES ? 0 : this.next;
    for (let k = 0; k < this.ring.length; k++) {
      const i = (start + k) % this.ring.length;
      out.push({ text: this.ring[i].toString('utf8'), lineNumber: this.numbers[i] });
    }
    return out;
  }
}

/** One labelled log for training: its words and its category. */
export interface TrainingLog {
  words: ReadonlySet<string>;
  category: Category;
}

/** Counts the training logs: deterministic, so the same logs always give the same model. */
export function trainModel(logs: readonly TrainingLog[], trainedOn: string): LearntModel {
  const categories = [...new Set(logs.map((l) => l.category))].sort() as Category[];
  const index = new Map(categories.map((c, i) => [c, i]));
  const perCategory = categories.map(() => 0);
  const counts = new Map<string, number[]>();
  for (const log of logs) {
    const c = index.get(log.category)!;
    perCategory[c]++;
    for (const word of log.words) {
      let row = counts.get(word);
      if (!row) counts.set(word, (row = categories.map(() => 0)));
      row[c]++;
    }
  }
  const words = [...counts]
    .filter(([, row]) => row.reduce((a, b) => a + b, 0) >= MIN_LOGS_PER_WORD)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { categories, logs: perCategory, words, trainedOn };
}

/** A model ready to score: log-probabilities computed once. */
export interface ScoringModel {
  categories: readonly Category[];
  logPrior: readonly number[];
  /** Word → per category, log P(word | category). */
  logLikelihood: ReadonlyMap<string, readonly number[]>;
}

/**
 * Multinomial naive Bayes over the words present in a log. Absent words are not evidence:
 * a paste cut short lacks most words of its kind, and reading their absence as a sign
 * against the kind was the worse model in cross-validation (bench/triage-train.ts --cv).
 */
export function scoringModel(model: LearntModel): ScoringModel {
  const total = model.logs.reduce((a, b) => a + b, 0);
  const logPrior = model.logs.map((n) => Math.log((n + 1) / (total + model.logs.length)));
  const wordsIn = model.logs.map(() => 0);
  for (const [, row] of model.words) row.forEach((k, c) => (wordsIn[c] += k));
  const vocabulary = model.words.length;
  const logLikelihood = new Map<string, number[]>();
  for (const [word, row] of model.words) {
    logLikelihood.set(word, row.map((k, c) => Math.log((k + SMOOTHING) / (wordsIn[c] + SMOOTHING * vocabulary))));
  }
  return { categories: model.categories, logPrior, logLikelihood };
}

/** How much more likely a word is under category `c` than, on average, under the others (log scale). */
function lift(row: readonly number[], c: number): number {
  return row[c] - (row.reduce((a, b) => a + b, 0) - row[c]) / (row.length - 1);
}

export interface Guess {
  category: Category;
  /** Posterior probability of the category, 0..1. */
  probability: number;
  /** The learnt words of the log that pointed at it most, strongest first (at most three). */
  words: string[];
}

/** The model's reading of a log's words: every category's posterior, the best first. */
export function guessCategory(model: ScoringModel, words: ReadonlySet<string>): Guess | undefined {
  const scores = [...model.logPrior];
  const seen: Array<[string, readonly number[]]> = [];
  for (const word of words) {
    const row = model.logLikelihood.get(word);
    if (!row) continue;
    seen.push([word, row]);
    for (let c = 0; c < scores.length; c++) scores[c] += row[c];
  }
  if (seen.length === 0) return undefined;
  let best = 0;
  for (let c = 1; c < scores.length; c++) if (scores[c] > scores[best]) best = c;
  const max = scores[best];
  const sum = scores.reduce((a, s) => a + Math.exp(s - max), 0);
  // Words that favour the winner over the mean of the other categories, most first.
  const words3 = seen
    .map(([word, row]) => [word, lift(row, best)] as const)
    .filter(([, l]) => l > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([word]) => word);
  return { category: model.categories[best], probability: 1 / sum, words: words3 };
}

/**
 * Of a guess's lines, the one whose learnt words point at `category` most (the sum of the lifts
 * of its words that favour it), the earliest of equals: the line the guess rests on, which the
 * alert shows in place of a first error when no line was recognised. Undefined when no line has
 * such a word. Linear in the lines' length.
 */
export function strongestLine(model: ScoringModel, category: Category, lines: readonly string[]): number | undefined {
  const c = model.categories.indexOf(category);
  if (c === -1) return undefined;
  let best: number | undefined;
  let bestScore = 0;
  lines.forEach((line, index) => {
    const words = new Set<string>();
    addWordsOfLine(line, words);
    let score = 0;
    for (const word of words) {
      const row = model.logLikelihood.get(word);
      if (row) score += Math.max(0, lift(row, c));
    }
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

/** The guess as evidence, or nothing when the model is unsure or says `other`. */
export function learntEvidence(model: ScoringModel, words: ReadonlySet<string>, lineNumber?: number): EvidenceItem | undefined {
  const guess = guessCategory(model, words);
  if (!guess || guess.category === 'other' || guess.probability < MIN_POSTERIOR) return undefined;
  const because = guess.words.length > 0 ? ` (words such as ${guess.words.map((w) => `"${w}"`).join(', ')})` : '';
  return {
    role: 'learnt-words',
    category: guess.category,
    summary: `A guess from the words of the log's error lines${because}, learnt from labelled failure logs; no line was recognised`,
    recognised: false,
    ...(lineNumber !== undefined && { lineNumber }),
  };
}

let scoring: ScoringModel | undefined;

/** The trained model (learnt-model.ts), made ready on first use. */
export function learntScoringModel(): ScoringModel {
  scoring ??= scoringModel(LEARNT_MODEL);
  return scoring;
}
