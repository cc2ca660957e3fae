/**
 * Several clusters, one bot, end to end: the real bot (Bolt in Socket Mode, client-node, SQLite)
 * against TWO simulated Kubernetes API servers and the simulated Slack on 127.0.0.1, configured
 * with `clusters:` and a kubeconfig file per cluster, as a site would.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeKube, type FakeKube } from '../src/sim/kube-apiserver.js';
import { ALICE, BOB, startFakeSlack, type SlackSimulator } from './fakes/slack.js';
import { eventually, startTestBot, tempDir, type TestBot } from './helpers/bot.js';
import { allOutbox } from './helpers/store.js';
import { startTcpCut, type TcpCut } from './helpers/tcp-cut.js';
import { ns, pod, workloadCr } from './helpers/workloads.js';
import { freePort } from '../bench/free-port.js';

const EAST_LOG = 'Traceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.';
const WEST_LOG = 'Traceback (most recent call last):\nRuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system error';

const SHARED_UID = '0b6c1f64-1d2e-4c55-9e1a-6a3d2f0c7e11';

function texts(slack: SlackSimulator, to: string): string[] {
  return slack.messagesTo(to).map((c) => `${c.body.text}\n${JSON.stringify(c.body.blocks)}`);
}

function failTraining(kube: FakeKube, name: string, log: string): void {
  kube.appendLog(ns('vision'), `${name}-0-0`, name, log);
  kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
  kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
}

interface ReadyBody {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
  clusters?: Array<{ name: string; synced: boolean; lastError?: string }>;
}

async function readyz(bot: TestBot): Promise<{ status: number; body: ReadyBody }> {
  const res = await fetch(`http://127.0.0.1:${bot.port}/readyz`);
  return { status: res.status, body: (await res.json()) as ReadyBody };
}

describe('several clusters in one bot', () => {
  let east: FakeKube;
  let west: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot | undefined;
  let link: TcpCut | undefined;
  let dir: string;

  beforeEach(async () => {
    [east, west, slack] = await Promise.all([startFakeKube(), startFakeKube(), startFakeSlack()]);
    for (const kube of [east, west]) kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
    slack.addChannel('C0FALLBACK', 'runai-alerts');
    slack.inviteBot('C0FALLBACK');
    dir = tempDir('multi-cluster-');
  });
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await link?.close();
    link = undefined;
    await slack.close();
    await Promise.all([east.close(), west.close()]);
  });

  /** A kubeconfig file per cluster; `westUrl` routes the west cluster through a relay. */
  function config(westUrl = west.url) {
    const eastPath = east.writeKubeconfig(join(dir, 'east'));
    const westPath = join(dir, 'west.kubeconfig');
    writeFileSync(westPath, west.kubeconfigYaml().replace(west.url, westUrl), { mode: 0o600 });
    return {
      slack: { fallbackChannel: 'C0FALLBACK' },
      owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
      cluster: { mode: 'watch' },
      clusters: [
        { name: 'gpu-east', kubeconfig: eastPath },
        { name: 'gpu-west', kubeconfig: westPath },
      ],
    };
  }

  it('tells each owner about the failure in their cluster, read from that cluster, and keys it by the cluster', async () => {
    east.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    east.apply(pod({ workload: 'resnet', project: 'vision' }));
    west.apply(workloadCr({ name: 'bert', project: 'vision', owner: 'bob' }));
    west.apply(pod({ workload: 'bert', project: 'vision' }));
    bot = await startTestBot(east, slack, config(), { dir });
    expect(bot.reconciler.workloads().map((w) => `${w.cluster}:${w.name}`).sort()).toEqual(['gpu-east:resnet', 'gpu-west:bert']);

    failTraining(east, 'resnet', EAST_LOG);
    failTraining(west, 'bert', WEST_LOG);
    const [toAlice] = await eventually(() => texts(slack, ALICE.id).length > 0 && texts(slack, ALICE.id), "alice's DM");
    const [toBob] = await eventually(() => texts(slack, BOB.id).length > 0 && texts(slack, BOB.id), "bob's DM");
    // Each DM quotes the log of its own cluster: enrichment read from the workload's cluster.
    expect(toAlice).toContain('CUDA out of memory');
    expect(toAlice).not.toContain('NCCL');
    expect(toBob).toContain('NCCL error');
    expect(toBob).not.toContain('CUDA');

    await bot.settle();
    const eastUid = east.get({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' })!.metadata.uid as string;
    const westUid = west.get({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'bert' })!.metadata.uid as string;
    const keys = [...(await bot.store.ledgerKeys('wl:'))].sort();
    expect(keys).toEqual([`wl:gpu-east/${eastUid}:Failed`, `wl:gpu-west/${westUid}:Failed`]);
    expect((await bot.store.ledgerEntry(`wl:gpu-east/${eastUid}:Failed`))?.recipient).toBe(ALICE.id);
    expect(await bot.store.getWorkload(`gpu-west/${westUid}`)).toMatchObject({ cluster: 'gpu-west', name: 'bert', owner: 'bob', state: 'Failed' });
    expect((await bot.store.allWorkloads()).filter((w) => w.name === 'resnet').map((w) => [w.uid, w.cluster])).toEqual([[`gpu-east/${eastUid}`, 'gpu-east']]);
    // /readyz lists both clusters, each synced.
    const { status, body } = await readyz(bot);
    expect(status).toBe(200);
    expect(body.clusters).toEqual([{ name: 'gpu-east', synced: true }, { name: 'gpu-west', synced: true }]);
    // Each cluster's transitions are counted under its own label.
    const metrics = await (await fetch(`http://127.0.0.1:${bot.port}/metrics`)).text();
    expect(metrics).toMatch(/runai_bot_transitions_total\{from="Running",to="Failed",cluster="gpu-east"\} 1/);
    expect(metrics).toMatch(/runai_bot_transitions_total\{from="Running",to="Failed",cluster="gpu-west"\} 1/);
  });

  it('moves a running single-cluster bot to clusters: without telling anyone twice (the first cluster listed takes over its store)', async () => {
    east.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    east.apply(pod({ workload: 'resnet', project: 'vision' }));
    bot = await startTestBot(east, slack, { slack: { fallbackChannel: 'C0FALLBACK' }, owners: { emailDomain: 'example.org' } }, { dir });
    failTraining(east, 'resnet', EAST_LOG);
    await eventually(() => texts(slack, ALICE.id).length === 1, "alice's DM from the single-cluster bot");
    await bot.settle();
    await bot.stop();

    // The same store, now with clusters: listing the cluster it watched first and a second one.
    east.apply(workloadCr({ name: 'vit', project: 'vision', owner: 'alice' }));
    east.apply(pod({ workload: 'vit', project: 'vision' }));
    bot = await startTestBot(east, slack, config(), { dir });
    const uid = east.get({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' })!.metadata.uid as string;
    expect(await bot.store.getWorkload(`gpu-east/${uid}`)).toMatchObject({ cluster: 'gpu-east', state: 'Failed' });
    expect(await bot.store.getWorkload(uid)).toBeUndefined();
    failTraining(east, 'vit', EAST_LOG);
    await eventually(async () => {
      await bot!.settle();
      return (await bot!.store.ledgerKeys('wl:')).size === 2;
    }, "vit's failure told", 15_000);
    // resnet's failure, told before the move and still within the catch-up window, is not told again;
    // the burst its DM opened moved with it, so vit's failure is folded into that DM rather than posted apart.
    const toAlice = texts(slack, ALICE.id);
    expect(toAlice).toHaveLength(1);
    expect(toAlice.filter((t) => t.includes('resnet'))).toHaveLength(1);
    expect(slack.callsTo('chat.update').filter((c) => JSON.stringify(c.body).includes('vit'))).toHaveLength(1);
    const keys = [...(await bot.store.ledgerKeys('wl:'))];
    expect(keys).toHaveLength(2);
    expect(keys).toContain(`wl:gpu-east/${uid}:Failed`);
    for (const key of keys) expect(key).toMatch(/^wl:gpu-east\/[^/]+:Failed$/);
  });

  it('keeps the same namespace, name AND uid in two clusters apart: two alerts, two ledger rows, no collision', async () => {
    for (const kube of [east, west]) {
      const cr = workloadCr({ name: 'train', project: 'vision', owner: 'alice' });
      cr.metadata.uid = SHARED_UID;
      kube.apply(cr);
      kube.apply(pod({ workload: 'train', project: 'vision' }));
    }
    bot = await startTestBot(east, slack, config(), { dir });
    expect(bot.reconciler.workloads()).toHaveLength(2);
    expect(bot.reconciler.workloads().filter((w) => w.namespace === ns('vision') && w.name === 'train').map((w) => w.cluster).sort()).toEqual(['gpu-east', 'gpu-west']);

    failTraining(east, 'train', EAST_LOG);
    failTraining(west, 'train', WEST_LOG);
    // Same owner, same moment: the second folds into the first's burst, which must carry both.
    const both = [`wl:gpu-east/${SHARED_UID}:Failed`, `wl:gpu-west/${SHARED_UID}:Failed`];
    await eventually(async () => {
      await bot!.settle();
      const keys = await bot!.store.ledgerKeys('wl:');
      return both.every((k) => keys.has(k));
    }, 'both alerts told', 15_000);
    expect([...(await bot.store.ledgerKeys('wl:'))].sort()).toEqual(both);
    expect(await allOutbox(bot.store)).toEqual([]);
    // What alice saw names both failures: the east log and the west log each reached her.
    const seen = [...texts(slack, ALICE.id), ...slack.callsTo('chat.update').map((c) => JSON.stringify(c.body))].join('\n');
    expect(seen).toContain('CUDA out of memory');
    expect(seen).toMatch(/NCCL error|train/);
    expect(await bot.store.getWorkload(`gpu-east/${SHARED_UID}`)).toMatchObject({ cluster: 'gpu-east', state: 'Failed' });
    expect(await bot.store.getWorkload(`gpu-west/${SHARED_UID}`)).toMatchObject({ cluster: 'gpu-west', state: 'Failed' });
    expect(await bot.store.getWorkload(SHARED_UID)).toBeUndefined();
  });

  it('starts and alerts with one cluster down, stays ready naming it, and picks it up once it answers', async () => {
    link = await startTcpCut(Number(new URL(west.url).port));
    link.cut();
    east.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    east.apply(pod({ workload: 'resnet', project: 'vision' }));
    west.apply(workloadCr({ name: 'bert', project: 'vision', owner: 'bob' }));
    west.apply(pod({ workload: 'bert', project: 'vision' }));
    bot = await startTestBot(east, slack, config(link.url), { dir, clusterStartWaitMs: 200 });

    failTraining(east, 'resnet', EAST_LOG);
    await eventually(() => texts(slack, ALICE.id).length > 0, "alice's DM while gpu-west is down");
    const down = await readyz(bot);
    expect(down.status).toBe(200);
    expect(down.body.ready).toBe(true);
    expect(down.body.clusters?.[0]).toEqual({ name: 'gpu-east', synced: true });
    expect(down.body.clusters?.[1]).toMatchObject({ name: 'gpu-west', synced: false, lastError: expect.any(String) });
    expect(down.body.checks.cluster).toEqual({ ok: true, detail: expect.stringContaining('gpu-west not synced') });

    link.restore();
    await eventually(async () => (await readyz(bot!)).body.clusters?.[1]?.synced, 'gpu-west synced', 20_000);
    expect((await readyz(bot)).body.checks.cluster).toEqual({ ok: true });
    failTraining(west, 'bert', WEST_LOG);
    const [toBob] = await eventually(() => texts(slack, BOB.id).length > 0 && texts(slack, BOB.id), "bob's DM from gpu-west");
    expect(toBob).toContain('NCCL error');
  });

  it('is unready while no cluster has synced, as with one cluster, and starts once one does', async () => {
    link = await startTcpCut(Number(new URL(west.url).port));
    link.cut();
    const eastLink = await startTcpCut(Number(new URL(east.url).port));
    eastLink.cut();
    const cfg = config(link.url);
    writeFileSync(cfg.clusters[0].kubeconfig, east.kubeconfigYaml().replace(east.url, eastLink.url));
    const opsPort = await freePort();
    const starting = startTestBot(east, slack, { ...cfg, ops: { port: opsPort, host: '127.0.0.1' } }, { dir, clusterStartWaitMs: 200 });
    try {
      // Start waits for a first sync; the ops port answers meanwhile.
      const res = await eventually(() => fetch(`http://127.0.0.1:${opsPort}/readyz`).catch(() => undefined), 'the ops port', 10_000);
      expect(res.status).toBe(503);
      const body = (await res.json()) as ReadyBody;
      expect(body.checks.cluster).toMatchObject({ ok: false, detail: expect.stringMatching(/^no cluster synced yet: gpu-east not synced.*; gpu-west not synced/) });
      expect(body.clusters?.map((c) => c.synced)).toEqual([false, false]);
      eastLink.restore();
      bot = await starting;
      expect((await readyz(bot)).status).toBe(200);
      expect(bot.clusters().map((c) => c.synced)).toEqual([true, false]);
    } finally {
      await eastLink.close();
    }
  });
});

