/**
 * The chaos harness: the built bot (`node dist/cli.js start`) as a child process, restarted after
 * every exit as Kubernetes would, against the simulated Kubernetes API server and Slack, which run
 * here so they outlive every kill. It plays a plan (chaos-plan.ts) of transitions, SIGKILLs and
 * faults, lets the bot catch up, and assesses (chaos-assess.ts) what Slack accepted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import YAML from 'yaml';
import { alertKey } from '../src/keys.js';
import type { LifecycleState } from '../src/model.js';
import { startFakeKube, type FakeKube } from '../src/sim/kube-apiserver.js';
import { SlackSimulator } from '../src/sim/slack.js';
import { assess, recordAccepted, type Accepted, type Assessment, type Owed } from './chaos-assess.js';
import { ghostUser, ownerSlackId, ownerUser, projectChannel, projectName, type ChaosPlan, type FaultName, type PlannedWorkload } from './chaos-plan.js';
import { runningPod, workloadCr } from './cluster.js';
import { failingLog } from './noisy-log.js';
import { freePort } from './free-port.js';
export { freePort };

export interface ChaosOptions {
  plan: ChaosPlan;
  /** The built CLI (dist/cli.js). */
  cli: string;
  progress(message: string): void;
  /** Bot log level (its logs go to a file in the run's directory). */
  logLevel?: string;
}

export interface ChaosResult {
  assessment: Assessment;
  owed: number;
  kills: number;
  killsAfterAccept: number;
  /** The bot exited without being killed (a crash; the supervisor restarted it). */
  crashes: number;
  starts: number;
  /** Longest wait, after the Slack outage ended, for an alert owed before it ended (s). */
  maxDelayAfterOutageS: number;
  /** Alerts owed before the outage ended and still undelivered when it ended. */
  heldByOutage: number;
  readyAtEnd: boolean;
  rateLimited: number;
  /** Lost alerts by what the bot's store says of them, e.g. { 'recorded as folded into a burst': 60 }. */
  lostWhy: Record<string, number>;
  /** The run's directory (bot log, store, config); kept when something failed. */
  dir: string;
  logPath: string;
}

const EMAIL_DOMAIN = 'example.org';
const BURST_WINDOW = '5s';
/** Restart delay after an exit: short, like the first restarts of a pod. */
const RESTART_MS = 500;
const READY_WAIT_MS = 60_000;
/** A kill that found no bot running hits the next one this long after its spawn (mid start-up). */
const DEFERRED_KILL_MS = 700;

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const { plan, progress } = options;
  const sizes = plan.sizes;
  const dir = mkdtempSync(join(tmpdir(), 'runai-chaos-'));
  const kube = await startFakeKube({ historyLimit: 100_000 });
  const slack = await SlackSimulator.start();
  const accepted: Accepted[] = [];
  const unhook = slack.onAccept((call) => recordAccepted(call, accepted));
  slack.enforcePerChannelRate(1);

  for (let i = 0; i < sizes.owners; i++) slack.addUser({ id: ownerSlackId(i), name: ownerUser(i), email: `${ownerUser(i)}@${EMAIL_DOMAIN}`, real_name: `User ${i}` });
  for (let p = 0; p < sizes.projects; p++) {
    slack.addChannel(projectChannel(p), `${projectName(p)}-alerts`);
    slack.inviteBot(projectChannel(p));
    kube.addNamespace(`runai-${projectName(p)}`, { 'runai/queue': projectName(p) });
  }
  for (const w of plan.workloads) {
    kube.apply(workloadCr(w.kind, w.namespace, w.project, w.name, w.owner));
    kube.apply(runningPod(w.namespace, w.project, w.name, 0, w.owner, w.kind === 'DistributedWorkload'));
  }

  const opsPort = await freePort();
  const configPath = join(dir, 'config.yml');
  const storePath = join(dir, 'bot.db');
  writeFileSync(configPath, YAML.stringify(botConfig(plan, storePath, opsPort, options.logLevel ?? 'warn')));
  const logPath = join(dir, 'bot.log');
  const bot = new Supervisor(options.cli, configPath, {
    ...process.env,
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: kube.writeKubeconfig(dir),
  }, logPath, opsPort, progress);

  let outage: { startMs: number; endMs: number } | undefined;
  const owed: Owed[] = [];
  let readyAtEnd = false;
  try {
    bot.start();
    if (!(await bot.waitReady(READY_WAIT_MS))) throw new Error(`the bot did not become ready within ${READY_WAIT_MS / 1000} s; see ${logPath}`);
    progress(`bot ready; playing ${plan.workloads.length} transitions, ${plan.kills.length} kills and ${plan.faults.length} faults over ${sizes.scheduleMs / 1000} s`);

    const started = Date.now();
    const pending: Array<Promise<void>> = [];
    const steps = [
      ...plan.workloads.map((w) => ({ atMs: w.atMs, run: () => owed.push(transition(kube, w)) })),
      ...plan.kills.map((k) => ({
        atMs: k.atMs,
        run: () => (k.mode === 'now' ? bot.kill(k.why) : bot.killOnAccept(slack, k.mode === 'on-post' ? 'chat.postMessage' : 'chat.update')),
      })),
      ...plan.faults.map((f) => ({
        atMs: f.atMs,
        run: () => {
          progress(`fault: ${f.name}${f.forMs ? ` for ${f.forMs / 1000} s` : ''}`);
          const done = fault(f.name, f.forMs, { kube, slack, storePath, progress });
          if (f.name === 'slack-outage') outage = { startMs: Date.now(), endMs: Date.now() + f.forMs };
          pending.push(done.then(() => {
            if (f.name === 'slack-outage' && outage) outage.endMs = Date.now();
          }));
        },
      })),
    ].sort((a, b) => a.atMs - b.atMs);
    for (const step of steps) {
      const wait = started + step.atMs - Date.now();
      if (wait > 0) await sleep(wait);
      step.run();
    }
    await Promise.all(pending);
    progress(`schedule done in ${Math.round((Date.now() - started) / 1000)} s: ${bot.kills} kills, ${bot.crashes} crashes so far; letting the bot catch up (up to ${sizes.drainMs / 1000} s)`);

    const deadline = Date.now() + sizes.drainMs;
    const drain = async () => {
      while (assess(owed, accepted).lost.length && Date.now() < deadline) await sleep(1000);
    };
    // Kills armed for a post or an edit stay armed while the bot catches up (it posts most then).
    await drain();
    if (bot.disarm()) {
      await bot.waitReady(READY_WAIT_MS);
      await drain();
    }
    // A little longer, so a late duplicate is counted too.
    await sleep(5000);
    readyAtEnd = await bot.waitReady(10_000);
  } finally {
    unhook();
    await bot.stop();
    await slack.close();
    await kube.close();
  }

  const assessment = assess(owed, accepted);
  let maxDelay = 0;
  let heldByOutage = 0;
  if (outage) {
    for (const o of owed) {
      if (o.atMs > outage.endMs) continue;
      const told = assessment.firstToldAt.get(o.name);
      if (told === undefined || told < outage.startMs) continue;
      heldByOutage++;
      maxDelay = Math.max(maxDelay, (told - outage.endMs) / 1000);
    }
  }
  const lostWhy = assessment.lost.length ? explainLost(storePath, assessment.lost) : {};
  const failed = assessment.lost.length > 0 || assessment.duplicates > bot.kills || assessment.crosstalk.length > 0 || !readyAtEnd;
  if (!failed) rmSync(dir, { recursive: true, force: true });
  return {
    assessment,
    owed: owed.length,
    kills: bot.kills,
    killsAfterAccept: bot.killsAfterAccept,
    crashes: bot.crashes,
    starts: bot.starts,
    maxDelayAfterOutageS: maxDelay,
    heldByOutage,
    readyAtEnd,
    rateLimited: slack.rateLimitedCount,
    lostWhy,
    dir,
    logPath,
  };
}

/** What the bot's own store says of each lost alert: the clue to where it was lost. */
function explainLost(storePath: string, lost: string[]): Record<string, number> {
  const why: Record<string, number> = {};
  const db = new Database(storePath, { readonly: true, timeout: 1000 });
  try {
    const workload = db.prepare('SELECT uid, state FROM workloads WHERE name = ?');
    const ledger = db.prepare('SELECT recipient, ts FROM ledger WHERE key = ?');
    const queued = db.prepare('SELECT attempts FROM outbox WHERE key = ?');
    for (const name of lost) {
      const w = workload.get(name) as { uid: string; state: string } | undefined;
      const key = w && alertKey(w.uid, w.state as LifecycleState);
      const told = key ? (ledger.get(key) as { recipient: string; ts: string | null } | undefined) : undefined;
      const reason = !w
        ? 'workload unknown to the store'
        : told?.recipient.startsWith('burst:')
          ? 'recorded as folded into a burst'
          : told
            ? `recorded as sent${told.ts ? '' : ' (no ts)'}`
            : queued.get(key!)
              ? 'still in the outbox'
              : `never recorded (store state ${w.state})`;
      why[reason] = (why[reason] ?? 0) + 1;
    }
  } finally {
    db.close();
  }
  return why;
}

function botConfig(plan: ChaosPlan, storePath: string, opsPort: number, level: string): Record<string, unknown> {
  const projects: Record<string, unknown> = {};
  for (let p = 0; p < plan.sizes.projects; p++) projects[projectName(p)] = { channel: projectChannel(p) };
  return {
    slack: { mode: 'socket' },
    owners: { emailDomain: EMAIL_DOMAIN },
    projects,
    cluster: { mode: 'watch' },
    store: { path: storePath },
    alerts: { burstWindow: BURST_WINDOW },
    ops: { port: opsPort },
    log: { level },
  };
}

/** The cluster makes the transition: a failed pod with its log then the phase, or a stop. */
function transition(kube: FakeKube, w: PlannedWorkload): Owed {
  const pod = `${w.name}-0-0`;
  if (w.to === 'Failed') {
    kube.appendLog(w.namespace, pod, w.name, failingLog(40));
    kube.patch({ kind: 'Pod', namespace: w.namespace, name: pod }, (obj) => {
      const status = obj.status as { phase: string; containerStatuses: Array<Record<string, unknown>> };
      status.phase = 'Failed';
      status.containerStatuses[0].ready = false;
      status.containerStatuses[0].state = { terminated: { exitCode: 1, reason: 'Error', finishedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') } };
    });
  }
  kube.setPhase(w.kind, w.namespace, w.name, w.to);
  // Like the simulated Slack, a DM's id is the user's with D for U; a ghost's goes to its workload's project.
  const project = Number(w.project.slice('proj'.length));
  return { name: w.name, conversation: w.slackUser ? `D${w.slackUser.slice(1)}` : projectChannel(project), atMs: Date.now() };
}

interface FaultContext {
  kube: FakeKube;
  slack: SlackSimulator;
  storePath: string;
  progress(message: string): void;
}

/** Starts a fault; resolves when it is over. */
async function fault(name: FaultName, forMs: number, ctx: FaultContext): Promise<void> {
  const { kube, slack } = ctx;
  switch (name) {
    case 'kube-500':
      kube.failNext(Number.MAX_SAFE_INTEGER, 500);
      await sleep(forMs);
      kube.clearFailures();
      return;
    case 'watch-drop':
      kube.dropWatches({ abrupt: true });
      return;
    case 'watch-410':
      // Every resourceVersion the bot holds is now too old: its watches reconnect into a 410.
      kube.compactHistory();
      kube.dropWatches();
      return;
    case 'slack-outage':
      slack.down(true, { sockets: true });
      await sleep(forMs);
      slack.down(false);
      return;
    case 'slack-429-storm':
      // As Slack limits: by time. Every post, update and lookup in the window is refused with the
      // time left, so a client that waits as told (the outbox pauses the whole method) gets
      // through at its first try after it; one that retries each item at once meets a 429 per item.
      slack.rateLimitFor('chat.postMessage', forMs);
      slack.rateLimitFor('chat.update', forMs);
      slack.rateLimitFor('users.lookupByEmail', forMs - 2000);
      return;
    case 'store-lock':
      await holdStoreLock(ctx.storePath, forMs, ctx.progress);
      return;
  }
}

/**
 * A real lock on the bot's SQLite file, longer than its busy_timeout (5 s): its writes fail
 * with SQLITE_BUSY until it is released. Tried briefly and often, because better-sqlite3 waits
 * synchronously and a long wait here would freeze the simulators too.
 */
async function holdStoreLock(path: string, forMs: number, progress: (m: string) => void): Promise<void> {
  const db = new Database(path, { timeout: 50 });
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        db.exec('BEGIN EXCLUSIVE');
        break;
      } catch (err) {
        if (Date.now() > deadline) return void progress(`store lock not taken: ${(err as Error).message}`);
        await sleep(20);
      }
    }
    await sleep(forMs);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

const AFTER_ACCEPT = 'right after Slack accepted';

class Supervisor {
  kills = 0;
  /** Kills made between Slack accepting a post or an edit and the bot hearing so. */
  killsAfterAccept = 0;
  crashes = 0;
  starts = 0;
  private child?: ChildProcess;
  private killed = new WeakSet<ChildProcess>();
  private stopping = false;
  private armed: string[] = [];
  private deferred: string[] = [];
  private unhook?: () => void;

  constructor(
    private readonly cli: string,
    private readonly config: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logPath: string,
    private readonly opsPort: number,
    private readonly progress: (message: string) => void,
  ) {}

  start(): void {
    const log = openSync(this.logPath, 'a');
    const child = spawn(process.execPath, [this.cli, 'start', '--config', this.config], { env: this.env, stdio: ['ignore', log, log] });
    closeSync(log);
    this.starts++;
    this.child = child;
    const why = this.deferred.shift();
    if (why) setTimeout(() => this.kill(`${why}, deferred to the next start`), DEFERRED_KILL_MS);
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.stopping) return;
      if (!this.killed.has(child)) {
        this.crashes++;
        this.progress(`the bot exited on its own (code ${code}, signal ${signal}); restarting`);
      }
      setTimeout(() => this.stopping || this.start(), RESTART_MS);
    });
  }

  /**
   * SIGKILL the running bot. Between an exit and the restart there is none: then the kill waits
   * for the next process and hits it early in its start-up, so every planned kill is made.
   */
  kill(why: string): void {
    if (this.stopping) return;
    const child = this.child;
    if (!child || child.exitCode !== null || this.killed.has(child)) {
      this.deferred.push(why);
      return;
    }
    this.killed.add(child);
    process.kill(child.pid!, 'SIGKILL');
    this.kills++;
    if (why.startsWith(AFTER_ACCEPT)) this.killsAfterAccept++;
    this.progress(`SIGKILL #${this.kills} (${why})`);
  }

  /** SIGKILL the bot the moment Slack accepts its next call of `method`, before the answer leaves. */
  killOnAccept(slack: SlackSimulator, method: string): void {
    this.armed.push(method);
    this.unhook ??= slack.onAccept((call) => {
      const at = this.armed.indexOf(call.method);
      if (at < 0) return;
      this.armed.splice(at, 1);
      this.kill(`${AFTER_ACCEPT} ${call.method}`);
    });
  }

  /** Kills still armed happen now, so every planned kill is made; says whether there were any. */
  disarm(): boolean {
    const left = this.armed.splice(0);
    for (const method of left) this.kill(`armed for ${method}, which never came`);
    this.unhook?.();
    this.unhook = undefined;
    return left.length > 0;
  }

  async waitReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`http://127.0.0.1:${this.opsPort}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (response.status === 200) return true;
      } catch {
        // not listening yet (starting, or between a kill and the restart)
      }
      await sleep(250);
    }
    return false;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const cut = setTimeout(() => child.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(cut);
  }
}

/** A port nothing listens on now (the bot's ops port, chosen before the bot starts). */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
