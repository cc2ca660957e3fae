/**
 * Starts the real bot (real Bolt, real client-node, real SQLite) against the simulated Slack and
 * Kubernetes API server, with a config built the way a user's YAML file is. The same config
 * builder serves the in-process bot and the child process used for memory figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeConfig, startBot, type Bot } from '../src/app.js';
import { parseConfig, type Config } from '../src/config.js';
import { createLogger } from '../src/ops/logger.js';
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import type { SlackSimulator } from '../src/sim/slack.js';
import { EMAIL_DOMAIN } from './cluster.js';

/** Where the bot finds the simulations: all a child process needs to know. */
export interface SimEndpoints {
  kubeconfig: string;
  slackApiUrl: string;
  botToken: string;
  appToken: string;
}

export type YamlConfig = Record<string, any>;

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `runai-bench-${prefix}-`));
}

export function endpointsOf(kube: FakeKube, slack: SlackSimulator, dir: string): SimEndpoints {
  return { kubeconfig: kube.writeKubeconfig(dir), slackApiUrl: slack.apiUrl, botToken: slack.botToken, appToken: slack.appToken };
}

/** The bot's config: `yaml` as a user writes it, plus the store in `dir`, an ephemeral ops port and the secrets. */
export function benchConfig(yaml: YamlConfig, sims: SimEndpoints, dir: string): Config {
  return parseConfig(
    {
      ...yaml,
      owners: { emailDomain: EMAIL_DOMAIN, ...(yaml.owners ?? {}) },
      slack: { port: 0, ...(yaml.slack ?? {}) },
      // An ephemeral ops port: bots of several benchmark runs (and phases) may be up at once.
      ops: { port: 0, host: '127.0.0.1', ...(yaml.ops ?? {}) },
      store: { path: join(dir, 'bot.db') },
    },
    { SLACK_BOT_TOKEN: sims.botToken, SLACK_APP_TOKEN: sims.appToken, SLACK_API_URL: sims.slackApiUrl, KUBECONFIG: sims.kubeconfig },
  );
}

/** Bot logs go to stderr, errors only by default (BENCH_LOG_LEVEL): stdout carries the figures. */
export function benchLog() {
  return createLogger(process.env.BENCH_LOG_LEVEL ?? 'error', process.stderr);
}

export interface BenchBot {
  bot: Bot;
  stop(): Promise<void>;
}

export async function startBenchBot(kube: FakeKube, slack: SlackSimulator, yaml: YamlConfig): Promise<BenchBot> {
  const dir = tempDir('bot');
  const sims = endpointsOf(kube, slack, dir);
  const config = benchConfig(yaml, sims, dir);
  const bot = await startBot({ config, log: benchLog(), kubeConfig: loadKubeConfig(sims.kubeconfig) });
  return {
    bot,
    stop: async () => {
      await bot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
