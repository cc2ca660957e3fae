import { readFileSync } from 'node:fs';
import { splitPrefix } from '../../src/triage/line-prefix.js';
import { PREFILTER, TIER, classifyLine } from '../../src/triage/signatures.js';
import { triageStream, triageText, type Category, type TriageHints, type TriageResult } from '../../src/triage/index.js';

/**
 * Every log in test/fixtures/logs/ against what test/fixtures/logs/expected.json says an
 * engineer would point at: the line (a substring), the category, and where given the line
 * number, rank, pod, retry verdict, what decided it, and secrets that must not survive.
 */
interface Expectation {
  line: string | null;
  category: Category;
  transient?: boolean;
  hints?: TriageHints;
  lineNumber?: number;
  rank?: string;
  pod?: string;
  container?: string;
  decidedBy?: string;
  binary?: boolean;
  absent?: string[];
  snippetAbsent?: string[];
}

const dir = new URL('../fixtures/logs/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Record<string, Expectation>;
const fixtures = Object.entries(expected);

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

function checkResult(r: TriageResult, e: Expectation): void {
  if (e.line === null) {
    expect(r.firstError).toBeNull();
  } else {
    expect(r.firstError?.line).toContain(e.line);
  }
  expect(r.category).toBe(e.category);
  if (e.transient !== undefined) expect(r.transient).toBe(e.transient);
  if (e.lineNumber !== undefined) expect(r.firstError?.lineNumber).toBe(e.lineNumber);
  if (e.rank !== undefined) expect(r.firstError?.source?.rank).toBe(e.rank);
  if (e.pod !== undefined) expect(r.firstError?.source?.pod).toBe(e.pod);
  if (e.container !== undefined) expect(r.firstError?.source?.container).toBe(e.container);
  if (e.decidedBy !== undefined) expect(r.decidedBy).toBe(e.decidedBy);
  if (e.binary !== undefined) expect(r.binary).toBe(e.binary);
  const everything = JSON.stringify(r);
  for (const secret of e.absent ?? []) expect(everything).not.toContain(secret);
  for (const hostile of e.snippetAbsent ?? []) expect(r.snippet).not.toContain(hostile);
}

describe('triage of the fixture logs', () => {
  it('has at least 30 fixtures, each with a log file', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
    for (const [name] of fixtures) expect(() => readFileSync(new URL(name, dir))).not.toThrow();
  });

  it.each(fixtures)('%s: finds the expected line and category in the whole text', (name, e) => {
    const text = readFileSync(new URL(name, dir), 'utf8');
    checkResult(triageText(text, e.hints), e);
  });

  it.each(fixtures)('%s: finds the same when streamed in 7-byte chunks', async (name, e) => {
    const bytes = readFileSync(new URL(name, dir));
    checkResult(await triageStream(chunksOf(bytes, 7), e.hints), e);
  });

  it.each(fixtures)('%s: every line that would be classified passes the prefilter', (name) => {
    const text = readFileSync(new URL(name, dir), 'latin1');
    for (const line of text.split(/[\r\n]/)) {
      const found = classifyLine(splitPrefix(line.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')).rest);
      if (found && found.tier >= TIER.secondary) expect([line, PREFILTER.test(line)]).toEqual([line, true]);
    }
  });
});
