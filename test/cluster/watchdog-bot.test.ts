/**
 * The watch watchdog through the real bot: every open connection to the API server stops
 * forwarding (no close, no reset, as a proxy that lost its upstream) while new connections work.
 * A workload failing then reaches its owner once the watchdog has cut the silent watches — not
 * after their server-side timeout, which here is a minute (and whose close the proxy would not
 * pass either).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadKubeConfig } from '../../src/app.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { eventually, startTestBot, tempDir, type TestBot } from '../helpers/bot.js';
import { startTcpCut, type TcpCut } from '../helpers/tcp-cut.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const BOOKMARKS_SEEN = 'the server sends watch bookmarks: a watch silent for longer is cut';
const STALLED = 'the watch delivered nothing (no event, no bookmark) for longer than the server may stay silent; cutting it and watching again from where it was';

describe('a watch that goes silent behind a proxy', () => {
  let kube: FakeKube;
  let slack: SlackSimulator;
  let link: TcpCut;
  let bot: TestBot | undefined;

  beforeEach(async () => {
    kube = await startFakeKube({ bookmarkIntervalMs: 100 });
    slack = await startFakeSlack();
    link = await startTcpCut(Number(new URL(kube.url).port));
  });

  afterEach(async () => {
    await bot?.stop();
    await link.close();
    await slack.close();
    await kube.close();
  });

  it('is cut and watched again, so a failure meanwhile is DM\'d within the watchdog\'s limit', async () => {
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision' }));
    const dir = tempDir();
    const kubeconfig = join(dir, 'relayed-kubeconfig');
    writeFileSync(kubeconfig, kube.kubeconfigYaml().replace(kube.url, link.url));
    bot = await startTestBot(kube, slack, { owners: { emailDomain: 'example.org' } }, {
      dir,
      kubeConfig: loadKubeConfig(kubeconfig),
      logLevel: 'debug',
      watcher: { timings: { watchTimeoutSeconds: [60, 61], timeoutGraceMs: 1000, bookmarkSilenceMs: 500 } },
    });
    const logged = (msg: string) => bot!.captured.entries.filter((e) => e.msg === msg).length;
    await eventually(() => logged(BOOKMARKS_SEEN) === 4, 'a bookmark on each of the four watches');

    link.stallOpen();
    kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', 'torch.OutOfMemoryError: CUDA out of memory.\n');
    kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');

    const [dm] = await eventually(() => slack.messagesTo(ALICE.id).length > 0 && slack.messagesTo(ALICE.id), "alice's DM", 15_000);
    expect(JSON.stringify(dm.body)).toContain('CUDA out of memory');
    expect(logged(STALLED)).toBe(4);
    // Resumed from where each watch was: no list of the workload kinds since.
    expect(bot.captured.entries.filter((e) => e.msg === 'relisting: the watch pauses until the list is complete')).toEqual([]);
  });
});
