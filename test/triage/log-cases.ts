/**
 * The shape of the mechanism tests of each triage round: a short log in the words the software
 * prints (not a copy of a corpus log), and what the triage must make of it.
 */
import { triageText, type Category, type TriageHints } from '../../src/triage/index.js';

export interface LogCase {
  log: string[];
  /** 1-based number of the line that must be chosen. */
  line: number;
  category: Category;
  transient?: boolean;
  /** Whether a line must be recognised (not a guess of the learnt reading, which may be right by chance). */
  recognised?: boolean;
  hints?: TriageHints;
}

/** One test per case: the chosen line's number, the category and, when the case gives them, transient and recognised. */
export function itTriagesEach(cases: Record<string, LogCase>): void {
  it.each(Object.entries(cases))('%s', (_name, c) => {
    const r = triageText(`${c.log.join('\n')}\n`, c.hints);
    expect(r.firstError?.lineNumber).toBe(c.line);
    expect(r.category).toBe(c.category);
    if (c.transient !== undefined) expect(r.transient).toBe(c.transient);
    if (c.recognised !== undefined) expect(r.recognised).toBe(c.recognised);
  });
}
