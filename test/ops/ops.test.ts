/**
 * Operating the bot: health, readiness and metrics endpoints, JSON logs without secrets, and a
 * SIGTERM that ends the process cleanly within 10 seconds.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { CLI } from '../demo/cli.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { freePort } from '../../bench/free-port.js';

describe('operations', () => {
  const sims = useSimulators((kube, slack) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  it('serves /healthz, /readyz and Prometheus /metrics that count what the bot did', async () => {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' } });
    const base = `http://127.0.0.1:${bot.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, leader: true, checks: { cluster: { ok: true }, slack: { ok: true }, store: { ok: true } } });

    kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', 'ValueError: bad config\n');
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the DM');
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/runai_bot_transitions_total\{from="Running",to="Failed"\} 1/);
    expect(metrics).toMatch(/runai_bot_messages_sent_total\{kind="failed"\} 1/);
    expect(metrics).toContain('runai_bot_triage_seconds_bucket');
    expect(metrics).toContain('process_resident_memory_bytes');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it('rides out a Kubernetes API outage at start: retries the list with backoff, then is ready', async () => {
    kube.failNext(2, 503, '/apis/run.ai/v2alpha1/trainingworkloads');
    bot = await sims.startBot({});
    expect(await bot.ready()).toBe(true);
    const failures = bot.captured.entries.filter((e) => e.msg === 'listing workloads failed');
    expect(failures).toHaveLength(2);
    expect(String(failures[0].err)).toContain('503');
  });

  it('reports clearly when ops.port is taken, naming the key to change', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      await expect(sims.startBot({ ops: { port: taken } })).rejects.toThrow(new RegExp(`port ${taken}: another process .*\\(EADDRINUSE\\); set ops\\.port`));
    } finally {
      sims.bot = undefined;
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('binds the ops endpoints to ops.host', async () => {
    bot = await sims.startBot({ ops: { port: 0, host: '127.0.0.1' } });
    expect((await fetch(`http://127.0.0.1:${bot.port}/healthz`)).status).toBe(200);
    await expect(fetch(`http://[::1]:${bot.port}/healthz`)).rejects.toThrow();
  });

  it('exits within 10 seconds of SIGTERM, logging JSON without any token', async () => {
    const dir = tempDir();
    const port = await freePort();
    const config = join(dir, 'config.yml');
    writeFileSync(config, `slack: { port: ${port} }\nops: { port: ${port} }\nstore: { path: ${join(dir, 'bot.db')} }\n`);
    const child = spawn(process.execPath, [CLI, 'start', '--config', config], {
      env: {
        PATH: process.env.PATH,
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_API_URL: slack.apiUrl,
        KUBECONFIG: kube.writeKubeconfig(dir),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, 'readiness', 20_000);
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
    const sentAt = Date.now();
    child.kill('SIGTERM');
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(10_000);
    const lines = output.trim().split('\n');
    expect(lines.every((l) => JSON.parse(l).name === 'runai-slack-bot')).toBe(true);
    expect(output).toContain('runai-slack-bot started');
    expect(output).toContain('runai-slack-bot stopped');
    expect(output).not.toContain(slack.botToken);
    expect(output).not.toContain(slack.appToken);
  }, 40_000);
});
