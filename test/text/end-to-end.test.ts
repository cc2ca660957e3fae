/**
 * The text pipeline through the real bot (Bolt in Socket Mode, client-node, SQLite) against
 * the simulated cluster and Slack: a log whose secret hides behind colour codes, and a
 * workload whose command line carries tokens, must reach no Slack surface in the clear.
 */
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ACTION } from '../../src/messages/ids.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const ESC = '\x1b';
const HF_TOKEN = 'hf_E2eTokenAbCdEfGhIjKlMnOpQrSt99';
const PUSH_TOKEN = 'ghp_E2eAbCdEfGhIjKlMnOpQrStUvWxYz012345';
const NGC_KEY = 'nvapi-E2eZx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0';
const SPLIT_SLACK_TAIL = 'SpLiTtOkEnTaIlAbCdEfGhIj';

const LOG = [
  'Starting training on 8 GPUs',
  `${ESC}[32mpassword ${ESC}[0m=hunter2`,
  `export SLACK_TOKEN=xoxb-123456789012-${ESC}[0m1234567890123-${SPLIT_SLACK_TAIL}`,
  `docker login nvcr.io -u '$oauthtoken' -p ${NGC_KEY}`,
  '<!channel> <http://evil.example|reset your password>',
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 88, in <module>',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
].join('\n');

const LEAKS = ['hunter2', SPLIT_SLACK_TAIL, NGC_KEY.slice(0, 16), HF_TOKEN.slice(0, 16), PUSH_TOKEN.slice(0, 16), 'Sekr3t-pw', '<!channel>', '<http://evil'];

const config = { owners: { emailDomain: 'example.org' }, cluster: { mode: 'watch' } };

function shown(body: Record<string, unknown>): string {
  return `${String(body.text ?? '')}\n${JSON.stringify(body.blocks ?? [])}`;
}

describe('no secret reaches Slack through the real bot', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  beforeEach(() => ({ kube, slack } = sims));

  it('redacts the DM, /runai logs and "Show more of the log" of a workload with secrets in its command and log', async () => {
    kube.apply(
      workloadCr({
        name: 'leaky',
        project: 'vision',
        owner: 'alice',
        command: 'python',
        arguments: `train.py --hf-token ${HF_TOKEN} --push_token=${PUSH_TOKEN} --password Sekr3t-pw --epochs 3`,
      }),
    );
    kube.apply(pod({ workload: 'leaky', project: 'vision' }));
    await sims.startBot(config);

    kube.appendLog(ns('vision'), 'leaky-0-0', 'leaky', LOG);
    kube.apply(pod({ workload: 'leaky', project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), 'leaky', 'Failed');

    const alert = await eventually(() => slack.messagesTo(ALICE.id)[0], 'the DM');
    const dm = shown(alert.body);
    expect(dm).toContain('CUDA out of memory');
    expect(dm).toContain('--hf-token [REDACTED:huggingface-token]');
    expect(dm).toContain('--epochs 3');
    for (const leak of LEAKS) expect(dm).not.toContain(leak);

    const command = await slack.sendSlashCommand({ user_id: ALICE.id, text: 'logs leaky' });
    const logs = shown((await command.nextResponse()).body);
    expect(logs).toContain('Starting training on 8 GPUs');
    expect(logs).toContain('password =[REDACTED:password]');
    for (const leak of LEAKS) expect(logs).not.toContain(leak);

    const status = await slack.sendSlashCommand({ user_id: ALICE.id, text: 'status leaky' });
    const statusShown = shown((await status.nextResponse()).body);
    expect(statusShown).toContain('--epochs 3');
    for (const leak of LEAKS) expect(statusShown).not.toContain(leak);

    const buttons = (alert.body.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value?: string }> }>).find((b) => b.type === 'actions')!.elements!;
    const showLog = buttons.find((b) => b.action_id === ACTION.showLog)!;
    const channel = String((alert.response as Record<string, unknown>).channel);
    const click = await slack.sendBlockAction({ user_id: ALICE.id, action_id: ACTION.showLog, value: showLog.value, channel_id: channel, message_ts: '1.000001' });
    const more = shown((await click.nextResponse()).body);
    expect(more).toContain('Starting training on 8 GPUs');
    for (const leak of LEAKS) expect(more).not.toContain(leak);
  });
});
