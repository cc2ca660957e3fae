/**
 * Start-to-ready time and resident memory of the bot with a big cluster, measured in a child
 * process (bot-process.ts) while this process serves the simulations.
 */
import { fork } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import type { SlackSimulator } from '../src/sim/slack.js';
import { endpointsOf, tempDir, type YamlConfig } from './bot.js';
import type { BotProcessCommand, BotProcessMessage, BotProcessRequest, MemoryBreakdown } from './bot-process.js';

export interface Footprint {
  /** From spawning node to the bot reporting ready (node start and module loading included). */
  readyMs: number;
  /** From calling startBot to ready. */
  startBotMs: number;
  rssBytes: number;
  hwmBytes: number;
  heapUsedBytes: number;
  workloads: number;
  heapSnapshot?: string;
  breakdown: MemoryBreakdown;
}

/** What the parent may do with the settled child before it stops: e.g. measure its event loop. */
export type WhileRunning = (child: { send(command: BotProcessCommand): void; next<T extends BotProcessMessage['type']>(type: T): Promise<Extract<BotProcessMessage, { type: T }>> }) => Promise<void>;

/**
 * The bot as the image ships it: bot-process.ts bundled like the production build
 * (scripts/bundle.mjs --bench, run by `npm run bench`). BENCH_BOT_PROCESS=tsc measures tsc's
 * unbundled build instead (what tests and the demo run), or names another build to compare.
 */
export const BUNDLED_BOT_PROCESS = fileURLToPath(new URL('../bench-bundle/bot-process.js', import.meta.url));
export const TSC_BOT_PROCESS = fileURLToPath(new URL('./bot-process.js', import.meta.url));
const BOT_PROCESS = process.env.BENCH_BOT_PROCESS === 'tsc' ? TSC_BOT_PROCESS : (process.env.BENCH_BOT_PROCESS ?? BUNDLED_BOT_PROCESS);
/**
 * Node flags of the bot process: those the image starts node with (the Dockerfile's ENTRYPOINT),
 * or BENCH_BOT_NODE_FLAGS (space-separated; empty for none) to try others.
 */
export const BOT_NODE_FLAGS = (process.env.BENCH_BOT_NODE_FLAGS ?? imageNodeFlags().join(' ')).split(' ').filter(Boolean);

function imageNodeFlags(): string[] {
  const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
  const entrypoint = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
  return entrypoint ? (JSON.parse(entrypoint) as string[]).filter((arg) => arg.startsWith('--')) : [];
}
/** Which build the figures are of, for their notes. */
const BUILD = BOT_PROCESS === BUNDLED_BOT_PROCESS ? 'bundled as in the image' : BOT_PROCESS === TSC_BOT_PROCESS ? "tsc's unbundled dist" : BOT_PROCESS;
export const BOT_BUILD = `${BUILD}${BOT_NODE_FLAGS.length ? `, node ${BOT_NODE_FLAGS.join(' ')}` : ''}`;

/** Megabytes as the figures count them (10^6 bytes, as bench/run.ts and large.ts). */
const MB = 1e6;

/** The note of a time-to-ready figure. */
export function readyNote(f: Footprint): string {
  return `spawn to ready (node start included); startBot to ready ${(f.startBotMs / 1000).toFixed(2)} s; ${f.workloads} workloads`;
}

/** The note of a resident-memory figure; `more` adds what that figure alone says. */
export function rssNote(f: Footprint, more = ''): string {
  return `VmRSS 3 s after ready, ${f.workloads} workloads, bot ${BOT_BUILD}; peak ${Math.round(f.hwmBytes / MB)} MB; heap used ${Math.round(f.heapUsedBytes / MB)} MB${more}`;
}

/** `botProcess`, `nodeFlags`: which build to run and how (default: as BENCH_BOT_PROCESS and the image say); `heapSnapshotDir`: as BENCH_HEAP_SNAPSHOT. */
export async function measureFootprint(kube: FakeKube, slack: SlackSimulator, yaml: YamlConfig, settleMs: number, whileRunning?: WhileRunning, options: { botProcess?: string; nodeFlags?: readonly string[]; heapSnapshotDir?: string } = {}): Promise<Footprint> {
  const dir = tempDir('child');
  const request: BotProcessRequest = { yaml, sims: endpointsOf(kube, slack, dir), dir, settleMs, heapSnapshotDir: options.heapSnapshotDir ?? process.env.BENCH_HEAP_SNAPSHOT, cpuProfileDir: process.env.BENCH_CPU_PROF };
  const spawnedAt = performance.now();
  const child = fork(options.botProcess ?? BOT_PROCESS, [JSON.stringify(request)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_CPU_PROF_ALL=dir: a CPU profile of the whole bot process (start-up included), written when it exits.
    execArgv: [...(options.nodeFlags ?? BOT_NODE_FLAGS), ...(process.env.BENCH_CPU_PROF_ALL ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_ALL}`] : [])],
  });
  try {
    const result: Partial<Footprint> = {};
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`bot process exited early (code ${code})`)));
      child.on('message', (message: BotProcessMessage) => {
        if (message.type === 'lag') return;
        if (message.type === 'ready') {
          result.readyMs = performance.now() - spawnedAt;
          result.startBotMs = message.startBotMs;
        } else {
          Object.assign(result, { rssBytes: message.rssBytes, hwmBytes: message.hwmBytes, heapUsedBytes: message.heapUsedBytes, workloads: message.workloads, heapSnapshot: message.heapSnapshot, breakdown: message.breakdown });
          resolve();
        }
      });
    });
    child.removeAllListeners('exit');
    if (whileRunning) {
      await whileRunning({
        send: (command) => child.send(command),
        next: (type) => new Promise((resolve) => {
          const listener = (message: BotProcessMessage) => {
            if (message.type !== type) return;
            child.off('message', listener);
            resolve(message as never);
          };
          child.on('message', listener);
        }),
      });
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send({ type: 'stop' } satisfies BotProcessCommand);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    return result as Footprint;
  } finally {
    if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
