/**
 * The chaos scenario as data, drawn from a seed: which workloads exist, who owns them, when each
 * goes Running → Failed or Stopped (in bursts and as a steady trickle), when the bot is killed,
 * and when each fault starts and ends. Pure: the same seed gives the same plan, so a failing run
 * can be replayed with `--seed`.
 */
import { prng } from './prng.js';

export interface ChaosSizes {
  label: 'full' | 'short';
  /** Owners who are Slack users (DMs). */
  owners: number;
  /** Owners with no Slack user: their alerts go to the project's channel. */
  ghostOwners: number;
  projects: number;
  transitions: number;
  /** Share of transitions that happen inside bursts. */
  burstShare: number;
  /** Owners hit by one burst, and workloads each of them loses in it (kept under the 15 a grouped message lists by name). */
  burstOwners: [number, number];
  perOwnerInBurst: [number, number];
  scheduleMs: number;
  kills: number;
  slackOutageMs: number;
  kubeOutageMs: number;
  storeLockMs: number;
  /** After the last fault ends, how long the bot has to deliver what it owes. */
  drainMs: number;
}

export const FULL: ChaosSizes = {
  label: 'full',
  owners: 100,
  ghostOwners: 8,
  projects: 10,
  transitions: 1000,
  burstShare: 0.5,
  burstOwners: [3, 6],
  perOwnerInBurst: [4, 10],
  scheduleMs: 420_000,
  kills: 24,
  slackOutageMs: 90_000,
  kubeOutageMs: 20_000,
  storeLockMs: 8000,
  drainMs: 240_000,
};

export const SHORT: ChaosSizes = {
  label: 'short',
  owners: 20,
  ghostOwners: 3,
  projects: 4,
  transitions: 200,
  burstShare: 0.5,
  burstOwners: [2, 4],
  perOwnerInBurst: [4, 8],
  scheduleMs: 60_000,
  kills: 6,
  slackOutageMs: 20_000,
  kubeOutageMs: 8000,
  storeLockMs: 7000,
  drainMs: 60_000,
};

export interface PlannedWorkload {
  /** `wl-0042`: fixed width, so no name is a prefix of another. */
  name: string;
  kind: string;
  namespace: string;
  project: string;
  /** Cluster user (`user7`, or `ghost2` who has no Slack user). */
  owner: string;
  /** Slack user id of the owner; undefined for ghosts. */
  slackUser?: string;
  to: 'Failed' | 'Stopped';
  /** Offset from the start of the schedule. */
  atMs: number;
}

export type KillMode = 'now' | 'on-post' | 'on-update';

export interface PlannedKill {
  atMs: number;
  /** now: SIGKILL at atMs; on-post/on-update: at atMs arm a SIGKILL for the moment Slack next accepts that call. */
  mode: KillMode;
  why: 'random' | 'in-burst' | 'after-accept';
}

export type FaultName = 'kube-500' | 'watch-drop' | 'watch-410' | 'slack-outage' | 'slack-429-storm' | 'store-lock';

export interface PlannedFault {
  name: FaultName;
  atMs: number;
  /** How long it lasts (0: a single act, such as cutting the watches). */
  forMs: number;
}

export interface ChaosPlan {
  seed: number;
  sizes: ChaosSizes;
  workloads: PlannedWorkload[];
  bursts: Array<{ atMs: number; owners: string[] }>;
  kills: PlannedKill[];
  faults: PlannedFault[];
}

export const ownerUser = (i: number) => `user${i}`;
export const ownerSlackId = (i: number) => `UC${String(i).padStart(6, '0')}`;
export const ghostUser = (i: number) => `ghost${i}`;
export const projectName = (i: number) => `proj${i}`;
export const projectChannel = (i: number) => `CPROJ${i}`;
export const WORKLOAD_NAME = /\bwl-\d{4}\b/g;

const KINDS = ['TrainingWorkload', 'TrainingWorkload', 'TrainingWorkload', 'InteractiveWorkload', 'DistributedWorkload'];

export function planChaos(sizes: ChaosSizes, seed: number): ChaosPlan {
  const random = prng(seed);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const int = (lo: number, hi: number) => Math.floor(between(lo, hi + 1));
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const S = sizes.scheduleMs;

  // Each owner works mostly in a home project; ghosts are spread so several projects get channel alerts.
  const homeOf = new Map<string, number>();
  const owners: string[] = [];
  for (let i = 0; i < sizes.owners; i++) {
    owners.push(ownerUser(i));
    homeOf.set(ownerUser(i), i % sizes.projects);
  }
  const ghosts: string[] = [];
  for (let i = 0; i < sizes.ghostOwners; i++) {
    ghosts.push(ghostUser(i));
    homeOf.set(ghostUser(i), i % sizes.projects);
  }
  const everyone = [...owners, ...ghosts];

  const workloads: PlannedWorkload[] = [];
  const add = (owner: string, atMs: number) => {
    const i = workloads.length;
    const project = random() < 0.85 ? homeOf.get(owner)! : int(0, sizes.projects - 1);
    const userIndex = owner.startsWith('user') ? Number(owner.slice(4)) : undefined;
    workloads.push({
      name: `wl-${String(i).padStart(4, '0')}`,
      kind: KINDS[i % KINDS.length],
      namespace: `runai-${projectName(project)}`,
      project: projectName(project),
      owner,
      slackUser: userIndex === undefined ? undefined : ownerSlackId(userIndex),
      to: random() < 0.75 ? 'Failed' : 'Stopped',
      atMs: Math.round(atMs),
    });
  };

  // Bursts: several owners each lose many workloads within about two seconds.
  const bursts: ChaosPlan['bursts'] = [];
  const burstBudget = Math.round(sizes.transitions * sizes.burstShare);
  while (workloads.length < burstBudget) {
    const atMs = between(0.03 * S, 0.92 * S);
    const hit = new Set<string>();
    const n = int(sizes.burstOwners[0], sizes.burstOwners[1]);
    while (hit.size < n) hit.add(random() < 0.1 ? pick(ghosts.length ? ghosts : owners) : pick(owners));
    for (const owner of hit) {
      const k = int(sizes.perOwnerInBurst[0], sizes.perOwnerInBurst[1]);
      for (let j = 0; j < k && workloads.length < burstBudget; j++) add(owner, atMs + between(0, 2000));
    }
    bursts.push({ atMs: Math.round(atMs), owners: [...hit] });
  }
  // The trickle: the rest, one at a time, spread over the whole schedule.
  while (workloads.length < sizes.transitions) add(pick(everyone), between(0, S));
  bursts.sort((a, b) => a.atMs - b.atMs);

  // Faults at fixed shares of the schedule, so each variant sees every one; the kills are random.
  const faults: PlannedFault[] = [
    { name: 'kube-500', atMs: 0.12 * S, forMs: sizes.kubeOutageMs },
    { name: 'watch-drop', atMs: 0.22 * S, forMs: 0 },
    { name: 'store-lock', atMs: 0.27 * S, forMs: sizes.storeLockMs },
    { name: 'watch-410', atMs: 0.33 * S, forMs: 0 },
    { name: 'slack-outage', atMs: 0.4 * S, forMs: sizes.slackOutageMs },
    { name: 'watch-drop', atMs: 0.62 * S, forMs: 0 },
    { name: 'slack-429-storm', atMs: 0.7 * S, forMs: 6000 },
    { name: 'store-lock', atMs: 0.8 * S, forMs: sizes.storeLockMs },
  ].map((f) => ({ ...f, atMs: Math.round(f.atMs) }) as PlannedFault);

  // A third of the kills land inside burst windows, a third right after Slack accepted a post
  // or an edit (before the bot could write down that it did), a third anywhere.
  const kills: PlannedKill[] = [];
  for (let i = 0; i < sizes.kills; i++) {
    const burst = pick(bursts);
    if (i % 3 === 0) kills.push({ atMs: Math.round(burst.atMs + between(300, 4000)), mode: 'now', why: 'in-burst' });
    else if (i % 3 === 1) kills.push({ atMs: Math.round(burst.atMs + between(0, 1500)), mode: i % 2 ? 'on-post' : 'on-update', why: 'after-accept' });
    else kills.push({ atMs: Math.round(between(0.02 * S, 0.95 * S)), mode: 'now', why: 'random' });
  }
  kills.sort((a, b) => a.atMs - b.atMs);

  return { seed, sizes, workloads, bursts, kills, faults };
}
