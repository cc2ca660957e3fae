/**
 * logAdvice over real command lines: Kubernetes and Kubeflow manifests, job scripts and the
 * Run:ai examples (test/fixtures/commands/, sources in test/fixtures/README.md), then row by
 * row over the shapes each finding depends on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { logAdvice, type LogFinding, type LogFindingKind } from '../../src/recovery/log-advice.js';
import { submissionOf, type Submission } from '../../src/recovery/submission.js';
import { LOG_SAVING } from '../../src/lifecycle/states.js';

const commands = new URL('../fixtures/commands/', import.meta.url);
const examples = new URL('../fixtures/spec/runai-examples/', import.meta.url);

function manifest(name: string): unknown {
  return parseAllDocuments(readFileSync(new URL(`manifests/${name}.yaml`, commands), 'utf8'))[0].toJS();
}

/** A job script as a workload runs it: `bash -c SCRIPT` in a pod without volumes. */
function script(name: string): unknown {
  const text = readFileSync(new URL(`scripts/${name}.sh`, commands), 'utf8');
  return { kind: 'Pod', spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/pytorch:24.05-py3', command: ['bash', '-c', text] }] } };
}

function example(file: string, kind: string): unknown {
  return parseAllDocuments(readFileSync(new URL(file, examples), 'utf8'))
    .map((d) => d.toJS() as Record<string, unknown>)
    .find((d) => d.kind === kind || (kind === 'REST' && 'workloads' in d));
}

const kinds = (findings: LogFinding[]): LogFindingKind[] => findings.map((f) => f.kind);

describe('logAdvice on real command lines', () => {
  const manifests: Array<[string, LogFindingKind[]]> = [
    ['aws-megatron-gpt3-pytorchjob', []],
    ['aws-fsdp-llama3-8b', []],
    ['aws-ddp-custom-container', []],
    ['aws-megatron-getdata-job', []],
    ['aws-megatron-prepdata-job', ['buffered-output']],
    ['aws-nemo-data-processing-pod', []],
    ['aws-distill-accelerate', []],
    ['aws-stable-diffusion-composer', []],
    ['aws-neuronx-llama3-train', []],
    ['aws-hyperpod-imagenet-team-a', []],
    ['aws-nsight-fsdp', []],
    ['aws-nccl-tests-mpijob', []],
    ['aws-optimum-neuron-peft', []],
    ['mpi-operator-horovod-tensorflow-mnist', ['buffered-output']],
    ['mpi-operator-pi', []],
    ['mpi-operator-tensorflow-benchmarks', ['buffered-output']],
    ['deepops-pytorch-job', ['buffered-output']],
    ['deepops-tensorflow-mpi-job', ['buffered-output']],
    ['deepops-roce-heredoc', ['buffered-output']],
    ['deepops-gpu-test-job', []],
    ['gke-tensorflow-bash', []],
    ['gke-maxtext-checkpoint-job', []],
    ['conceptbert-vilbert-eval-job', []],
  ];
  it.each(manifests)('manifest %s: %j', (name, expected) => {
    expect(kinds(logAdvice(submissionOf(manifest(name))))).toEqual(expected);
  });

  const scripts: Array<[string, LogFindingKind[]]> = [
    ['nemo-llama3-fault-tolerance', ['masked-exit', 'buffered-output', 'log-not-persistent']],
    ['nemo-llama3-straggler-detection', ['masked-exit', 'buffered-output', 'log-not-persistent']],
    ['megatron-gpt3-175b', []],
    ['megatron-llama3-8b-fp8', []],
    ['megatron-gptoss-train', []],
    ['megatron-bisect-tee', ['buffered-output']],
    ['torchtitan-run-train', ['buffered-output']],
    ['accelerate-slurm-multinode', []],
    ['deepspeed-xpu-compile', ['masked-exit']],
    ['khangtruong-finetune-sd-run', ['masked-exit']],
    ['vocim-cmd', ['masked-exit', 'buffered-output']],
    ['grpo-summarization-train', []],
    ['babylm-run-hpc-expt', []],
    ['ultra-light-trainer-run-example', []],
    ['tesseract-tesstrain-run-command', ['masked-exit']],
  ];
  it.each(scripts)('script %s: %j', (name, expected) => {
    expect(kinds(logAdvice(submissionOf(script(name))))).toEqual(expected);
  });

  it.each([
    ['01-trainingworkload-failed.yaml', 'TrainingWorkload', ['buffered-output']],
    ['02-trainingworkload-stopped.yaml', 'TrainingWorkload', ['buffered-output']],
    ['03-trainingworkload-pending.yaml', 'TrainingWorkload', []],
    ['04-distributedworkload-pytorch.yaml', 'DistributedWorkload', []],
  ] as Array<[string, string, LogFindingKind[]]>)('Run:ai example %s (%s): %j', (file, kind, expected) => {
    expect(kinds(logAdvice(submissionOf(example(file, kind))))).toEqual(expected);
  });

  it('covers every fixture in test/fixtures/commands', () => {
    const listed = [...manifests.map(([n]) => `manifests/${n}.yaml`), ...scripts.map(([n]) => `scripts/${n}.sh`)].sort();
    const present = ['manifests', 'scripts'].flatMap((dir) => readdirSync(new URL(`${dir}/`, commands)).map((f) => `${dir}/${f}`)).sort();
    expect(listed).toEqual(present);
  });

  it('names the pipe, the command and the log file in its findings', () => {
    const [masked, buffered, lost] = logAdvice(submissionOf(script('nemo-llama3-fault-tolerance')));
    expect(masked.problem).toContainEqual({ code: 'tee' });
    expect(masked.command).toMatch(/^coverage run -a /);
    expect(masked.guide).toBe(LOG_SAVING.pipefail);
    expect(buffered.guide).toBe(LOG_SAVING.unbuffered);
    expect(lost.path).toBe('/tmp/llm_tests/llama_pretrain_results/run.log');
    expect(lost.guide).toBe(LOG_SAVING.persistentMount);
  });
});

/** A pod running `command` with a PVC at /data and an emptyDir at /scratch. */
function pod(command: string[], options: { env?: string[]; workingDir?: string; kind?: string } = {}): Submission {
  const container = {
    name: 'main',
    image: 'img:1',
    command,
    env: (options.env ?? []).map((name) => ({ name, value: 'value-never-kept' })),
    ...(options.workingDir && { workingDir: options.workingDir }),
    volumeMounts: [
      { name: 'data', mountPath: '/data' },
      { name: 'scratch', mountPath: '/scratch' },
      { name: 'cfg', mountPath: '/etc/cfg' },
    ],
  };
  const podSpec = {
    containers: [container],
    volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: 'team-data' } },
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'c' } },
    ],
  };
  if (options.kind === 'PyTorchJob') {
    return submissionOf({ kind: 'PyTorchJob', spec: { pytorchReplicaSpecs: { Master: { replicas: 1, template: { spec: podSpec } }, Worker: { replicas: 3, template: { spec: podSpec } } } } });
  }
  if (options.kind === 'Job') return submissionOf({ kind: 'Job', spec: { template: { spec: podSpec } } });
  return submissionOf({ kind: 'Pod', spec: podSpec });
}

const sh = (script: string, options?: Parameters<typeof pod>[1]) => kinds(logAdvice(pod(['bash', '-c', script], options)));

describe('logAdvice, row by row', () => {
  it.each([
    ['python train.py 2>&1 | tee /data/train.log', ['masked-exit', 'buffered-output']],
    ['set -o pipefail; python -u train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['set -euo pipefail\npython -u train.py |& tee -a /data/logs/train.log', []],
    ['set -eo pipefail && python -u train.py | tee /data/x.log', []],
    ['set -o pipefail; set +o pipefail; python -u train.py | tee /data/x.log', ['masked-exit']],
    ['python -u train.py | tee /data/x.log; exit ${PIPESTATUS[0]}', []],
    ['python -u train.py | grep -v warning > /data/x.log', ['masked-exit']],
    ['echo start | tee -a /data/x.log', []],
    ['( python -u a.py; python -u b.py ) 2>&1 | tee /data/x.log', ['masked-exit']],
    ['{ python -u a.py; } | tee /data/x.log', ['masked-exit']],
  ] as Array<[string, LogFindingKind[]]>)('pipes and pipefail: %s → %j', (script, expected) => {
    expect(sh(script)).toEqual(expected);
  });

  it('reads pipefail given to the shell itself', () => {
    expect(kinds(logAdvice(pod(['bash', '-o', 'pipefail', '-c', 'python -u t.py | tee /data/l'])))).toEqual([]);
    expect(kinds(logAdvice(pod(['/bin/bash', '-euo', 'pipefail', '-c', 'python -u t.py | tee /data/l'])))).toEqual([]);
    expect(kinds(logAdvice(pod(['/bin/bash', '-lc', 'python -u t.py | tee /data/l'])))).toEqual(['masked-exit']);
    expect(kinds(logAdvice(pod(['/bin/bash', '-c', '--', 'python -u t.py | tee /data/l'])))).toEqual(['masked-exit']);
  });

  it.each([
    ['python train.py', ['buffered-output']],
    ['python -u train.py', []],
    ['python3 -Bu train.py', []],
    ['python -u -m mypkg.train', []],
    ['python -m mypkg.train', ['buffered-output']],
    ["python -c 'import torch; print(torch.cuda.is_available())'", ['buffered-output']],
    ['PYTHONUNBUFFERED=1 python train.py', []],
    ['export PYTHONUNBUFFERED=1\npython train.py', []],
    ['env PYTHONUNBUFFERED=1 python train.py', []],
    ['exec python -u train.py', []],
    ['timeout 3600 python train.py', ['buffered-output']],
    ['nohup python3 -u train.py', []],
    ['uv run --with torch python train.py', ['buffered-output']],
    ['./train.py --epochs 3', ['buffered-output']],
    ['python -m pip install -r requirements.txt && python -u train.py', []],
    ['torchrun --nproc_per_node=8 train.py', []],
    ['python -m torch.distributed.run --nproc_per_node=8 train.py', []],
    ['deepspeed --num_gpus 8 train.py --deepspeed ds.json', []],
    ['accelerate launch --num_processes 1 train.py', ['buffered-output']],
    ['accelerate launch --multi_gpu train.py', []],
    ['mpirun -np 4 python train.py', ['buffered-output']],
    ['mpirun -np 4 -x PYTHONUNBUFFERED=1 python train.py', []],
    ['horovodrun -np 4 -H localhost:4 python train.py', ['buffered-output']],
    ['python - <<EOF\nprint("hi")\nEOF', ['buffered-output']],
    ['bash <<\'EOF\'\npython -u train.py | tee /data/x.log\nEOF', ['masked-exit']],
  ] as Array<[string, LogFindingKind[]]>)('Python and launchers: %s → %j', (script, expected) => {
    expect(sh(script)).toEqual(expected);
  });

  it('takes PYTHONUNBUFFERED from the environment names, and from the PyTorch operator', () => {
    expect(sh('python train.py', { env: ['PYTHONUNBUFFERED'] })).toEqual([]);
    expect(sh('python train.py', { kind: 'PyTorchJob' })).toEqual([]);
    expect(sh('python train.py', { kind: 'Job' })).toEqual(['buffered-output']);
  });

  it('says the accelerate default depends on the GPUs: several start workers as python -u', () => {
    const one = submissionOf({ kind: 'TrainingWorkload', spec: { command: { value: 'accelerate' }, arguments: { value: 'launch train.py' }, gpu: { value: '1' } } });
    const four = submissionOf({ kind: 'TrainingWorkload', spec: { command: { value: 'accelerate' }, arguments: { value: 'launch train.py' }, gpu: { value: '4' } } });
    expect(kinds(logAdvice(one))).toEqual(['buffered-output']);
    expect(kinds(logAdvice(four))).toEqual([]);
  });

  it.each([
    ['python -u t.py | tee /workspace/train.log', ['masked-exit', 'log-not-persistent']],
    ['python -u t.py > /workspace/train.log 2>&1', ['log-not-persistent']],
    ['python -u t.py > /data/logs/train.log 2>&1', []],
    ['python -u t.py > /scratch/train.log 2>&1', ['log-not-persistent']],
    ['python -u t.py > /dev/null 2>&1', []],
    ['python -u t.py 2>&1 | tee /proc/1/fd/1', ['masked-exit']],
    ['python -u t.py > train.log 2>&1', []],
    ['cd /data/run && python -u t.py > train.log 2>&1', []],
    ['cd /workspace && python -u t.py > train.log 2>&1', ['log-not-persistent']],
    ['python -u t.py > $LOG_DIR/train.log', []],
    ['python -u t.py > /workspace/logs/train.$RANK.log', ['log-not-persistent']],
  ] as Array<[string, LogFindingKind[]]>)('where the log goes: %s → %j', (script, expected) => {
    expect(sh(script)).toEqual(expected);
  });

  it('resolves a relative log path against the working directory', () => {
    expect(sh('python -u t.py > train.log', { workingDir: '/data/job' })).toEqual([]);
    expect(sh('python -u t.py > train.log', { workingDir: '/workspace' })).toEqual(['log-not-persistent']);
  });

  it('suggests the workload\'s own persistent mount as the place for the log', () => {
    const [finding] = logAdvice(pod(['bash', '-c', 'python -u t.py > /workspace/train.log 2>&1']));
    expect(finding.fix).toContainEqual({ code: '/data' });
    expect(finding.fix).toContainEqual({ code: 'team-data' });
  });

  it.each([
    ['mpirun -np 8 bash -c "python -u train.py > /data/logs/train.log 2>&1"', ['one-log-all-ranks']],
    ['mpirun -np 8 bash -c "python -u train.py > /data/logs/train.$OMPI_COMM_WORLD_RANK.log 2>&1"', []],
    ['mpirun -np 8 bash -c \'[ "$OMPI_COMM_WORLD_RANK" = 0 ] && python -u train.py > /data/train.log\'', []],
    ['srun bash -c "python -u train.py >> /data/train.log"', ['one-log-all-ranks']],
  ] as Array<[string, LogFindingKind[]]>)('one file for every rank: %s → %j', (script, expected) => {
    expect(sh(script)).toEqual(expected);
  });

  it('finds every pod of a PyTorchJob appending to one file on the shared PVC, and not a file each pod keeps', () => {
    expect(sh('torchrun train.py 2>&1 | tee -a /data/logs/train.log', { kind: 'PyTorchJob' })).toEqual(['masked-exit', 'one-log-all-ranks']);
    expect(sh('set -o pipefail; torchrun train.py 2>&1 | tee -a /data/logs/train-$HOSTNAME.log', { kind: 'PyTorchJob' })).toEqual([]);
    expect(sh('set -o pipefail; torchrun train.py 2>&1 | tee -a /data/logs/train.log', { kind: 'Job' })).toEqual([]);
  });

  // A launcher that starts several ranks prints them all on its own stdout: a tee or redirect
  // of the launcher saves every rank into one file, in one pod as in many.
  it.each([
    ['set -o pipefail; torchrun --nproc_per_node=8 train.py 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['set -o pipefail; torchrun --nproc-per-node 8 --rdzv_endpoint localhost:0 train.py 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['set -o pipefail; torchrun --standalone --nproc_per_node=$NGPU -m mypkg.train 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['python -m torch.distributed.run --nproc_per_node=4 train.py > /data/logs/train.log 2>&1', ['one-log-all-ranks']],
    ['set -o pipefail; { torchrun --nproc_per_node=8 train.py; } 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['bash -c "torchrun --nproc_per_node=8 train.py" > /data/logs/train.log 2>&1', ['one-log-all-ranks']],
    ['set -o pipefail; deepspeed --num_gpus 8 train.py --deepspeed ds.json 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['deepspeed --hostfile /etc/mpi/hostfile train.py > /data/logs/train.log 2>&1', ['one-log-all-ranks']],
    ['set -o pipefail; accelerate launch --multi_gpu train.py 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['mpirun -np 16 python -u train.py > /data/logs/train.log 2>&1', ['one-log-all-ranks']],
    ['mpirun --allow-run-as-root -x PYTHONUNBUFFERED=1 python train.py > /data/logs/train.log 2>&1', ['one-log-all-ranks']],
    // One rank, or ranks kept apart: nothing to say.
    ['set -o pipefail; torchrun train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['set -o pipefail; torchrun --nproc_per_node=1 train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['set -o pipefail; torchrun --nproc_per_node=8 train.py --nproc_per_node=8 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['set -o pipefail; torchrun --nproc_per_node=1 train.py --nproc_per_node=8 2>&1 | tee -a /data/logs/train.log', []],
    ['set -o pipefail; torchrun --nproc_per_node=8 --local-ranks-filter 0 --tee 3 train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['set -o pipefail; torchrun --nproc_per_node=8 train.py 2>&1 | tee -a /data/logs/train.$HOSTNAME.log', []],
    ['set -o pipefail; deepspeed --num_gpus 1 train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['set -o pipefail; accelerate launch --num_processes 1 train.py 2>&1 | tee -a /data/logs/train.log', ['buffered-output']],
    ['set -o pipefail; accelerate launch --config_file cfg.yaml train.py 2>&1 | tee -a /data/logs/train.log', []],
    // The launcher already writes each rank to a file of its own (the fix the finding gives).
    ['set -o pipefail; torchrun --nproc_per_node=8 --log-dir /data/logs --tee 3 train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['set -o pipefail; torchrun --nproc_per_node=8 --tee 3 train.py 2>&1 | tee -a /data/logs/train.log', ['one-log-all-ranks']],
    ['set -o pipefail; deepspeed --num_gpus 8 --enable_each_rank_log /data/logs train.py 2>&1 | tee -a /data/logs/train.log', []],
    ['mpirun -np 16 --output-filename /data/logs python -u train.py > /data/logs/train.log 2>&1', []],
    ['mpiexec.hydra -np 16 -outfile-pattern /data/logs/out.%r python -u train.py > /data/logs/train.log 2>&1', []],
    // MPICH's -outfile-pattern is the launcher's own file: per rank only when it names the rank (%r) or host (%h).
    ['mpiexec -np 16 -outfile-pattern /data/logs/out.txt python -u train.py', ['one-log-all-ranks']],
    ['mpiexec -np 16 -outfile-pattern=/data/logs/out.%h.txt python -u train.py', []],
    ['mpiexec -np 16 -outfile-pattern /workspace/out.%r.txt python -u train.py', ['log-not-persistent']],
    ['mpirun -np 1 python -u train.py > /data/logs/train.log 2>&1', []],
    ['torchrun --nproc_per_node=8 train.py', []],
    ['torchrun --nproc_per_node=8 train.py > /dev/null', []],
    ['set -o pipefail; torchrun --nproc_per_node=8 train.py 2>&1 | tee -a $LOG_FILE', []],
  ] as Array<[string, LogFindingKind[]]>)('every rank a launcher starts, saved into one file: %s → %j', (script, expected) => {
    expect(sh(script)).toEqual(expected);
  });

  it('counts "gpu", "auto" and deepspeed\'s default against the GPUs the workload asks for', () => {
    const run = (command: string, gpus: string) => kinds(logAdvice(submissionOf({ kind: 'TrainingWorkload', spec: { command: { value: 'bash' }, arguments: { value: `-c '${command}'` }, gpu: { value: gpus } } })));
    for (const command of ['torchrun --nproc_per_node=gpu train.py > /tmp/t.log', 'torchrun --nproc-per-node auto train.py > /tmp/t.log', 'deepspeed train.py > /tmp/t.log']) {
      expect(run(command, '1')).toEqual(['log-not-persistent']);
      expect(run(command, '4')).toEqual(['log-not-persistent', 'one-log-all-ranks']);
    }
  });

  it('names the launcher, and tells how that launcher keeps its ranks apart, on the workload\'s own mount', () => {
    const finding = (script: string) => logAdvice(pod(['bash', '-c', script])).find((f) => f.kind === 'one-log-all-ranks')!;
    const torch = finding('set -o pipefail; torchrun --nproc_per_node=8 train.py 2>&1 | tee -a /data/logs/train.log');
    expect(torch.problem).toContainEqual({ code: 'torchrun' });
    expect(torch.path).toBe('/data/logs/train.log');
    expect(torch.guide).toBe(LOG_SAVING.perRank);
    expect(torch.fix).toContainEqual({ code: '--log-dir /data/logs --tee 3' });
    expect(torch.fix).toContainEqual({ code: '--local-ranks-filter 0' });
    expect(finding('deepspeed --num_gpus 8 train.py > /data/t.log').fix).toContainEqual({ code: '--enable_each_rank_log /data/logs' });
    expect(finding('mpirun -np 8 python -u t.py > /data/t.log').fix).toContainEqual({ code: '--output-filename /data/logs' });
    expect(finding('set -o pipefail; accelerate launch --multi_gpu t.py | tee /data/t.log').problem).toContainEqual({ code: 'accelerate launch' });
    expect(finding('mpiexec -np 16 -outfile-pattern /data/logs/out.txt python -u t.py').fix).toContainEqual({ code: '/data/logs/out.txt.%r' });
  });

  it.each([
    ['python -u train.py --hf-token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123 2>&1 | tee -a /data/x.log', ['masked-exit', 'credential-in-log']],
    ['set -o pipefail; python -u train.py --password Tr0ub4dor-and-3 > /data/x.log', ['credential-in-log']],
    ['set -x; python -u train.py --api-key sk-proj-abcdefghijklmnopqrstuvwxyz0123', ['credential-in-log']],
    ['python -u train.py --hf-token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123', []],
    ['set -o pipefail; python -u train.py --hf-token $HF_TOKEN 2>&1 | tee -a /data/x.log', []],
    ['set -o pipefail; python -u train.py --hf-token "${HF_TOKEN}" 2>&1 | tee -a /data/x.log', []],
  ] as Array<[string, LogFindingKind[]]>)('credentials written to the log: %s → %j', (script, expected) => {
    expect(sh(script)).toEqual(expected);
  });

  it('never quotes the credential it found, only its kind', () => {
    const findings = logAdvice(pod(['bash', '-c', 'python -u train.py --hf-token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123 | tee /data/x.log']));
    const credential = findings.find((f) => f.kind === 'credential-in-log')!;
    expect(JSON.stringify(findings)).not.toContain('hf_AbCdEfGhIjKlMnOp');
    expect(credential.problem.join('')).toContain('a Hugging Face token');
  });

  it('reads exec-style argv (no shell) as a command, not as a script: its `|` is not a pipe', () => {
    expect(kinds(logAdvice(pod(['python', '-u', 'train.py', '|', 'tee', '/workspace/x.log'])))).toEqual([]);
  });
});
