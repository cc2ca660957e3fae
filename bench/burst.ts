/**
 * A burst: many workloads of many owners fail within one second while the simulated Slack
 * enforces one chat.postMessage per second per channel (429 with Retry-After beyond). Every
 * workload must reach its owner, in the first DM or in the grouped message it is rewritten
 * into; the figure is how long until the last one is there, and how many never arrive.
 */
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import type { SlackSimulator } from '../src/sim/slack.js';
import { fail, slackIdOf, type BenchWorkload } from './cluster.js';
import { sleep } from './bot.js';

export interface BurstFigures {
  drainMs: number;
  /** Workloads not named in their owner's DM when the wait ended. */
  lost: number;
  ownersTold: number;
  owners: number;
  failSpreadMs: number;
  rateLimited: number;
  /** Per owner: ms from the first failure to their first DM (owners never told are left out). */
  firstDmMs: number[];
  /** 429 answers by method. */
  rateLimitedBy: Record<string, number>;
}

/** Whether a DM conversation names a workload (as `job-12`, not as part of `job-123`). */
function names(conversation: string, workload: string): boolean {
  return new RegExp(`\\b${workload}\\b(?!\\d)`).test(conversation);
}

export async function benchBurst(kube: FakeKube, slack: SlackSimulator, workloads: BenchWorkload[], owners: number, timeoutMs: number): Promise<BurstFigures> {
  // With Slack's tiers on, 1/s per channel is part of them; without, it is the one limit enforced.
  slack.enforcePerChannelRate(1);
  const callsBefore = slack.calls.length;
  const started = Date.now();
  for (const w of workloads) fail(kube, w, 50);
  const failSpreadMs = Date.now() - started;

  const byOwner = new Map<number, string[]>();
  for (const w of workloads) {
    const owner = Number(w.owner.replace(/^user/, ''));
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), w.name]);
  }
  const missing = () => {
    let lost = 0;
    let told = 0;
    for (const [owner, wanted] of byOwner) {
      const conversation = slack.workspace.conversation(slackIdOf(owner));
      if (conversation.length) told++;
      const text = conversation.map((m) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`).join('\n');
      lost += wanted.filter((name) => !names(text, name)).length;
    }
    return { lost, told };
  };

  let state = missing();
  let lastChange = Date.now();
  while (state.lost > 0 && Date.now() - started < timeoutMs) {
    await sleep(100);
    const next = missing();
    if (next.lost !== state.lost) lastChange = Date.now();
    state = next;
  }
  const firstDmMs: number[] = [];
  for (const owner of byOwner.keys()) {
    const dm = slack.workspace.dmWith(slackIdOf(owner)).id;
    const first = slack.calls.slice(callsBefore).find((c) => c.method === 'chat.postMessage' && c.status === 200 && typeof c.response === 'object' && c.response.ok === true && c.response.channel === dm);
    if (first) firstDmMs.push(first.at.getTime() - started);
  }
  return {
    firstDmMs,
    rateLimitedBy: slack.rateLimitedByMethod,
    drainMs: (state.lost === 0 ? lastChange : Date.now()) - started,
    lost: state.lost,
    ownersTold: state.told,
    owners,
    failSpreadMs,
    rateLimited: slack.rateLimitedCount,
  };
}
