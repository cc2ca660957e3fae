/**
 * A periodic relist of 10,000 workloads through the real bot, answered slowly by the API server
 * (as a loaded one answers a big list), while workloads fail, are created and are deleted: the
 * list's snapshot is older than what happens meanwhile, and nothing of it may win. Afterwards the
 * cache, the store and `/runai status` agree with the cluster, nothing created meanwhile is swept,
 * every failure reaches its owner exactly once, and the watch resumes from the list's snapshot
 * without a second list.
 */
import { addOwners, EMAIL_DOMAIN, fail, ownerName, populate, slackIdOf, workloadCr, type BenchWorkload } from '../../bench/cluster.js';
import { GUIDE, stateForPhase } from '../../src/lifecycle/states.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { eventually, startTestBot, type TestBot } from '../helpers/bot.js';

const WORKLOADS = 10_000;
const OWNERS = 200;
const CHANGES = 20;
const TRAINING = '/apis/run.ai/v2alpha1/trainingworkloads';
/** Far enough apart that the relist under test is the only one in the test's window. */
const RELIST_MS = 6000;
const SLOW_LIST_MS = 3000;

describe('a relist of 10,000 workloads racing the live watch', () => {
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot | undefined;

  beforeAll(async () => {
    kube = await startFakeKube({ historyLimit: 100_000 });
    slack = await startFakeSlack();
  });

  afterAll(async () => {
    await bot?.stop();
    await slack.close();
    await kube.close();
  });

  async function status(owner: string, name: string): Promise<string> {
    const result = await slack.sendSlashCommand({ user_id: owner, text: `status ${name}` });
    const reply = (await result.nextResponse()).body as { text?: string; blocks?: unknown };
    return `${reply.text ?? ''}\n${JSON.stringify(reply.blocks ?? [])}`;
  }

  it('moves nothing back, sweeps nothing created meanwhile, tells each failure once, and resumes the watch without a second list', async () => {
    const workloads = populate(kube, { workloads: WORKLOADS, podsPerWorkload: 1, owners: OWNERS });
    addOwners(slack, OWNERS);
    const training = workloads.filter((w) => w.kind === 'TrainingWorkload');
    // Distinct owners (the first 200 workloads have one each), so no two failures share a DM.
    const failing = training.filter((_, i) => i < CHANGES);
    const deleting = training.slice(-CHANGES);
    const creating: BenchWorkload[] = Array.from({ length: CHANGES }, (_, i) => ({
      kind: 'TrainingWorkload', namespace: 'runai-p0', name: `created-${i}`, owner: ownerName(100 + i), pod: '', container: '',
    }));
    bot = await startTestBot(kube, slack, { owners: { emailDomain: EMAIL_DOMAIN }, cluster: { mode: 'watch' } }, { watcher: { relistMs: RELIST_MS }, logLevel: 'warn' });

    // The next first page of the training list (its snapshot) is answered SLOW_LIST_MS late.
    let snapshot: { rv: string; at: number } | undefined;
    let started: () => void;
    const listStarted = new Promise<void>((resolve) => (started = resolve));
    kube.slowListsBy(SLOW_LIST_MS, (r) => {
      if (snapshot || r.path !== TRAINING || r.query.watch === 'true' || r.query.continue) return false;
      snapshot = { rv: kube.resourceVersion, at: kube.requests.length - 1 };
      started();
      return true;
    });
    await listStarted;
    const uidOf = (w: BenchWorkload) => kube.get({ kind: w.kind, namespace: w.namespace, name: w.name })!.metadata.uid!;
    const deletedIds = deleting.map(uidOf);
    for (const w of failing) fail(kube, w, 20);
    for (const w of creating) kube.apply(workloadCr(w.kind, w.namespace, 'p0', w.name, w.owner));
    for (const w of deleting) kube.delete({ kind: w.kind, namespace: w.namespace, name: w.name });

    // The relist is over once the training watch is open again.
    const resumed = await eventually(() => kube.requests.slice(snapshot!.at + 1).find((r) => r.path === TRAINING && r.query.watch === 'true'), 'the watch after the relist', 60_000);
    const between = kube.requests.slice(snapshot!.at + 1, kube.requests.indexOf(resumed)).filter((r) => r.path === TRAINING);
    expect(between.length).toBe(Math.ceil(training.length / 500) - 1);
    expect(between.every((r) => r.query.continue)).toBe(true);
    expect(resumed.query.resourceVersion).toBe(snapshot!.rv);

    // What the watch replays from the snapshot: every change made during the list.
    const { reconciler, store } = bot;
    const failedIds = failing.map(uidOf);
    const createdIds = creating.map(uidOf);
    await eventually(
      () => failedIds.every((id) => reconciler.currentState(id) === 'Failed') && createdIds.every((id) => reconciler.currentState(id) === 'Running') && deletedIds.every((id) => reconciler.currentState(id) === undefined),
      'the changes made during the list',
      20_000,
    );
    await eventually(() => failing.every((w) => slack.messagesTo(slackIdOf(Number(w.owner.slice(4)))).length === 1), 'a DM for every failure', 30_000);
    await bot.settle();

    // The cache and the store agree with the cluster, workload by workload.
    const inCluster = ['TrainingWorkload', 'InteractiveWorkload', 'DistributedWorkload'].flatMap((kind) => kube.list(kind));
    expect(inCluster.length).toBe(WORKLOADS);
    expect(reconciler.workloads().length).toBe(WORKLOADS);
    const stored = await store.getWorkloads(inCluster.map((o) => o.metadata.uid!));
    const wrong = inCluster.filter((o) => {
      const expected = stateForPhase((o.status as { phase: string }).phase);
      return reconciler.currentState(o.metadata.uid!) !== expected || stored.get(o.metadata.uid!)?.state !== expected || stored.get(o.metadata.uid!)?.deletedAt;
    });
    expect(wrong.map((o) => o.metadata.name)).toEqual([]);
    const deletedRows = await store.getWorkloads(deletedIds);
    expect(deletedIds.map((id) => deletedRows.get(id)?.state)).toEqual(deletedIds.map(() => 'Deleted'));

    // No workload ever went back: each change is one transition, and no other transition happened.
    const transitions = (await bot.metrics.transitions.get()).values.map((v) => `${v.labels.from}→${v.labels.to} ${v.value}`).sort();
    expect(transitions).toEqual([`Running→Deleted ${CHANGES}`, `Running→Failed ${CHANGES}`]);

    // Every failure told once, and nothing else told.
    expect(slack.callsTo('chat.postMessage').filter((c) => (c.response as { ok?: boolean }).ok).length).toBe(CHANGES);

    // The two reproductions: a failure during the relist is shown Failed, a workload created during it is found.
    const failedStatus = await status(slackIdOf(Number(failing[0].owner.slice(4))), failing[0].name);
    expect(failedStatus).toContain(GUIDE.Failed.meaning);
    expect(failedStatus).not.toContain(GUIDE.Running.meaning);
    const createdStatus = await status(slackIdOf(100), creating[0].name);
    expect(createdStatus).not.toContain("I can't show you a workload named");
    expect(createdStatus).toContain(GUIDE.Running.meaning);
  }, 180_000);
});
