/**
 * submissionOf on every workload shape of the Run:ai examples, on Kubeflow jobs and pods, on
 * odd and hostile objects: what it keeps, and what it must never keep.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { parseImage, submissionOf } from '../../src/recovery/submission.js';
import { SECRETS } from '../text/corpus.js';

const examples = new URL('../fixtures/spec/runai-examples/', import.meta.url);
function docs(file: string): Array<Record<string, unknown>> {
  return parseAllDocuments(readFileSync(new URL(file, examples), 'utf8')).map((d) => d.toJS() as Record<string, unknown>);
}
const byKind = (file: string, kind: string) => docs(file).find((d) => d.kind === kind)!;

describe('submissionOf on the Run:ai examples', () => {
  it('keeps what the guide asks of a TrainingWorkload: image, command, arguments, env names, PVCs, GPU, memory', () => {
    const s = submissionOf(byKind('01-trainingworkload-failed.yaml', 'TrainingWorkload'));
    expect(s).toEqual({
      kind: 'TrainingWorkload',
      image: { ref: 'registry.example.com/vision/resnet-train:1.4.2', repository: 'registry.example.com/vision/resnet-train', tag: '1.4.2' },
      command: 'python',
      arguments: 'train.py --epochs 30 --data /data/imagenet-subset',
      argv: ['python', 'train.py', '--epochs', '30', '--data', '/data/imagenet-subset'],
      argvFrom: 'workload',
      env: ['WANDB_MODE'],
      mounts: [{ source: 'pvc', name: 'imagenet-subset', path: '/data', readOnly: true, persistent: true }],
      gpu: { devices: '1' },
      memory: '16G',
      nodePools: [],
    });
  });

  it('never keeps an environment value, not even in part', () => {
    const s = submissionOf(byKind('01-trainingworkload-failed.yaml', 'TrainingWorkload'));
    expect(JSON.stringify(s)).not.toContain('offline');
    const rest = submissionOf(docs('05-rest-api-workloads-failed.yaml')[0].workloads instanceof Array ? (docs('05-rest-api-workloads-failed.yaml')[0].workloads as unknown[])[0] : {});
    expect(rest.env).toEqual(['WANDB_MODE']);
    expect(JSON.stringify(rest)).not.toContain('offline');
  });

  it('splits a bash -c argument string the way the pod runs it', () => {
    const s = submissionOf(byKind('02-trainingworkload-stopped.yaml', 'TrainingWorkload'));
    expect(s.argv).toEqual(['bash', '-c', 'python pretrain.py --config configs/bert-base.yaml']);
    expect(s.gpu).toEqual({ devices: '2' });
  });

  it('reads the node pool of a pending workload', () => {
    expect(submissionOf(byKind('03-trainingworkload-pending.yaml', 'TrainingWorkload')).nodePools).toEqual(['default']);
  });

  it('knows a distributed PyTorch workload runs its command in every pod, master and workers', () => {
    const s = submissionOf(byKind('04-distributedworkload-pytorch.yaml', 'DistributedWorkload'));
    expect(s.distribution).toEqual({ framework: 'PyTorch', runsOn: 'every-pod', pods: 3 });
    expect(s.argv[0]).toBe('torchrun');
  });

  it('reads the child objects too: the RunaiJob and the PyTorchJob carry the pod template', () => {
    const job = submissionOf(byKind('01-trainingworkload-failed.yaml', 'RunaiJob'));
    expect(job.argv).toEqual(['python', 'train.py', '--epochs', '30', '--data', '/data/imagenet-subset']);
    expect(job.argvFrom).toBe('pod');
    const pytorch = submissionOf(byKind('04-distributedworkload-pytorch.yaml', 'PyTorchJob'));
    expect(pytorch.distribution).toEqual({ framework: 'PyTorch', runsOn: 'every-pod', pods: 3 });
    expect(pytorch.image?.tag).toBe('24.05-py3');
  });

  it('takes the command from the pods when the workload gives none, the master first', () => {
    const cr = { kind: 'TrainingWorkload', spec: { image: { value: 'img:1' } } };
    const pods = docs('04-distributedworkload-pytorch.yaml').filter((d) => d.kind === 'Pod').reverse();
    const s = submissionOf(cr, pods);
    expect(s.argv).toEqual(['torchrun', '--nproc_per_node=8', 'finetune.py', '--model', 'llama-3-8b']);
    expect(s.argvFrom).toBe('pod');
    expect(s.gpu.devices).toBe('8');
  });

  it('prefers what the workload declares over its pods, so a resubmission compares like with like', () => {
    const cr = byKind('01-trainingworkload-failed.yaml', 'TrainingWorkload');
    const pod = byKind('01-trainingworkload-failed.yaml', 'Pod');
    expect(submissionOf(cr, [pod])).toEqual(submissionOf(cr));
  });
});

describe('submissionOf on other shapes', () => {
  it('reads Run:ai data sources: NFS, S3, git, host paths', () => {
    const s = submissionOf({
      kind: 'TrainingWorkload',
      spec: {
        nfs: { items: { a: { value: { server: 'nfs.example', path: '/export/x', mountPath: '/nfs', readOnly: false } } } },
        s3: { items: { b: { value: { bucket: 'datasets', mountPath: '/s3' } } } },
        gitSync: { items: { c: { value: { repository: 'https://git.example/r.git', path: '/src' } } } },
        volumes: { items: { d: { value: { source: '/raid/data', mountPath: '/raid' } } } },
      },
    });
    expect(s.mounts.map((m) => [m.path, m.source, m.name, m.persistent])).toEqual([
      ['/nfs', 'nfs', 'nfs.example:/export/x', true],
      ['/raid', 'host-path', 'd', true],
      ['/s3', 's3', 'datasets', true],
      ['/src', 'git', 'https://git.example/r.git', false],
    ]);
  });

  it('tells GPU devices from a fraction and GPU memory', () => {
    expect(submissionOf({ kind: 'TrainingWorkload', spec: { gpu: { value: '0.5' } } }).gpu).toEqual({ fraction: '0.5' });
    expect(submissionOf({ kind: 'TrainingWorkload', spec: { gpuDevices: { value: 2 }, gpuMemory: { value: '20G' }, migProfile: { value: '1g.5gb' } } }).gpu).toEqual({ devices: '2', memory: '20G', mig: '1g.5gb' });
  });

  it('parses image references with registries, ports, tags and digests', () => {
    expect(parseImage('nvcr.io/nvidia/pytorch:24.05-py3')).toEqual({ ref: 'nvcr.io/nvidia/pytorch:24.05-py3', repository: 'nvcr.io/nvidia/pytorch', tag: '24.05-py3' });
    expect(parseImage('registry:5000/team/train')).toEqual({ ref: 'registry:5000/team/train', repository: 'registry:5000/team/train' });
    expect(parseImage('repo/x:1.0@sha256:abcd')).toEqual({ ref: 'repo/x:1.0@sha256:abcd', repository: 'repo/x', tag: '1.0', digest: 'sha256:abcd' });
  });

  it.each([null, 'a string', 42, [], {}, { spec: 'not an object' }, { spec: { command: { value: {} } } }, { kind: 'Pod', spec: { containers: ['x', null] } }])(
    'is tolerant of %j: an empty submission, never an error',
    (obj) => {
      const s = submissionOf(obj);
      expect(s.argv).toEqual([]);
      expect(s.env).toEqual([]);
    },
  );

  it('redacts a secret on the command line before keeping it', () => {
    const args = SECRETS.filter((x) => !x.text.includes('\n')).map((x) => x.text).join(' ');
    const s = submissionOf({ kind: 'TrainingWorkload', spec: { command: { value: 'python' }, arguments: { value: `train.py ${args}` } } });
    const kept = JSON.stringify(s);
    for (const secret of SECRETS) expect({ secret: secret.what, leaked: kept.includes(secret.leak) }).toEqual({ secret: secret.what, leaked: false });
  });

  it('redacts a flag\'s value given as its own argv element', () => {
    const s = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['python', 'train.py', '--password', 'Tr0ub4dor-and-3', '--epochs', '3'] }] } });
    expect(s.argv).toEqual(['python', 'train.py', '--password', '[REDACTED:password]', '--epochs', '3']);
  });

  it('keeps variable references on the command line as written: they are not credentials', () => {
    const s = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['bash', '-c', 'huggingface-cli login --token ${HF_TOKEN} && python t.py --api-key "$KEY"'] }] } });
    expect(s.argv[2]).toBe('huggingface-cli login --token ${HF_TOKEN} && python t.py --api-key "$KEY"');
  });

  it('cuts a megabyte of arguments, and says so', () => {
    const huge = `train.py ${'--flag value '.repeat(90_000)}`;
    const s = submissionOf({ kind: 'TrainingWorkload', spec: { command: { value: 'python' }, arguments: { value: huge } } });
    expect(s.cut).toBe(true);
    expect(JSON.stringify(s).length).toBeLessThan(200_000);
    expect(s.argv.length).toBeLessThanOrEqual(512);
  });

  it('keeps at most 256 environment names and drops names no shell would accept', () => {
    const items = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`VAR_${String(i).padStart(3, '0')}`, { value: 'v' }]));
    const s = submissionOf({ kind: 'TrainingWorkload', spec: { environment: { items: { ...items, 'bad name': { value: 'x' }, '<!channel>': { value: 'y' } } } } });
    expect(s.env).toHaveLength(256);
    expect(s.env).not.toContain('bad name');
    expect(s.cut).toBe(true);
  });

  it('shows control characters in a command as U+FFFD and drops invisible ones', () => {
    const s = submissionOf({ kind: 'TrainingWorkload', spec: { command: { value: 'python\u202e t\x1b[31m.py\x07' } } });
    expect(s.command).toBe('python t.py\ufffd');
  });
});
