import { triageText } from '../../src/triage/index.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * What round 3 of dev2 (issue 24, the accelerator and memory side) showed the triage
 * misreading, each as a short log in the words the software prints (vocabulary.ts and
 * signatures.ts cite them), not a copy of a dev2 log. Each case fails with its mechanism removed.
 */
const CASES: Record<string, LogCase> = {
  "a TensorRT engine of another TensorRT version is the image's CUDA stack, not an unknown server error": {
    log: [
      'I0412 09:00:01.000000 1 model_lifecycle.cc:469] loading: detector:1',
      'E0412 09:00:02.000000 1 logging.cc:43] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization (Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match. Note: Current Version: 236, Serialized Engine Version: 239)',
      'E0412 09:00:02.000100 1 logging.cc:43] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine deserialization failed.)',
      '| detector | 1       | UNAVAILABLE: Internal: unable to create TensorRT engine |',
    ],
    line: 2,
    category: 'cuda',
  },
  "TensorRT-LLM failing to load its engine, inside Triton's model table": {
    log: [
      '| postprocessing | 1 | READY |',
      '| tensorrt_llm | 1 | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/src/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:85) |',
    ],
    line: 2,
    category: 'cuda',
  },
  "an engine planned on another GPU": {
    log: ['Loading engine /models/yolo.plan', '[TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.9 got compute 8.0, please rebuild.'],
    line: 2,
    category: 'cuda',
  },
  "a memory fraction's cap is PyTorch's allocator running out of GPU memory, also inside a server's panic": {
    log: [
      "thread 'main' panicked at 'Unable to warmup model: Generation(\"Allocation on device 1 would exceed allowed memory. (out of memory)\\nCurrently allocated     : 30.50 GiB\")', router/src/main.rs:310:18",
      'Error: WebserverFailed',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  "gloo's pair failing to connect is a connect failure between ranks, not a data source out of reach": {
    log: [
      'Traceback (most recent call last):',
      '  File "/app/train.py", line 40, in <module>',
      '    group = dist.new_group(backend="gloo")',
      'RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:815] connect [10.4.2.17]:41233: Connection refused',
    ],
    line: 4,
    category: 'nccl',
  },
  "gloo's pair timing out on a write to its peer": {
    log: ['epoch 2 step 80', 'RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:446] Write timeout [10.4.2.18]:62111'],
    line: 2,
    category: 'nccl',
  },
  "CUDA's missing launch configuration, reported through an allocator's terminate": {
    log: ['Reading partitions', "terminate called after throwing an instance of 'thrust::system::system_error'", '  what():  device free failed: __global__ function call is not configured'],
    line: 3,
    category: 'cuda',
  },
  "a CI runner's `exit code 137` is a SIGKILL, and the command typed behind a prompt is not the failure": {
    log: [
      "ci@runner-7:~$ grep 'exit code 137' job-4412.log",
      'ERROR: Job failed: exit code 137',
    ],
    line: 2,
    category: 'host-oom',
  },
  "docker's notice that it pulls a missing image is not the failure; deviceQuery's driver verdict on its own line is": {
    log: [
      '(base) lab@gpu-01:~/bench$ docker run --rm --gpus all cuda-samples ./deviceQuery',
      "Unable to find image 'cuda-samples:latest' locally",
      'latest: Pulling from library/cuda-samples',
      'Status: Downloaded newer image for cuda-samples:latest',
      './deviceQuery Starting...',
      'cudaGetDeviceCount returned 35',
      '-> CUDA driver version is insufficient for CUDA runtime version',
      'Result = FAIL',
    ],
    line: 7,
    category: 'cuda',
  },
  // Vocabulary from the same sources, for failures of these kinds the round did not show.
  "PyTorch's CPU allocator refusing an allocation is host memory": {
    log: ['Loading shards', 'RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: you tried to allocate 4294967296 bytes.'],
    line: 2,
    category: 'host-oom',
  },
  "PyTorch failing to initialise CUDA in a container given no GPU": {
    log: ['  File "/usr/lib/python3/site-packages/torch/cuda/__init__.py", line 302, in _lazy_init', '    torch._C._cuda_init()', 'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.'],
    line: 3,
    category: 'cuda',
  },
  "a Triton kernel asking for more shared memory than the GPU has": {
    log: ['Compiling flash kernel', 'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 232448, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.'],
    line: 2,
    category: 'cuda',
  },
};

describe('the kinds of miss round 3 of dev2 showed (accelerator and memory)', () => {
  itTriagesEach(CASES);

  it("keeps a prompt's command out of the way without hiding the output after it", () => {
    const r = triageText("user@box:/srv$ grep 'CUDA error: an illegal memory access' train.log\nRuntimeError: CUDA error: an illegal memory access was encountered\n");
    expect([r.firstError?.lineNumber, r.category]).toEqual([2, 'cuda']);
    // A host in a message is not a prompt: ssh's own error still counts.
    expect(triageText('git@github.com: Permission denied (publickey).\n').category).toBe('permission');
  });

  it("takes the launcher's report of a SIGKILL over an exception of no known kind, not Ray's list of guesses", () => {
    const torchrun = [
      'E0105 11:02:03.000000 912 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 1 (pid: 915) of binary: /usr/bin/python3',
      'Traceback (most recent call last):',
      '  File "/usr/local/bin/torchrun", line 8, in <module>',
      '    sys.exit(main())',
      'torch.distributed.elastic.multiprocessing.errors.',
    ];
    expect(triageText(`${torchrun.join('\n')}\n`).category).toBe('host-oom');
    const ray = [
      'ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.',
      'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called.',
    ];
    expect(triageText(`${ray.join('\n')}\n`).category).toBe('other');
  });

  it('reads docker reporting a container killed by SIGKILL as out of host memory', () => {
    expect(triageText('train-1 exited with code 137\n').category).toBe('host-oom');
  });
});
