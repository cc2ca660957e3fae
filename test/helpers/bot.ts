/**
 * Starts the real bot (real Bolt, real client-node, real SQLite) against the simulated Slack
 * and Kubernetes API server on 127.0.0.1, with a config built like a user's YAML file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig, startBot, type Bot } from '../../src/app.js';
import { parseConfig } from '../../src/config.js';
import type { WatcherOverrides } from '../../src/cluster/watcher.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import type { SlackSimulator } from '../../src/sim/slack.js';
import { captureLog, type CapturedLog } from './log.js';

export interface TestBot extends Bot {
  captured: CapturedLog;
  dir: string;
}

export function tempDir(prefix = 'bot-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** `yaml` is the config file as a user would write it; store, slack.port, ops.port and tokens are filled in. */
export async function startTestBot(
  kube: FakeKube,
  slack: SlackSimulator,
  yaml: Record<string, any> = {},
  options: { dir?: string; now?: () => Date; env?: Record<string, string>; logLevel?: string; kubeConfig?: KubeConfig; clusterStartWaitMs?: number; watcher?: WatcherOverrides } = {},
): Promise<TestBot> {
  const dir = options.dir ?? tempDir();
  const config = parseConfig(
    {
      ...yaml,
      slack: { port: 0, ...(yaml.slack ?? {}) },
      // Tests run in parallel: each bot takes free ports, not the fixed defaults.
      ops: { port: 0, ...(yaml.ops ?? {}) },
      store: { path: join(dir, 'bot.db'), ...(yaml.store ?? {}) },
    },
    {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_SIGNING_SECRET: 'test-signing-secret',
      SLACK_API_URL: slack.apiUrl,
      ...options.env,
    },
  );
  const captured = captureLog(options.logLevel ?? 'info');
  // A test may route the bot's API traffic through a relay it can cut (helpers/tcp-cut.ts).
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(kube.writeKubeconfig(dir));
  const bot = await startBot({ config, log: captured.log, now: options.now, kubeConfig, clusterStartWaitMs: options.clusterStartWaitMs, watcher: options.watcher });
  return Object.assign(bot, { captured, dir });
}

/** Polls until `check` returns a value (or true); fails with `what` after the timeout. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
