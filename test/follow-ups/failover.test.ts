/**
 * Follow-ups across a failover: two replicas of the real bot (ha.enabled) on one PostgreSQL
 * schema, electing on a Lease in the simulated Kubernetes API server. The leader posts the alert;
 * it stops; the other replica takes the Lease and threads the resubmission under that alert —
 * where the alert went, and its thread, are in the shared store, not in the leader's memory.
 * Skipped with a note when PostgreSQL is not reachable (failed under CI).
 */
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import type { PostedMessage } from '../../src/sim/slack.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, startTestBot, type TestBot } from '../helpers/bot.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../helpers/postgres.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const LEASE_NS = 'runai-slack-bot';
const describePg = await describeWithPostgres('the follow-up failover tests');

describePg('follow-ups after a failover (two replicas on PostgreSQL)', () => {
  const sims = useSimulators((kube) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
    kube.addNamespace(LEASE_NS);
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let schema: TestSchema;
  const bots: TestBot[] = [];

  beforeEach(async () => {
    ({ kube, slack } = sims);
    schema = await createTestSchema('futest_ha');
  });
  afterEach(async () => {
    await Promise.all(bots.splice(0).map((b) => b.stop()));
    await schema.drop();
  });

  async function replica(podName: string): Promise<TestBot> {
    const url = `${schema.url}?options=${encodeURIComponent(`-c search_path=${schema.schema}`)}`;
    const bot = await startTestBot(kube, slack, {
      owners: { emailDomain: 'example.org' },
      cluster: { mode: 'watch' },
      store: { url },
      ha: { enabled: true, leaseNamespace: LEASE_NS, leaseDurationSeconds: 3 },
    }, { env: { POD_NAME: podName } });
    bots.push(bot);
    return bot;
  }

  const submit = (image: string) => {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice', image, arguments: '-u train.py' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision' }));
  };
  const topLevel = () => slack.workspace.conversation(ALICE.id).filter((m) => !m.thread_ts);
  const replies = (root: PostedMessage) => slack.workspace.conversation(ALICE.id).filter((m) => m.thread_ts === root.ts);
  const header = (m: PostedMessage) => (m.blocks?.[0] as { text?: { text?: string } } | undefined)?.text?.text;

  it('the new leader threads the resubmission under the alert the old leader posted, and edits it', async () => {
    submit('registry.example.org/ml/train:2.1');
    const a = await replica('bot-a');
    const b = await replica('bot-b');
    expect(a.leadership.leading).toBe(true);
    kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', "ModuleNotFoundError: No module named 'transformers'");
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    const root = await eventually(() => topLevel()[0], 'the failure DM from the leader');
    await Promise.all([a.settle(), b.settle()]);

    await a.stop();
    bots.splice(bots.indexOf(a), 1);
    await eventually(() => b.leadership.leading, 'the follower taking the Lease', 15_000);
    kube.delete({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' });
    kube.delete({ kind: 'Pod', namespace: ns('vision'), name: 'resnet-0-0' });
    submit('registry.example.org/ml/train:2.2');
    const resubmitted = await eventually(() => replies(root).find((m) => m.text.includes('resubmitted')), 'the resubmitted reply from the new leader', 15_000);
    expect(JSON.stringify(resubmitted.blocks)).toContain('image tag `2.1` \u2192 `2.2`');
    await eventually(() => header(slack.workspace.find(root.channel, root.ts)!)?.includes('Failed \u2192 resubmitted, running'), 'the root edited by the new leader', 15_000);
    await b.settle();
    expect(topLevel()).toHaveLength(1);
    expect(slack.callsTo('chat.postMessage').filter((c) => c.body.reply_broadcast !== undefined)).toEqual([]);
  });
});
