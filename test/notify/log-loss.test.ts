/**
 * The failure DM's log-loss line end to end (real bot, simulated cluster and Slack): when the log
 * of a failure is short or lost and the workload's own command explains why (buffered Python,
 * a log written where it goes with the pod), the DM says so in one line; otherwise it does not.
 */
import { logShortOrLost, SHORT_LOG_LINES } from '../../src/recovery/log-loss.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const BUFFERED = 'bash -c "python train.py --epochs 3"';
const UNBUFFERED = 'bash -c "python -u train.py --epochs 3"';
const SHORT_LOG = 'Loading dataset\nTraceback (most recent call last):\nValueError: bad learning rate schedule';
const LONG_LOG = [...Array.from({ length: 40 }, (_, i) => `step ${i} loss 0.${i}`), SHORT_LOG].join('\n');
const LOSS = 'Why the log may be short';

describe('logShortOrLost', () => {
  it.each([
    ['a log that could not be read', { problem: 'could not read the log' }, true],
    ['no log read at all', {}, true],
    ['a short log', { lineCount: SHORT_LOG_LINES - 1 }, true],
    ['a log of ordinary length', { lineCount: SHORT_LOG_LINES }, false],
  ])('%s', (_, evidence, expected) => {
    expect(logShortOrLost(evidence)).toBe(expected);
  });
});

describe('the log-loss line of a failure DM', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  async function fail(name: string, command: string, log: string): Promise<string> {
    kube.apply(workloadCr({ name, project: 'vision', owner: 'alice', command, arguments: '' }));
    kube.apply(pod({ workload: name, project: 'vision' }));
    await eventually(() => bot.reconciler.workloads().some((w) => w.name === name), `${name} seen`);
    kube.appendLog(ns('vision'), `${name}-0-0`, name, log);
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
    return eventually(
      () => slack.messagesTo(ALICE.id).map((c) => JSON.stringify(c.body.blocks)).find((b) => b.includes(`${name} failed`)),
      `${name}'s DM`,
    );
  }

  it('says that buffered output may explain a short log, with the fix', async () => {
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' }, alerts: { burstWindow: '0s' } });
    await bot.store.putSettings(ALICE.id, { completed: false, pending: true, tips: false });
    const dm = await fail('short', BUFFERED, SHORT_LOG);
    expect(dm).toContain(LOSS);
    expect(dm).toContain('PYTHONUNBUFFERED');
    expect(await fail('long', BUFFERED, LONG_LOG)).not.toContain(LOSS);
    expect(await fail('unbuffered', UNBUFFERED, SHORT_LOG)).not.toContain(LOSS);
  });
});
