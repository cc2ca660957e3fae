/**
 * `demo --headless --out FILE` end to end: the built CLI runs the real bot against the
 * simulated cluster and Slack, plays the scenario, and writes every Slack Web API call.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GUIDE } from '../../src/lifecycle/states.js';
import { CLI, ROOT } from './cli.js';

interface Call {
  method: string;
  body: { channel?: string; text?: string; blocks?: unknown[]; ts?: string; thread_ts?: string; reply_broadcast?: unknown };
}

const run = promisify(execFile);
let dir: string;
let calls: Call[];

/** Everything a person would read in a post: the fallback text and the blocks. */
const shown = (call: Call) => `${call.body.text ?? ''}\n${JSON.stringify(call.body.blocks ?? [])}`;
/** A DM is posted with the person's user ID as its channel (Slack files it in the app's DM with them). */
const postsTo = (channel: string) => calls.filter((c) => c.method === 'chat.postMessage' && c.body.channel === channel).map(shown);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'demo-headless-'));
  const out = join(dir, 'calls.jsonl');
  // Rejects on a non-zero exit code, which fails every test below.
  await run(process.execPath, [CLI, 'demo', '--headless', '--out', out], { cwd: ROOT, timeout: 60_000 });
  calls = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Call);
}, 90_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('demo --headless', () => {
  it('writes every Slack Web API call as a JSON line with the method and its arguments, without tokens', () => {
    expect(calls.map((c) => c.method)).toEqual(expect.arrayContaining(['auth.test', 'apps.connections.open', 'users.lookupByEmail', 'chat.postMessage']));
    // DMs are posted to the person's user ID: no conversations.open (Tier 3) on the way.
    expect(calls.map((c) => c.method)).not.toContain('conversations.open');
    for (const call of calls) expect(Object.keys(call).sort()).toEqual(['body', 'method']);
    expect(JSON.stringify(calls)).not.toMatch(/xox[abp]-|xapp-/);
  });

  it("DMs the out-of-memory job's owner, naming the out-of-memory line and the guide's Failed advice", () => {
    const [dm] = postsTo('U0ALICE');
    expect(dm).toContain('resnet-finetune failed');
    expect(dm).toContain('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.06 GiB');
    expect(dm).toContain(GUIDE.Failed.nextAction);
  });

  it("DMs the stopped workspace's owner with the guide's Stopped advice", () => {
    const dm = postsTo('U0BOB').find((post) => post.includes('jupyter-bob'));
    expect(dm).toContain('jupyter-bob was stopped');
    expect(dm).toContain(GUIDE.Stopped.nextAction);
  });

  it("warns the over-quota workspace's owner that it is stuck Pending, with the scheduler's quota reason", () => {
    const warning = postsTo('U0CAROL').find((post) => post.includes('sdxl-eval'));
    expect(warning).toContain('sdxl-eval has been Pending for 45 minutes');
    expect(warning).toContain('NonPreemptibleOverQuota');
    expect(warning).toContain(GUIDE.Pending.nextAction);
  });

  it("cites worker 1's missing data file, not the other ranks' watchdog timeouts, for the distributed job", () => {
    const dm = postsTo('U0CAROL').find((post) => post.includes('llama-ddp failed'));
    expect(dm).toBeDefined();
    expect(dm).toContain('shard-17.parquet');
    expect(dm).not.toContain('Watchdog caught collective operation timeout');
  });

  it('tells carol a day before the window that her running llama-ddp will be affected, before it fails', () => {
    const carol = postsTo('U0CAROL');
    const notice = carol.findIndex((post) => post.includes('Maintenance in 24 hours: your running workloads'));
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(carol[notice]).toContain('llama-ddp');
    expect(notice).toBeLessThan(carol.findIndex((post) => post.includes('llama-ddp failed')));
  });

  it("threads alice's resubmission with one change under her failure alert and edits the alert's first line", () => {
    const alerts = calls.filter((c) => c.method === 'chat.postMessage' && c.body.channel === 'U0ALICE' && shown(c).includes('resnet-finetune failed'));
    expect(alerts).toHaveLength(1);
    // The thread's replies go to the DM's channel ID, under the root's ts (chat.update's answer names both).
    const edits = calls.filter((c) => c.method === 'chat.update' && shown(c).includes('resnet-finetune'));
    expect(edits.at(-1)!.body.text).toContain('Failed → resubmitted, running');
    const root = edits.at(-1)!.body.ts!;
    const thread = calls.filter((c) => c.method === 'chat.postMessage' && c.body.thread_ts === root).map(shown);
    expect(thread).toHaveLength(2);
    expect(thread[0]).toContain('is Deleted');
    expect(thread[1]).toContain('1 change: image tag 2.4.1 → 2.4.2');
    expect(thread[1]).toContain('registry.example.org/vision/resnet-train:2.4.1');
    expect(calls.filter((c) => c.body.reply_broadcast !== undefined)).toEqual([]);
  });

  it('tips alice once, when the resubmission starts, that its buffered python may lose the log', () => {
    const tips = postsTo('U0ALICE').filter((post) => post.includes('A tip for the log of resnet-finetune'));
    expect(tips).toHaveLength(1);
    expect(tips[0]).toContain('without -u');
    expect(tips[0]).toContain('/runai settings tips off');
  });

  it("tells bob that fish-detector completed although its log ends in CUDA out of memory hidden by tee", () => {
    const [masked, ...more] = postsTo('U0BOB').filter((post) => post.includes('fish-detector'));
    expect(more).toHaveLength(0);
    expect(masked).toContain('fish-detector completed, but its log ends in an error');
    expect(masked).toContain('CUDA out of memory. Tried to allocate 20.00 MiB');
    expect(masked).toContain('set -o pipefail');
  });

  it("names llama-ddp's last checkpoint in carol's maintenance DM, from its timestamped log", () => {
    const notice = postsTo('U0CAROL').find((post) => post.includes('Maintenance in 24 hours: your running workloads'));
    expect(notice).toMatch(/Last checkpoint saved (39|40|41) min ago \(global step 12000/);
    expect(notice).toContain('/checkpoints/llama-ddp/checkpoint-12000');
  });

  it('announces the maintenance window in the maintenance channel', () => {
    const posts = postsTo('C0MAINT');
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.join('\n')).toContain('NVIDIA driver and firmware upgrade');
  });
});
