import { fixtureLines } from './fixture-lines.js';
import { LiteralGate, necessaryLiterals } from '../../src/triage/literal-gate.js';
import { splitPrefix } from '../../src/triage/line-prefix.js';
import { GATED_LINE_TESTS } from '../../src/triage/signatures.js';
import { VOCABULARY_ENTRIES } from '../../src/triage/vocabulary.js';

/**
 * The literal gate (src/triage/literal-gate.ts) may skip a pattern only where it cannot match.
 * Its strings are checked on hand-made patterns, and the gate itself on every line of every
 * fixture log against every pattern classifyLine runs: a pattern that matches a line must have
 * been left possible for it.
 */

const OTHER = '\x7f';

describe('necessaryLiterals', () => {
  it.each<[RegExp, string[] | null]>([
    [/CUDA out of memory/, ['cuda out of memory']],
    [/NCCL error|nccl\w*Error\b/i, ['error', 'nccl error']],
    [/exit(?:ed with)? code -9\b/i, ['exit code -9', 'exited with code -9']],
    [/(?:torch|cuda)\.OutOfMemoryError/, ['cuda.outofmemoryerror', 'torch.outofmemoryerror']],
    [/\bSIGKILL\b/, ['sigkill']],
    // A class of a few characters is each of them; a range or \d is anything.
    [/[Tt]imeout/, ['timeout']],
    [/Errno \d+: disk/, ['errno ']],
    // Only the longest certain piece is kept; an optional piece is no certainty.
    [/ab\s+longer piece/, ['longer piece']],
    [/(?:optional)?\d/, null],
    [/a*/, null],
    // A back-reference or a lookaround consumes what is not known here: the pieces around it count.
    [/(?=([\w.]+))\1raise\(/, ['raise(']],
    [/(?<!NCCL )\bWARN\b/, ['warn']],
    // One empty alternative makes the whole alternation uncertain.
    [/alpha|/, null],
    // Characters past ASCII are all one column.
    [/\u5df2\u6740\u6b7b/, [OTHER.repeat(3)]],
  ])('%s', (pattern, expected) => {
    expect(necessaryLiterals(pattern)).toEqual(expected);
  });

  it('gates nothing under u or v with i: their case folding maps characters past ASCII into ASCII letters', () => {
    expect(necessaryLiterals(/kelvin/iu)).toBeNull();
    expect(necessaryLiterals(/kelvin/u)).toEqual(['kelvin']);
    expect(/kelvin/iu.test('\u212Aelvin')).toBe(true);
  });
});

describe('LiteralGate', () => {
  it('marks the patterns whose strings a line holds, in any ASCII case, and the ungated ones always', () => {
    const gate = new LiteralGate([/CUDA error/, /NCCL WARN/i, /a*/, /\u00e9t\u00e9/]);
    expect([...gate.scan('RuntimeError: cuda ERROR: device-side assert')]).toEqual([1, 0, 1, 0]);
    expect([...gate.scan('[3] NCCL warn Cuda failure')]).toEqual([0, 1, 1, 0]);
    expect([...gate.scan('un \u00e9t\u00e9 chaud')]).toEqual([0, 0, 1, 1]);
    expect(gate.unfiltered).toBe(1);
  });

  it('sorts the possible patterns by index for trying them in table order', () => {
    const gate = new LiteralGate([/zulu/, /yankee/, /xray/, /whisky/]);
    gate.scan('whisky xray yankee zulu');
    const count = gate.sortPossible();
    expect([...gate.possibleOrder.subarray(0, count)]).toEqual([0, 1, 2, 3]);
  });

  it('finds strings that overlap and strings inside others (failure links)', () => {
    const gate = new LiteralGate([/she/, /he/, /hers/, /his/]);
    expect([...gate.scan('ushers')]).toEqual([1, 1, 1, 0]);
  });

  it('leaves most signatures out of an exception line of no known kind', () => {
    const gate = new LiteralGate(GATED_LINE_TESTS);
    const possible = gate.scan('RuntimeError: x');
    const left = possible.reduce((a, b) => a + b, 0);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(GATED_LINE_TESTS.length / 10);
  });
});

describe('the gate of classifyLine on every fixture line', () => {
  const gate = new LiteralGate(GATED_LINE_TESTS);
  const lines = [
    ...fixtureLines(),
    ...VOCABULARY_ENTRIES.map((e) => e.example),
  ].flatMap((line) => [line, splitPrefix(line).rest]);

  it('never leaves out a pattern that matches', () => {
    let matched = 0;
    const missed: string[] = [];
    for (const line of lines) {
      const possible = gate.scan(line);
      GATED_LINE_TESTS.forEach((pattern, i) => {
        if (!pattern.test(line)) return;
        matched++;
        if (possible[i] !== 1) missed.push(`${pattern.source.slice(0, 60)} on ${line.slice(0, 80)}`);
      });
    }
    expect(missed).toEqual([]);
    // Enough matches that the check means something: every pattern kind is exercised.
    expect(matched).toBeGreaterThan(5000);
  });
});
