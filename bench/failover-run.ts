/**
 * The failover harness: two replicas of the built bot (`node dist/cli.js start`, ha.enabled, one
 * PostgreSQL schema, a Lease in the simulated Kubernetes API server), against the simulated
 * Kubernetes API server and Slack, which run here so they outlive the fault. While workloads fail,
 * a fault strikes (`fault`): the leader SIGKILLed; frozen (SIGSTOP) past its Lease and woken
 * (SIGCONT); cut from the API server (its own TCP relay stops forwarding) while it still reaches
 * PostgreSQL and Slack; or PostgreSQL unreachable for both (a relay in front of the shared server
 * drops every connection and refuses new ones; the server itself is never touched). What Slack
 * accepted is assessed as the chaos run does (chaos-assess.ts): lost, duplicates, crosstalk; the
 * operators' summaries are counted against the bursts the store recorded, and the API server's
 * request log gives the enrichment reads per failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import YAML from 'yaml';
import { startFakeKube } from '../src/sim/kube-apiserver.js';
import { SlackSimulator } from '../src/sim/slack.js';
import { startTcpCut, type TcpCut } from '../src/sim/tcp-cut.js';
import { assess, recordAccepted, type Accepted, type Assessment, type Owed } from './chaos-assess.js';
import { ownerSlackId, ownerUser } from './chaos-plan.js';
import { freePort, sleep } from './chaos-run.js';
import { runningPod, workloadCr } from './cluster.js';
import { failingLog } from './noisy-log.js';
import { percentile } from './figures.js';
import { postgresUnavailable as probe } from './postgres-probe.js';

/** The PostgreSQL the harness makes its schema in (as the tests: trust auth on 127.0.0.1). */
export const FAILOVER_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface FailoverOptions {
  /** The built CLI (dist/cli.js). */
  cli: string;
  workloads: number;
  owners: number;
  /** How many of the workloads fail (the first ones); default all. The rest keep the cluster big. */
  failures?: number;
  /** The failures are spread evenly over this long. */
  streamMs: number;
  /** The fault strikes this long after the first failure; undefined: no fault (latency only). */
  killAtMs?: number;
  /** What strikes at killAtMs (default 'kill'). */
  fault?: FailoverFault;
  /** 'pg-down': how long PostgreSQL stays unreachable (default 20 s). */
  pgDownMs?: number;
  /** 'freeze': how long the leader stays frozen after the follower leads (default 3 s: it sends meanwhile). */
  frozenAfterTakeoverMs?: number;
  /** alerts.opsBurstThreshold of the bots (their operators' channel is the simulation's C0OPS). */
  opsThreshold?: number;
  /**
   * From killAtMs, the kill waits for Slack to accept the leader's next post and strikes before
   * the leader hears so (it cannot record it): the one duplicate a failover may cost.
   */
  killOnAccept?: boolean;
  leaseDurationSeconds: number;
  /** alerts.burstWindow of the bots. */
  burstWindow: string;
  progress(message: string): void;
  logLevel?: string;
  /** Longest wait for every owed alert after the stream ends. */
  drainMs?: number;
}

/** What befalls the replicas at killAtMs (see the file's comment). */
export type FailoverFault = 'kill' | 'freeze' | 'cut-api' | 'pg-down';

export interface FailoverResult {
  fault: FailoverFault;
  assessment: Assessment;
  /** Operators' summaries Slack accepted, and the distinct ones the store recorded as sent. */
  opsSummaries: number;
  opsSummariesRecorded: number;
  /** The summaries' keys the store recorded (ops-burst:<when the burst opened>), in order. */
  opsSummaryKeys: string[];
  /** Per failing workload, from the API server's request log: pod lists and log reads (both replicas). */
  podListsPerFailure: number;
  logReadsPerFailure: number;
  /** Replicas whose process exited by itself during the run (a crash, or a crash loop's first turn). */
  exitedDuringRun: string[];
  owed: number;
  /** From the SIGKILL to the follower saying (in /readyz) that it leads (NaN without a kill). */
  failoverS: number;
  /** Failure → first message naming it, over every delivered failure (ms). */
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Replica that led before the kill and the one that led after. */
  killed: string;
  survivor: string;
  readyAtEnd: boolean;
  /** The kill struck right after Slack accepted a post of the leader's (killOnAccept). */
  killedAfterAccept: boolean;
  /** Messages Slack accepted before the kill (the leader was sending) and after it. */
  acceptedBeforeKill: number;
  acceptedAfterKill: number;
  dir: string;
}

const LEASE_NAMESPACE = 'runai-slack-bot';
const OPS_CHANNEL = 'C0OPS';
const PROJECT = 'ha';
const NAMESPACE = `runai-${PROJECT}`;
const READY_WAIT_MS = 60_000;
/** Starts of one replica before a taken ops port counts as a failure. */
const PORT_ATTEMPTS = 3;

/** Why the failover run's PostgreSQL cannot be used, or undefined when it can. */
export const postgresUnavailable = (url = FAILOVER_DATABASE_URL): Promise<string | undefined> => probe(url);

export const workloadName = (i: number) => `wl-${String(i).padStart(4, '0')}`;

export async function runFailover(options: FailoverOptions): Promise<FailoverResult> {
  const { progress } = options;
  const dir = mkdtempSync(join(tmpdir(), 'runai-failover-'));
  const schema = `failover_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: FAILOVER_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const kube = await startFakeKube({ historyLimit: 100_000 });
  const slack = await SlackSimulator.start();
  const fault = options.fault ?? 'kill';
  const accepted: Accepted[] = [];
  let opsSummaries = 0;
  // The operators' summary names every workload of the burst: counted apart, not as crosstalk.
  const unhook = slack.onAccept((call) => {
    if (call.method === 'chat.postMessage' && call.body.channel === OPS_CHANNEL) opsSummaries += 1;
    else if (call.body.channel !== OPS_CHANNEL) recordAccepted(call, accepted);
  });
  slack.addChannel(OPS_CHANNEL, 'runai-ops');
  slack.inviteBot(OPS_CHANNEL);
  slack.enforcePerChannelRate(1);
  kube.addNamespace(LEASE_NAMESPACE);
  kube.addNamespace(NAMESPACE, { 'runai/queue': PROJECT });
  for (let i = 0; i < options.owners; i++) slack.addUser({ id: ownerSlackId(i), name: ownerUser(i), email: `${ownerUser(i)}@example.org`, real_name: `User ${i}` });
  const workloads = Array.from({ length: options.workloads }, (_, i) => ({ name: workloadName(i), owner: i % options.owners }));
  for (const w of workloads) {
    kube.apply(workloadCr('TrainingWorkload', NAMESPACE, PROJECT, w.name, ownerUser(w.owner)));
    kube.apply(runningPod(NAMESPACE, PROJECT, w.name, 0, ownerUser(w.owner), false));
  }

  const config = {
    owners: { emailDomain: 'example.org' },
    cluster: { mode: 'watch' },
    slack: { mode: 'socket', opsChannel: OPS_CHANNEL },
    alerts: { burstWindow: options.burstWindow, ...(options.opsThreshold ? { opsBurstThreshold: options.opsThreshold } : {}) },
    log: { level: options.logLevel ?? 'info' },
    ha: { enabled: true, leaseDurationSeconds: options.leaseDurationSeconds },
  };
  // search_path through the connection's options: every replica's tables live in this schema.
  // 'pg-down': both replicas reach PostgreSQL through one relay, which the fault cuts.
  const pgPort = Number(new URL(FAILOVER_DATABASE_URL).port || 5432);
  const pgLink: TcpCut | undefined = fault === 'pg-down' ? await startTcpCut(pgPort) : undefined;
  const pgUrl = pgLink ? FAILOVER_DATABASE_URL.replace(`:${pgPort}`, `:${new URL(pgLink.url).port}`) : FAILOVER_DATABASE_URL;
  const databaseUrl = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const kubeconfig = kube.writeKubeconfig(dir);
  // 'cut-api': each replica reaches the API server through a relay of its own; the leader's is stalled.
  const apiLinks = new Map<string, TcpCut>();
  const replicas: Replica[] = [];
  const owed: Owed[] = [];
  let failoverS = Number.NaN;
  let killed = '';
  let survivor = '';
  let readyAtEnd = false;
  let killedAt: number | undefined;
  let disarm: (() => void) | undefined;
  let killedAfterAccept = false;
  let exitedDuringRun: string[] = [];
  let opsSummaryKeys: string[] = [];
  let podLists = 0;
  let logReads = 0;
  let failingCount = 0;
  try {
    for (const name of ['bot-a', 'bot-b']) {
      let ownKubeconfig = kubeconfig;
      if (fault === 'cut-api') {
        const link = await startTcpCut(Number(new URL(kube.url).port));
        apiLinks.set(name, link);
        ownKubeconfig = join(dir, `${name}.kubeconfig`);
        writeFileSync(ownKubeconfig, kube.kubeconfigYaml().replace(kube.url, link.url));
      }
      const env = {
        ...process.env,
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_API_URL: slack.apiUrl,
        KUBECONFIG: ownKubeconfig,
        DATABASE_URL: databaseUrl,
        POD_NAME: name,
        POD_NAMESPACE: LEASE_NAMESPACE,
      };
      // One config but for ops.port: both replicas run on this host. freePort chooses below the
      // ephemeral range, but another process may still take the port before the replica binds
      // it: a replica that exits on EADDRINUSE is started again on another.
      for (let attempt = 1; ; attempt++) {
        const opsPort = await freePort();
        const own = join(dir, `${name}.yml`);
        writeFileSync(own, YAML.stringify({ ...config, ops: { port: opsPort } }));
        const replica = new Replica(name, options.cli, own, env, join(dir, `${name}.log`), opsPort);
        replica.start();
        if (await replica.waitReady(READY_WAIT_MS)) {
          replicas.push(replica);
          break;
        }
        const portTaken = replica.exitedByItself() && readFileSync(replica.logPath, 'utf8').includes('EADDRINUSE');
        if (!portTaken || attempt === PORT_ATTEMPTS) {
          replicas.push(replica);
          throw new Error(`${name} did not become ready within ${READY_WAIT_MS / 1000} s; see ${replica.logPath}`);
        }
      }
    }
    const leaders = await Promise.all(replicas.map((r) => r.leading()));
    const leaderAt = leaders.indexOf(true);
    if (leaderAt < 0 || leaders.filter(Boolean).length !== 1) throw new Error(`expected one leader, /readyz says ${JSON.stringify(leaders)}`);
    const leader = replicas[leaderAt];
    const follower = replicas[1 - leaderAt];
    killed = leader.name;
    survivor = follower.name;
    const failing = workloads.slice(0, options.failures ?? workloads.length);
    const { killAtMs } = options;
    progress(`${leader.name} leads, ${follower.name} follows; failing ${failing.length} of ${workloads.length} workloads (${options.owners} owners) over ${options.streamMs / 1000} s${killAtMs === undefined ? '' : `, ${fault} at ${killAtMs / 1000} s`}`);
    // PostgreSQL going away is not a failover: the leader keeps the Lease (it is in the API server).
    const expectsFailover = killAtMs !== undefined && fault !== 'pg-down';
    let faultOver: Promise<void> = Promise.resolve();

    const killLeader = (why: string) => {
      if (killedAt !== undefined) return;
      killedAt = Date.now();
      const since = killedAt;
      const takenOver = () => waitLeading(follower, since).then((s) => {
        failoverS = s;
        progress(`${follower.name} leads ${s.toFixed(2)} s after the ${fault}`);
      });
      if (fault === 'kill') {
        leader.signal('SIGKILL');
        void takenOver();
      } else if (fault === 'freeze') {
        leader.signal('SIGSTOP');
        // Woken once the other replica leads and has had time to send: it must send nothing of it.
        faultOver = takenOver()
          .then(() => sleep(options.frozenAfterTakeoverMs ?? 3000))
          .then(() => {
            leader.signal('SIGCONT');
            progress(`SIGCONT ${leader.name}`);
          });
      } else if (fault === 'cut-api') {
        apiLinks.get(leader.name)!.stall();
        void takenOver();
      } else {
        pgLink!.cut();
        faultOver = sleep(options.pgDownMs ?? 20_000).then(() => {
          pgLink!.restore();
          progress('PostgreSQL reachable again');
        });
      }
      progress(`${fault} of ${fault === 'pg-down' ? 'PostgreSQL' : leader.name} (${why})`);
    };
    let armed = false;
    const requestsBefore = kube.requests.length;
    const started = Date.now();
    const gap = options.streamMs / failing.length;
    for (let i = 0; i < failing.length; i++) {
      const wait = started + i * gap - Date.now();
      if (wait > 0) await sleep(wait);
      if (killAtMs !== undefined && !armed && Date.now() - started >= killAtMs) {
        armed = true;
        // Only the leader sends, so the next post Slack accepts is the leader's.
        if (options.killOnAccept) {
          disarm = slack.onAccept((call) => {
            if (call.method !== 'chat.postMessage' || killedAt !== undefined) return;
            killedAfterAccept = true;
            killLeader('right after Slack accepted its post');
          });
        } else killLeader('mid-stream');
      }
      owed.push(fail(kube, failing[i].name, ownerSlackId(failing[i].owner)));
    }
    if (killAtMs !== undefined) {
      // An armed kill whose post never came strikes now, so every run has its failover.
      for (let waited = 0; killedAt === undefined && waited < 5000; waited += 100) await sleep(100);
      killLeader('at the end of the stream');
    }
    await faultOver;
    const deadline = Date.now() + (options.drainMs ?? 60_000);
    while ((assess(owed, accepted).lost.length || (expectsFailover && Number.isNaN(failoverS))) && Date.now() < deadline) await sleep(500);
    // A little longer, so a late duplicate is counted too.
    await sleep(3000);
    readyAtEnd = await (expectsFailover ? follower : leader).waitReady(10_000);
    exitedDuringRun = replicas.filter((r) => r.exitedByItself()).map((r) => r.name);
    const recorded = await admin.query(`SELECT key FROM ${schema}.ledger WHERE key LIKE 'ops-burst:%' ORDER BY key`).catch(() => ({ rows: [] as Array<{ key: string }> }));
    opsSummaryKeys = recorded.rows.map((r) => String(r.key));
    const failingNames = new Set(failing.map((w) => w.name));
    const pods = (path: string) => /\/pods(\?|$)/.test(path);
    // Every pod list (not a watch) and every log read in the workloads' namespace since the stream began.
    const during = kube.requests.slice(requestsBefore).filter((r) => r.method === 'GET' && r.path.includes(`/namespaces/${NAMESPACE}/`));
    podLists = during.filter((r) => pods(r.path) && r.query.watch !== 'true').length;
    logReads = during.filter((r) => r.path.endsWith('/log') && [...failingNames].some((n) => r.path.includes(`/pods/${n}-`))).length;
    failingCount = failing.length;
  } finally {
    disarm?.();
    unhook();
    // A frozen replica cannot stop: woken first.
    for (const r of replicas) r.signal('SIGCONT');
    await Promise.all(replicas.map((r) => r.stop()));
    pgLink?.restore();
    await pgLink?.close();
    for (const link of apiLinks.values()) {
      link.restore();
      await link.close();
    }
    await slack.close();
    await kube.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
  const assessment = assess(owed, accepted);
  const latencies = owed.flatMap((o) => {
    const told = assessment.firstToldAt.get(o.name);
    return told === undefined ? [] : [told - o.atMs];
  });
  const failed = assessment.lost.length > 0 || assessment.duplicates > (options.killAtMs === undefined ? 0 : 1) || assessment.crosstalk.length > 0 || (options.killAtMs !== undefined && fault !== 'pg-down' && Number.isNaN(failoverS)) || exitedDuringRun.length > 0;
  if (!failed) rmSync(dir, { recursive: true, force: true });
  return {
    fault,
    assessment,
    opsSummaries,
    opsSummariesRecorded: opsSummaryKeys.length,
    opsSummaryKeys,
    podListsPerFailure: failingCount ? podLists / failingCount : 0,
    logReadsPerFailure: failingCount ? logReads / failingCount : 0,
    exitedDuringRun,
    owed: owed.length,
    failoverS,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    killed,
    survivor,
    readyAtEnd,
    killedAfterAccept,
    acceptedBeforeKill: accepted.filter((a) => killedAt !== undefined && a.atMs < killedAt).length,
    acceptedAfterKill: accepted.filter((a) => killedAt !== undefined && a.atMs >= killedAt).length,
    dir,
  };
}

async function waitLeading(replica: Replica, sinceMs: number): Promise<number> {
  for (;;) {
    if (await replica.leading()) return (Date.now() - sinceMs) / 1000;
    await sleep(100);
  }
}

/** The cluster makes the transition: the pod fails with a log, then the workload's phase. */
function fail(kube: Awaited<ReturnType<typeof startFakeKube>>, name: string, slackUser: string): Owed {
  const pod = `${name}-0-0`;
  kube.appendLog(NAMESPACE, pod, name, failingLog(40));
  kube.patch({ kind: 'Pod', namespace: NAMESPACE, name: pod }, (obj) => {
    const status = obj.status as { phase: string; containerStatuses: Array<Record<string, unknown>> };
    status.phase = 'Failed';
    status.containerStatuses[0].ready = false;
    status.containerStatuses[0].state = { terminated: { exitCode: 1, reason: 'Error', finishedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') } };
  });
  kube.setPhase('TrainingWorkload', NAMESPACE, name, 'Failed');
  // Like the simulated Slack, a DM's id is the user's with D for U.
  return { name, conversation: `D${slackUser.slice(1)}`, atMs: Date.now() };
}

class Replica {
  private child?: ChildProcess;

  constructor(
    readonly name: string,
    private readonly cli: string,
    private readonly config: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly logPath: string,
    private readonly opsPort: number,
  ) {}

  start(): void {
    const log = openSync(this.logPath, 'a');
    this.child = spawn(process.execPath, [this.cli, 'start', '--config', this.config], { env: this.env, stdio: ['ignore', log, log] });
    closeSync(log);
  }

  /** Sends the signal to a running process (SIGKILL, SIGSTOP, SIGCONT). */
  signal(signal: NodeJS.Signals): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  /** The process ended without a signal from the harness (exit code set: a crash or a fatal error). */
  exitedByItself(): boolean {
    return this.child?.exitCode !== null && this.child?.exitCode !== undefined;
  }

  private async readyz(): Promise<{ status: number; body: { leader?: boolean } } | undefined> {
    try {
      const response = await fetch(`http://127.0.0.1:${this.opsPort}/readyz`, { signal: AbortSignal.timeout(2000) });
      return { status: response.status, body: (await response.json()) as { leader?: boolean } };
    } catch {
      return undefined; // not listening (starting, or killed)
    }
  }

  async leading(): Promise<boolean> {
    return (await this.readyz())?.body.leader === true;
  }

  /** Whether the replica answers ready within the time; false at once if it exits first. */
  async waitReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exitedByItself()) return false;
      if ((await this.readyz())?.status === 200) return true;
      await sleep(250);
    }
    return false;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const cut = setTimeout(() => child.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(cut);
  }
}
