/**
 * Everything the demo runs in one process: the simulated cluster and Slack on 127.0.0.1, the
 * real bot (startBot: Bolt in Socket Mode, client-node, SQLite in a temp dir) configured like a
 * user's YAML file, and the scripted scenario. The command decides whether to show the page
 * or write the captured Slack calls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { loadKubeConfig, startBot, type Bot } from '../app.js';
import { parseConfig } from '../config.js';
import { startFakeKube, type FakeKube } from '../sim/kube-apiserver.js';
import { SlackSimulator } from '../sim/slack.js';
import { REQUIRED_BOT_SCOPES } from '../slack/scopes.js';
import { demoWindowStart, maintenanceCalendar } from './maintenance-feed.js';
import { CHANNELS, EXPECTED_ALERTS, PEOPLE, scenarioSteps, seedCluster, type ScenarioStep } from './scenario.js';

export interface DemoOptions {
  log: Logger;
  /** Pause before each scenario step, so a viewer can follow (0 when headless). */
  stepDelayMs: number;
  now?: () => Date;
}

export interface DemoProgress {
  played: number;
  total: number;
  current?: string;
  done: boolean;
}

export interface Demo {
  readonly kube: FakeKube;
  readonly slack: SlackSimulator;
  readonly bot: Bot;
  /** Temp dir holding the store, the kubeconfig and the maintenance calendar. */
  readonly dir: string;
  progress(): DemoProgress;
  /** Plays every step, then resolves once the bot has delivered what it owes and gone quiet. */
  play(): Promise<void>;
  stop(): Promise<void>;
}

/** The bot's config as a user's YAML file would say it (tokens and endpoints via the environment). */
export function demoConfigFile(dir: string, feedPath: string, logLevel: string): Record<string, unknown> {
  return {
    slack: { mode: 'socket', port: 0, fallbackChannel: CHANNELS.alerts.id },
    owners: { emailDomain: 'example.org' },
    cluster: { mode: 'watch' },
    store: { path: join(dir, 'bot.db') },
    maintenance: { feed: feedPath, channel: CHANNELS.maintenance.id, timezone: 'UTC' },
    runai: { uiUrl: 'https://runai.example.org' },
    // Any free port: the demo must not collide with a bot (or a second demo) on 9090.
    ops: { port: 0 },
    log: { level: logLevel },
  };
}

/** No new Slack call for this long, with nothing being prepared: the bot has said all it will. */
const QUIET_MS = 1500;
/** Far more than the scenario needs; reaching it means an alert never came. */
const DEADLINE_MS = 30_000;

export async function startDemo(options: DemoOptions): Promise<Demo> {
  const now = options.now ?? (() => new Date());
  const dir = mkdtempSync(join(tmpdir(), 'runai-slack-bot-demo-'));
  const kube = await startFakeKube();
  const slack = await SlackSimulator.start({ scopes: [...REQUIRED_BOT_SCOPES] });
  for (const person of PEOPLE) slack.addUser(person);
  slack.addChannel(CHANNELS.alerts.id, CHANNELS.alerts.name, PEOPLE.map((p) => p.id));
  slack.addChannel(CHANNELS.maintenance.id, CHANNELS.maintenance.name, PEOPLE.map((p) => p.id));

  const feedPath = join(dir, 'maintenance.ics');
  writeFileSync(feedPath, maintenanceCalendar(demoWindowStart(now()), 8, now()));
  seedCluster(kube, now());

  const config = parseConfig(demoConfigFile(dir, feedPath, options.log.level), {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: slack.apiUrl,
  });
  let bot: Bot;
  try {
    bot = await startBot({ config, log: options.log, now, kubeConfig: loadKubeConfig(kube.writeKubeconfig(dir)) });
  } catch (err) {
    await Promise.all([slack.close(), kube.close()]);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const steps: ScenarioStep[] = scenarioSteps(now());
  let played = 0;
  let current: string | undefined;
  let done = false;

  const play = async () => {
    for (const step of steps) {
      current = step.title;
      await delay(options.stepDelayMs);
      step.play(kube);
      played++;
      // The bot looks for stuck workloads every 30 s; the demo asks right away instead of waiting.
      await untilSeen(bot, kube);
      bot.checkStuck();
    }
    current = undefined;
    await untilDelivered(slack, bot);
    done = true;
  };

  let stopping: Promise<void> | undefined;
  return {
    kube,
    slack,
    bot,
    dir,
    progress: () => ({ played, total: steps.length, current, done }),
    play,
    stop: () =>
      (stopping ??= (async () => {
        await bot.stop();
        await Promise.all([slack.close(), kube.close()]);
        rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

/** The expected DMs have arrived and the bot has gone quiet (maintenance posts, retries done). */
async function untilDelivered(slack: SlackSimulator, bot: Bot): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  const missing = () => EXPECTED_ALERTS.filter(({ workload, user }) =>
    !slack.messagesTo(user).some((call) => String(call.body.text ?? '').includes(workload)));
  while (missing().length) {
    if (Date.now() > deadline) {
      throw new Error(`the bot did not deliver: ${missing().map((m) => `${m.workload} → ${m.user}`).join(', ')}`);
    }
    await delay(100);
  }
  let seen = -1;
  while (seen !== slack.calls.length && Date.now() < deadline) {
    seen = slack.calls.length;
    await bot.settle();
    await delay(QUIET_MS);
  }
}

const DEMO_WORKLOAD_KINDS = ['trainingworkloads', 'interactiveworkloads', 'distributedworkloads'];

/** Until the bot knows every workload in the cluster: a new one reaches it by watch, shortly after it was applied. */
async function untilSeen(bot: Bot, kube: FakeKube): Promise<void> {
  const wanted = DEMO_WORKLOAD_KINDS.reduce((n, kind) => n + kube.list(kind).length, 0);
  const deadline = Date.now() + 5000;
  while (bot.reconciler.workloads().length < wanted && Date.now() < deadline) await delay(20);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
