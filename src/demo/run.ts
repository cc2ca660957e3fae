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
import { ADMIN, CHANNELS, EXPECTED_ALERTS, LLM_MEMBER, PEOPLE, scenarioSteps, seedCluster, type ScenarioStep } from './scenario.js';

export interface DemoOptions {
  log: Logger;
  /** Pause before each scenario step, so a viewer can follow (0 when headless). */
  stepDelayMs: number;
  /** The real clock; the demo's own clock runs with it and jumps ahead when a step says so. */
  now?: () => Date;
}

export interface DemoProgress {
  played: number;
  total: number;
  /** The step being played right now. */
  current?: string;
  /** The step that plays next, for the page's "play it now" button. */
  next?: { label: string; title: string };
  done: boolean;
}

export interface Demo {
  readonly kube: FakeKube;
  readonly slack: SlackSimulator;
  readonly bot: Bot;
  /** Temp dir holding the store, the kubeconfig and the maintenance calendar. */
  readonly dir: string;
  /** The demo's clock: the bot and the simulated Slack read it. */
  now(): Date;
  progress(): DemoProgress;
  /** Plays every step, then resolves once the bot has delivered what it owes and gone quiet. */
  play(): Promise<void>;
  /** Ends the pause before the next step now (or the next pause, if a step is playing). */
  playNext(): void;
  stop(): Promise<void>;
}

/** The bot's config as a user's YAML file would say it (tokens and endpoints via the environment). */
export function demoConfigFile(dir: string, feedPath: string, logLevel: string): Record<string, unknown> {
  return {
    slack: { mode: 'socket', port: 0, fallbackChannel: CHANNELS.alerts.id },
    owners: { emailDomain: 'example.org' },
    admins: [ADMIN],
    projects: { llm: { members: [LLM_MEMBER] } },
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
  const realNow = options.now ?? (() => new Date());
  // A step may move time forward (to when a reminder is due); real time keeps running from there.
  let clockOffsetMs = 0;
  const now = () => new Date(realNow().getTime() + clockOffsetMs);
  const dir = mkdtempSync(join(tmpdir(), 'runai-slack-bot-demo-'));
  const kube = await startFakeKube();
  const slack = await SlackSimulator.start({ scopes: [...REQUIRED_BOT_SCOPES], now });
  for (const person of PEOPLE) slack.addUser(person);
  slack.addChannel(CHANNELS.alerts.id, CHANNELS.alerts.name, PEOPLE.map((p) => p.id));
  slack.addChannel(CHANNELS.maintenance.id, CHANNELS.maintenance.name, PEOPLE.map((p) => p.id));
  // As the README's setup says: the bot is invited to every channel it posts to.
  slack.inviteBot(CHANNELS.alerts.id);
  slack.inviteBot(CHANNELS.maintenance.id);

  const feedPath = join(dir, 'maintenance.ics');
  const windowStart = demoWindowStart(now());
  writeFileSync(feedPath, maintenanceCalendar(windowStart, 8, now()));
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

  const steps: ScenarioStep[] = scenarioSteps(now(), windowStart);
  let played = 0;
  let current: string | undefined;
  let done = false;
  const pause = new SkippablePause();

  const play = async () => {
    for (const step of steps) {
      await pause.wait(options.stepDelayMs);
      current = step.title;
      if (step.clockTo) {
        // What the bot owes and its first maintenance round are done before time jumps: else
        // they would happen at the new time too (alerts dated a day late, a reminder twice).
        await bot.settle();
        await untilAnnounced(slack);
      }
      if (step.clockTo) clockOffsetMs += Math.max(0, step.clockTo.getTime() - now().getTime());
      await step.play(kube, now(), (namespace, name, phase) => untilSettled(bot, namespace, name, phase));
      played++;
      // The bot looks for stuck workloads every 30 s and for due reminders every minute; the
      // demo asks right away instead of waiting, as those timers would.
      await untilSeen(bot, kube);
      bot.checkStuck();
      if (step.clockTo) await bot.maintenance?.remind();
      current = undefined;
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
    now,
    progress: () => {
      const next = steps[current ? played + 1 : played];
      return { played, total: steps.length, current, next: next && { label: next.label, title: next.title }, done };
    },
    play,
    playNext: () => pause.skip(),
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
  const missing = () => EXPECTED_ALERTS.filter(({ user, says }) => !hasPosted(slack, user, says));
  while (missing().length) {
    if (Date.now() > deadline) {
      throw new Error(`the bot did not deliver: ${missing().map((m) => `"${m.says}" → ${m.user}`).join(', ')}`);
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

/** Whether the bot has told `user` something whose text or blocks say `phrase`. */
function hasPosted(slack: SlackSimulator, user: string, phrase: string): boolean {
  return slack.messagesTo(user).some((call) => `${String(call.body.text ?? '')}\n${JSON.stringify(call.body.blocks ?? [])}`.includes(phrase));
}

/** Until the bot knows the workload in `phase` (`undefined`: gone) and has done what it owes so far. */
async function untilSettled(bot: Bot, namespace: string, name: string, phase: string | undefined): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  const known = () => bot.reconciler.workloads().find((w) => w.namespace === namespace && w.name === name);
  while (phase === undefined ? known() : known()?.phase !== phase) {
    if (Date.now() > deadline) throw new Error(`the bot did not see ${namespace}/${name} ${phase ?? 'gone'}`);
    await delay(20);
  }
  await bot.settle();
}

/** Until the maintenance channel has the bot's first reminder (the 7-day one, due at start). */
async function untilAnnounced(slack: SlackSimulator): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!slack.messagesTo(CHANNELS.maintenance.id).length && Date.now() < deadline) await delay(20);
}

const DEMO_WORKLOAD_KINDS = ['trainingworkloads', 'interactiveworkloads', 'distributedworkloads'];

/** Until the bot knows every workload in the cluster: a new one reaches it by watch, shortly after it was applied. */
async function untilSeen(bot: Bot, kube: FakeKube): Promise<void> {
  const wanted = DEMO_WORKLOAD_KINDS.reduce((n, kind) => n + kube.list(kind).length, 0);
  const deadline = Date.now() + 5000;
  while (bot.reconciler.workloads().length < wanted && Date.now() < deadline) await delay(20);
}

/** A pause that a visitor can cut short; a skip asked for while no pause runs ends the next one. */
class SkippablePause {
  private skipped = 0;
  private wake: (() => void) | undefined;

  async wait(ms: number): Promise<void> {
    if (this.skipped > 0) {
      this.skipped--;
      return;
    }
    await new Promise<void>((resolve) => {
      // Unref'd: a long pause must not keep a finished process alive.
      const timer = setTimeout(done, ms);
      timer.unref();
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }

  skip(): void {
    if (this.wake) this.wake();
    else this.skipped++;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
