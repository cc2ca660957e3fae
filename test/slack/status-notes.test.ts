/**
 * `/runai status` and `/runai why` through the real bot against the simulators: a running
 * workload's last checkpoint, read from its log's tail with the kubelet's timestamps, and what
 * its command gets wrong about keeping its log (the guide's log-saving rules), both inert when
 * the workload's own text is hostile.
 */
import type { KubeObject } from '../../src/sim/kube-apiserver.js';
import { CHECKPOINT_TAIL_LINES } from '../../src/notify/checkpoints.js';
import { messageViolation } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';
import { ALICE, startWorld, type World } from './world.js';

const TOKEN = 'hf_zyxwvutsrqponmlkjihgfedcba987654';
const MIN = 60_000;

/** A pod with a PVC mounted at /data, as Run:ai renders a workload's `pvcs`. */
function podWithData(workload: string, project: string): KubeObject {
  const p = pod({ workload, project });
  const spec = p.spec as { containers: Array<Record<string, unknown>>; volumes?: unknown[] };
  spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
  spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'team-data' } }];
  return p;
}

describe('/runai status and why: checkpoints and log-saving advice', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
    const { kube } = world;
    // Megatron-LM's own lines (megatron/training/checkpointing.py), 40 minutes ago, then training goes on.
    kube.apply(workloadCr({ name: 'gpt', project: 'llm', owner: 'alice', phase: 'Running', command: 'bash', arguments: "-c 'set -o pipefail; python -u pretrain_gpt.py 2>&1 | tee -a /data/logs/train.log'" }));
    kube.apply(podWithData('gpt', 'llm'));
    const saved = new Date(Date.now() - 40 * MIN - 5_000);
    kube.appendLog(ns('llm'), 'gpt-0-0', 'gpt', ' iteration    11990/  500000 | loss: 2.1\n', { at: new Date(saved.getTime() - MIN) });
    kube.appendLog(ns('llm'), 'gpt-0-0', 'gpt', 'saving checkpoint at iteration   12000 to /data/ckpt in torch_dist format\n', { at: new Date(saved.getTime() - 10_000) });
    kube.appendLog(ns('llm'), 'gpt-0-0', 'gpt', '  successfully saved checkpoint from iteration   12000 to /data/ckpt [ t 1/1, p 1/1 ]\n', { at: saved });
    kube.appendLog(ns('llm'), 'gpt-0-0', 'gpt', ' iteration    12010/  500000 | loss: 2.0\n');
    // A hostile command: a mention and a link in the log path, a token on the command line, piped through tee without pipefail.
    kube.apply(workloadCr({
      name: 'noisy', project: 'llm', owner: 'alice', phase: 'Running', command: 'bash',
      arguments: `-c 'python train.py --hf-token ${TOKEN} | tee "/tmp/<!channel> <https://evil.example|x>\u0007.log"'`,
    }));
    kube.apply(pod({ workload: 'noisy', project: 'llm' }));
    kube.appendLog(ns('llm'), 'noisy-0-0', 'noisy', 'Saving model checkpoint to <@U0ALICE>/checkpoint-500\nstep 501\n');
    // Eight ranks of one torchrun, all saved by one tee on the PVC.
    kube.apply(workloadCr({ name: 'ddp', project: 'llm', owner: 'alice', phase: 'Running', command: 'bash', arguments: "-c 'set -o pipefail; torchrun --nproc_per_node=8 train.py 2>&1 | tee -a /data/logs/train.log'" }));
    kube.apply(podWithData('ddp', 'llm'));
    await eventually(async () => (await world.ask(ALICE, 'list --state running')).shown.includes('`noisy`') && (await world.ask(ALICE, 'list --state running')).shown.includes('`ddp`'), 'the new workloads to be seen');
  });

  afterAll(async () => {
    await world.close();
  });

  it('names the last checkpoint of a running workload: how long ago, at which iteration, where', async () => {
    const { reply, shown } = await world.ask(ALICE, 'status gpt');
    // Saved 40 min 5 s before the world started; a slow start may make it 41 when asked.
    expect(shown).toMatch(/\*Checkpoint:\* Last checkpoint saved 4[01] min ago \(iteration 12000, `\/data\/ckpt`\)/);
    // Its command keeps its log as the guide asks: nothing to say about it.
    expect(shown).not.toContain('Keeping its log');
    expect(messageViolation(reply)).toBeUndefined();
  });

  it('says how much of the log it read when no checkpoint line is in it, never that there is no checkpoint', async () => {
    const { shown } = await world.ask(ALICE, 'status bert');
    expect(shown).toContain('No checkpoint line in the last 2 lines of its log');
    expect(shown).not.toMatch(/[Nn]o checkpoint[^ ]/);
    expect(CHECKPOINT_TAIL_LINES).toBeGreaterThan(2);
  });

  it('reads only the tail, with timestamps, once per status', async () => {
    const before = world.kube.requests.filter((r) => r.path.endsWith('/gpt-0-0/log')).length;
    await world.ask(ALICE, 'status gpt');
    const reads = world.kube.requests.filter((r) => r.path.endsWith('/gpt-0-0/log')).slice(before);
    expect(reads).toHaveLength(1);
    expect(reads[0].query).toMatchObject({ timestamps: 'true', tailLines: String(CHECKPOINT_TAIL_LINES) });
  });

  it('reads no log for checkpoints of a workload that is not running', async () => {
    const before = world.kube.requests.filter((r) => r.path.endsWith('/log')).length;
    const { shown } = await world.ask(ALICE, 'status resnet');
    expect(shown).not.toContain('Checkpoint:');
    expect(world.kube.requests.filter((r) => r.path.endsWith('/log')).length).toBe(before);
  });

  it('still answers when the log cannot be read, and says why', async () => {
    world.kube.failNext(1, 500, '/log');
    const { shown } = await world.ask(ALICE, 'status gpt');
    expect(shown).toContain('Could not look for its last checkpoint: its log could not be read');
    expect(shown).toContain('*Pods*');
  });

  it('gives the log-saving findings in status and why, the command text inert and redacted', async () => {
    for (const verb of ['status', 'why']) {
      const { reply, shown } = await world.ask(ALICE, `${verb} noisy`);
      expect(shown).toContain('Keeping its log');
      expect(shown).toContain("replaced by `tee`'s");
      expect(shown).toContain('Hugging Face token is on the command line');
      expect(shown).toContain('is written inside the container, and is lost with the pod');
      // The log path is quoted as escaped inline code: its mention and link are text.
      expect(shown).toContain('&lt;!channel&gt; &lt;https://evil.example|x&gt;');
      expect(shown).not.toContain('\u0007');
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain('<!channel>');
      expect(shown).not.toContain('<https://evil.example');
      expect(shown).not.toContain('<@U0ALICE>');
      expect(messageViolation(reply)).toBeUndefined();
    }
  });

  it('says when every rank of a launcher goes into one file, in status and why, with the launcher\'s fix', async () => {
    for (const verb of ['status', 'why']) {
      const { reply, shown } = await world.ask(ALICE, `${verb} ddp`);
      expect(shown).toContain('Keeping its log');
      expect(shown).toContain('every rank `torchrun` starts prints into the same file, `/data/logs/train.log`');
      expect(shown).toContain('`--log-dir /data/logs --tee 3`');
      // Its pipe keeps the exit status and its log is on the PVC: the ranks are all there is to say.
      expect(shown).not.toContain('replaced by');
      expect(shown).not.toContain('lost with the pod');
      expect(messageViolation(reply)).toBeUndefined();
    }
  });

  it('names a checkpoint path from the log escaped', async () => {
    const { shown } = await world.ask(ALICE, 'status noisy');
    expect(shown).toContain('Last checkpoint saved just now (global step 500, `');
    expect(shown).not.toContain('<@U0ALICE>');
  });
});
