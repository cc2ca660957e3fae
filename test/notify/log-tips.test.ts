/**
 * The log-saving tip end to end: the real bot (Bolt, client-node, SQLite) against the simulated
 * cluster and Slack. A workload that starts running with a command that works against keeping
 * its log earns its owner one DM, at most one per kind of finding in 7 days (kept in the store,
 * so across restarts), never when tips are off or the workload is muted.
 */
import { TIPS_OFF } from '../../src/messages/log-advice.js';
import { muteScope } from '../../src/notify/mutes.js';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, BOB, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { HOSTILE_LINE, SECRETS, slackProblem, strings } from '../text/corpus.js';
import { ns, workloadCr } from '../helpers/workloads.js';

/** The guide's shape done wrong: tee without pipefail, into the container's own filesystem. */
const TEED = 'bash -c "python -u train.py 2>&1 | tee -a /data/logs/train.log"';
/** Only buffered output: python without -u, its output redirected to a file. */
const BUFFERED = 'bash -c "python train.py > train.log 2>&1"';
const CLEAN = 'python -u train.py';

const config = { owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } }, cluster: { mode: 'watch' } };

function tips(slack: SlackSimulator, to: string): string[] {
  return slack.messagesTo(to).map((c) => `${c.body.text}\n${JSON.stringify(c.body.blocks)}`).filter((t) => t.includes(TIPS_OFF.slice(0, 40)));
}

describe('log-saving tips', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  let clock: Date;
  beforeEach(() => {
    ({ kube, slack } = sims);
    clock = new Date();
  });

  /** Creates a Pending workload, lets the bot see it, then starts it; resolves once all it owes is sent. */
  async function start(name: string, command: string, owner = 'alice') {
    kube.apply(workloadCr({ name, project: 'vision', owner, phase: 'Pending', command, arguments: '' }));
    await eventually(() => bot.reconciler.workloads().some((w) => w.name === name), `${name} seen`);
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Running');
    await eventually(() => bot.reconciler.workloads().some((w) => w.name === name && w.state === 'Running'), `${name} running`);
    await bot.settle();
  }

  it('sends one tip when a workload starts with tee and no pipefail, naming the pipe and the fix', async () => {
    bot = await sims.startBot(config, { now: () => clock });
    const before = kube.requests.length;
    await start('resnet', TEED);
    // The command came from the watched object: no pod, log or workload read for the tip.
    expect(kube.requests.slice(before).filter((r) => r.method === 'GET' && !r.query.watch && /\/pods|\/log|trainingworkloads\//.test(r.path))).toEqual([]);
    const sent = tips(slack, ALICE.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('A tip for the log of resnet');
    expect(sent[0]).toContain('set -o pipefail');
    expect(sent[0]).toContain('`tee`');
    expect(sent[0]).toContain('/runai settings tips off');
  });

  it('tips a distributed workload whose launcher saves every rank into one file, with that launcher\'s own fix', async () => {
    bot = await sims.startBot(config, { now: () => clock });
    await start('ddp', 'bash -c "set -o pipefail; torchrun --nproc_per_node=8 train.py 2>&1 | tee -a train.log"');
    const sent = tips(slack, ALICE.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('A tip for the log of ddp');
    expect(sent[0]).toContain('every rank `torchrun` starts prints into the same file, `train.log`');
    expect(sent[0]).toContain('`--log-dir /data/logs --tee 3`');
    expect(sent[0]).toContain('separate file per rank');
  });

  it('tells each kind of finding once a week: the same finding again is not told, another kind is, and a week later it is again', async () => {
    const dir = tempDir();
    bot = await sims.startBot(config, { dir, now: () => clock });
    await start('first', TEED);
    expect(tips(slack, ALICE.id)).toHaveLength(1);

    // The same command again: its first finding (masked exit) was told, so the next kind is.
    await start('second', TEED);
    const [, second] = tips(slack, ALICE.id);
    expect(second).toContain('is lost with the pod');
    // A restart keeps the memory: both kinds were told this week.
    bot = await sims.startBot(config, { dir, now: () => clock });
    await start('third', TEED);
    expect(tips(slack, ALICE.id)).toHaveLength(2);

    // Six days on, still inside the week; eight days on, told again.
    clock = new Date(clock.getTime() + 6 * 86_400_000);
    await start('fourth', TEED);
    expect(tips(slack, ALICE.id)).toHaveLength(2);
    clock = new Date(clock.getTime() + 2 * 86_400_000);
    await start('fifth', TEED);
    const all = tips(slack, ALICE.id);
    expect(all).toHaveLength(3);
    expect(all[2]).toContain('set -o pipefail');
  });

  it('sends nothing for a clean command, for someone with tips off, or for a muted workload (and a mute does not use up the week)', async () => {
    bot = await sims.startBot(config, { now: () => clock });
    await start('clean', CLEAN);
    expect(tips(slack, ALICE.id)).toHaveLength(0);

    await bot.store.putSettings(BOB.id, { completed: false, pending: true, tips: false });
    await start('bobs', TEED, 'bob');
    expect(slack.messagesTo(BOB.id)).toHaveLength(0);

    await bot.store.mute(ALICE.id, muteScope.workload(ns('vision'), 'muted'), undefined);
    await start('muted', BUFFERED);
    expect(tips(slack, ALICE.id)).toHaveLength(0);
    await start('unmuted', BUFFERED);
    const [tip] = tips(slack, ALICE.id);
    expect(tip).toContain('A tip for the log of unmuted');
    expect(tip).toContain('PYTHONUNBUFFERED');
  });

  it('shows a hostile command inert: no token from the command line, no live mention or link, in the DM Slack accepted', async () => {
    bot = await sims.startBot(config, { now: () => clock });
    const secrets = SECRETS.filter((x) => !x.text.includes('\n') && !/['"`|;&$\\]/.test(x.text)).map((x) => x.text).join(' ');
    const markup = HOSTILE_LINE.replace(/[`'"|;&$\\]/g, '');
    await start('hostile', `bash -c "python -u train.py ${secrets} ${markup} 2>&1 | tee -a /data/logs/train.log"`);
    const sent = slack.messagesTo(ALICE.id);
    expect(sent).toHaveLength(1);
    const text = JSON.stringify(sent[0].body);
    expect(text).toContain('set -o pipefail');
    // The command is quoted (so the corpus reached the DM), redacted and escaped.
    expect(text).toContain('python -u train.py --hf-token');
    const problems = strings(sent[0].body).map(([path, value]) => [path, slackProblem(value, path.endsWith('.plain'))]).filter(([, problem]) => problem);
    expect(problems).toEqual([]);
  });

  it('says nothing about workloads already running when it starts: they were running before', async () => {
    kube.apply(workloadCr({ name: 'old', project: 'vision', owner: 'alice', phase: 'Running', command: TEED, arguments: '' }));
    bot = await sims.startBot(config, { now: () => clock });
    await eventually(() => bot.reconciler.workloads().some((w) => w.name === 'old'), 'old seen');
    await bot.settle();
    // A later start of someone else's workload is told, so the first list was decided by then.
    await start('new', TEED, 'bob');
    expect(tips(slack, BOB.id)).toHaveLength(1);
    expect(tips(slack, ALICE.id)).toHaveLength(0);
  });
});
