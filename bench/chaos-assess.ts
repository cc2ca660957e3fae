/**
 * What the chaos run proves, read from the simulated Slack's record of accepted messages: was
 * every workload's failure or stop told to the right place, was anything told twice, did any
 * message name someone else's workload. Pure: takes the owed alerts and the accepted calls.
 */
import type { RecordedCall } from '../src/sim/slack.js';
import { WORKLOAD_NAME } from './chaos-plan.js';

export interface Owed {
  name: string;
  /** The conversation it must reach: the owner's DM id, or the project's channel for ghosts. */
  conversation: string;
  /** When the cluster made the transition (ms since the epoch). */
  atMs: number;
}

/** One chat.postMessage or chat.update that Slack accepted. */
export interface Accepted {
  method: 'chat.postMessage' | 'chat.update';
  channel: string;
  ts: string;
  /** Text and blocks, as one string to search. */
  content: string;
  atMs: number;
}

export interface Assessment {
  /** Owed workloads named in no message as it now stands in their conversation (and not counted by an "…and N more"). */
  lost: string[];
  /** Per workload, separately posted messages that named it beyond the first, summed. */
  duplicates: number;
  duplicated: Array<{ name: string; messages: number }>;
  /** A workload named in a conversation it does not belong to. */
  crosstalk: Array<{ name: string; conversation: string }>;
  /** Owed workloads not named, but covered by the "…and N more" of a grouped message. */
  summarized: number;
  /** When each delivered workload was first named in its conversation (ms since the epoch). */
  firstToldAt: Map<string, number>;
}

interface Message {
  channel: string;
  versions: Accepted[];
}

const MORE = /…and (\d+) more/;

export function namesIn(content: string): Set<string> {
  return new Set(content.match(WORKLOAD_NAME) ?? []);
}

export function assess(owed: Owed[], accepted: Accepted[]): Assessment {
  const messages = new Map<string, Message>();
  for (const a of accepted) {
    const id = `${a.channel}/${a.ts}`;
    const message = messages.get(id) ?? { channel: a.channel, versions: [] };
    message.versions.push(a);
    messages.set(id, message);
  }
  const owedByName = new Map(owed.map((o) => [o.name, o]));
  const byConversation = new Map<string, Message[]>();
  for (const m of messages.values()) byConversation.set(m.channel, [...(byConversation.get(m.channel) ?? []), m]);

  const crosstalk: Assessment['crosstalk'] = [];
  const seenCrosstalk = new Set<string>();
  const toldIn = new Map<string, number>();
  const firstToldAt = new Map<string, number>();
  const namedNow = new Map<string, Set<string>>();
  const moreNow = new Map<string, number>();
  for (const m of messages.values()) {
    const ever = new Set<string>();
    for (const v of m.versions) {
      for (const name of namesIn(v.content)) {
        ever.add(name);
        const o = owedByName.get(name);
        if (o && o.conversation === m.channel) firstToldAt.set(name, Math.min(firstToldAt.get(name) ?? Infinity, v.atMs));
      }
    }
    for (const name of ever) {
      const o = owedByName.get(name);
      if (!o || o.conversation !== m.channel) {
        const key = `${name}@${m.channel}`;
        if (!seenCrosstalk.has(key)) crosstalk.push({ name, conversation: m.channel });
        seenCrosstalk.add(key);
        continue;
      }
      toldIn.set(name, (toldIn.get(name) ?? 0) + 1);
    }
    const final = m.versions.at(-1)!;
    const now = namedNow.get(m.channel) ?? new Set<string>();
    for (const name of namesIn(final.content)) now.add(name);
    namedNow.set(m.channel, now);
    const more = MORE.exec(final.content);
    if (more) moreNow.set(m.channel, (moreNow.get(m.channel) ?? 0) + Number(more[1]));
  }

  // A grouped message names 15 and counts the rest; unnamed workloads it counts are told, not lost.
  const unnamed = new Map<string, string[]>();
  for (const o of owed) {
    if (namedNow.get(o.conversation)?.has(o.name)) continue;
    unnamed.set(o.conversation, [...(unnamed.get(o.conversation) ?? []), o.name]);
  }
  const lost: string[] = [];
  let summarized = 0;
  for (const [conversation, names] of unnamed) {
    const covered = Math.min(names.length, moreNow.get(conversation) ?? 0);
    summarized += covered;
    lost.push(...names.slice(covered));
  }

  const duplicated = [...toldIn].filter(([, n]) => n > 1).map(([name, messages]) => ({ name, messages }));
  return {
    lost: lost.sort(),
    duplicates: duplicated.reduce((sum, d) => sum + d.messages - 1, 0),
    duplicated,
    crosstalk,
    summarized,
    firstToldAt,
  };
}

/** Keeps a message Slack accepted (a post or an edit), as the assessment reads it. */
export function recordAccepted(call: RecordedCall, into: Accepted[]): void {
  if (call.method !== 'chat.postMessage' && call.method !== 'chat.update') return;
  const response = call.response as Record<string, unknown>;
  into.push({
    method: call.method,
    channel: String(response.channel),
    ts: String(response.ts),
    content: `${String(call.body.text ?? '')}\n${JSON.stringify(call.body.blocks ?? [])}`,
    atMs: call.at.getTime(),
  });
}
