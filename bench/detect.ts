/**
 * Detection latency: from the phase change in the simulated API server to the owner's
 * chat.postMessage arriving at the simulated Slack, with the pod list, event list, log read and
 * triage in between. Each failing workload has a different owner, so the burst grouping (first
 * alert at once, later ones folded into a chat.update) never hides an alert.
 */
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import type { RecordedCall, SlackSimulator } from '../src/sim/slack.js';
import { fail, slackIdOf, type BenchWorkload } from './cluster.js';
import { METHOD_LIMITS } from '../src/sim/slack-tiers.js';

/** The first workload of each of `count` distinct owners (owner i owns workload i, i + owners, …). */
export function distinctOwners(workloads: BenchWorkload[], count: number, offset = 0): BenchWorkload[] {
  const seen = new Set<string>();
  const picked: BenchWorkload[] = [];
  for (const w of workloads.slice(offset)) {
    if (seen.has(w.owner)) continue;
    seen.add(w.owner);
    picked.push(w);
    if (picked.length === count) break;
  }
  if (picked.length < count) throw new Error(`only ${picked.length} distinct owners for ${count} failures`);
  return picked;
}

function ownerIndex(w: BenchWorkload): number {
  return Number(w.owner.replace(/^user/, ''));
}

/** The DM channel the simulated Slack gives the bot with this workload's owner. */
export function dmOf(slack: SlackSimulator, w: BenchWorkload): string {
  return slack.workspace.dmWith(slackIdOf(ownerIndex(w))).id;
}

function isPostTo(channel: string): (c: RecordedCall) => boolean {
  return (c) => c.method === 'chat.postMessage' && c.status === 200 && typeof c.response === 'object' && c.response.ok === true && c.response.channel === channel;
}

/** Milliseconds from failing `w` to its owner's DM, or undefined after `timeoutMs`. */
export async function failAndWait(kube: FakeKube, slack: SlackSimulator, w: BenchWorkload, logLines: number, timeoutMs: number): Promise<number | undefined> {
  const channel = dmOf(slack, w);
  const failedAt = fail(kube, w, logLines);
  try {
    // Only a post after this failure: the owner may have had DMs before.
    const post = isPostTo(channel);
    const call = await slack.waitFor((c) => post(c) && c.at.getTime() >= failedAt, timeoutMs);
    return call.at.getTime() - failedAt;
  } catch {
    return undefined;
  }
}

export interface LatencyRun {
  samples: number[];
  missed: number;
  /** chat.postMessage calls Slack answered 429 during the run (oneByOne). */
  rateLimited?: number;
}

/**
 * Fails the workloads one after another, each once the previous one's DM has arrived and at
 * least `minGapMs` after the previous failure. The gap keeps the run under Slack's workspace
 * limit of chat.postMessage (postMessagePace): unpaced, 200 failures at ~6/s outran it and the
 * p99 measured a Retry-After wait, not the bot. `rateLimited` counts the 429s met all the same.
 */
export async function oneByOne(kube: FakeKube, slack: SlackSimulator, failing: BenchWorkload[], logLines: number, timeoutMs: number, minGapMs = 0): Promise<LatencyRun> {
  const samples: number[] = [];
  let missed = 0;
  const before = slack.calls.length;
  let last = -Infinity;
  for (const w of failing) {
    const wait = last + minGapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = performance.now();
    const ms = await failAndWait(kube, slack, w, logLines, timeoutMs);
    if (ms === undefined) missed++;
    else samples.push(ms);
  }
  const rateLimited = slack.calls.slice(before).filter((c) => c.method === 'chat.postMessage' && c.status === 429).length;
  return { samples, missed, rateLimited };
}

/** The gap between posts that stays under Slack's workspace limit of chat.postMessage, with a quarter to spare. */
export function postMessagePace(): number {
  return Math.ceil((60_000 / METHOD_LIMITS['chat.postMessage'].perMinute) * 1.25);
}

/** Fails each workload at a random moment within `spanMs`, all waited for concurrently. */
export async function scattered(kube: FakeKube, slack: SlackSimulator, failing: BenchWorkload[], logLines: number, spanMs: number, timeoutMs: number): Promise<LatencyRun> {
  const results = await Promise.all(
    failing.map(async (w, i) => {
      // Deterministic spread (golden-ratio sequence): the same moments every run.
      const offset = ((i * 0.6180339887) % 1) * spanMs;
      await new Promise((resolve) => setTimeout(resolve, offset));
      return failAndWait(kube, slack, w, logLines, timeoutMs);
    }),
  );
  const samples = results.filter((ms): ms is number => ms !== undefined);
  return { samples, missed: results.length - samples.length };
}
