import { PREFILTER, TIER, classifyLine } from '../../src/triage/signatures.js';
import { categoryLabel, type Category } from '../../src/triage/index.js';

describe('classifyLine', () => {
  it.each<[string, Category, number]>([
    ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB', 'gpu-oom', TIER.recognised],
    ['jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1.2G', 'gpu-oom', TIER.recognised],
    ['Killed', 'host-oom', TIER.recognised],
    ['RuntimeError: DataLoader worker (pid 123) is killed by signal: Killed.', 'host-oom', TIER.recognised],
    ['MemoryError: Unable to allocate 12.0 GiB for an array', 'host-oom', TIER.recognised],
    ['RuntimeError: CUDA error: an illegal memory access was encountered', 'cuda', TIER.recognised],
    ['RuntimeError: No CUDA GPUs are available', 'cuda', TIER.recognised],
    // A CUDA error reported through NCCL is cuda (precedence.ts).
    ['torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error', 'cuda', TIER.recognised],
    ['torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error', 'nccl', TIER.recognised],
    ['torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError', 'nccl', TIER.recognised],
    ["ModuleNotFoundError: No module named 'deepspeed'", 'import', TIER.recognised],
    ['OSError: libcudart.so.12: cannot open shared object file: No such file or directory', 'import', TIER.recognised],
    ["FileNotFoundError: [Errno 2] No such file or directory: '/data/x'", 'data-path', TIER.recognised],
    ["PermissionError: [Errno 13] Permission denied: '/data/out'", 'permission', TIER.recognised],
    ["mkdir: cannot create directory '/data/runs': Read-only file system", 'permission', TIER.recognised],
    ['OSError: [Errno 28] No space left on device', 'volume-mount', TIER.recognised],
    ['exec /usr/bin/python: exec format error', 'config', TIER.recognised],
    ['Error: couldn\'t find key HF_TOKEN in Secret runai-team-a/hf', 'config', TIER.recognised],
    ['Warning  FailedScheduling  0/4 nodes are available: 4 Insufficient nvidia.com/gpu.', 'scheduling', TIER.recognised],
    ['Warning  FailedMount  MountVolume.SetUp failed for volume "pvc-1"', 'volume-mount', TIER.recognised],
    ['Status: Failed  Reason: Evicted  Message: The node was low on resource: memory.', 'eviction', TIER.recognised],
    ['Segmentation fault (core dumped)', 'crash', TIER.recognised],
    ['Illegal instruction (core dumped)', 'crash', TIER.recognised],
    ['[E ProcessGroupNCCL.cpp:607] Watchdog caught collective operation timeout: WorkNCCL ran for 600000 milliseconds before timing out.', 'nccl', TIER.secondary],
    ['RuntimeError: NCCL communicator was aborted on rank 2.', 'nccl', TIER.secondary],
    // The launcher's generic echo: any specific cascade (exitcode -9, a watchdog) says more.
    ['torch.distributed.elastic.multiprocessing.errors.ChildFailedError:', 'other', TIER.mention],
    ['ValueError: too many values to unpack (expected 2)', 'other', TIER.exception],
    ['error: failed to load the run configuration', 'other', TIER.exception],
    ['2024-05-01 12:00:00 ERROR uploader: upload failed, will continue', 'other', TIER.secondary],
  ])('classifies %j as %s', (line, category, tier) => {
    expect(classifyLine(line)).toMatchObject({ category, tier });
    expect(PREFILTER.test(line)).toBe(true);
  });

  it.each([
    'node-1:12:34 [0] NCCL INFO NET/IB : No device found.',
    '/x.py:10: UserWarning: TypedStorage is deprecated. It will be removed in the future.',
    "WARNING: Retrying (Retry(total=4)) after connection broken by 'ReadTimeoutError'",
    '2024-05-01 12:00:00 | INFO | eval | eval_error=0.12 failures=0',
    'INFO:root:no errors found during validation',
    'CUDA kernel errors might be asynchronously reported at some other API call',
    'step 10 loss=0.2',
  ])('ignores the noise line %j', (line) => {
    expect(classifyLine(line)).toBeNull();
  });

  it('labels every category', () => {
    expect(categoryLabel('gpu-oom')).toBe('GPU out of memory');
    expect(categoryLabel('eviction')).toMatch(/preemption/);
  });
});
