/**
 * `npm run bench -- --large`: the bot at a busy site's size. Run:ai keeps a finished workload's
 * resource until someone deletes it, so the cluster holds 100,000 workloads and 300,000 pods;
 * a node dies and hundreds of owners must hear at once, through Slack's real rate limits.
 *
 * Figures: memory and start-up at 10k and 100k (bot alone in a child process), event-loop delay
 * in that child across a 100k relist (forced by a 410), a 1,000-failure burst and a
 * 5,000-event feed parse at once, detection latency at 100k, and the burst through Slack's tiers.
 */
import { startFakeKube, type FakeKube } from '../src/sim/kube-apiserver.js';
import { SlackSimulator } from '../src/sim/slack.js';
import { METHOD_LIMITS } from '../src/sim/slack-tiers.js';
import { addOwners, EMAIL_DOMAIN, fail, ownerName, populate, type BenchWorkload } from './cluster.js';
import { sleep, startBenchBot, type BenchBot } from './bot.js';
import { benchBurst } from './burst.js';
import { distinctOwners, oneByOne } from './detect.js';
import { percentile, type Report } from './figures.js';
import { measureFootprint, readyNote, rssNote, type Footprint } from './footprint.js';
import { isWatch, watchedKinds } from './steady.js';
import { addRelistFigures, measureRelist } from './relist.js';

const MB = 1e6;
const POST_LIMIT = METHOD_LIMITS['chat.postMessage'];

export interface LargeSizes {
  workloads: number;
  podsPerWorkload: number;
  owners: number;
  smallWorkloads: number;
  detectFailures: number;
  lagFailures: number;
  feedEvents: number;
  burstWorkloads: number;
  burstOwners: number;
  burstTimeoutMs: number;
}

export const LARGE: LargeSizes = {
  workloads: 100_000,
  podsPerWorkload: 3,
  owners: 2_000,
  smallWorkloads: 10_000,
  detectFailures: 50,
  lagFailures: 1_000,
  feedEvents: 5_000,
  burstWorkloads: 1_000,
  burstOwners: 200,
  burstTimeoutMs: 12 * 60_000,
};

type Progress = (message: string) => void;

async function cluster(workloads: number, sizes: LargeSizes, slackTiers: boolean, progress: Progress) {
  const started = performance.now();
  // History long enough that the failures of one phase never expire a watch.
  const kube = await startFakeKube({ historyLimit: 50_000 });
  const slack = await SlackSimulator.start({ rateTiers: slackTiers });
  const list = populate(kube, { workloads, podsPerWorkload: sizes.podsPerWorkload, owners: sizes.owners });
  addOwners(slack, sizes.owners);
  progress(`cluster of ${workloads} workloads and ${workloads * sizes.podsPerWorkload} pods built in ${Math.round(performance.now() - started)} ms`);
  return { kube, slack, workloads: list };
}

async function closeAll(...things: Array<{ close(): Promise<void> } | undefined>): Promise<void> {
  for (const t of things) await t?.close();
}

/** Resolves when `done` holds (checked every 200 ms) or after `timeoutMs`; says which. */
async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (done()) return true;
    await sleep(200);
  }
  return done();
}

/** The bot with no workloads at all: what each workload adds is measured against it. */
async function idleFootprint(slackTiers: boolean, progress: Progress): Promise<Footprint> {
  progress('footprint with no workloads (the baseline of bytes per workload)');
  const kube = await startFakeKube();
  const slack = await SlackSimulator.start({ rateTiers: slackTiers });
  try {
    return await measureFootprint(kube, slack, {}, 3000);
  } finally {
    await closeAll(slack, kube);
  }
}

/** Resident and heap bytes each workload adds over the idle bot. */
function addBytesPerWorkload(name: string, f: Footprint, idle: Footprint | undefined, report: Report): void {
  if (!idle || !f.workloads) return;
  const per = (a: number, b: number) => Math.round((a - b) / f.workloads);
  report.add({
    name,
    value: per(f.heapUsedBytes, idle.heapUsedBytes),
    unit: 'B',
    note: `V8 heap used over the idle bot's (${Math.round(idle.heapUsedBytes / MB)} MB), per workload, ${f.workloads} workloads; resident ${per(f.rssBytes, idle.rssBytes)} B per workload over the idle ${Math.round(idle.rssBytes / MB)} MB (GC timing moves it)`,
  });
}

async function footprint10k(sizes: LargeSizes, slackTiers: boolean, report: Report, progress: Progress, idle: Footprint | undefined): Promise<void> {
  const small = await cluster(sizes.smallWorkloads, sizes, slackTiers, progress);
  try {
    const f = await measureFootprint(small.kube, small.slack, {}, 3000);
    report.add({
      name: 'rss_mb_10k',
      value: f.rssBytes / MB,
      unit: 'MB',
      target: { op: '<=', value: 150 },
      note: rssNote(f, idle ? `; with no workloads ${Math.round(idle.rssBytes / MB)} MB` : ''),
    });
    addBytesPerWorkload('bytes_per_workload_10k', f, idle, report);
  } finally {
    await closeAll(small.slack, small.kube);
  }
}

/** The 100k run in the child: memory, start-up, then event-loop delay under the worst of it. */
async function footprint100k(big: { kube: FakeKube; slack: SlackSimulator; workloads: BenchWorkload[] }, sizes: LargeSizes, report: Report, progress: Progress, idle: Footprint | undefined): Promise<void> {
  const { kube } = big;
  progress('footprint at 100k: the bot in a child process');
  let lag: { p50Ms: number; p99Ms: number; maxMs: number; feedMs: number; feedWindows: number; cpuProfile?: string } | undefined;
  let lagNote = '';
  const f = await measureFootprint(kube, big.slack, {}, 3000, async (child) => {
    progress(`event loop: 100k relist (410) + ${sizes.lagFailures} failures + ${sizes.feedEvents}-event feed, together`);
    const kinds = watchedKinds(kube.requests).length;
    kube.resetRequests();
    const lagReport = child.next('lag');
    child.send({ type: 'lag-start', feedEvents: sizes.feedEvents });
    const started = performance.now();
    const failing = big.workloads.slice(big.workloads.length / 2, big.workloads.length / 2 + sizes.lagFailures);
    for (const w of failing) fail(kube, w, 50);
    // The failures moved history past the bot's resourceVersion; compacting it away makes the
    // reconnect a 410, and so a relist of all 100k.
    kube.compactHistory();
    kube.dropWatches();
    let relistedMs: number | undefined;
    let logsReadMs: number | undefined;
    // Relisted: every kind that got a 410 (a kind whose watch was at the newest change resumes
    // without one) has listed and is watching again.
    const relisted = () => {
      const lists = new Set(kube.requests.filter((r) => !isWatch(r) && /^\/apis\/run\.ai\//.test(r.path)).map((r) => r.path));
      const watchesOf = (path: string) => kube.requests.filter((r) => isWatch(r) && r.path === path).length;
      return lists.size > 0 && [...lists].every((path) => watchesOf(path) >= 2);
    };
    const settled = await until(() => {
      const logs = kube.requests.filter((r) => r.path.endsWith('/log')).length;
      if (relistedMs === undefined && relisted()) relistedMs = performance.now() - started;
      if (logsReadMs === undefined && logs >= sizes.lagFailures) logsReadMs = performance.now() - started;
      return relistedMs !== undefined && logsReadMs !== undefined;
    }, 120_000);
    const secs = (ms: number | undefined) => (ms === undefined ? 'not within the window' : `in ${(ms / 1000).toFixed(1)} s`);
    await sleep(2000);
    child.send({ type: 'lag-stop' });
    lag = await lagReport;
    const pages = kube.requests.filter((r) => !isWatch(r) && /^\/apis\/run\.ai\//.test(r.path)).length;
    const logs = kube.requests.filter((r) => r.path.endsWith('/log')).length;
    const watches = kube.requests.filter(isWatch).length;
    lagNote = `${Math.round((performance.now() - started) / 1000)} s window${settled ? '' : ' (timed out)'}: relist of ${pages} list pages done ${secs(relistedMs)} (${watches} watch requests, ${kinds} kinds), ${logs}/${sizes.lagFailures} failed pods' logs read ${secs(logsReadMs)}, feed parsed in ${Math.round(lag.feedMs)} ms (${lag.feedWindows} windows); p50 ${lag.p50Ms.toFixed(1)} ms, max ${Math.round(lag.maxMs)} ms${lag.cpuProfile ? `; CPU profile ${lag.cpuProfile}` : ''}`;
  });
  report.add({
    name: 'ready_s_100k',
    value: f.readyMs / 1000,
    unit: 's',
    target: { op: '<=', value: 20 },
    note: readyNote(f),
  });
  report.add({
    name: 'rss_mb_100k',
    value: f.rssBytes / MB,
    unit: 'MB',
    target: { op: '<=', value: 400 },
    note: rssNote(f, ` = ${Math.round(f.heapUsedBytes / f.workloads)} B per workload${f.heapSnapshot ? `; heap snapshot ${f.heapSnapshot}` : ''}`),
  });
  addBytesPerWorkload('bytes_per_workload_100k', f, idle, report);
  report.add({
    name: 'event_loop_lag_p99_ms',
    value: lag?.p99Ms ?? Number.NaN,
    unit: 'ms',
    target: { op: '<=', value: 50 },
    note: `perf_hooks.monitorEventLoopDelay in the bot process; ${lagNote}`,
  });
}

async function detect100k(big: { kube: FakeKube; slack: SlackSimulator; workloads: BenchWorkload[] }, sizes: LargeSizes, report: Report, progress: Progress): Promise<void> {
  progress(`watch mode at 100k: ${sizes.detectFailures} failures one by one`);
  let bot: BenchBot | undefined;
  try {
    bot = await startBenchBot(big.kube, big.slack, {});
    const cold = distinctOwners(big.workloads, sizes.detectFailures);
    // A bot that has run for a day knows its owners (the store keeps lookups 24 h): the figure
    // is about the watch at 100k, not about first-time users.lookupByEmail under Tier 3.
    for (const w of cold) bot.bot.store.cacheSlackUser(`${w.owner}@${EMAIL_DOMAIN}`, `UB${w.owner.replace(/^user/, '').padStart(6, '0')}`, new Date());
    await sleep(500);
    // First failures of these owners: one chat.postMessage each, to the user ID (no conversations.open).
    const first = await oneByOne(big.kube, big.slack, cold, 200, 10_000);
    report.add({
      name: 'detect_latency_watch_p99_ms_100k_first_dm',
      value: percentile(first.samples, 99),
      unit: 'ms',
      note: `${first.samples.length} owners' first DM since start (lookups cached, posted to the user ID); p50 ${Math.round(percentile(first.samples, 50))} ms${first.missed ? `; ${first.missed} never arrived` : ''}`,
    });
    // Then a second failure of each, once their bursts have closed: the steady state.
    await sleep(31_000);
    const warm = distinctOwners(big.workloads, sizes.detectFailures, sizes.owners);
    const run = await oneByOne(big.kube, big.slack, warm, 200, 10_000);
    report.add({
      name: 'detect_latency_watch_p99_ms_100k',
      value: percentile(run.samples, 99),
      unit: 'ms',
      target: { op: '<=', value: 1000 },
      note: `${run.samples.length} failures of distinct owners already DMed once, bot in the benchmark process beside the simulations; p50 ${Math.round(percentile(run.samples, 50))} ms${run.missed ? `; ${run.missed} never arrived` : ''}`,
    });
    progress(`relist: a 410 makes the bot list all ${sizes.workloads} workloads again`);
    addRelistFigures(report, '100k', sizes.workloads, await measureRelist(big.kube, () => bot!.bot.settle(), 300_000));
  } finally {
    await bot?.stop();
  }
}

async function burstTiers(sizes: LargeSizes, report: Report, progress: Progress): Promise<void> {
  progress(`burst through Slack's tiers: ${sizes.burstWorkloads} workloads of ${sizes.burstOwners} owners fail within a second`);
  const kube = await startFakeKube();
  const slack = await SlackSimulator.start({ rateTiers: true });
  slack.addChannel('C0OPS', 'runai-ops');
  slack.inviteBot('C0OPS');
  const workloads = populate(kube, { workloads: sizes.burstWorkloads, podsPerWorkload: 1, owners: sizes.burstOwners });
  addOwners(slack, sizes.burstOwners);
  const bot = await startBenchBot(kube, slack, { slack: { opsChannel: 'C0OPS' } });
  try {
    // As in real life, the workloads run a while before the node dies: long enough for the bot to
    // resolve their owners in the background (owners.lookupsPerMinute, 30 by default: 200 owners
    // take about 7 minutes). The burst then measures the failure path alone.
    const resolving = performance.now();
    const emails = Array.from({ length: sizes.burstOwners }, (_, i) => `${ownerName(i)}@${EMAIL_DOMAIN}`);
    for (;;) {
      const cached = await Promise.all(emails.map((e) => bot.bot.store.cachedSlackUser(e)));
      if (bot.bot.ownerPrefetch.waiting === 0 && cached.every((c) => c?.userId)) break;
      if (performance.now() - resolving > sizes.burstTimeoutMs) throw new Error('owners not resolved in the background in time');
      await sleep(1000);
    }
    const resolvedS = (performance.now() - resolving) / 1000;
    progress(`${sizes.burstOwners} owners resolved in the background in ${resolvedS.toFixed(0)} s; now the burst`);
    const lookupsBefore = slack.callsTo('users.lookupByEmail').length;
    const burst = await benchBurst(kube, slack, workloads, sizes.burstOwners, sizes.burstTimeoutMs);
    const lookupsDuring = slack.callsTo('users.lookupByEmail').length - lookupsBefore;
    const opens = slack.callsTo('conversations.open').length;
    const limited = Object.entries(burst.rateLimitedBy).map(([m, n]) => `${n} ${m}`).join(', ') || 'none';
    report.add({
      name: 'burst_1000_drain_s_slack_tiers',
      value: burst.drainMs / 1000,
      unit: 's',
      note: `${burst.ownersTold}/${burst.owners} owners told; 429s: ${limited}; ${lookupsDuring} users.lookupByEmail and ${opens} conversations.open during the burst`,
    });
    report.add({
      name: 'burst_first_dm_p99_ms_slack_tiers',
      value: percentile(burst.firstDmMs, 99),
      unit: 'ms',
      target: { op: '<=', value: 5000 },
      note: `failure to each owner's first DM, ${burst.firstDmMs.length} owners; p50 ${Math.round(percentile(burst.firstDmMs, 50))} ms; owners resolved before the burst (${resolvedS.toFixed(0)} s in the background after start: the bench assumes workloads run minutes before they fail), DMs posted to the user ID; chat.postMessage's workspace limit (${POST_LIMIT.perMinute}/min after a burst of ${POST_LIMIT.burst}) bounds ${sizes.burstOwners} first DMs to about ${Math.round(((sizes.burstOwners - POST_LIMIT.burst) / POST_LIMIT.perMinute) * 60)} s`,
    });
    report.add({ name: 'burst_lost_slack_tiers', value: burst.lost, unit: 'workloads', target: { op: '=', value: 0 }, note: `not named in their owner's DM after ${Math.round(burst.drainMs / 1000)} s` });
  } finally {
    await bot.stop();
    await closeAll(slack, kube);
  }
}

/** `only`: run just these phases (BENCH_LARGE_ONLY=footprint,… while profiling one of them). */
export async function benchLarge(sizes: LargeSizes, report: Report, progress: Progress, slackTiers: boolean, only?: string[]): Promise<void> {
  const runs = (phase: string) => !only?.length || only.includes(phase);
  const idle = runs('10k') || runs('footprint') ? await idleFootprint(slackTiers, progress) : undefined;
  if (runs('10k')) await footprint10k(sizes, slackTiers, report, progress, idle);
  if (runs('detect') || runs('footprint')) {
    const big = await cluster(sizes.workloads, sizes, slackTiers, progress);
    try {
      // Detection first, on a fresh cluster: the burst of the event-loop phase leaves a thousand
      // failed workloads (and their owners' DMs) behind.
      if (runs('detect')) await detect100k(big, sizes, report, progress);
      if (runs('footprint')) await footprint100k(big, sizes, report, progress, idle);
    } finally {
      await closeAll(big.slack, big.kube);
    }
  }
  if (runs('burst')) await burstTiers(sizes, report, progress);
}
