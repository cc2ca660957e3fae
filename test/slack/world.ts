/**
 * One cluster and one workspace for the Slack surface tests: people with different rights
 * over the same workloads, and the real bot between them.
 *
 * - Alice owns `resnet` (vision, Failed, its log holds a token) and `bert` (llm, Running).
 * - Carol is in vision's explicit member list, Grace in its user group, Hank in its channel
 *   (private, with the bot in it: the only kind whose members count without opting in).
 * - Dave is an admin. Erin is nobody in particular.
 * - `sdxl` (genai, owned by noa) waits for GPUs, and the scheduler says so.
 * - `twin` exists in both vision and llm.
 */
import type { KubeObject } from '../../src/sim/kube-apiserver.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, BOB, startFakeSlack, type Json, type SlackSimulator, type SlackUser } from '../fakes/slack.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

export { ALICE, BOB };
export const CAROL: SlackUser = { id: 'U0CAROL', name: 'carol', email: 'carol@example.org', tz: 'America/New_York' };
export const DAVE: SlackUser = { id: 'U0DAVE', name: 'dave', email: 'dave@example.org' };
export const ERIN: SlackUser = { id: 'U0ERIN', name: 'erin', email: 'erin@elsewhere.org' };
export const GRACE: SlackUser = { id: 'U0GRACE', name: 'grace', email: 'grace@example.org' };
export const HANK: SlackUser = { id: 'U0HANK', name: 'hank', email: 'hank@example.org' };

export const SECRET = 'hf_abcdefghijklmnopqrstuvwxyz0123';
export const RESNET_LOG = [
  ...Array.from({ length: 60 }, (_, i) => `step ${i + 1}: loss=${(2 - i / 60).toFixed(3)}`),
  `downloading weights with HF_TOKEN=${SECRET}`,
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 88, in <module>',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
  'summary <@U0ALICE> <!channel> `done`',
].join('\n');

export const baseConfig = {
  owners: { emailDomain: 'example.org', map: { bob: 'bob@other.org' } },
  admins: [DAVE.id],
  projects: {
    vision: { members: [CAROL.id], userGroup: 'S0VISION', channel: 'C0VISION' },
    llm: {},
  },
  runai: { uiUrl: 'https://runai.example.org' },
};

export interface World {
  kube: FakeKube;
  slack: SlackSimulator;
  bot: TestBot;
  /** `/runai text` as `user`: the ack, then the reply that came through the response_url. */
  ask(user: SlackUser, text: string): Promise<{ ack: Json; reply: Json; shown: string }>;
  close(): Promise<void>;
}

function pendingPod(name: string, project: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${name}-0-0`, namespace: ns(project), labels: { workloadName: name, project }, annotations: { user: 'noa' } },
    spec: { schedulerName: 'runai-scheduler', containers: [{ name, image: 'registry.example.org/genai/sdxl:0.9' }] },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] },
  } as KubeObject;
}

/** Everything a person sees of a reply: its text and every text in its blocks. */
export function shownText(body: Json): string {
  return `${String(body.text ?? '')}\n${JSON.stringify(body.blocks ?? [])}`;
}

export async function populate(kube: FakeKube): Promise<void> {
  for (const project of ['vision', 'llm', 'genai']) kube.addNamespace(ns(project), { 'runai/queue': project });
  kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice', phase: 'Failed' }));
  kube.apply(pod({ workload: 'resnet', project: 'vision', exitCode: 1, node: 'gpu-node-07' }));
  kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', RESNET_LOG);

  kube.apply(workloadCr({ name: 'bert', project: 'llm', owner: 'alice', phase: 'Running' }));
  kube.apply(pod({ workload: 'bert', project: 'llm' }));
  kube.appendLog(ns('llm'), 'bert-0-0', 'bert', 'epoch 1\nepoch 2\n');

  kube.apply(workloadCr({ name: 'sdxl', project: 'genai', owner: 'noa', phase: 'Pending' }));
  kube.apply(pendingPod('sdxl', 'genai'));
  kube.addEvent({
    involvedObject: { kind: 'Pod', name: 'sdxl-0-0', namespace: ns('genai') },
    reason: 'Unschedulable',
    type: 'Warning',
    message: "no nodes with enough resources were found: 6 node(s) didn't have enough resources: GPUs.",
    source: { component: 'runai-scheduler' },
  });

  kube.apply(workloadCr({ name: 'twin', project: 'vision', owner: 'bob', phase: 'Running' }));
  kube.apply(workloadCr({ name: 'twin', project: 'llm', owner: 'bob', phase: 'Running' }));
}

export async function startWorld(yaml: Record<string, any> = baseConfig): Promise<World> {
  const kube = await startFakeKube();
  const slack = await startFakeSlack({ users: [ALICE, BOB, CAROL, DAVE, ERIN, GRACE, HANK] });
  slack.addUserGroup('S0VISION', [GRACE.id]);
  slack.addChannel('C0VISION', 'vision', [HANK.id, ALICE.id, slack.workspace.botUserId], { is_private: true });
  await populate(kube);
  const bot = await startTestBot(kube, slack, yaml);
  return {
    kube,
    slack,
    bot,
    async ask(user, text) {
      const result = await slack.sendSlashCommand({ user_id: user.id, text });
      const reply = (await result.nextResponse()).body;
      return { ack: result.ack, reply, shown: shownText(reply) };
    },
    async close() {
      await bot.stop();
      await slack.close();
      await kube.close();
    },
  };
}
