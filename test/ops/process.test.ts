/**
 * The `start` command as a process (node dist/cli.js start): it either runs whole or exits
 * non-zero with one line naming the fix — never half-started — and Socket Mode reconnect
 * failures never end it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { CLI } from '../demo/cli.js';
import type { SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { freePort } from '../../bench/free-port.js';

interface Running {
  child: ChildProcess;
  output(): string;
  stderr(): string;
  /** Exit code, or 'running' if the process is still up after `ms`. */
  exitWithin(ms: number): Promise<number | null | 'running'>;
}

async function listening(port = 0): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('the start command as a process', () => {
  const sims = useSimulators();
  let kube: FakeKube;
  let slack: SlackSimulator;
  const children: ChildProcess[] = [];
  const servers: Server[] = [];
  beforeEach(() => ({ kube, slack } = sims));
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  function start(configYaml: string, options: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Running {
    const dir = tempDir('process-');
    const config = join(dir, 'config.yml');
    writeFileSync(config, configYaml.replaceAll('$DIR', dir));
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, 'start', '--config', config], {
      env: {
        PATH: process.env.PATH,
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_API_URL: slack.apiUrl,
        KUBECONFIG: kube.writeKubeconfig(dir),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => {
      output += d;
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return {
      child,
      output: () => output,
      stderr: () => stderr,
      exitWithin: (ms) => Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms).unref())]),
    };
  }

  const readyz = async (port: number) => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status;

  it('exits non-zero naming the fix when ops.port is taken, instead of answering Slack while watching nothing', async () => {
    const taken = await listening();
    servers.push(taken);
    const port = (taken.address() as { port: number }).port;
    const bot = start(`ops: { port: ${port} }\nslack: { port: 0 }\nstore: { path: $DIR/bot.db }\n`);
    const code = await bot.exitWithin(20_000);
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    expect(bot.output()).toMatch(new RegExp(`port ${port}: another process .*\\(EADDRINUSE\\); set ops\\.port`));
  }, 40_000);

  it('exits non-zero naming the fix when the kubeconfig cannot be read', async () => {
    const port = await freePort();
    const missing = join(tempDir('process-'), 'no-such-kubeconfig');
    const bot = start(`ops: { port: ${port} }\nstore: { path: $DIR/bot.db }\n`, { env: { KUBECONFIG: missing } });
    const code = await bot.exitWithin(20_000);
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    expect(bot.output()).toContain(`KUBECONFIG ${missing} cannot be read`);
    expect(bot.output()).toContain('point KUBECONFIG at a readable kubeconfig');
  }, 40_000);

  it('exits non-zero naming the fix when the store cannot be opened for writing', async () => {
    const port = await freePort();
    const dir = tempDir('process-');
    const notADirectory = join(dir, 'file');
    writeFileSync(notADirectory, '');
    const bot = start(`ops: { port: ${port} }\nstore: { path: ${notADirectory}/bot.db }\n`);
    const code = await bot.exitWithin(20_000);
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    expect(bot.output()).toContain(`store.path ${notADirectory}/bot.db cannot be opened for writing`);
    expect(bot.output()).toContain('set store.path to a writable file');
  }, 40_000);

  it('with the bot token refused, says so once on stderr with the fix, serves /readyz with the reason and keeps checking', async () => {
    const port = await freePort();
    const bot = start(`ops: { port: ${port} }\nslack: { port: 0 }\nstore: { path: $DIR/bot.db }\n`, { env: { SLACK_BOT_TOKEN: 'xoxb-revoked-token' } });
    await eventually(async () => (await readyz(port)) === 503, 'the ops server', 20_000);
    const body = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { checks: { slack: { detail: string } } };
    expect(body.checks.slack.detail).toContain('Slack refused the bot token (SLACK_BOT_TOKEN): invalid_auth');
    await eventually(() => slack.calls.filter((c) => c.method === 'auth.test').length >= 3, 'auth.test retried', 20_000);
    const lines = bot.stderr().split('\n').filter((l) => l.includes('Slack refused the bot token'));
    expect(lines).toEqual(['runai-slack-bot: Slack refused the bot token (SLACK_BOT_TOKEN): invalid_auth. Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions, and reinstall the app if its scopes changed.']);
    expect(bot.child.exitCode).toBeNull();
    expect(bot.output()).not.toContain('xoxb-revoked-token');
  }, 40_000);

  it('stays up through failing apps.connections.open calls (HTTP 503, then a refused app token) and reconnects', async () => {
    const port = await freePort();
    const bot = start(`ops: { port: ${port} }\nslack: { port: 0 }\nstore: { path: $DIR/bot.db }\n`);
    await eventually(async () => (await readyz(port)) === 200, 'readiness', 20_000);
    slack.failNextHttp('apps.connections.open', 503, 2);
    slack.failNext('apps.connections.open', 'invalid_auth', 1);
    slack.disconnectSockets('refresh_requested');
    await slack.waitForSocketConnections(2, 30_000);
    await eventually(async () => (await readyz(port)) === 200, 'readiness after reconnecting', 20_000);
    const opens = slack.calls.filter((c) => c.method === 'apps.connections.open');
    expect(opens.filter((c) => c.status === 503)).toHaveLength(2);
    expect(opens.filter((c) => (c.response as { error?: string }).error === 'invalid_auth')).toHaveLength(1);
    expect(bot.child.exitCode).toBeNull();
    expect(bot.output()).toContain('Slack refused the app-level token (SLACK_APP_TOKEN): invalid_auth');
    expect(bot.output()).not.toContain(slack.appToken);
    expect(bot.output()).not.toContain('ticket=');
  }, 60_000);

  it('logs an unhandled rejection (without the token in it) and exits non-zero', async () => {
    const port = await freePort();
    // A real rejection nothing handles, raised inside the running bot on a signal.
    const preload = `data:text/javascript,process.on('SIGUSR2', () => { Promise.reject(new Error('boom with ${slack.botToken} in it')); });`;
    const bot = start(`ops: { port: ${port} }\nslack: { port: 0 }\nstore: { path: $DIR/bot.db }\n`, { nodeArgs: ['--import', preload] });
    await eventually(async () => (await readyz(port)) === 200, 'readiness', 20_000);
    bot.child.kill('SIGUSR2');
    const code = await bot.exitWithin(20_000);
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    const fatal = bot.output().trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.level === 'fatal');
    expect(fatal.msg).toBe('unhandled promise rejection: exiting');
    expect(fatal.err.message).toContain('boom with xox?-[REDACTED] in it');
    expect(fatal.err.stack).toContain('Error: boom');
    expect(bot.output()).not.toContain(slack.botToken);
  }, 40_000);
});
