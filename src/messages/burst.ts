/**
 * Block Kit for bursts: one grouped message per owner, and one summary for the operators.
 */
import { GUIDE, SAFE_RECOVERY } from '../lifecycle/states.js';
import type { BurstEntry, LifecycleState } from '../model.js';
import { context, header, section, type Block, type SlackMessage } from './blocks.js';
import { forMrkdwn, forInlineCode, truncate } from './mrkdwn.js';
import { qualifiedName } from './cluster.js';

/** Counts per value, largest first: "gpu-17 (40), gpu-3 (3)". */
export function tally(values: Array<string | undefined>, unknown = 'unknown'): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v ?? unknown, (counts.get(v ?? unknown) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Entries listed one by one; the rest are counted. Keeps the message well inside Block Kit limits. */
const LISTED = 15;

function entryLine(e: BurstEntry): string {
  const error = e.firstError ? ` ${forInlineCode(e.firstError, 160)}` : '';
  const category = e.categoryLabel ? ` _${forMrkdwn(e.categoryLabel)}_` : '';
  const node = e.node ? ` on ${forMrkdwn(e.node)}` : '';
  const cluster = e.cluster ? `, cluster ${forMrkdwn(e.cluster, 63)}` : '';
  return `• *${forMrkdwn(e.name)}* (${forMrkdwn(e.project)}${cluster}) ${e.state.toLowerCase()}${node}${category}${error}`;
}

export function buildOwnerBurstMessage(entries: BurstEntry[]): SlackMessage {
  const states = tally(entries.map((e) => e.state));
  const summary = states.map(([state, n]) => `${n} ${state.toLowerCase()}`).join(', ');
  const blocks: Block[] = [
    header(`${entries.length} of your workloads changed state (${summary})`),
    section(`Several of your workloads failed or stopped within a short time. Often one cause (a node, a project stop) is behind all of them.`),
  ];
  // Lines are packed into sections of at most ~2,800 characters.
  let chunk: string[] = [];
  let size = 0;
  for (const e of entries.slice(0, LISTED)) {
    const line = entryLine(e);
    if (size + line.length > 2800) {
      blocks.push(section(chunk.join('\n')));
      chunk = [];
      size = 0;
    }
    chunk.push(line);
    size += line.length + 1;
  }
  if (chunk.length) blocks.push(section(chunk.join('\n')));
  if (entries.length > LISTED) blocks.push(context(`…and ${entries.length - LISTED} more. \`/runai list\` shows them all.`));
  for (const [state] of states) {
    blocks.push(section(`*${state}* — next step (cluster guide): ${GUIDE[state as LifecycleState]?.nextAction ?? ''}`));
  }
  const transient = entries.filter((e) => e.category === 'eviction' || e.category === 'scheduling').length;
  if (transient === entries.length) blocks.push(section(`:repeat: These look like evictions or scheduling problems. ${SAFE_RECOVERY.retryTransient}`));
  blocks.push(context(SAFE_RECOVERY.oneChange));
  const names = entries.slice(0, 5).map(qualifiedName).join(', ');
  return { text: forMrkdwn(`${entries.length} of your workloads changed state (${summary}): ${names}${entries.length > 5 ? ', …' : ''}`), blocks };
}

export function buildOpsBurstMessage(entries: BurstEntry[], windowMs: number): SlackMessage {
  const owners = new Set(entries.map((e) => e.owner || '(no owner)')).size;
  // Node names repeat across clusters: gpu-east's node-07 is not gpu-west's node-07.
  const nodes = tally(entries.map((e) => (e.node && e.cluster ? `${e.cluster}/${e.node}` : e.node)), 'no node');
  const clusters = entries.some((e) => e.cluster) ? tally(entries.map((e) => e.cluster), 'no cluster') : [];
  const categories = tally(entries.map((e) => e.categoryLabel ?? e.state));
  const projects = tally(entries.map((e) => e.project));
  const [topNode, topCount] = nodes[0];
  const seconds = Math.round(windowMs / 1000);
  const headline =
    topNode !== 'no node' && topCount >= Math.max(2, entries.length / 2)
      ? `node ${topNode} lost? ${topCount} of ${entries.length} workloads of ${plural(owners, 'owner')}`
      : `${entries.length} workloads of ${plural(owners, 'owner')}`;
  const list = (pairs: Array<[string, number]>) => truncate(pairs.slice(0, 10).map(([k, n]) => `${forMrkdwn(k)} (${n})`).join(', '), 2800);
  const blocks: Block[] = [
    header(`Burst: ${headline} within ${seconds} s`),
    section(`*By node:* ${list(nodes)}`),
    section(`*By category:* ${list(categories)}`),
    section(`*By project:* ${list(projects)}`),
    ...(clusters.length ? [section(`*By cluster:* ${list(clusters)}`)] : []),
    context('Each owner got one grouped message. The bot only reads the cluster; it changes nothing.'),
  ];
  return { text: forMrkdwn(`Burst: ${headline} within ${seconds} s`), blocks };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
