import { triageText } from './triage.js';
import type { TriageResult } from './types.js';

const TIMESTAMP = /(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d(?:[.,]\d+)?)/;

function timeOf(result: TriageResult): number | undefined {
  const m = result.firstError ? TIMESTAMP.exec(result.firstError.line) : null;
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2].replace(',', '.')}Z`);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The root cause across the pods, containers or ranks of one workload: the strongest
 * evidence (a real error of worker 1 beats the watchdog timeouts of the others), then the
 * earliest by the timestamps in the error lines when both have one, then the caller's order
 * (pass the master or launcher first).
 */
export function triageSources(results: TriageResult[]): TriageResult {
  if (results.length === 0) return triageText('');
  let best = results[0];
  for (const candidate of results.slice(1)) {
    if (candidate.strength !== best.strength) {
      if (candidate.strength > best.strength) best = candidate;
      continue;
    }
    const [tc, tb] = [timeOf(candidate), timeOf(best)];
    if (tc !== undefined && tb !== undefined && tc < tb) best = candidate;
  }
  return best;
}
