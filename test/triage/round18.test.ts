import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 18 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "a job's error a wrapper relays at info level stands in when nothing else is a candidate": {
    log: [
      '[2025-04-07 03:45:04] [INFO] [rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 80.00 MiB. GPU 1 has a total capacity of 23.64 GiB of which 80.25 MiB is free.',
      '[2025-04-07 03:45:08] [INFO] Traceback (most recent call last):',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  'an error relayed at info level gives way to a real error after it': {
    log: ['[2025-04-07 03:45:04] [INFO] Failed to initialize NVML: Unknown Error', 'RuntimeError: CUDA error: an illegal memory access was encountered'],
    line: 2,
    category: 'cuda',
  },
  "Docker Desktop's time and stream are a line prefix, so PyTorch's hint stays noise": {
    log: ['2025-06-11 11:01:08\tstdout Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.', '2025-06-11 11:01:08\tstdout RuntimeError: CUDA error: device-side assert triggered'],
    line: 2,
    category: 'cuda',
  },
  "the Hub's cache warning gives way to the error after it": {
    log: [
      'There was a problem when trying to write in your cache folder (/.cache/huggingface/hub). You should set the environment variable TRANSFORMERS_CACHE to a writable directory.',
      'Exception: "Errors fetching files: \\nissue a download request for file: \\"config.json\\"; the repo file list has not been validated."',
    ],
    line: 2,
    category: 'data-path',
  },
  "a model server's missing CUDA compiler is the image's CUDA toolkit": {
    log: ['  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found', '  ninja: build stopped: subcommand failed.'],
    line: 1,
    category: 'cuda',
  },
  "Ray's driver waiting for processes that never joined is the job's parts not meeting": {
    log: ["[2023-10-24 03:59:58,924 W 8 8] global_state_accessor.cc:401: Some processes that the driver needs to connect to have not registered with GCS, so retrying. Have you run 'ray start' on this node?"],
    line: 1,
    category: 'nccl',
  },
  "vLLM's engine that failed to start, before the cancellations after it": {
    log: ['2026-02-11 02:15:04.629 1 kserve ERROR [__main__.py:<module>():337] Failed to start model server: Engine core initialization failed. See root cause above. Failed core proc(s): {}', 'asyncio.exceptions.CancelledError'],
    line: 1,
    category: 'other',
  },
  "DeepSpeed's launcher killing its workers stands in when the paste has nothing else": {
    log: ['[2024-01-04 20:22:18,048] [INFO] [RANK 0] building FineTuneTrainCogVLMModel model ...', '[2024-01-04 20:22:26,074] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 133485'],
    line: 2,
    category: 'other',
  },
  'ZeRO-3 with a device_map is the command': {
    log: ['ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`.'],
    line: 1,
    category: 'config',
  },
  "a DeepSpeed config that disagrees with the Trainer's arguments": {
    log: ['ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:', '- ds bf16.enabled=True vs hf bf16|bf16_full_eval=False'],
    line: 1,
    category: 'config',
    recognised: true,
  },
  'Unsloth run on several GPUs is the command': {
    log: ['RuntimeError: Unsloth currently does not work on multi GPU setups - sadly we are a 2 brother team so enabling it will require much more work, so we have to prioritize. Please understand!'],
    line: 1,
    category: 'config',
  },
  'a collective on a CPU tensor under NCCL is the backend the job chose': {
    log: ['[rank2]:     work = default_pg.broadcast([tensor], opts)', '[rank2]: RuntimeError: No backend type associated with device type cpu'],
    line: 2,
    category: 'config',
  },
  'two ranks on one GPU, as symmetric memory finds them': {
    log: ['(EngineCore_DP0 pid=28191) RuntimeError: CUDASymmetricMemoryAllocator::rendezvous: detected allocations from overlapping devices from different ranks.'],
    line: 1,
    category: 'config',
  },
  "more GPUs asked for than the Ray cluster has is the job's size, not a wait": {
    log: ['ValueError: Not enough GPUs available. Requested 16 GPUs, but only 8 are available in the cluster.'],
    line: 1,
    category: 'config',
    transient: false,
  },
};

describe('round 18: the first run on new logs', () => {
  itTriagesEach(CASES);
});
