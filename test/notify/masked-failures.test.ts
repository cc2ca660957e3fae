/**
 * Masked failures end to end: the real bot against the simulated cluster and Slack. A workload
 * that Completed, whose command pipes through `tee` without `pipefail`, and whose log ends in a
 * fatal error (real logs of that shape: test/fixtures/logs/masked and real/, sources in their
 * READMEs) gets its owner one DM — though ordinary Completed notices are opt-in. Only such a
 * command costs a log read: the requests are counted.
 */
import { readFileSync } from 'node:fs';
import { alertKey } from '../../src/keys.js';
import { TIPS_OFF } from '../../src/messages/log-advice.js';
import { workloadId } from '../../src/model.js';
import { MASKED_TAIL_LINES } from '../../src/recovery/masked.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { muteScope } from '../../src/notify/mutes.js';
import { mainContainer } from '../../src/notify/masked-check.js';
import type { PodInfo } from '../../src/model.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/logs/${path}`, import.meta.url), 'utf8');

const TEED = 'bash -c "python -u train.py 2>&1 | tee -a /data/logs/train.log"';
const PIPEFAIL = 'bash -c "set -o pipefail; python -u train.py 2>&1 | tee -a /data/logs/train.log"';
const NO_TEE = 'bash -c "python -u train.py > /data/logs/train.log 2>&1"';
const CLEAN_TAIL = ['epoch 9 loss 0.12', 'epoch 10 loss 0.11', 'Saving model checkpoint to /data/ckpt/checkpoint-1000', 'Training finished.'].join('\n');

const config = { owners: { emailDomain: 'example.org' }, cluster: { mode: 'watch' } };

describe('masked failures', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const logReads = () => kube.requests.filter((r) => r.path.includes('/log')).length;

  /** Owed messages planned to nobody so far (delivery/plan.ts: no ledger row is written for them). */
  const skipped = async () => (await bot.metrics.deliverySkipped.get()).values.reduce((n, v) => n + v.value, 0);

  /** A running workload completes with `log`; resolves once its Completed decision is made (sent, or planned to nobody). */
  async function complete(name: string, command: string, log: string) {
    const skippedBefore = await skipped();
    kube.apply(workloadCr({ name, project: 'vision', owner: 'alice', command, arguments: '' }));
    kube.apply(pod({ workload: name, project: 'vision' }));
    const id = await eventually(() => bot.reconciler.workloads().find((w) => w.name === name), `${name} seen`);
    kube.appendLog(ns('vision'), `${name}-0-0`, name, log);
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 0 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Completed');
    await eventually(async () => {
      await bot.settle();
      return (await bot.store.wasSent(alertKey(workloadId(id), 'Completed'))) || (await skipped()) > skippedBefore;
    }, `${name}'s completion decided`);
  }

  // The log-saving tips these commands also earn when they start are another test's (log-tips.test.ts).
  const dms = () => slack.messagesTo(ALICE.id).map((c) => `${c.body.text}\n${JSON.stringify(c.body.blocks)}`).filter((t) => !t.includes(TIPS_OFF));

  it('DMs the owner about a run that exited 0 after a CUDA OOM behind `| tee` (VIAME/VIAME#146), with the error line and the fix', async () => {
    bot = await sims.startBot(config);
    const before = logReads();
    await complete('viame', TEED, fixture('masked/viame-exit-0-cuda-oom.log'));
    const [dm, ...more] = dms();
    expect(more).toHaveLength(0);
    expect(dm).toContain('viame completed, but its log ends in an error');
    expect(dm).toContain('CUDA out of memory');
    expect(dm).toContain('GPU out of memory');
    expect(dm).toContain('set -o pipefail');
    expect(dm).toContain('Likely, not certain');
    expect(logReads() - before).toBe(1);
    const read = kube.requests.filter((r) => r.path.includes('/log')).at(-1)!;
    expect(read.query).toMatchObject({ container: 'viame', tailLines: String(MASKED_TAIL_LINES) });
  });

  it('reads the pods of a workload whose CR names no command (it lives in a pod template) and finds the pipe there', async () => {
    bot = await sims.startBot(config);
    const cr = workloadCr({ name: 'templated', project: 'vision', owner: 'alice' });
    const spec = cr.spec as Record<string, unknown>;
    delete spec.command;
    delete spec.arguments;
    const teed = ['bash', '-c', 'python -u train.py 2>&1 | tee -a /data/logs/train.log'];
    const before = logReads();
    kube.apply(cr);
    kube.apply(pod({ workload: 'templated', project: 'vision', command: teed }));
    const seen = await eventually(() => bot.reconciler.workloads().find((w) => w.name === 'templated'), 'templated seen');
    expect(seen.command).toBeUndefined();
    kube.appendLog(ns('vision'), 'templated-0-0', 'templated', fixture('masked/viame-exit-0-cuda-oom.log'));
    kube.apply(pod({ workload: 'templated', project: 'vision', exitCode: 0, command: teed }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'templated', 'Completed');
    const dm = await eventually(() => dms().find((t) => t.includes('templated completed, but its log ends in an error')), 'the masked-failure DM');
    expect(dm).toContain('set -o pipefail');
    expect(logReads() - before).toBe(1);
  });

  it.each(['real/jax-xla-oom-traceback.log', 'real/ray-oom-traceback-get.log'])('finds the fatal error at the end of %s behind a tee', async (path) => {
    bot = await sims.startBot(config);
    const lines = fixture(path).split('\n');
    await complete('real', TEED, lines.slice(-MASKED_TAIL_LINES).join('\n'));
    const [dm] = dms();
    expect(dm).toContain('real completed, but its log ends in an error');
  });

  it('sends it instead of the ordinary notice to someone who opted in to Completed: one message, not two', async () => {
    bot = await sims.startBot(config);
    await bot.store.putSettings(ALICE.id, { completed: true, pending: true, tips: false });
    await complete('viame', TEED, fixture('masked/viame-exit-0-cuda-oom.log'));
    const sent = dms();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('completed, but its log ends in an error');
  });

  it('says nothing, and reads no log, when pipefail is set or nothing pipes the output', async () => {
    bot = await sims.startBot(config);
    const before = logReads();
    await complete('careful', PIPEFAIL, fixture('masked/viame-exit-0-cuda-oom.log'));
    await complete('plain', NO_TEE, fixture('masked/viame-exit-0-cuda-oom.log'));
    expect(dms()).toHaveLength(0);
    expect(logReads() - before).toBe(0);
  });

  it('reads the tail once and says nothing when it ends cleanly', async () => {
    bot = await sims.startBot(config);
    const before = logReads();
    await complete('fine', TEED, CLEAN_TAIL);
    expect(dms()).toHaveLength(0);
    expect(logReads() - before).toBe(1);
  });

  it('is not sent for a muted workload', async () => {
    bot = await sims.startBot(config);
    await bot.store.mute(ALICE.id, muteScope.workload(ns('vision'), 'viame'), undefined);
    await complete('viame', TEED, fixture('masked/viame-exit-0-cuda-oom.log'));
    expect(dms()).toHaveLength(0);
  });

  it('is sent after a restart for a run that completed while the bot was down', async () => {
    const dir = tempDir();
    bot = await sims.startBot(config, { dir });
    kube.apply(workloadCr({ name: 'overnight', project: 'vision', owner: 'alice', command: TEED, arguments: '' }));
    kube.apply(pod({ workload: 'overnight', project: 'vision' }));
    await eventually(() => bot.reconciler.workloads().some((w) => w.name === 'overnight'), 'overnight seen');
    await bot.settle();
    await bot.stop();
    kube.appendLog(ns('vision'), 'overnight-0-0', 'overnight', fixture('masked/viame-exit-0-cuda-oom.log'));
    kube.apply(pod({ workload: 'overnight', project: 'vision', exitCode: 0 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'overnight', 'Completed');
    bot = await sims.startBot(config, { dir });
    const dm = await eventually(() => dms().find((t) => t.includes('overnight completed, but its log ends in an error')), 'the catch-up DM');
    expect(dm).toContain('CUDA out of memory');
  });

  it('is turned off with alerts.maskedFailures: false (no DM, no log read)', async () => {
    bot = await sims.startBot({ ...config, alerts: { maskedFailures: false } });
    const before = logReads();
    await complete('viame', TEED, fixture('masked/viame-exit-0-cuda-oom.log'));
    expect(dms()).toHaveLength(0);
    expect(logReads() - before).toBe(0);
  });
});

describe('mainContainer', () => {
  const p = (name: string, replicaType?: string, containers = [{ name: 'main' }]): PodInfo =>
    ({ name, namespace: 'n', ...(replicaType && { replicaType }), containers: containers.map((c) => ({ restartCount: 0, ready: false, ...c })) }) as PodInfo;
  it.each([
    ['the only pod', [p('a')], 'a/main'],
    ['the master of a PyTorch job, wherever it is listed', [p('w0', 'worker'), p('m', 'Master')], 'm/main'],
    ['the launcher of an MPI job', [p('w0', 'worker'), p('l', 'launcher')], 'l/main'],
    ['the first app container, not an init container', [p('a', undefined, [{ name: 'init', init: true } as never, { name: 'app' }])], 'a/app'],
    ['no pods', [], undefined],
  ])('%s', (_, pods, expected) => {
    const found = mainContainer(pods as PodInfo[]);
    expect(found && `${found.pod.name}/${found.container}`).toBe(expected);
  });
});
