/**
 * The production bundle (scripts/bundle.mjs), which the image ships as dist/: built here into a
 * temporary directory, then run the way the image runs it. It must do what tsc's dist/ does —
 * start, watch, DM an owner, parse a feed in its worker thread — while leaving out what the bot
 * never reaches (client-node's other API groups, the demo, the simulators).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { freePort } from '../../bench/free-port.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, as dist/ is in the image: the native addon it leaves out resolves from node_modules.
mkdirSync(join(ROOT, 'build'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, 'build', 'bundle-test-'));
const CLI = join(OUT, 'cli.js');

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), '--outdir', OUT, '--metafile'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('what the bundle holds', () => {
  /** The source files that put code into cli.js (esbuild's metafile also lists those it parsed and dropped whole). */
  const inputs = () => {
    const meta = JSON.parse(readFileSync(join(OUT, 'meta.json'), 'utf8')) as { outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }> };
    const cli = Object.values(meta.outputs).find((o) => o.entryPoint === 'src/cli.ts')!;
    return Object.entries(cli.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([path]) => path);
  };

  it("keeps only the client-node API groups the bot calls, and none of the demo or the simulators", () => {
    const apis = inputs()
      .map((p) => /client-node\/dist\/gen\/apis\/(\w+Api)\.js$/.exec(p)?.[1])
      .filter((name): name is string => name !== undefined && name !== 'baseapi')
      .sort();
    expect(apis).toEqual(['ApisApi', 'AuthorizationV1Api', 'CoordinationV1Api', 'CoreV1Api', 'CustomObjectsApi']);
    expect(inputs()).toEqual(expect.arrayContaining(['src/app.ts', 'src/commands/demo.ts']));
    expect(inputs().filter((p) => /^src\/(?:demo|sim)\//.test(p))).toEqual([]);
  });

  it('is Latin-1 throughout, so V8 keeps its source one byte a character', () => {
    for (const file of ['cli.js', 'parse-worker.js']) {
      const text = readFileSync(join(OUT, file), 'utf8');
      const wide = [...text].filter((c) => c.codePointAt(0)! > 0xff);
      expect({ file, wide: wide.slice(0, 5) }).toEqual({ file, wide: [] });
    }
  });
});

describe('the bundle as a program', () => {
  it('says the demo is not part of it, as the image did before', () => {
    const run = spawnSync(process.execPath, [CLI, 'demo', '--headless', '--out', join(OUT, 'calls.jsonl')], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('the demo is not part of this installation');
  });

  it('triages a log (triage-log) like the compiled CLI', () => {
    const log = join(ROOT, 'test/fixtures/logs/secrets-env-dump.log');
    const run = spawnSync(process.execPath, [CLI, 'triage-log', log, '--json'], { encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toMatchObject({ firstError: { line: "KeyError: 'labels'", lineNumber: 17 } });
    expect(run.stdout).not.toContain('hunter2');
  });

  it('parses a feed in its worker thread (parse-worker.js beside cli.js)', () => {
    const feed = join(ROOT, 'test/fixtures/ics/weekly-cancelled-and-moved.ics');
    const script = join(OUT, 'parse-in-worker.mjs');
    writeFileSync(script, `
      import { readFileSync } from 'node:fs';
      import { Worker } from 'node:worker_threads';
      const opts = { timezone: 'UTC', from: new Date('2020-01-01'), to: new Date('2035-01-01') };
      const worker = new Worker(${JSON.stringify(join(OUT, 'parse-worker.js'))}, { workerData: { text: readFileSync(${JSON.stringify(feed)}, 'utf8'), opts } });
      worker.once('message', (m) => { console.log(JSON.stringify({ ok: m.ok, windows: m.result?.windows.length })); void worker.terminate(); });`);
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const answer = JSON.parse(run.stdout) as { ok: boolean; windows: number };
    expect(answer.ok).toBe(true);
    expect(answer.windows).toBeGreaterThan(0);
  });
});

describe('start from the bundle', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let child: ChildProcess | undefined;
  beforeEach(() => ({ kube, slack } = sims));
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('gets ready, DMs the owner of a failed workload, and stops cleanly on SIGTERM', async () => {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    const dir = tempDir('bundle-start-');
    const port = await freePort();
    const config = join(dir, 'config.yml');
    writeFileSync(config, `ops: { port: ${port} }\nslack: { port: 0 }\nstore: { path: ${dir}/bot.db }\nowners: { emailDomain: example.org }\n`);
    let output = '';
    // With the node flags the image starts it with (the Dockerfile's ENTRYPOINT).
    const entrypoint = JSON.parse(/^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))![1]) as string[];
    const nodeFlags = entrypoint.filter((arg) => arg.startsWith('--'));
    expect(nodeFlags.length).toBeGreaterThan(0);
    child = spawn(process.execPath, [...nodeFlags, CLI, 'start', '--config', config], {
      env: { PATH: process.env.PATH, SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, KUBECONFIG: kube.writeKubeconfig(dir) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const readyz = async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status;
    await eventually(async () => (await readyz()) === 200, 'readiness', 30_000);

    kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', 'ValueError: bad config\n');
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the DM', 20_000);
    expect(JSON.stringify(slack.messagesTo(ALICE.id)[0])).toContain('ValueError: bad config');

    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toContain(slack.botToken);
  }, 60_000);
});
