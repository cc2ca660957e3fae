/**
 * Where the bot's resident memory goes, written as small JSON under bench/profiles/ (committed,
 * cited by the figures): `npm run bench:memory-profile [-- --out DIR]`.
 *
 * - imports: VmRSS of a bare node, then of node after importing one package or build alone (each
 *   in its own process, after a GC): what `start` pays before it does anything.
 * - footprints: the bot in a child process (bench/bot-process.ts) with 0 and 10,000 workloads,
 *   as the image runs it (bundle, the Dockerfile's node flags), the bundle on node's defaults, and
 *   tsc's build on node's defaults (the image before), with the V8 heap spaces and resident memory
 *   by kind, and bytes per workload as the difference between 10k and 0.
 * - heap: a summary of the image bot's heap snapshot at 10k (bench/heap-summary.ts): totals by
 *   type, constructors by self size, the biggest retainers.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeKube } from '../src/sim/kube-apiserver.js';
import { SlackSimulator } from '../src/sim/slack.js';
import { tempDir } from './bot.js';
import { addOwners, populate } from './cluster.js';
import { BOT_NODE_FLAGS, BUNDLED_BOT_PROCESS, measureFootprint, TSC_BOT_PROCESS, type Footprint } from './footprint.js';
import { summariseHeap } from './heap-summary.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MB = 1e6;
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Each alone, in the order of their cost to `start`; the builds last. */
const IMPORTS = [
  '@kubernetes/client-node', '@slack/bolt', '@slack/web-api', 'undici', 'pg', 'zod', 'prom-client', 'windows-iana', 'yaml', 'pino',
  'better-sqlite3', 'node-cron', 'commander', 'ical.js', 'p-retry',
  './dist/config.js', './dist/app.js', './dist/cli.js#cli', './bundle/cli.js#cli',
];

/** The image (bundle, its node flags), the bundle on node's defaults, and tsc's build as the image ran it before. */
const VARIANTS = [
  ['image', BUNDLED_BOT_PROCESS, BOT_NODE_FLAGS],
  ['bundled_default_flags', BUNDLED_BOT_PROCESS, []],
  ['tsc_default_flags', TSC_BOT_PROCESS, []],
] as const;

const PROBE = `
import { readFileSync } from 'node:fs';
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const what = process.argv[1];
const before = rss();
// A CLI entry (#cli) is imported with --help, its process.exit made a throw the CLI catches.
if (what.endsWith('#cli')) { process.argv.splice(1, Infinity, 'cli', '--help'); process.exit = () => { throw new Error('exit'); }; }
if (what !== 'none') await import(what.replace(/#.*$/, ''));
globalThis.gc();
const { heapUsed } = process.memoryUsage();
console.log(JSON.stringify({ before, after: rss(), heapUsed }));
`;

function importCost(what: string): { module: string; rssMB: number; deltaMB: number; heapUsedMB: number } {
  // --input-type=module -e resolves bare specifiers from the working directory (the repository).
  // (The exit code is the CLI's, 2 after the --help exit became a throw; the last line is the probe's.)
  const out = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', PROBE, what], { cwd: ROOT, encoding: 'utf8' }).stdout;
  const { before, after, heapUsed } = JSON.parse(out.trim().split('\n').pop()!) as { before: number; after: number; heapUsed: number };
  return { module: what, rssMB: mb(after), deltaMB: mb(after - before), heapUsedMB: mb(heapUsed) };
}

function describe(f: Footprint) {
  return {
    workloads: f.workloads,
    rssMB: mb(f.rssBytes),
    peakMB: mb(f.hwmBytes),
    heapUsedMB: mb(f.heapUsedBytes),
    heapSpacesMB: Object.fromEntries(Object.entries(f.breakdown.heapSpaces).filter(([, b]) => b > 0).map(([k, b]) => [k, mb(b)])),
    heapPhysicalMB: mb(f.breakdown.heapPhysicalBytes),
    v8MallocedMB: mb(f.breakdown.v8MallocedBytes),
    externalMB: mb(f.breakdown.externalBytes),
    anonymousMB: mb(f.breakdown.anonymousBytes),
    fileBackedMB: mb(f.breakdown.fileBackedBytes),
  };
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex > 0 ? process.argv[outIndex + 1] : join(ROOT, 'bench/profiles');
  mkdirSync(out, { recursive: true });
  const sizes = [0, 10_000];
  const imports = ['none', ...IMPORTS].map(importCost);
  const footprints: Record<string, ReturnType<typeof describe>> = {};
  const snapshots = tempDir('heap');
  let heap;
  try {
    for (const workloads of sizes) {
      const kube = await startFakeKube({ historyLimit: 50_000 });
      const slack = await SlackSimulator.start({});
      populate(kube, { workloads, podsPerWorkload: 3, owners: 1_000 });
      addOwners(slack, 1_000);
      try {
        for (const [build, botProcess, nodeFlags] of VARIANTS) {
          const snapshotHere = build === 'image' && workloads === 10_000;
          const f = await measureFootprint(kube, slack, {}, 3000, undefined, { botProcess, nodeFlags, heapSnapshotDir: snapshotHere ? snapshots : undefined });
          footprints[`${build}_${workloads}`] = describe(f);
          if (f.heapSnapshot) heap = summariseHeap(f.heapSnapshot);
          process.stderr.write(`${build} ${workloads}: ${Math.round(f.rssBytes / MB)} MB\n`);
        }
      } finally {
        await slack.close();
        await kube.close();
      }
    }
  } finally {
    rmSync(snapshots, { recursive: true, force: true });
  }
  const perWorkload = (build: string) => {
    const [a, b] = [footprints[`${build}_0`], footprints[`${build}_10000`]];
    return { rssBytes: Math.round(((b.rssMB - a.rssMB) * MB) / 10_000), heapBytes: Math.round(((b.heapUsedMB - a.heapUsedMB) * MB) / 10_000) };
  };
  const summary = {
    node: process.version,
    measuredAt: new Date().toISOString(),
    imports,
    footprints,
    imageNodeFlags: BOT_NODE_FLAGS,
    bytesPerWorkload: Object.fromEntries(VARIANTS.map(([build]) => [build, perWorkload(build)])),
  };
  writeFileSync(join(out, 'memory.json'), `${JSON.stringify(summary, null, 1)}\n`);
  if (heap) writeFileSync(join(out, 'heap-10k.json'), `${JSON.stringify(heap, null, 1)}\n`);
  console.log(JSON.stringify({ footprints, bytesPerWorkload: summary.bytesPerWorkload }, null, 1));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
