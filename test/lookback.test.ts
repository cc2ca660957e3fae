/**
 * `cluster.lookbackHours` for workloads the bot had seen: a failure that happened while the bot
 * was down is dated by the cluster (the CR's condition, else when the containers ended), so one
 * older than the lookback is remembered — its state shown — and DM'd to nobody, while a recent
 * one is told. The real bot, stopped and started again, against the simulators.
 */
import type { FakeKube } from '../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from './fakes/slack.js';
import { tempDir, type TestBot } from './helpers/bot.js';
import { useSimulators } from './helpers/sims.js';
import { ns, pod, workloadCr } from './helpers/workloads.js';

const HOUR = 3_600_000;
const config = { owners: { emailDomain: 'example.org' }, cluster: { lookbackHours: 24 }, alerts: { burstWindow: '0s' } };

describe('lookbackHours for a workload the bot had seen', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

  /** The bot sees the workloads Running four days ago, then stops. */
  async function seenRunningFourDaysAgo(names: string[], dir: string): Promise<void> {
    for (const name of names) {
      kube.apply(workloadCr({ name, project: 'vision', owner: 'alice' }));
      kube.apply(pod({ workload: name, project: 'vision' }));
    }
    const then = new Date(Date.now() - 4 * 24 * HOUR);
    bot = await sims.startBot(config, { dir, now: () => then });
    await bot.settle();
    await bot.stop();
  }

  function failedWhileDown(name: string, finishedAt: string, condition?: string): void {
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1, finishedAt }));
    kube.appendLog(ns('vision'), `${name}-0-0`, name, 'RuntimeError: CUDA error: an illegal memory access was encountered\n');
    kube.patch({ kind: 'TrainingWorkload', namespace: ns('vision'), name }, (cr) => {
      cr.status = { phase: 'Failed', ...(condition ? { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', lastTransitionTime: condition }] } : {}) };
    });
  }

  it('remembers a failure three days old by its condition, shows it in /runai status, and DMs nobody', async () => {
    const dir = tempDir();
    await seenRunningFourDaysAgo(['train'], dir);
    const threeDaysAgo = ago(72 * HOUR);
    failedWhileDown('train', threeDaysAgo, threeDaysAgo);

    bot = await sims.startBot(config, { dir });
    await bot.settle();
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);
    const [stored] = (await bot.store.allWorkloads()).filter((w) => w.name === 'train');
    expect(stored.state).toBe('Failed');
    expect(Date.parse(stored.stateSince)).toBe(Date.parse(threeDaysAgo));
    expect(await bot.store.isQueued(`wl:${stored.uid}:Failed`)).toBe(false);

    const status = await slack.sendSlashCommand({ user_id: ALICE.id, text: 'status train' });
    const shown = JSON.stringify((await status.nextResponse()).body);
    expect(shown).toContain('Failed');
    expect(shown).toContain('*In this state since*');
    expect(shown).toContain('(3 d ago)');
  });

  it("dates a failure whose CR gives no time by when its containers ended: the old one untold, the recent one told", async () => {
    const dir = tempDir();
    await seenRunningFourDaysAgo(['old-run', 'recent-run'], dir);
    const threeDaysAgo = ago(72 * HOUR);
    failedWhileDown('old-run', threeDaysAgo);
    failedWhileDown('recent-run', ago(2 * HOUR));

    kube.resetRequests();
    bot = await sims.startBot(config, { dir });
    await bot.settle();
    const dms = slack.messagesTo(ALICE.id).map((m) => JSON.stringify(m.body));
    expect(dms).toHaveLength(1);
    expect(dms[0]).toContain('recent-run');
    const states = new Map((await bot.store.allWorkloads()).map((w) => [w.name, w]));
    expect(states.get('old-run')?.state).toBe('Failed');
    expect(Date.parse(states.get('old-run')!.stateSince)).toBe(Date.parse(threeDaysAgo));
  });
});
