import { Automaton, OTHER, exactLiterals, necessaryLiterals } from './literal-gate.js';

/**
 * The first pass over a log: which lines are examined at all. Most lines of a training log are
 * progress and metrics; only a line that holds an anchor (a word errors are written in: "err",
 * "fail", "denied", "what()"…) or a string some signature cannot match without is examined.
 *
 * Why the signatures' strings: with anchors alone, a signature was reachable only when the
 * lines it matches happen to carry an anchor too, and a test could only check that on the
 * fixture lines. The scheduler's `0/4 nodes are available: 4 Insufficient nvidia.com/gpu.memory.`
 * or Kueue's `insufficient unused quota` carry none, so a log that said only that was never
 * read. Now each signature's necessary strings (literal-gate.ts) of at least
 * MIN_SIGNATURE_STRING characters are anchors themselves: a signature is reachable by
 * construction, and test/triage/prefilter.test.ts lists any that still depends on a word.
 *
 * One Aho–Corasick pass finds them all, ASCII case-insensitively, the way grep -F does. An
 * anchor that is not a plain word (`\[E(?:\s|\d{4}\s)`, the glog E-line, or a string past
 * ASCII) is found by its necessary string and confirmed by its own regular expression on the line.
 */

/** Shorter strings than this are in too many healthy lines to be worth examining them for. */
export const MIN_SIGNATURE_STRING = 5;
export const MAX_SIGNATURE_STRING = 16;
/** The bit of a table entry above every row offset: set when the state is a hit (see `rows`). */
const HIT = 2 ** 30;

export class Prefilter {
  /**
   * The automaton's table with each state numbered by its row's offset (state × width), and
   * its columns for every UTF-16 code unit: the scan's step is one addition and two lookups.
   */
  private readonly rows: Uint32Array;
  private readonly columns: Uint8Array;
  /** The anchors found by a necessary string only, as one expression to confirm a line with. */
  private readonly confirm: RegExp | undefined;
  /** The same set as one regular expression (case-insensitive), for grep in the bench and for reading. */
  readonly source: string;

  constructor(anchors: readonly RegExp[], signatureStrings: readonly string[]) {
    const strings: Array<readonly string[] | null> = [];
    const sure: boolean[] = [];
    const toConfirm: RegExp[] = [];
    for (const anchor of anchors) {
      const exact = exactLiterals(anchor);
      if (exact) {
        strings.push(exact);
        sure.push(true);
        continue;
      }
      const necessary = necessaryLiterals(anchor);
      if (!necessary) throw new Error(`prefilter anchor /${anchor.source}/ has no string to find it by`);
      strings.push(necessary);
      sure.push(false);
      toConfirm.push(anchor);
    }
    // A string that holds an anchor adds nothing (its lines pass already), and a string's first
    // MAX_SIGNATURE_STRING characters are necessary as well: both keep the table small enough
    // to stay in the processor's cache, which is most of the scan's speed.
    const anchored = new RegExp(anchors.map((a) => a.source).join('|'), 'i');
    const words = [...new Set(signatureStrings.filter((s) => s.length >= MIN_SIGNATURE_STRING && /^[\x00-\x7e]*$/.test(s) && !anchored.test(s)).map((s) => s.slice(0, MAX_SIGNATURE_STRING)))];
    for (const s of words) {
      strings.push([s]);
      sure.push(true);
    }
    const automaton = new Automaton(strings);
    const { outStart, outIds, delta, width, columnOf } = automaton;
    const states = outStart.length - 1;
    // Per state, whether reaching it is a hit: 2 a line that passes, 1 anchors to confirm.
    const hitOf = new Uint8Array(states);
    for (let state = 0; state < states; state++) {
      for (let k = outStart[state]; k < outStart[state + 1]; k++) hitOf[state] = Math.max(hitOf[state], sure[outIds[k]] ? 2 : 1);
    }
    // Each entry is the next state's row offset, with its hit in the top bits: a step is one
    // addition and two lookups, and the common case (no hit) one comparison.
    this.rows = Uint32Array.from(delta, (next) => next * width + hitOf[next] * HIT);
    this.columns = new Uint8Array(0x10000).fill(columnOf[OTHER]);
    this.columns.set(columnOf);
    this.confirm = toConfirm.length > 0 ? new RegExp(toConfirm.map((a) => a.source).join('|'), 'i') : undefined;
    const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.source = [...anchors.map((a) => a.source), ...words.map(escape)].join('|');
  }

  /** Whether one line passes. */
  test(line: string): boolean {
    return this.nextLine(line, 0) !== -1;
  }

  /**
   * The start of the first line at or after `from` (a line's start) that passes, or -1. One
   * pass over the text, one table lookup per character: nothing is decoded, split or copied.
   * A newline is in no string, so it returns the automaton to its start, and a line's bounds
   * are looked up only at a hit.
   */
  nextLine(text: string, from: number): number {
    const { rows, columns } = this;
    let state = 0;
    for (let i = from; i < text.length; i++) {
      state = rows[state + columns[text.charCodeAt(i)]];
      if (state < HIT) continue;
      const hit = state >= 2 * HIT ? 2 : 1;
      state %= HIT;
      const lineStart = text.lastIndexOf('\n', i) + 1;
      if (hit === 2) return lineStart;
      // Only anchors to confirm: by their own expression, on the whole line.
      let lineEnd = text.indexOf('\n', i);
      if (lineEnd === -1) lineEnd = text.length;
      if (this.confirmed(text, lineStart, lineEnd)) return lineStart;
    }
    return -1;
  }

  private confirmed(text: string, start: number, end: number): boolean {
    return this.confirm !== undefined && this.confirm.test(text.slice(start, end));
  }
}
