/**
 * One relist of every workload kind by a running bot, forced as an API server forces it: the
 * history is compacted past the bot's resourceVersion and the watches are dropped, so each
 * reconnect meets 410 Gone. Measured from the drop until every kind has listed and watches
 * again (the watch is stopped while a kind lists: see src/cluster/watcher.ts), with the API
 * requests made meanwhile; then until the relist's decisions are made.
 */
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import type { Report } from './figures.js';
import { isWatch, watchedKinds } from './steady.js';
import { sleep } from './bot.js';

export interface RelistRun {
  ms: number;
  settledMs: number;
  requests: number;
  pages: number;
  watches: number;
  kinds: number;
  done: boolean;
}

export async function measureRelist(kube: FakeKube, settle: () => Promise<void>, timeoutMs: number): Promise<RelistRun> {
  const kinds = watchedKinds(kube.requests);
  const from = kube.requests.length;
  const started = performance.now();
  const compactedAt = Number(kube.resourceVersion);
  kube.compactHistory();
  kube.dropWatches();
  const since = () => kube.requests.slice(from);
  const paths = kinds.map((plural) => new RegExp(`^/apis/run\\.ai/[^/]+/${plural}$`));
  // Every kind reconnected; one whose reconnect was from before the compaction (410 Gone) has
  // listed since and watches again after its last page. A kind whose last bookmark was at the
  // newest change resumes without a 410, as on a real server.
  const relisted = () => {
    const requests = since();
    return paths.every((path) => {
      const ofKind = requests.filter((r) => path.test(r.path));
      const reconnect = ofKind.find(isWatch);
      if (!reconnect) return false;
      if (Number(reconnect.query.resourceVersion) >= compactedAt) return true;
      const lists = ofKind.map((r, i) => (isWatch(r) ? -1 : i)).filter((i) => i >= 0);
      return lists.length > 0 && ofKind.slice(lists[lists.length - 1] + 1).some(isWatch);
    });
  };
  let done = relisted();
  while (!done && performance.now() - started < timeoutMs) {
    await sleep(10);
    done = relisted();
  }
  const ms = performance.now() - started;
  const requests = since();
  await settle();
  return {
    ms,
    settledMs: performance.now() - started,
    requests: requests.length,
    pages: requests.filter((r) => !isWatch(r)).length,
    watches: requests.filter(isWatch).length,
    kinds: new Set(requests.filter((r) => !isWatch(r)).map((r) => r.path)).size,
    done,
  };
}

export function addRelistFigures(report: Report, size: string, workloads: number, run: RelistRun): void {
  const missed = run.done ? '' : ' (NOT relisted within the window)';
  report.add({
    name: `relist_requests_${size}`,
    value: run.requests,
    unit: 'req',
    note: `${workloads} workloads, ${run.kinds} kinds relisted: ${run.pages} list pages of 500 and ${run.watches} watch requests (per kind the reconnect that met 410 and the watch from the list's resourceVersion; a kind whose last bookmark was at the newest change resumes without a list)${missed}`,
  });
  report.add({
    name: `relist_ms_${size}`,
    value: run.ms,
    unit: 'ms',
    note: `410 Gone to every kind listed and watching again${missed}; its decisions made (one store read and write per slice of 200) at ${Math.round(run.settledMs)} ms`,
  });
}
