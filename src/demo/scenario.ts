/**
 * The demo's story, played on the simulated cluster the way Run:ai's controllers would change
 * it: four workloads are running when the bot starts; then a training job runs out of GPU
 * memory and its owner resubmits it with one change (the bot follows up in the alert's thread,
 * and, as the new run's `python` is buffered, sends a log-saving tip), a notebook is stopped, a
 * detector's training "completes" although its log ends in an error its `| tee` hid, a
 * workspace waits over its project's quota, and one worker of a distributed job dies while the
 * other ranks time out waiting for it. Half-way through, the clock moves to a day before the
 * maintenance window, as if the day had passed; the reminder names the distributed job's last
 * checkpoint.
 *
 * The people are chosen so that each access rule can be seen at work from the page: owners,
 * a member of one project, an admin, and a stranger who may see nothing.
 */
import type { FakeKube } from '../sim/kube-apiserver.js';
import type { SlackUser } from '../sim/slack-workspace.js';
import { DDP_WORKER1_LOG, ddpWatchdogLog, JUPYTER_LOG, LLAMA_TRAINING_LOG, MASKED_OOM_LOG, OOM_LOG, RESNET_RESTART_LOG } from './logs.js';
import { namespaceOf, podGroupName, podGroupObject, podObject, workloadObject, type WorkloadSpec } from './objects.js';

export const PEOPLE: readonly SlackUser[] = [
  { id: 'U0ALICE', name: 'alice', real_name: 'Alice Martin', email: 'alice@example.org', tz: 'Europe/Berlin' },
  { id: 'U0BOB', name: 'bob', real_name: 'Bob Chen', email: 'bob@example.org', tz: 'Europe/London' },
  { id: 'U0CAROL', name: 'carol', real_name: 'Carol Okafor', email: 'carol@example.org', tz: 'America/New_York' },
  { id: 'U0DAVE', name: 'dave', real_name: 'Dave Kim', email: 'dave@example.org', tz: 'Asia/Seoul' },
  { id: 'U0ERIN', name: 'erin', real_name: 'Erin Novak', email: 'erin@example.org', tz: 'Europe/Prague' },
  { id: 'U0FRANK', name: 'frank', real_name: 'Frank Ortiz', email: 'frank@example.org', tz: 'America/Chicago' },
];

/** dave sees the llm project's workloads as a member; erin sees everything as an admin. */
export const LLM_MEMBER = 'U0DAVE';
export const ADMIN = 'U0ERIN';
export const STRANGER = 'U0FRANK';

/** What each person is in the story, for the page's user switcher. */
export const ROLES: Readonly<Record<string, string>> = {
  U0ALICE: 'owns resnet-finetune',
  U0BOB: 'owns jupyter-bob and fish-detector',
  U0CAROL: 'owns llama-ddp and sdxl-eval',
  U0DAVE: 'member of project llm',
  U0ERIN: 'cluster admin',
  U0FRANK: 'in no project',
};

export const CHANNELS = {
  alerts: { id: 'C0ALERTS', name: 'runai-alerts' },
  maintenance: { id: 'C0MAINT', name: 'maintenance' },
} as const;

export const PROJECTS = ['vision', 'llm', 'genai'] as const;

export const RESNET: WorkloadSpec = {
  kind: 'TrainingWorkload',
  name: 'resnet-finetune',
  project: 'vision',
  owner: 'alice',
  image: 'registry.example.org/vision/resnet-train:2.4.1',
  command: 'python',
  arguments: 'train.py --arch resnet152 --epochs 10 --batch-size 256',
  gpu: '1',
};

export const JUPYTER: WorkloadSpec = {
  kind: 'InteractiveWorkload',
  name: 'jupyter-bob',
  project: 'vision',
  owner: 'bob',
  image: 'jupyter/pytorch-notebook:cuda12-python-3.11',
  command: 'start-notebook.py',
  arguments: "--NotebookApp.base_url=/vision/jupyter-bob",
  gpu: '1',
};

/** One intentional change after the out-of-memory failure, as the guide asks: the image tag. */
export const RESNET_RESUBMITTED: WorkloadSpec = { ...RESNET, image: 'registry.example.org/vision/resnet-train:2.4.2' };

/** `| tee` without `set -o pipefail`: the pipeline's exit status is tee's, so a crash reads as Completed. */
export const FISH_DETECTOR: WorkloadSpec = {
  kind: 'TrainingWorkload',
  name: 'fish-detector',
  project: 'vision',
  owner: 'bob',
  image: 'registry.example.org/vision/viame:0.19',
  command: 'bash',
  arguments: '-c "python -u train_detector.py --config fish.yaml 2>&1 | tee -a /data/logs/train.log"',
  gpu: '1',
};

export const OVER_QUOTA: WorkloadSpec = {
  kind: 'InteractiveWorkload',
  name: 'sdxl-eval',
  project: 'genai',
  owner: 'carol',
  image: 'registry.example.org/genai/sdxl:0.9',
  command: 'jupyter-lab',
  arguments: '--port 8888',
  gpu: '4',
  phase: 'Pending',
};

export const LLAMA: WorkloadSpec = {
  kind: 'DistributedWorkload',
  name: 'llama-ddp',
  project: 'llm',
  owner: 'carol',
  image: 'registry.example.org/llm/llama-finetune:3.1',
  command: 'torchrun',
  arguments: '--nnodes 3 --nproc-per-node 1 finetune.py --data-dir /data/shards',
  gpu: '1',
};

/** The three Kubeflow replicas of llama-ddp: worker 1 fails first, at 09:30; the others time out. */
const LLAMA_REPLICAS = [
  { type: 'master', index: 0, rank: 0, minutesBeforeEnd: 0 },
  { type: 'worker', index: 0, rank: 1, minutesBeforeEnd: 0 },
  { type: 'worker', index: 1, rank: 2, minutesBeforeEnd: 10 },
] as const;

export interface ScenarioStep {
  /** The page's button that plays it now ("Fail a job"). */
  label: string;
  /** What a viewer is told is happening. */
  title: string;
  /** Time passes: the demo's clock moves to this moment before the step plays. */
  clockTo?: Date;
  /**
   * Changes the cluster; `now` is the demo's clock as the step plays. `settled(namespace, name,
   * phase)` resolves once the bot knows that workload in that phase (`undefined`: gone) and has
   * done what it owes for it: a person acts on what happened, so a step that follows up on a
   * change waits for the bot to have seen it (else the story would race the watch). It waits on
   * the bot, not on a message: a visitor may have muted the workload, and then none comes.
   */
  play(kube: FakeKube, now: Date, settled: (namespace: string, name: string, phase: string | undefined) => Promise<void>): void | Promise<void>;
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const minutesBefore = (now: Date, minutes: number) => iso(new Date(now.getTime() - minutes * 60_000));

/** What exists before the bot starts: the projects' namespaces and four running workloads. */
export function seedCluster(kube: FakeKube, now: Date): void {
  for (const project of PROJECTS) kube.addNamespace(namespaceOf(project), { 'runai/queue': project });
  const started = minutesBefore(now, 40);
  kube.apply(workloadObject(RESNET));
  kube.apply(podObject({ workload: RESNET.name, project: RESNET.project, owner: RESNET.owner, name: `${RESNET.name}-0-0`, container: RESNET.name, image: RESNET.image, startedAt: started }));
  kube.apply(workloadObject(JUPYTER));
  kube.apply(podObject({ workload: JUPYTER.name, project: JUPYTER.project, owner: JUPYTER.owner, name: `${JUPYTER.name}-0-0`, container: JUPYTER.name, image: JUPYTER.image, node: 'dgx-a100-02', startedAt: minutesBefore(now, 110) }));
  kube.apply(workloadObject(FISH_DETECTOR));
  kube.apply(podObject({ workload: FISH_DETECTOR.name, project: FISH_DETECTOR.project, owner: FISH_DETECTOR.owner, name: `${FISH_DETECTOR.name}-0-0`, container: FISH_DETECTOR.name, image: FISH_DETECTOR.image, node: 'dgx-a100-02', startedAt: started }));
  kube.apply(workloadObject(LLAMA));
  for (const r of LLAMA_REPLICAS) kube.apply(llamaPod(r, started));
}

/** The pod of a single-pod workload, running since `startedAt`, or ended with `exit`. */
function singlePod(spec: WorkloadSpec, startedAt: string, exit?: { code: number; reason: string; finishedAt: string }) {
  return podObject({ workload: spec.name, project: spec.project, owner: spec.owner, name: `${spec.name}-0-0`, container: spec.name, image: spec.image, startedAt, exit });
}

function llamaPod(replica: (typeof LLAMA_REPLICAS)[number], startedAt: string, finishedAt?: string) {
  return podObject({
    workload: LLAMA.name,
    project: LLAMA.project,
    owner: LLAMA.owner,
    name: `${LLAMA.name}-${replica.type}-${replica.index}`,
    container: 'pytorch',
    image: LLAMA.image,
    node: `dgx-a100-0${replica.rank + 1}`,
    startedAt,
    replica: { type: replica.type, index: replica.index },
    exit: finishedAt ? { code: 1, reason: 'Error', finishedAt } : undefined,
  });
}

/** The owners' notice and the one-day reminder are due from one day before the window. */
const DAY_MS = 86_400_000;

/** `seededAt`: when seedCluster ran; `windowStart`: when the demo's maintenance window begins. */
export function scenarioSteps(seededAt: Date, windowStart: Date): ScenarioStep[] {
  const started = minutesBefore(seededAt, 40);
  return [
    {
      label: 'Fail a job',
      title: 'resnet-finetune (alice) runs out of GPU memory',
      play(kube, now) {
        const pod = `${RESNET.name}-0-0`;
        kube.appendLog(namespaceOf(RESNET.project), pod, RESNET.name, OOM_LOG);
        kube.apply(podObject({ workload: RESNET.name, project: RESNET.project, owner: RESNET.owner, name: pod, container: RESNET.name, image: RESNET.image, startedAt: started, exit: { code: 1, reason: 'Error', finishedAt: iso(now) } }));
        kube.setPhase(RESNET.kind, namespaceOf(RESNET.project), RESNET.name, 'Failed');
      },
    },
    {
      label: 'Resubmit it with one change',
      title: 'alice deletes resnet-finetune and submits it again under the same name with one change: image tag 2.4.1 → 2.4.2',
      async play(kube, now, settled) {
        const ns = namespaceOf(RESNET.project);
        // alice read the alert (its log was read before the pod goes), then, as `runai delete` and
        // `runai submit`: the new workload has the old name and a new uid.
        await settled(ns, RESNET.name, 'Failed');
        kube.delete({ kind: RESNET.kind, namespace: ns, name: RESNET.name });
        kube.delete({ kind: 'Pod', namespace: ns, name: `${RESNET.name}-0-0` });
        await settled(ns, RESNET.name, undefined);
        kube.apply(workloadObject(RESNET_RESUBMITTED));
        kube.apply(singlePod(RESNET_RESUBMITTED, iso(now)));
        kube.appendLog(ns, `${RESNET.name}-0-0`, RESNET.name, RESNET_RESTART_LOG);
      },
    },
    {
      label: 'Stop a notebook',
      title: 'bob stops his notebook jupyter-bob',
      play(kube) {
        kube.appendLog(namespaceOf(JUPYTER.project), `${JUPYTER.name}-0-0`, JUPYTER.name, JUPYTER_LOG);
        kube.delete({ kind: 'Pod', namespace: namespaceOf(JUPYTER.project), name: `${JUPYTER.name}-0-0` });
        kube.setPhase(JUPYTER.kind, namespaceOf(JUPYTER.project), JUPYTER.name, 'Stopped');
      },
    },
    {
      label: 'Complete a job with a hidden error',
      title: "bob's fish-detector ends with exit code 0, but its log ends in CUDA out of memory: `| tee` without pipefail hid the failure",
      play(kube, now) {
        kube.appendLog(namespaceOf(FISH_DETECTOR.project), `${FISH_DETECTOR.name}-0-0`, FISH_DETECTOR.name, MASKED_OOM_LOG);
        kube.apply(singlePod(FISH_DETECTOR, started, { code: 0, reason: 'Completed', finishedAt: iso(now) }));
        kube.setPhase(FISH_DETECTOR.kind, namespaceOf(FISH_DETECTOR.project), FISH_DETECTOR.name, 'Completed');
      },
    },
    {
      label: 'Send the maintenance reminder',
      title: "a day later, one day before the maintenance window: a reminder in #maintenance and a DM to carol, naming the last checkpoint of her running llama-ddp",
      clockTo: new Date(windowStart.getTime() - DAY_MS + 60_000),
      play(kube, now) {
        // The day's training, as the API server dates it (timestamps=true): the last save was 40 minutes ago.
        const master = `${LLAMA.name}-master-0`;
        const ns = namespaceOf(LLAMA.project);
        kube.appendLog(ns, master, 'pytorch', LLAMA_TRAINING_LOG.before, { at: new Date(now.getTime() - 90 * 60_000) });
        kube.appendLog(ns, master, 'pytorch', LLAMA_TRAINING_LOG.checkpoint, { at: new Date(now.getTime() - 40 * 60_000) });
        kube.appendLog(ns, master, 'pytorch', LLAMA_TRAINING_LOG.after, { at: new Date(now.getTime() - 5 * 60_000) });
      },
    },
    {
      label: 'Leave a workspace waiting over quota',
      title: "carol's workspace sdxl-eval has waited 45 minutes: it asks for 4 GPUs, genai's quota is 2",
      play(kube, now) {
        const ns = namespaceOf(OVER_QUOTA.project);
        const since = minutesBefore(now, 45);
        const quota = {
          reason: 'NonPreemptibleOverQuota',
          message: 'Non-preemptible workload is over quota. Workload requested 4 GPUs, but genai quota is 2 GPUs, while 0 GPUs are already allocated for non-preemptible pods. Use a preemptible workload to go over quota.',
        };
        kube.apply(workloadObject({
          ...OVER_QUOTA,
          createdAt: since,
          conditions: [{ type: 'Pending', status: 'True', reason: 'Unschedulable', message: quota.message, lastTransitionTime: since }],
        }));
        kube.apply(podObject({ workload: OVER_QUOTA.name, project: OVER_QUOTA.project, owner: OVER_QUOTA.owner, name: `${OVER_QUOTA.name}-0-0`, container: OVER_QUOTA.name, image: OVER_QUOTA.image, startedAt: since, pending: { reason: 'Unschedulable', message: quota.message } }));
        kube.apply(podGroupObject(OVER_QUOTA.name, OVER_QUOTA.project, OVER_QUOTA.owner, quota));
        const source = { component: 'runai-scheduler' };
        const times = { firstTimestamp: since, lastTimestamp: iso(now), count: 46 };
        kube.addEvent({ involvedObject: { kind: 'Pod', name: `${OVER_QUOTA.name}-0-0`, namespace: ns }, type: 'Warning', reason: 'Unschedulable', message: quota.message, source, ...times });
        kube.addEvent({ involvedObject: { kind: 'PodGroup', name: podGroupName(OVER_QUOTA.name), namespace: ns }, type: 'Normal', reason: quota.reason, message: `Unable to schedule podgroup: ${quota.message}`, source, ...times });
      },
    },
    {
      label: 'Fail a distributed job',
      title: 'worker 1 of llama-ddp (carol) fails; the other ranks time out waiting for it',
      play(kube, now) {
        const ns = namespaceOf(LLAMA.project);
        for (const r of LLAMA_REPLICAS) {
          const pod = `${LLAMA.name}-${r.type}-${r.index}`;
          kube.appendLog(ns, pod, 'pytorch', r.rank === 2 ? DDP_WORKER1_LOG : ddpWatchdogLog(r.rank));
          kube.apply(llamaPod(r, started, minutesBefore(now, r.minutesBeforeEnd)));
        }
        kube.setPhase(LLAMA.kind, ns, LLAMA.name, 'Failed');
      },
    },
  ];
}

/** The DMs the scenario must produce (a phrase of each one's text or blocks): the run is over when each owner has theirs. */
export const EXPECTED_ALERTS: ReadonlyArray<{ workload: string; user: string; says: string }> = [
  { workload: RESNET.name, user: 'U0ALICE', says: 'resnet-finetune (project vision) is Failed' },
  { workload: RESNET.name, user: 'U0ALICE', says: 'resnet-finetune was resubmitted (1 change' },
  { workload: RESNET.name, user: 'U0ALICE', says: 'Tip for resnet-finetune (project vision)' },
  { workload: JUPYTER.name, user: 'U0BOB', says: 'jupyter-bob (project vision) is Stopped' },
  { workload: FISH_DETECTOR.name, user: 'U0BOB', says: 'fish-detector (project vision) completed, but its log ends in an error' },
  { workload: LLAMA.name, user: 'U0CAROL', says: 'your running workloads: llama-ddp' },
  { workload: LLAMA.name, user: 'U0CAROL', says: 'checkpoint saved' },
  { workload: OVER_QUOTA.name, user: 'U0CAROL', says: 'sdxl-eval (project genai) has been Pending' },
  { workload: LLAMA.name, user: 'U0CAROL', says: 'llama-ddp (project llm) is Failed' },
];
