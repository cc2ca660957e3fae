/**
 * Follow-ups under Slack's rate limits: a burst of failures (1,000; 100 with --quick) across many
 * owners, then half of them deleted and resubmitted under the same name with one change, through
 * the real bot (client-node, Bolt, SQLite) against the simulated Kubernetes API server and the
 * simulated Slack with its published tiers on (chat.postMessage 1/s per channel and a few hundred
 * a minute per workspace, chat.update Tier 3). What it shows: every resubmission is told in its
 * alert's thread, edits of the first lines are coalesced (chat.update stays far below one per
 * event), and the 429s Slack answers stay few (the outbox pauses the method or channel a 429
 * names rather than retrying into it).
 *
 * `node build/bench/followups.js [--quick]` runs it alone; `npm run bench` runs it with the rest.
 */
import { fileURLToPath } from 'node:url';
import { KEY_PREFIX } from '../src/keys.js';
import { startFakeKube, type KubeObject } from '../src/sim/kube-apiserver.js';
import { SlackSimulator } from '../src/sim/slack.js';
import { startBenchBot, sleep } from './bot.js';
import { addOwners, fail, populate, runningPod } from './cluster.js';
import type { Report } from './figures.js';

export interface FollowUpBench {
  failures: number;
  resubmissions: number;
  owners: number;
  /** ms from the first resubmission to the last follow-up sent (outbox empty). */
  drainMs: number;
  resubmittedReplies: number;
  threadReplies: number;
  broadcasts: number;
  chatUpdates: number;
  rateLimited: number;
  rateLimitedBy: Record<string, number>;
  /** Follow-up keys still queued when the wait ended. */
  left: number;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(200);
  }
  return false;
}

export async function benchFollowUps(failures: number, owners: number, timeoutMs: number): Promise<FollowUpBench> {
  const kube = await startFakeKube();
  const slack = await SlackSimulator.start({ rateTiers: true });
  const resubmissions = Math.floor(failures / 2);
  let bot: Awaited<ReturnType<typeof startBenchBot>> | undefined;
  try {
    addOwners(slack, owners);
    const workloads = populate(kube, { workloads: failures, podsPerWorkload: 1, owners });
    bot = await startBenchBot(kube, slack, { cluster: { mode: 'watch' } });
    const { store } = bot.bot;
    await until(async () => bot!.bot.reconciler.isSynced(), 60_000);
    for (const w of workloads) fail(kube, w, 20);
    // Every failure told (posted, or named in an accepted burst rewrite) before the resubmissions.
    await until(async () => (await store.ledgerKeys(KEY_PREFIX.workload)).size >= failures && (await store.outboxDepth()) === 0, timeoutMs);

    const callsBefore = slack.calls.length;
    const limitedBefore = slack.rateLimitedCount;
    const byMethodBefore = { ...slack.rateLimitedByMethod };
    const started = Date.now();
    for (const w of workloads.slice(0, resubmissions)) {
      const cr = kube.delete({ kind: w.kind, namespace: w.namespace, name: w.name }) as KubeObject;
      kube.delete({ kind: 'Pod', namespace: w.namespace, name: w.pod });
      const spec = cr.spec as Record<string, { value: unknown }>;
      // One intentional change: the image tag.
      kube.apply({ apiVersion: cr.apiVersion, kind: cr.kind, metadata: { name: w.name, namespace: w.namespace, labels: cr.metadata.labels }, spec: { ...spec, image: { value: 'registry.example.org/ml/train:1.1' } }, status: { phase: 'Running' } } as KubeObject);
      kube.apply(runningPod(w.namespace, w.namespace.replace(/^runai-/, ''), w.name, 0, w.owner, w.kind === 'DistributedWorkload'));
    }
    const told = async () => [...(await store.ledgerKeys(KEY_PREFIX.followUp))].filter((k) => k.endsWith('-resubmitted')).length;
    await until(async () => (await told()) >= resubmissions && (await store.outboxDepth()) === 0, timeoutMs);
    const drainMs = Date.now() - started;
    const calls = slack.calls.slice(callsBefore);
    const ok = (c: (typeof calls)[number]) => c.status === 200 && typeof c.response === 'object' && (c.response as { ok?: boolean }).ok === true;
    const posts = calls.filter((c) => c.method === 'chat.postMessage' && ok(c));
    const rateLimitedBy: Record<string, number> = {};
    for (const [method, n] of Object.entries(slack.rateLimitedByMethod)) if (n - (byMethodBefore[method] ?? 0) > 0) rateLimitedBy[method] = n - (byMethodBefore[method] ?? 0);
    return {
      failures,
      resubmissions,
      owners,
      drainMs,
      resubmittedReplies: await told(),
      threadReplies: posts.filter((c) => c.body.thread_ts !== undefined).length,
      broadcasts: calls.filter((c) => c.method === 'chat.postMessage' && c.body.reply_broadcast !== undefined).length,
      chatUpdates: calls.filter((c) => c.method === 'chat.update' && ok(c)).length,
      rateLimited: slack.rateLimitedCount - limitedBefore,
      rateLimitedBy,
      left: await store.outboxDepth(),
    };
  } finally {
    await bot?.stop();
    await slack.close();
    await kube.close();
  }
}

export async function addFollowUpFigures(failures: number, owners: number, report: Report): Promise<void> {
  const r = await benchFollowUps(failures, owners, 15 * 60_000);
  const note = `${r.failures} failures of ${r.owners} owners, then ${r.resubmissions} deleted and resubmitted with one change, on the tiered Slack simulator`;
  report.add({ name: 'followup_resubmitted_replies', value: r.resubmittedReplies, unit: 'replies', target: { op: '=', value: r.resubmissions }, note });
  report.add({ name: 'followup_thread_replies', value: r.threadReplies, unit: 'posts', note: 'replies posted in threads (deleted and resubmitted, each workload)' });
  report.add({ name: 'followup_broadcasts', value: r.broadcasts, unit: 'posts', target: { op: '=', value: 0 }, note: 'replies that set reply_broadcast' });
  report.add({ name: 'followup_chat_update', value: r.chatUpdates, unit: 'calls', target: { op: '<=', value: r.resubmissions }, note: 'accepted edits of alerts\' first lines (coalesced per root; an alert folded into a burst keeps the burst\'s text)' });
  report.add({ name: 'followup_429', value: r.rateLimited, unit: 'answers', note: `429s Slack answered while the follow-ups went out: ${JSON.stringify(r.rateLimitedBy)}` });
  report.add({ name: 'followup_drain_ms', value: r.drainMs, unit: 'ms', note: 'from the first resubmission to the last follow-up sent' });
  report.add({ name: 'followup_left_queued', value: r.left, unit: 'items', target: { op: '=', value: 0 } });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { Report: Figures } = await import('./figures.js');
  const quick = process.argv.includes('--quick');
  const report = new Figures();
  await addFollowUpFigures(quick ? 100 : 1000, quick ? 20 : 100, report);
  for (const f of report.figures) if (f.note) console.error(`${f.name}: ${f.note}`);
  process.exit(0);
}
