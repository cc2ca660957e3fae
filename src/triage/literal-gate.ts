import { RegExpParser, type AST } from '@eslint-community/regexpp';

/**
 * Which of many regular expressions can possibly match a line, found in one pass over it.
 *
 * Why: a line is classified by trying a hundred and forty signatures in table order, and on
 * error-looking lines that match none (a flood of `what():` or `Error: x` lines, an exception
 * of no known kind) every one of them was run. Each run costs a call and a scan of the line, so
 * a line cost several microseconds whatever it said. Most signatures cannot match without some
 * literal text (`CUDA out of memory` without "cuda out of memory", `NCCL error` without "nccl
 * error"): the gate reads every signature once at start-up, takes from its syntax tree a set of
 * strings of which every match contains one, and runs one automaton over the line to see which
 * of those strings it holds. Only the signatures whose strings are there, and those it found no
 * string for, are tried. RE2's FilteredRE2 and Hyperscan prefilter the same way.
 *
 * It never changes a result: a signature is skipped only when its match would have to contain
 * a string the line does not hold (test/triage/literal-gate.test.ts checks that on every
 * fixture line). Matching is ASCII case-insensitive on both sides, which holds for patterns
 * with and without the `i` flag: without it, an exact match is still there in lower case; with
 * it, JavaScript folds ASCII letters only into ASCII letters outside `u` mode (ECMA-262
 * Canonicalize), and characters past ASCII share one column (see `column`).
 *
 * The pass is an Aho–Corasick automaton (Automaton, below), which prefilter.ts uses as well.
 */

/** A set of strings that every match contains one of; null when nothing is certain. */
type Literals = string[] | null;

/** Strings of one exact piece are expanded at most to this many before the piece is closed. */
const MAX_EXACT_STRINGS = 64;
const MAX_EXACT_LENGTH = 64;
/** A necessary set with an empty string is no filter. One character (`@`, `k`) still is. */
const MIN_USEFUL_LENGTH = 1;
const ASCII = 128;
/** Characters of a necessary string the automaton holds (see the constructor). */
const MAX_GATE_STRING = 12;

/**
 * A character's column in an automaton's table, before its own numbering (Automaton.columnOf): ASCII letters folded to lower case, and every
 * character past ASCII in one shared column (127, with DEL). Sharing a column only makes the
 * gate say "possible" more often, never less: a character past ASCII in a pattern matches only
 * characters past ASCII in the text (without the `u` flag, case folding never maps one into
 * ASCII), and a literal of them is kept as "some character past ASCII".
 */
export const OTHER = 127;
export const column = (code: number): number => (code >= ASCII ? OTHER : code >= 65 && code <= 90 ? code + 32 : code);

function product(a: readonly string[], b: readonly string[]): string[] | null {
  if (a.length * b.length > MAX_EXACT_STRINGS) return null;
  const out = new Set<string>();
  for (const x of a) for (const y of b) {
    if (x.length + y.length > MAX_EXACT_LENGTH) return null;
    out.add(x + y);
  }
  return [...out];
}

/** Every string the node can match, lower-cased, when they are few and ASCII; null otherwise. */
function exactStrings(node: AST.Node): string[] | null {
  switch (node.type) {
    case 'Character':
      return [String.fromCharCode(column(node.value))];
    case 'CharacterClass': {
      if (node.negate || node.unicodeSets) return null;
      const chars = new Set<string>();
      for (const e of node.elements) {
        if (e.type !== 'Character') return null;
        chars.add(String.fromCharCode(column(e.value)));
      }
      return chars.size > 0 && chars.size <= 8 ? [...chars] : null;
    }
    case 'Assertion':
      // ^, $, \b and lookarounds consume nothing: for the strings a match contains, they are empty.
      return [''];
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return unionOf(node.alternatives.map(exactStrings));
    case 'Alternative': {
      let strings: string[] | null = [''];
      for (const e of node.elements) {
        const next = exactStrings(e);
        strings = next && strings ? product(strings, next) : null;
        if (!strings) return null;
      }
      return strings;
    }
    case 'Quantifier': {
      const inner = exactStrings(node.element);
      if (!inner) return null;
      if (node.min === 0 && node.max === 1) return unionOf([inner, ['']]);
      if (node.min !== node.max || node.min > 4) return null;
      let strings: string[] | null = [''];
      for (let i = 0; i < node.min && strings; i++) strings = product(strings, inner);
      return strings;
    }
    default:
      return null;
  }
}

function unionOf(sets: ReadonlyArray<string[] | null>): string[] | null {
  const out = new Set<string>();
  for (const s of sets) {
    if (!s) return null;
    for (const x of s) out.add(x);
  }
  return out.size <= MAX_EXACT_STRINGS ? [...out] : null;
}

/** A necessary set is useful when none of its strings can be matched by almost anything. */
function useful(set: readonly string[] | null): set is string[] {
  return set !== null && set.length > 0 && set.every((s) => s.length >= MIN_USEFUL_LENGTH);
}

/** The better of two necessary sets: the longer shortest string, then the fewer strings. */
function better(a: Literals, b: Literals): Literals {
  if (!useful(b)) return useful(a) ? a : null;
  if (!useful(a)) return b;
  const minA = Math.min(...a.map((s) => s.length));
  const minB = Math.min(...b.map((s) => s.length));
  if (minA !== minB) return minA > minB ? a : b;
  return a.length <= b.length ? a : b;
}

/** Strings of which every match of the node contains one; null when there is no such set. */
function necessaryStrings(node: AST.Node): Literals {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup': {
      // Any alternative may be the one that matched: the union of theirs, if each has one.
      const sets = node.alternatives.map(necessaryStrings);
      if (!sets.every(useful)) return null;
      return [...new Set(sets.flat())];
    }
    case 'Alternative': {
      // Every element of a sequence is in the match: the best of the elements' sets, where
      // runs of exact elements (a literal word, `(?:ed with)?`) count as one piece.
      let best: Literals = null;
      let run: string[] = [''];
      for (const e of node.elements) {
        const exact = exactStrings(e);
        const joined = exact ? product(run, exact) : null;
        if (joined) {
          run = joined;
          continue;
        }
        best = better(best, run);
        if (exact) run = exact;
        else {
          run = [''];
          best = better(best, necessaryStrings(e));
        }
      }
      return better(best, run);
    }
    case 'Quantifier':
      return node.min >= 1 ? necessaryStrings(node.element) : null;
    default: {
      const exact = exactStrings(node);
      return useful(exact) ? exact : null;
    }
  }
}

/**
 * Every string `pattern` can match, lower-cased, when they are few and all ASCII (a word, a
 * word with alternatives like `sig(?:term|kill)`); null otherwise. Holding one of them is then
 * the same as matching (with the `i` flag).
 */
export function exactLiterals(pattern: RegExp): string[] | null {
  if (!caseFoldsWithinAscii(pattern)) return null;
  const strings = exactStrings(parse(pattern));
  return strings && strings.every((x) => x.length > 0 && !x.includes(String.fromCharCode(OTHER))) ? strings.sort() : null;
}

function parse(pattern: RegExp): AST.Pattern {
  return new RegExpParser({ ecmaVersion: 2025 }).parsePattern(pattern.source, 0, pattern.source.length, { unicode: pattern.unicode, unicodeSets: pattern.flags.includes('v') });
}

/**
 * With `u` or `v`, case-insensitive matching folds some characters past ASCII into ASCII
 * letters (U+017F ſ into s, U+212A K into k): the shared column would not hold. Never gated.
 */
function caseFoldsWithinAscii(pattern: RegExp): boolean {
  return !(pattern.ignoreCase && (pattern.unicode || pattern.flags.includes('v')));
}

/** The strings every match of `pattern` contains one of (lower-cased ASCII), or null when none is certain. */
export function necessaryLiterals(pattern: RegExp): string[] | null {
  // The gate and the prefilter both read each signature at start-up: parse it once.
  if (!READ.has(pattern)) READ.set(pattern, readNecessaryLiterals(pattern));
  return READ.get(pattern)?.slice() ?? null;
}

const READ = new WeakMap<RegExp, string[] | null>();

function readNecessaryLiterals(pattern: RegExp): string[] | null {
  if (!caseFoldsWithinAscii(pattern)) return null;
  const set = necessaryStrings(parse(pattern));
  return useful(set) ? set.sort() : null;
}

/**
 * Aho–Corasick over strings grouped by id, compiled to a table: a state per trie node, a
 * column per character the strings hold. Reaching a state means the text so far ends with the
 * strings of outIds[outStart[state]..outStart[state + 1]). Written here rather than taken from a
 * package: the scans must run on the hot path of every examined line and every chunk of a log
 * without allocating per hit, and the packages return match objects.
 */
export class Automaton {
  /**
   * Per ASCII code, its column in the table (upper case as lower case; 127 stands for every
   * character past ASCII, see `column`); 0 is "in no string".
   */
  readonly columnOf: Uint8Array;
  readonly width: number;
  /** delta[state * width + columnOf[code < 128 ? code : 127]]: the next state. */
  readonly delta: Uint16Array | Int32Array;
  readonly outStart: Int32Array;
  readonly outIds: Int32Array;

  constructor(stringsById: ReadonlyArray<readonly string[] | null>) {
    // Column 0 is every character no string holds: it leads back to the start.
    this.columnOf = new Uint8Array(ASCII);
    let width = 1;
    for (const strings of stringsById) for (const s of strings ?? []) for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (this.columnOf[code] === 0) this.columnOf[code] = width++;
    }
    this.width = width;
    // Upper-case ASCII letters read as their lower case: the table is indexed by the raw code.
    for (let code = 65; code <= 90; code++) this.columnOf[code] = this.columnOf[code + 32];
    // The trie: per node, its children by column and the ids whose strings end there.
    const children: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    stringsById.forEach((strings, id) => {
      for (const s of new Set(strings)) {
        let node = 0;
        for (let i = 0; i < s.length; i++) {
          const col = this.columnOf[s.charCodeAt(i)];
          let next = children[node].get(col);
          if (next === undefined) {
            next = children.length;
            children.push(new Map());
            ends.push([]);
            children[node].set(col, next);
          }
          node = next;
        }
        ends[node].push(id);
      }
    });
    // Breadth first: each node's failure link is the longest proper suffix that is a trie node;
    // its row is its failure's row with its own children over it, and its output includes its failure's.
    const states = children.length;
    const delta = states < 0x10000 ? new Uint16Array(states * width) : new Int32Array(states * width);
    const fail = new Int32Array(states);
    const outputs: Array<Set<number>> = ends.map((e) => new Set(e));
    const queue: number[] = [];
    for (const [col, child] of children[0]) {
      delta[col] = child;
      queue.push(child);
    }
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q];
      for (const id of outputs[fail[node]]) outputs[node].add(id);
      delta.copyWithin(node * width, fail[node] * width, (fail[node] + 1) * width);
      for (const [col, child] of children[node]) {
        fail[child] = delta[fail[node] * width + col];
        delta[node * width + col] = child;
        queue.push(child);
      }
    }
    this.delta = delta;
    this.outStart = new Int32Array(states + 1);
    const ids: number[] = [];
    for (let st = 0; st < states; st++) {
      this.outStart[st] = ids.length;
      for (const id of outputs[st]) ids.push(id);
    }
    this.outStart[states] = ids.length;
    this.outIds = Int32Array.from(ids);
  }
}

export class LiteralGate {
  /** Per pattern, whether it has no necessary strings and so is always tried. */
  private readonly always: Uint8Array;
  private readonly possible: Uint8Array;
  /** The indices marked by the last scan (the always-tried first), and how many. */
  private readonly order: Int32Array;
  private readonly alwaysOrder: Int32Array;
  private count = 0;
  private readonly automaton: Automaton;
  /** How many of the patterns are always tried, for the tests and the record. */
  readonly unfiltered: number;

  constructor(patterns: readonly RegExp[]) {
    // Any piece of a necessary string is necessary too: the first MAX_GATE_STRING characters
    // of each filter nearly as well and keep the automaton a few thousand states.
    const literals = patterns.map((l) => necessaryLiterals(l)?.map((s) => s.slice(0, MAX_GATE_STRING)) ?? null);
    this.always = Uint8Array.from(literals, (l) => (l ? 0 : 1));
    this.unfiltered = this.always.reduce((a, b) => a + b, 0);
    this.alwaysOrder = Int32Array.from(literals.flatMap((l, i) => (l ? [] : [i])));
    this.possible = new Uint8Array(patterns.length);
    this.order = new Int32Array(patterns.length);
    this.automaton = new Automaton(literals);
  }

  /**
   * Per pattern (by index), 1 when it may match `text` and 0 when it cannot. The array is
   * reused: read it before the next scan.
   */
  scan(text: string): Uint8Array {
    const { possible, order } = this;
    const { delta, outStart, outIds, columnOf, width } = this.automaton;
    possible.set(this.always);
    order.set(this.alwaysOrder);
    let count = this.alwaysOrder.length;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      state = delta[state * width + columnOf[code < ASCII ? code : OTHER]];
      for (let k = outStart[state], end = outStart[state + 1]; k < end; k++) {
        const id = outIds[k];
        if (possible[id] === 0) {
          possible[id] = 1;
          order[count++] = id;
        }
      }
    }
    this.count = count;
    return possible;
  }

  /**
   * Sorts the patterns the last scan found possible into `possibleOrder` by ascending index,
   * for trying them in table order, and returns how many there are. Insertion sort for the
   * handful a line usually leaves; a line that names many is sorted natively.
   */
  sortPossible(): number {
    const { order, count } = this;
    if (count > 16) {
      order.subarray(0, count).sort();
      return count;
    }
    for (let i = 1; i < count; i++) {
      const id = order[i];
      let j = i - 1;
      while (j >= 0 && order[j] > id) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = id;
    }
    return count;
  }

  /** The possible patterns' indices after sortPossible, the first `count` of them; reused by the next scan. */
  get possibleOrder(): Int32Array {
    return this.order;
  }
}
