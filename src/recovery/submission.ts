/**
 * What a workload was submitted with, as the guide's "Safe recovery" asks to keep it between
 * attempts: image, command and arguments, environment variable names, data sources and
 * mounts, GPU and memory requests, node pools. Built from the workload object (any Run:ai
 * kind, a RunaiJob or Kubeflow job, a plain pod) and, where the object is silent, its pods.
 *
 * Pure and tolerant: a missing or odd field is left out, never an error. Bounded: every text
 * is cut and goes through the sanitize pipeline (command-text.ts) before it is kept, since a
 * Submission is stored for days; environment VALUES are never read at all, only names.
 */
import { MAX_ARGS, MAX_COMMAND_CHARS, safeArgv, safeCommandText } from './command-text.js';
import { splitWords } from './shell.js';

export interface ImageRef {
  /** As written: `nvcr.io/nvidia/pytorch:24.05-py3`. */
  ref: string;
  /** Registry and path, without tag or digest: `nvcr.io/nvidia/pytorch`. */
  repository: string;
  tag?: string;
  digest?: string;
}

/** Where a mount comes from. The first four keep what is written after the pod is gone. */
export type MountSource = 'pvc' | 'nfs' | 's3' | 'host-path' | 'git' | 'config-map' | 'secret' | 'empty-dir' | 'ephemeral' | 'other';

export interface Mount {
  source: MountSource;
  /** The claim, bucket, server path, repository or volume name. */
  name: string;
  /** Where the container sees it. */
  path: string;
  readOnly: boolean;
  /** What is written under it outlives the pod (a PVC, NFS, S3, a host path). */
  persistent: boolean;
}

export interface GpuRequest {
  /** Whole GPUs: `2`. */
  devices?: string;
  /** A fraction of one GPU: `0.5`. */
  fraction?: string;
  /** GPU memory: `20G`. */
  memory?: string;
  /** A MIG profile: `1g.5gb`. */
  mig?: string;
}

/** How a distributed workload runs its command. */
export interface Distribution {
  /** PyTorch, MPI, TF, XGBoost, JAX, … as the object names it. */
  framework?: string;
  /** Every pod runs the command (PyTorch, TF), or the launcher alone (MPI, which starts the ranks). */
  runsOn: 'every-pod' | 'launcher';
  /** Pods that run the command, where the object says. */
  pods?: number;
}

export interface Submission {
  /** The object's kind: TrainingWorkload, DistributedWorkload, PyTorchJob, Pod, … */
  kind: string;
  distribution?: Distribution;
  image?: ImageRef;
  /** The workload's own command and arguments strings, as given (Run:ai keeps one string each). */
  command?: string;
  arguments?: string;
  /**
   * The command the container runs, as argv: the workload's command and arguments split into
   * words, or, when it gives neither, the pod's container command and args. Without a
   * command, the arguments alone (the image's entrypoint runs them).
   */
  argv: string[];
  /** Where argv came from. */
  argvFrom: 'workload' | 'pod' | 'none';
  workingDir?: string;
  /** Environment variable names, sorted; never their values. */
  env: string[];
  /** Sorted by path. */
  mounts: Mount[];
  gpu: GpuRequest;
  /** CPU memory request. */
  memory?: string;
  /** Requested node pools, in order of preference. */
  nodePools: string[];
  /** Something was longer than the bounds and was cut. */
  cut?: true;
}

const MAX_SHORT_CHARS = 512;
const MAX_ENV_NAMES = 256;
const MAX_MOUNTS = 64;
const MAX_POOLS = 16;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(root: unknown, path: string): unknown {
  let cur = root;
  for (const part of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** A key that holds dots itself (`nvidia.com/gpu`). */
const field = (obj: unknown, key: string): unknown => (isObj(obj) ? obj[key] : undefined);

function scalar(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Run:ai wraps most spec fields as `{value: …}`; accept both wrapped and plain. */
function specValue(spec: unknown, field: string): unknown {
  const v = isObj(spec) ? spec[field] : undefined;
  return isObj(v) && 'value' in v ? v.value : v;
}

/** A short workload string (an image, a path, a claim name) as it may be kept: one line, cut, redacted. */
function short(v: unknown): string | undefined {
  const s = scalar(v);
  if (s === undefined) return undefined;
  const safe = safeCommandText(s, MAX_SHORT_CHARS).replace(/\n/g, ' ').trim();
  return safe || undefined;
}

/** `registry:5000/path/name:tag@sha256:…` → its parts. The tag is after the last `/`. */
export function parseImage(ref: string): ImageRef {
  let rest = ref.trim();
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1) || undefined;
    rest = rest.slice(0, at);
  }
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  let tag: string | undefined;
  if (colon > slash) {
    tag = rest.slice(colon + 1) || undefined;
    rest = rest.slice(0, colon);
  }
  return { ref: ref.trim(), repository: rest, ...(tag && { tag }), ...(digest && { digest }) };
}

interface PodSpecFacts {
  image?: string;
  command: string[];
  args: string[];
  workingDir?: string;
  env: string[];
  mounts: Mount[];
  gpuDevices?: string;
  memory?: string;
  nodePool?: string;
}

/** Persistence of each pod volume source; anything not listed (CSI, iSCSI, cloud disks, …) is storage that outlives the pod. */
const POD_VOLUME_SOURCES: ReadonlyArray<[string, MountSource]> = [
  ['persistentVolumeClaim', 'pvc'],
  ['nfs', 'nfs'],
  ['hostPath', 'host-path'],
  ['emptyDir', 'empty-dir'],
  ['ephemeral', 'ephemeral'],
  ['configMap', 'config-map'],
  ['secret', 'secret'],
  ['projected', 'config-map'],
  ['downwardAPI', 'config-map'],
  ['gitRepo', 'git'],
];
const EPHEMERAL_SOURCES: ReadonlySet<MountSource> = new Set(['empty-dir', 'ephemeral', 'config-map', 'secret', 'git']);

function podVolumeSource(volume: Obj): { source: MountSource; name: string } {
  for (const [key, source] of POD_VOLUME_SOURCES) {
    const v = volume[key];
    if (v === undefined) continue;
    const name =
      source === 'pvc' ? scalar(at(v, 'claimName')) : source === 'nfs' ? [scalar(at(v, 'server')), scalar(at(v, 'path'))].filter(Boolean).join(':') : source === 'host-path' ? scalar(at(v, 'path')) : undefined;
    return { source, name: name || (scalar(volume.name) ?? key) };
  }
  return { source: 'other', name: scalar(volume.name) ?? 'volume' };
}

function podSpecFacts(podSpec: unknown): PodSpecFacts | undefined {
  const containers = at(podSpec, 'containers');
  if (!Array.isArray(containers)) return undefined;
  const main = containers.find(isObj);
  if (!main) return undefined;
  const volumes = new Map<string, Obj>();
  const declared = at(podSpec, 'volumes');
  if (Array.isArray(declared)) for (const v of declared) if (isObj(v) && scalar(v.name)) volumes.set(String(v.name), v);
  const mounts: Mount[] = [];
  const volumeMounts = main.volumeMounts;
  if (Array.isArray(volumeMounts)) {
    for (const vm of volumeMounts) {
      const path = isObj(vm) ? scalar(vm.mountPath) : undefined;
      if (!isObj(vm) || !path) continue;
      const volume = volumes.get(String(vm.name));
      const { source, name } = volume ? podVolumeSource(volume) : { source: 'other' as const, name: scalar(vm.name) ?? 'volume' };
      const readOnly = vm.readOnly === true || (volume !== undefined && at(volume, 'persistentVolumeClaim.readOnly') === true);
      mounts.push({ source, name, path, readOnly, persistent: !EPHEMERAL_SOURCES.has(source) && !(source === 'other' && !volume) });
    }
  }
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : '')) : []);
  const env = Array.isArray(main.env) ? main.env.flatMap((e) => (isObj(e) && scalar(e.name) ? [String(e.name)] : [])) : [];
  const limits = at(main, 'resources.limits');
  const requests = at(main, 'resources.requests');
  return {
    image: scalar(main.image),
    command: strings(main.command),
    args: strings(main.args),
    workingDir: scalar(main.workingDir),
    env,
    mounts,
    gpuDevices: scalar(field(limits, 'nvidia.com/gpu')) ?? scalar(field(requests, 'nvidia.com/gpu')),
    memory: scalar(field(requests, 'memory')) ?? scalar(field(limits, 'memory')),
    nodePool: scalar(field(at(podSpec, 'nodeSelector'), 'runai/node-pool')),
  };
}

/** Replica specs of the Kubeflow jobs, the replica that runs the command first. */
const REPLICA_SPECS: ReadonlyArray<[string, string, string[], Distribution['runsOn']]> = [
  ['pytorchReplicaSpecs', 'PyTorch', ['Master', 'Worker'], 'every-pod'],
  ['mpiReplicaSpecs', 'MPI', ['Launcher', 'Worker'], 'launcher'],
  ['tfReplicaSpecs', 'TF', ['Chief', 'Master', 'Worker', 'PS', 'Evaluator'], 'every-pod'],
  ['xgbReplicaSpecs', 'XGBoost', ['Master', 'Worker'], 'every-pod'],
  ['jaxReplicaSpecs', 'JAX', ['Worker'], 'every-pod'],
  ['paddleReplicaSpecs', 'Paddle', ['Master', 'Worker'], 'every-pod'],
];

/** The pod spec an object carries (a job's template, a replica's, or a pod's own) and its distribution. */
function templateOf(obj: Obj): { podSpec?: unknown; distribution?: Distribution } {
  const spec = obj.spec;
  for (const [field, framework, order, runsOn] of REPLICA_SPECS) {
    const replicas = at(spec, field);
    if (!isObj(replicas)) continue;
    const names = [...order, ...Object.keys(replicas).filter((k) => !order.includes(k))];
    const first = names.find((n) => isObj(replicas[n]));
    let pods = 0;
    for (const n of Object.keys(replicas)) pods += runsOn === 'launcher' && n !== 'Launcher' ? 0 : Number(at(replicas[n], 'replicas') ?? 1) || 0;
    return { podSpec: first ? at(replicas[first], 'template.spec') : undefined, distribution: { framework, runsOn, ...(pods > 0 && { pods }) } };
  }
  if (obj.kind === 'Pod' || Array.isArray(at(spec, 'containers'))) return { podSpec: spec };
  const template = at(spec, 'template.spec') ?? at(spec, 'jobTemplate.spec.template.spec');
  return { podSpec: template };
}

/** The pod that runs the command: a distributed workload's master or launcher, else the first. */
function mainPod(pods: readonly unknown[]): unknown {
  const replicaType = (pod: unknown): string => {
    const labels = at(pod, 'metadata.labels');
    return isObj(labels) ? (scalar(labels['training.kubeflow.org/replica-type']) ?? '').toLowerCase() : '';
  };
  return pods.find((p) => ['master', 'launcher', 'chief'].includes(replicaType(p))) ?? pods[0];
}

/** Run:ai's distributed kinds name their framework in `jobType` (PyTorchJob, MPIJob, …). */
function runaiDistribution(obj: Obj): Distribution | undefined {
  const spec = obj.spec;
  const jobType = scalar(at(spec, 'jobType')) ?? scalar(specValue(spec, 'distributedFramework'));
  const workers = Number(scalar(specValue(spec, 'workers')) ?? scalar(specValue(spec, 'numWorkers')));
  if (!jobType && !/^Distributed/.test(String(obj.kind ?? ''))) return undefined;
  const framework = jobType?.replace(/Job$/, '');
  const runsOn = framework?.toUpperCase() === 'MPI' ? 'launcher' : 'every-pod';
  const pods = runsOn === 'launcher' ? 1 : Number.isFinite(workers) && workers > 0 ? workers + 1 : undefined;
  return { ...(framework && { framework }), runsOn, ...(pods && { pods }) };
}

/** Run:ai data sources on the CR: `spec.<kind>.items.<key>.value{…}`. */
const RUNAI_SOURCES: ReadonlyArray<[string, MountSource]> = [
  ['pvcs', 'pvc'],
  ['nfs', 'nfs'],
  ['s3', 's3'],
  ['volumes', 'host-path'],
  ['hostPath', 'host-path'],
  ['gitSync', 'git'],
  ['configMapVolumes', 'config-map'],
  ['secretVolumes', 'secret'],
];

function runaiMounts(spec: unknown): Mount[] {
  const out: Mount[] = [];
  for (const [field, source] of RUNAI_SOURCES) {
    const items = at(spec, `${field}.items`);
    if (!isObj(items)) continue;
    for (const [key, item] of Object.entries(items)) {
      const v = isObj(item) && isObj(item.value) ? item.value : item;
      if (!isObj(v)) continue;
      // A PVC's `path` is where it is mounted; for NFS and host paths `path` is the source.
      const path = scalar(v.mountPath) ?? scalar(v.target) ?? (source === 'pvc' || source === 's3' || source === 'git' ? scalar(v.path) : undefined);
      if (!path) continue;
      const name = scalar(v.claimName) ?? scalar(v.bucket) ?? scalar(v.repository) ?? [scalar(v.server), source === 'nfs' ? scalar(v.path) : undefined].filter(Boolean).join(':') ?? key;
      out.push({ source, name: name || key, path, readOnly: v.readOnly === true, persistent: !EPHEMERAL_SOURCES.has(source) });
    }
  }
  return out;
}

function envNames(spec: unknown, obj: Obj): string[] | undefined {
  // Run:ai's CR keeps `spec.environment.items`; its REST view, `environmentVariables` (values beside the names: only keys are read).
  const items = at(spec, 'environment.items') ?? at(spec, 'environmentVariables') ?? obj.environmentVariables;
  if (isObj(items)) return Object.keys(items);
  return undefined;
}

function nodePools(spec: unknown, obj: Obj): string[] {
  const v = specValue(spec, 'nodePools') ?? specValue(spec, 'nodePool') ?? obj.requestedNodePools;
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  return list.flatMap((p) => (short(p) ? [short(p) as string] : [])).slice(0, MAX_POOLS);
}

function gpuRequest(spec: unknown, podGpus: string | undefined): GpuRequest {
  const gpu = scalar(specValue(spec, 'gpu')) ?? scalar(specValue(spec, 'gpuRequest'));
  const whole = gpu !== undefined && /^\d+$/.test(gpu.trim());
  const devices = scalar(specValue(spec, 'gpuDevices')) ?? scalar(specValue(spec, 'gpuDevicesRequest')) ?? (whole ? gpu : undefined) ?? podGpus;
  const fraction = (gpu !== undefined && !whole ? gpu : undefined) ?? scalar(specValue(spec, 'gpuPortionRequest')) ?? scalar(specValue(spec, 'gpuFraction'));
  const memory = scalar(specValue(spec, 'gpuMemory')) ?? scalar(specValue(spec, 'gpuMemoryRequest'));
  const mig = scalar(specValue(spec, 'migProfile'));
  const clean = (v: string | undefined) => (v === undefined ? undefined : short(v));
  const out: GpuRequest = {};
  if (clean(devices)) out.devices = clean(devices);
  if (clean(fraction)) out.fraction = clean(fraction);
  if (clean(memory)) out.memory = clean(memory);
  if (clean(mig)) out.mig = clean(mig);
  return out;
}

function safeEnvNames(names: string[]): { names: string[]; cut: boolean } {
  const kept = new Set<string>();
  for (const name of names) {
    const safe = short(name);
    // A name is what `export` accepts; anything else is not a variable a program reads.
    if (safe && /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/.test(safe)) kept.add(safe);
  }
  const sorted = [...kept].sort();
  return { names: sorted.slice(0, MAX_ENV_NAMES), cut: sorted.length > MAX_ENV_NAMES };
}

/**
 * A workload's Submission. `obj` is the workload as the cluster stores it (a Run:ai CR, a
 * RunaiJob, a Kubeflow job, a pod, or the REST view); `pods` are read only where it is silent.
 */
export function submissionOf(obj: unknown, pods: readonly unknown[] = []): Submission {
  const o: Obj = isObj(obj) ? obj : {};
  const spec = o.spec;
  const { podSpec, distribution: templateDistribution } = templateOf(o);
  const own = podSpecFacts(podSpec);
  const fromPod = own ?? podSpecFacts(at(mainPod(pods), 'spec'));
  let cut = false;

  const rawCommand = scalar(specValue(spec, 'command')) ?? scalar(o.command);
  const rawArgs = scalar(specValue(spec, 'arguments')) ?? scalar(specValue(spec, 'args')) ?? scalar(o.arguments);
  // Command and arguments share one budget, cut (at a word) and redacted before anything reads them.
  const command = rawCommand === undefined ? undefined : safeCommandText(rawCommand, MAX_COMMAND_CHARS);
  const args = rawArgs === undefined ? undefined : safeCommandText(rawArgs, Math.max(1, MAX_COMMAND_CHARS - (command?.length ?? 0)));
  if ((rawCommand?.length ?? 0) + (rawArgs?.length ?? 0) > MAX_COMMAND_CHARS) cut = true;
  let argv: string[] = [];
  let argvFrom: Submission['argvFrom'] = 'none';
  if (command !== undefined || args !== undefined) {
    // Redacted as written, then split: a rule may need several words of the line.
    for (const text of [command, args]) {
      if (text === undefined) continue;
      const words = splitWords(text);
      cut ||= words.cut;
      argv.push(...words.words.map((w) => w.text));
    }
    argvFrom = 'workload';
  } else if (fromPod && (fromPod.command.length || fromPod.args.length)) {
    const safe = safeArgv([...fromPod.command, ...fromPod.args]);
    argv = safe.argv;
    cut ||= safe.cut;
    argvFrom = 'pod';
  }

  const imageText = short(specValue(spec, 'image')) ?? short(Array.isArray(o.images) ? o.images[0] : undefined) ?? short(fromPod?.image);
  const declaredEnv = envNames(spec, o) ?? (fromPod ? fromPod.env : []);
  const env = safeEnvNames(declaredEnv);
  cut ||= env.cut;
  const declaredMounts = runaiMounts(spec);
  const rawMounts = declaredMounts.length ? declaredMounts : (fromPod?.mounts ?? []);
  const mounts = rawMounts
    .map((m) => ({ ...m, name: short(m.name) ?? m.source, path: short(m.path) ?? '/' }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MAX_MOUNTS);
  cut ||= rawMounts.length > MAX_MOUNTS;
  const pools = nodePools(spec, o);
  const distribution = runaiDistribution(o) ?? templateDistribution;
  const workingDir = short(specValue(spec, 'workingDir')) ?? short(fromPod?.workingDir);
  const memory = short(specValue(spec, 'memory')) ?? short(fromPod?.memory);

  const submission: Submission = {
    kind: short(o.kind) ?? 'Workload',
    ...(distribution && { distribution }),
    ...(imageText && { image: parseImage(imageText) }),
    ...(command !== undefined && { command }),
    ...(args !== undefined && { arguments: args }),
    argv: argv.slice(0, MAX_ARGS),
    argvFrom,
    ...(workingDir && { workingDir }),
    env: env.names,
    mounts,
    gpu: gpuRequest(spec, fromPod?.gpuDevices),
    ...(memory && { memory }),
    nodePools: pools.length ? pools : fromPod?.nodePool ? [short(fromPod.nodePool) as string] : [],
  };
  if (cut) submission.cut = true;
  return submission;
}
