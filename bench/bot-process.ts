/**
 * The bot alone in a child process, so its memory is measured without the simulated cluster
 * (which holds every object and would dominate). Reads { yaml, sims, dir } as JSON from argv,
 * tells the parent over IPC when it is ready and what its memory is once it has settled, and
 * stops when told to.
 */
import { readFileSync } from 'node:fs';
import { loadKubeConfig, startBot } from '../src/app.js';
import { benchConfig, benchLog, sleep, type SimEndpoints, type YamlConfig } from './bot.js';

export interface BotProcessRequest {
  yaml: YamlConfig;
  sims: SimEndpoints;
  dir: string;
  settleMs: number;
}

export type BotProcessMessage =
  | { type: 'ready'; sinceProcessStartMs: number; startBotMs: number }
  | { type: 'memory'; rssBytes: number; hwmBytes: number; heapUsedBytes: number; workloads: number };

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
  send({ type: 'memory', rssBytes: rss, hwmBytes: hwm, heapUsedBytes: process.memoryUsage().heapUsed, workloads: bot.reconciler.workloads().length });
  process.once('message', () => {
    void bot.stop().then(() => process.exit(0));
  });
}

if (process.send) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
