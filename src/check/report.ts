/**
 * The result of `check`: one row per thing verified, printed as a table. Pure.
 */

export interface CheckRow {
  /** What was verified, e.g. "Slack scope users:read.email" or "get pods/log". */
  check: string;
  ok: boolean;
  /** Works, but worth a look: shown as WARN, and does not fail `check`. */
  warn?: boolean;
  /** On success what was found; on failure what is wrong and how to fix it. */
  detail: string;
}

export const pass = (check: string, detail: string): CheckRow => ({ check, ok: true, detail });
export const fail = (check: string, detail: string): CheckRow => ({ check, ok: false, detail });
export const warn = (check: string, detail: string): CheckRow => ({ check, ok: true, warn: true, detail });

export function allOk(rows: readonly CheckRow[]): boolean {
  return rows.length > 0 && rows.every((r) => r.ok);
}

const HEADINGS = { check: 'CHECK', status: 'STATUS', detail: 'DETAIL / FIX' };
const status = (row: CheckRow) => (!row.ok ? 'FAIL' : row.warn ? 'WARN' : 'ok');

/** A plain-text table (like kubectl's), then a one-line verdict. */
export function formatTable(rows: readonly CheckRow[]): string {
  const checkWidth = Math.max(HEADINGS.check.length, ...rows.map((r) => r.check.length));
  const statusWidth = Math.max(HEADINGS.status.length, 4);
  const line = (check: string, state: string, detail: string) =>
    `${check.padEnd(checkWidth)}  ${state.padEnd(statusWidth)}  ${detail}`.trimEnd();
  const failed = rows.filter((r) => !r.ok).length;
  const warned = rows.filter((r) => r.ok && r.warn).length;
  const verdict = failed === 0
    ? `All ${rows.length} checks passed${warned ? ` (${warned} with a warning)` : ''}.`
    : `${failed} of ${rows.length} checks failed; fix them and run check again.`;
  return [
    line(HEADINGS.check, HEADINGS.status, HEADINGS.detail),
    ...rows.map((r) => line(r.check, status(r), r.detail.replace(/\s*\n\s*/g, ' '))),
    '',
    verdict,
    '',
  ].join('\n');
}
