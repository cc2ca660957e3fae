/**
 * The log archive through the whole bot: a workload fails, the owner's DM names the directory
 * its logs were saved to, the files are there (redacted) after the pods are deleted, and an
 * unwritable archive reaches the operators' channel once while the DMs still go out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const GITHUB_TOKEN = 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const OPS = 'C0OPS';

describe('logs saved before they vanish, through the bot', () => {
  const sims = useSimulators((kube, slack) => {
    slack.addChannel(OPS, 'runai-ops');
    slack.inviteBot(OPS);
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
  });
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const config = (dir: string) => ({
    slack: { opsChannel: OPS },
    owners: { emailDomain: 'example.org' },
    archive: { dir, maxBytesPerContainer: '1MB' },
  });

  function fail(name: string) {
    kube.apply(workloadCr({ name, project: 'vision', owner: 'alice' }));
    kube.appendLog(ns('vision'), `${name}-0-0`, name, `cloning with ${GITHUB_TOKEN}\nValueError: bad shape\n`);
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
  }

  it("says in the owner's DM where the full logs were saved, and they outlive the pods", async () => {
    const dir = join(tempDir('bot-archive-'), 'logs');
    bot = await sims.startBot(config(dir));
    fail('resnet');
    // The failure's DM, not the log-saving tip its start may have earned first (log-tips.test.ts).
    const failureDms = () => slack.messagesTo(ALICE.id).filter((c) => !String(c.body.text).startsWith('Tip for'));
    const [dm] = await eventually(() => failureDms().length > 0 && failureDms(), 'the DM');
    const uid = kube.get({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' })!.metadata.uid!;
    const path = join(dir, 'vision', 'resnet', uid);
    expect(JSON.stringify(dm.body.blocks)).toContain(`Full logs saved to \`${path}\``);

    kube.delete({ kind: 'Pod', namespace: ns('vision'), name: 'resnet-0-0' });
    expect(readFileSync(join(path, 'resnet-0-0.resnet.log'), 'utf8')).toBe('cloning with [REDACTED:github-token]\nValueError: bad shape\n');
  });

  it('tells the operators once that the archive cannot be written, and still DMs the owner', async () => {
    const notADirectory = join(tempDir('bot-archive-'), 'file');
    writeFileSync(notADirectory, '');
    bot = await sims.startBot(config(notADirectory));
    fail('first');
    fail('second');
    await eventually(() => slack.messagesTo(ALICE.id).length >= 1 && slack.messagesTo(OPS).length >= 1, 'the DM and the ops report');
    await bot.settle();
    const ops = slack.messagesTo(OPS).filter((m) => String(m.body.text).startsWith('Log archive'));
    expect(ops).toHaveLength(1);
    expect(String(ops[0].body.text)).toContain('Log archive cannot be written');
    expect(JSON.stringify(slack.messagesTo(ALICE.id).map((m) => m.body))).not.toContain('Full logs saved');
  });
});
