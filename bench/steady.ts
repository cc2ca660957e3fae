/**
 * API server load in steady state. Measured: the requests the simulated API server records
 * over an idle period. Computed: the rate the watcher's schedule implies (watch reconnects at
 * the timeoutSeconds it asks for, a namespace list every resyncMinutes, a full list every
 * relistMinutes if set; or one full list per poll), since an idle period of minutes cannot see
 * a 30-minute schedule. A resync lists nothing.
 */
import type { FakeKube, RecordedRequest } from '../src/sim/kube-apiserver.js';

const PAGE_SIZE = 500;

/** Cluster-wide Run:ai workload collections the bot lists or watches: /apis/run.ai/v…/plural. */
export function watchedKinds(requests: RecordedRequest[]): string[] {
  const kinds = new Set<string>();
  for (const r of requests) {
    const m = /^\/apis\/run\.ai\/[^/]+\/([a-z]+)$/.exec(r.path);
    if (m) kinds.add(m[1]);
  }
  return [...kinds].sort();
}

export const isWatch = (r: RecordedRequest) => r.query.watch === 'true' || r.query.watch === '1';

/** List requests one full list of every kind takes (pages of 500; an empty kind is one request). */
export function pagesPerList(kube: FakeKube, kinds: string[]): number {
  return kinds.reduce((sum, kind) => sum + Math.max(1, Math.ceil(kube.count(kind) / PAGE_SIZE)), 0);
}

/** Mean server-side watch timeout the bot asked for, in seconds (from its recorded watch requests). */
export function meanWatchTimeoutS(requests: RecordedRequest[]): number | undefined {
  const timeouts = requests.filter(isWatch).map((r) => Number(r.query.timeoutSeconds)).filter((s) => s > 0);
  return timeouts.length ? timeouts.reduce((a, b) => a + b, 0) / timeouts.length : undefined;
}

/** Requests per minute in watch mode by schedule: reconnects + namespace list (+ periodic relist when relistMinutes is set). */
export function watchSchedulePerMin(kinds: number, timeoutS: number, listPages: number, resyncMinutes: number, relistMinutes?: number): number {
  return kinds * (60 / timeoutS) + 1 / resyncMinutes + (relistMinutes ? listPages / relistMinutes : 0);
}

/** Requests per minute in poll mode by schedule: a full list every interval, and the namespace list. */
export function pollSchedulePerMin(listPages: number, intervalS: number, resyncMinutes: number): number {
  return listPages * (60 / intervalS) + 1 / resyncMinutes;
}

/** Requests recorded from `from` on, until `ms` have passed. */
export async function countOver(kube: FakeKube, ms: number): Promise<RecordedRequest[]> {
  const from = kube.requests.length;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return kube.requests.slice(from);
}
