/**
 * The bot alone in a child process, so its memory is measured without the simulated cluster
 * (which holds every object and would dominate). Reads { yaml, sims, dir } as JSON from argv,
 * tells the parent over IPC when it is ready and what its memory is once it has settled, and
 * stops when told to.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { parseFeedOffThread } from '../src/maintenance/parse-off-thread.js';
import { loadKubeConfig, startBot } from '../src/app.js';
import { benchConfig, benchLog, sleep, type SimEndpoints, type YamlConfig } from './bot.js';
import { FEED_NOW, generateFeed } from './ics.js';

export interface BotProcessRequest {
  yaml: YamlConfig;
  sims: SimEndpoints;
  dir: string;
  settleMs: number;
  /** Write a heap snapshot here once settled (BENCH_HEAP_SNAPSHOT), for the memory profile. */
  heapSnapshotDir?: string;
  /** Write a CPU profile of the event-loop phase here (BENCH_CPU_PROF). */
  cpuProfileDir?: string;
}

/** Parent → child: start measuring event-loop delay (and parse a feed of `feedEvents`), or stop and report. */
export type BotProcessCommand = { type: 'lag-start'; feedEvents: number } | { type: 'lag-stop' } | { type: 'stop' };

export type BotProcessMessage =
  | { type: 'ready'; sinceProcessStartMs: number; startBotMs: number }
  | { type: 'memory'; rssBytes: number; hwmBytes: number; heapUsedBytes: number; workloads: number; heapSnapshot?: string; breakdown: MemoryBreakdown }
  | { type: 'lag'; p50Ms: number; p99Ms: number; maxMs: number; feedMs: number; feedWindows: number; cpuProfile?: string };

/** Where the resident memory is, by V8 heap space (bytes used) and outside the heap. */
export interface MemoryBreakdown {
  heapSpaces: Record<string, number>;
  /** The V8 heap's resident pages (used or not) and what V8 itself has malloc'ed. */
  heapPhysicalBytes: number;
  v8MallocedBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
  /** From /proc/self/smaps_rollup: anonymous (heap, malloc, stacks) vs file-backed (node's own binary, libraries). */
  anonymousBytes: number;
  fileBackedBytes: number;
}

function memoryBreakdown(): MemoryBreakdown {
  const { external, arrayBuffers } = process.memoryUsage();
  const heap = getHeapStatistics();
  const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? Number.NaN) * 1024;
  return {
    heapSpaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size])),
    heapPhysicalBytes: heap.total_physical_size,
    v8MallocedBytes: heap.malloced_memory,
    externalBytes: external,
    arrayBuffersBytes: arrayBuffers,
    anonymousBytes: kb('Anonymous'),
    fileBackedBytes: kb('Rss') - kb('Anonymous'),
  };
}

/** VmRSS and VmHWM (high-water mark) of this process, in bytes. */
export function procMemory(): { rss: number; hwm: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as BotProcessRequest;
  const send = (message: BotProcessMessage) => process.send!(message);
  const config = benchConfig(request.yaml, request.sims, request.dir);
  const started = performance.now();
  const bot = await startBot({ config, log: benchLog(), kubeConfig: loadKubeConfig(request.sims.kubeconfig) });
  while (!(await bot.ready())) await sleep(10);
  send({ type: 'ready', sinceProcessStartMs: performance.now(), startBotMs: performance.now() - started });
  await sleep(request.settleMs);
  const { rss, hwm } = procMemory();
  const breakdown = memoryBreakdown();
  const heapUsedBytes = process.memoryUsage().heapUsed;
  const heapSnapshot = request.heapSnapshotDir ? writeHeapSnapshot(join(request.heapSnapshotDir, `bot-${bot.reconciler.workloads().length}.heapsnapshot`)) : undefined;
  send({ type: 'memory', rssBytes: rss, hwmBytes: hwm, heapUsedBytes, workloads: bot.reconciler.workloads().length, heapSnapshot, breakdown });
  let histogram: ReturnType<typeof monitorEventLoopDelay> | undefined;
  let profiler: Session | undefined;
  let feed: Promise<{ ms: number; windows: number }> | undefined;
  process.on('message', (command: BotProcessCommand) => {
    if (command.type === 'lag-start') {
      if (request.cpuProfileDir) {
        profiler = new Session();
        profiler.connect();
        void profiler.post('Profiler.enable').then(() => profiler!.post('Profiler.start'));
      }
      histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      // The feed goes the way the maintenance service sends it: to the worker thread.
      const text = generateFeed(command.feedEvents);
      const started = performance.now();
      const day = Math.floor(FEED_NOW.getTime() / 86_400_000) * 86_400_000;
      feed = parseFeedOffThread(text, { timezone: 'Europe/Berlin', from: new Date(day - 7 * 86_400_000), to: new Date(day + 62 * 86_400_000) }).then((answer) => ({
        ms: performance.now() - started,
        windows: answer.ok ? answer.result.windows.length : -1,
      }));
    } else if (command.type === 'lag-stop') {
      void (async () => {
        const parsed = (await feed) ?? { ms: Number.NaN, windows: -1 };
        histogram?.disable();
        let cpuProfile: string | undefined;
        if (profiler && request.cpuProfileDir) {
          const { profile } = await profiler.post('Profiler.stop');
          cpuProfile = join(request.cpuProfileDir, 'bot-event-loop-phase.cpuprofile');
          writeFileSync(cpuProfile, JSON.stringify(profile));
        }
        const ms = (ns: number) => ns / 1e6;
        send({ type: 'lag', p50Ms: ms(histogram?.percentile(50) ?? Number.NaN), p99Ms: ms(histogram?.percentile(99) ?? Number.NaN), maxMs: ms(histogram?.max ?? Number.NaN), feedMs: parsed.ms, feedWindows: parsed.windows, cpuProfile });
      })();
    } else {
      void bot.stop().then(() => process.exit(0));
    }
  });
}

if (process.send) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
