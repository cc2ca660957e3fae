/**
 * A benchmark figure: printed as one JSON line the moment it is measured, and gathered into the
 * closing table with a pass/miss column. Targets are data, so the table and the JSON agree.
 */

export interface Target {
  op: '<=' | '>=' | '=';
  value: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** Absent: informational (no target in the issue). */
  target?: Target;
  /** How it was measured, or why it misses: shown in the table only. */
  note?: string;
}

export function targetText(target: Target | undefined): string {
  return target ? `${target.op} ${target.value}` : '';
}

export function meets(figure: Figure): boolean | undefined {
  const { target, value } = figure;
  if (!target || !Number.isFinite(value)) return target ? false : undefined;
  if (target.op === '<=') return value <= target.value;
  if (target.op === '>=') return value >= target.value;
  return value === target.value;
}

/** Rounds to a precision that suits the size of the number (the JSON keeps it readable). */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return Number(value.toFixed(digits));
}

export function jsonLine(figure: Figure): string {
  return JSON.stringify({ name: figure.name, value: round(figure.value), unit: figure.unit, target: targetText(figure.target) });
}

export function table(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const ok = meets(f);
    return [f.name, String(round(f.value)), f.unit, targetText(f.target) || '-', ok === undefined ? 'info' : ok ? 'pass' : 'MISS', f.note ?? ''];
  });
  const header = ['figure', 'value', 'unit', 'target', 'result', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === 5 ? 0 : r[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === 5 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Nearest-rank percentile of a list of samples. */
export function percentile(samples: number[], p: number): number {
  if (!samples.length) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export class Report {
  readonly figures: Figure[] = [];

  add(figure: Figure): void {
    this.figures.push(figure);
    console.log(jsonLine(figure));
  }
}
