/**
 * One Slack app over two clusters, end to end through the real Bolt app and the simulated
 * Slack: `train-1` runs in both gpu-east and gpu-west (with the same uid, so only the cluster
 * tells them apart), each cluster is its own Kubernetes API server read by its own real
 * client-node reader, and the store is real SQLite.
 *
 * What stands in for the core's wiring of `clusters:` (built on another branch) is the
 * directory below: one real WorkloadReconciler per cluster, fed the cluster's workload objects
 * through upsert() (the watcher's entry point), whose workloads are tagged with their cluster's
 * name as the core's normalisation will tag them. Everything under test (parse, lookup, access,
 * readers, replies, buttons, Home tab) is the production code.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClusterReader, type ClusterReader } from '../../src/cluster/reader.js';
import type { WorkloadKindRef } from '../../src/cluster/kinds.js';
import { parseConfig } from '../../src/config.js';
import { buildWorkloadAlert } from '../../src/messages/alert.js';
import { ACTION } from '../../src/messages/ids.js';
import { splitWorkloadId, type Workload } from '../../src/model.js';
import { OwnerDirectory } from '../../src/notify/owners.js';
import { WorkloadReconciler } from '../../src/notify/reconciler.js';
import { loadKubeConfig } from '../../src/ops/open.js';
import { startFakeKube, type FakeKube, type KubeObject } from '../../src/sim/kube-apiserver.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { SlackGateway } from '../../src/slack/client.js';
import { registerListeners, type WorkloadDirectory } from '../../src/slack/listeners.js';
import type { Store } from '../../src/store/port.js';
import { SqliteStore } from '../../src/store/sqlite/index.js';
import { ALICE, BOB, messageViolation, startFakeSlack, viewViolation, type Json, type SlackSimulator, type SlackUser } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { ERIN, shownText } from './world.js';

const CLUSTERS = ['gpu-east', 'gpu-west'] as const;
type ClusterName = (typeof CLUSTERS)[number];
/** The same uid in both clusters: a uid is unique within its cluster only. */
const SHARED_UID = '5a1e0000-0000-4000-8000-00000000c0de';
const TRAINING: WorkloadKindRef = { group: 'run.ai', version: 'v2alpha1', plural: 'trainingworkloads', kind: 'TrainingWorkload' };
const LOG: Record<ClusterName, string> = {
  'gpu-east': 'east step 1\nOSError: [Errno 28] No space left on device\n',
  'gpu-west': 'west step 1\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n',
};

function populate(kube: FakeKube, cluster: ClusterName): KubeObject[] {
  kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  const side = cluster.slice(4);
  const objects: KubeObject[] = [];
  const train = workloadCr({ name: 'train-1', project: 'vision', owner: 'alice', phase: 'Failed' });
  train.metadata.uid = SHARED_UID;
  objects.push(kube.apply(train));
  kube.apply(pod({ workload: 'train-1', project: 'vision', exitCode: 1, node: `${side}-node-07` }));
  kube.appendLog(ns('vision'), 'train-1-0-0', 'train-1', LOG[cluster]);
  // `solo` is alice's in gpu-east and bob's in gpu-west: each sees one, and is asked nothing.
  objects.push(kube.apply(workloadCr({ name: 'solo', project: 'vision', owner: cluster === 'gpu-east' ? 'alice' : 'bob', phase: 'Running' })));
  kube.apply(pod({ workload: 'solo', project: 'vision', node: `${side}-node-01` }));
  kube.appendLog(ns('vision'), 'solo-0-0', 'solo', `${side} solo log\n`);
  if (cluster === 'gpu-east') {
    objects.push(kube.apply(workloadCr({ name: 'only-east', project: 'vision', owner: 'alice', phase: 'Running' })));
    kube.apply(pod({ workload: 'only-east', project: 'vision' }));
    kube.appendLog(ns('vision'), 'only-east-0-0', 'only-east', 'only in the east\n');
  }
  return objects;
}

describe('one bot, two clusters: /runai, buttons and the Home tab', () => {
  const kubes = {} as Record<ClusterName, FakeKube>;
  const readers = {} as Record<ClusterName, ClusterReader>;
  const reconcilers = {} as Record<ClusterName, WorkloadReconciler>;
  let slack: SlackSimulator;
  let slackApp: SlackApp;
  let store: Store;

  const normalize = () => ({ namespaceLabels: { 'runai/queue': 'vision' } });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multi-cluster-'));
    const { log } = captureLog('warn');
    const now = () => new Date();
    slack = await startFakeSlack({ users: [ALICE, BOB, ERIN] });
    store = new SqliteStore(join(dir, 'bot.db'));
    const config = parseConfig(
      { owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } }, slack: { port: 0 }, ops: { port: 0 }, store: { path: join(dir, 'bot.db') } },
      { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_SIGNING_SECRET: 'test-signing-secret', SLACK_API_URL: slack.apiUrl },
    );
    for (const cluster of CLUSTERS) {
      const kube = (kubes[cluster] = await startFakeKube());
      readers[cluster] = createClusterReader(loadKubeConfig(kube.writeKubeconfig(join(dir, cluster))));
      const reconciler = (reconcilers[cluster] = new WorkloadReconciler({
        store, log, now, normalize, alertStates: new Set(), lookbackMs: 0, sink: { owed: () => undefined },
      }));
      for (const object of populate(kube, cluster)) reconciler.upsert(object, TRAINING);
    }
    const directory: WorkloadDirectory = {
      workloads: () => CLUSTERS.flatMap((cluster) => reconcilers[cluster].workloads().map((w): Workload => ({ ...w, cluster }))),
    };
    slackApp = createSlackApp({ config, log });
    const owners = new OwnerDirectory(config.owners, new SlackGateway(slackApp.app.client), store, now);
    registerListeners(slackApp.app, {
      config, store, owners, log, now,
      reconciler: directory,
      clusterNames: [...CLUSTERS],
      uiUrlFor: (cluster) => `https://${cluster}.runai.example.org`,
      readerFor: (cluster) => {
        const reader = readers[cluster as ClusterName];
        if (!reader) throw new Error(`no reader for cluster ${String(cluster)}`);
        return reader;
      },
    });
    await slackApp.start();
    await slackApp.connection.firstAttempt;
  });

  afterAll(async () => {
    await slackApp?.stop();
    await slack?.close();
    for (const kube of Object.values(kubes)) await kube.close();
    await store?.close();
  });

  async function ask(user: SlackUser, text: string): Promise<{ reply: Json; shown: string }> {
    const result = await slack.sendSlashCommand({ user_id: user.id, text });
    expect(result.ack).toEqual({});
    const reply = (await result.nextResponse()).body;
    expect(reply.response_type).toBe('ephemeral');
    expect(messageViolation(reply)).toBeUndefined();
    return { reply, shown: shownText(reply) };
  }

  it('shows the status of a name in both clusters, each with its own pods', async () => {
    const { shown } = await ask(ALICE, 'status train-1');
    expect(shown).toContain('gpu-east/train-1: Failed');
    expect(shown).toContain('gpu-west/train-1: Failed');
    expect(shown).toContain('on east-node-07');
    expect(shown).toContain('on west-node-07');
  });

  it('asks which cluster for logs and why, naming the choices as they can be typed, and reads no log', async () => {
    for (const verb of ['logs', 'why']) {
      const { shown } = await ask(ALICE, `${verb} train-1`);
      expect(shown).toContain('`train-1` exists in several clusters: `gpu-east/train-1`, `gpu-west/train-1`');
      expect(shown).toContain(`\`/runai ${verb} gpu-east/train-1\``);
      expect(shown).not.toContain('step 1');
    }
  });

  it('reads the log from the cluster named by CLUSTER/NAME, CLUSTER/PROJECT/NAME or --cluster', async () => {
    const west = await ask(ALICE, 'logs gpu-west/train-1');
    expect(west.shown).toContain('*Log of `gpu-west/train-1`*');
    expect(west.shown).toContain('west step 1');
    expect(west.shown).not.toContain('east step 1');
    const east = await ask(ALICE, 'logs --cluster gpu-east train-1');
    expect(east.shown).toContain('east step 1');
    expect(east.shown).not.toContain('west step 1');
    expect((await ask(ALICE, 'logs gpu-east/vision/train-1')).shown).toContain('east step 1');
    expect((await ask(ALICE, 'status GPU-WEST/train-1')).shown).not.toContain('gpu-east/train-1');
  });

  it('triages each cluster\'s failure from that cluster\'s log', async () => {
    const west = await ask(ALICE, 'why gpu-west/train-1');
    expect(west.shown).toContain('CUDA out of memory');
    expect(west.shown).toContain('on cluster *gpu-west*');
    const east = await ask(ALICE, 'why gpu-east/train-1');
    expect(east.shown).toContain('No space left on device');
    expect(east.shown).not.toContain('CUDA');
  });

  it('answers an unknown cluster with the clusters it watches', async () => {
    for (const text of ['logs gpu-north/vision/train-1 --tail 5', 'status --cluster gpu-north train-1']) {
      const { shown } = await ask(ALICE, text);
      expect(shown).toContain("I don't know a cluster named `gpu-north`. The clusters I watch are `gpu-east`, `gpu-west`.");
    }
  });

  it('keeps access rules in every cluster: a name asks nothing when the asker may see it in one cluster only', async () => {
    const alice = await ask(ALICE, 'logs solo');
    expect(alice.shown).toContain('east solo log');
    expect(alice.shown).not.toContain('several clusters');
    const bob = await ask(BOB, 'status solo');
    expect(bob.shown).toContain('gpu-west/solo: Running');
    expect(bob.shown).not.toContain('gpu-east');
    const erin = await ask(ERIN, 'status train-1');
    expect(erin.shown).toContain("I can't show you a workload named `train-1`.");
    expect(erin.shown).not.toContain('gpu-');
    expect((await ask(BOB, 'logs gpu-east/solo')).shown).toContain("I can't show you a workload named `gpu-east/solo`.");
  });

  it('lists my workloads of both clusters, each labelled with its cluster', async () => {
    const { shown } = await ask(ALICE, 'list');
    expect(shown).toContain('`train-1` in vision on cluster *gpu-east*');
    expect(shown).toContain('`train-1` in vision on cluster *gpu-west*');
    expect(shown).toContain('`only-east` in vision on cluster *gpu-east*');
  });

  it('narrows list to one cluster with --cluster, still only what the asker may see', async () => {
    const west = await ask(ALICE, 'list --cluster gpu-west');
    expect(west.shown).toContain('`train-1` in vision on cluster *gpu-west*');
    expect(west.shown).not.toContain('gpu-east*');
    // bob's solo in gpu-west is not alice's, and alice is no member of vision here.
    expect(west.shown).not.toContain('`solo`');
    const running = await ask(ALICE, 'list --cluster GPU-EAST --state running');
    expect(running.shown).toContain('2 running workloads on cluster *gpu-east* that you may see');
    expect(running.shown).toContain('`only-east`');
    expect(running.shown).not.toContain('`train-1`');
    expect((await ask(ALICE, 'list --cluster gpu-north')).shown).toContain("I don't know a cluster named `gpu-north`");
  });

  describe('buttons', () => {
    async function alertButtons(cluster: ClusterName, name: string): Promise<{ channel: string; buttons: Array<{ action_id: string; value?: string }> }> {
      const workload = reconcilers[cluster].workloads().find((w) => w.name === name)!;
      const alert = buildWorkloadAlert({ workload: { ...workload, cluster }, state: 'Failed' });
      const posted = await slackApp.app.client.chat.postMessage({ channel: ALICE.id, text: alert.text, blocks: alert.blocks });
      const actions = alert.blocks.find((b) => b.type === 'actions') as { elements: Array<{ action_id: string; value?: string }> };
      return { channel: String(posted.channel), buttons: actions.elements };
    }

    async function click(user: SlackUser, channel: string, actionId: string, value: string | undefined): Promise<string> {
      const result = await slack.sendBlockAction({ user_id: user.id, action_id: actionId, value, channel_id: channel, message_ts: '1.000001' });
      expect(result.ack).toEqual({});
      return shownText((await result.nextResponse()).body);
    }

    it('carry the cluster-qualified id and show the log of that cluster\'s workload, though both share a uid', async () => {
      for (const [cluster, mine, other] of [['gpu-west', 'west step 1', 'east step 1'], ['gpu-east', 'east step 1', 'west step 1']] as const) {
        const { channel, buttons } = await alertButtons(cluster, 'train-1');
        const showLog = buttons.find((b) => b.action_id === ACTION.showLog)!;
        expect(JSON.parse(showLog.value!)).toEqual({ ns: ns('vision'), name: 'train-1', uid: `${cluster}/${SHARED_UID}` });
        const shown = await click(ALICE, channel, ACTION.showLog, showLog.value);
        expect(shown).toContain(mine);
        expect(shown).not.toContain(other);
      }
    });

    it("save the whole log of the button's cluster's workload into the owner's DM", async () => {
      const { channel, buttons } = await alertButtons('gpu-west', 'train-1');
      const save = buttons.find((b) => b.action_id === ACTION.saveLog)!;
      expect(await click(ALICE, channel, ACTION.saveLog, save.value)).toContain('I put the log of `gpu-west/train-1` into our DM as a file');
      const file = slack.filesSharedIn(ALICE.id).at(-1)!;
      expect(file.bytes!.toString()).toContain('west step 1');
      expect(file.bytes!.toString()).not.toContain('east step 1');
      expect(file.initialComment).toContain('on cluster *gpu-west*');
    });

    it('check access again on click, in the button\'s cluster', async () => {
      const { channel, buttons } = await alertButtons('gpu-west', 'solo');
      const value = buttons.find((b) => b.action_id === ACTION.showLog)!.value;
      expect(await click(BOB, channel, ACTION.showLog, value)).toContain('west solo log');
      // Alice owns `solo` in gpu-east only: the gpu-west button shows her nothing.
      expect(await click(ALICE, channel, ACTION.showLog, value)).toContain("I can't show you a workload named `solo`.");
    });

    it('still work with a value from before clusters had names (a bare uid)', async () => {
      const { channel, buttons } = await alertButtons('gpu-east', 'only-east');
      const value = JSON.parse(buttons.find((b) => b.action_id === ACTION.showLog)!.value!) as { uid: string };
      const bare = JSON.stringify({ ...value, uid: splitWorkloadId(value.uid).uid });
      expect(await click(ALICE, channel, ACTION.showLog, bare)).toContain('only in the east');
    });
  });

  it('labels every workload on the Home tab with its cluster', async () => {
    await slack.sendEvent({ type: 'app_home_opened', user: ALICE.id, channel: 'DALICE', tab: 'home' });
    const home = await eventually(() => slack.workspace.homeViews.get(ALICE.id), 'the published Home tab');
    expect(viewViolation(home.view)).toBeUndefined();
    const shown = JSON.stringify(home.view);
    expect(shown).toContain('`train-1` in vision on cluster *gpu-east*');
    expect(shown).toContain('`train-1` in vision on cluster *gpu-west*');
    expect(shown).not.toContain('`solo` in vision on cluster *gpu-west*');
  });
});
