import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 4 (issue 24): general mechanisms for the kinds of miss left on the development sets, each
 * as a short log written for the mechanism in the words the software prints, not a copy of a
 * corpus log. Each case fails with its mechanism removed.
 */
const CASES: Record<string, LogCase> = {
  "a C++ terminate gives its place to its what(): the what() of a watchdog's timeout is NCCL's": {
    log: [
      'step 1200 loss 1.82',
      "terminate called after throwing an instance of 'c10::DistBackendError'",
      '  what():  [PG 0 Rank 2] Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.',
      'Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:565 (most recent call first):',
    ],
    line: 3,
    category: 'nccl',
  },
  'and a what() that names a signal the process got is that signal, not a crash': {
    log: ["terminate called after throwing an instance of 'std::runtime_error'", '  what():  worker 3 was killed by SIGKILL'],
    line: 2,
    category: 'host-oom',
  },
  'a paste cut inside a traceback, after a raise: the raise is the line and names the failure, not the bare header': {
    log: [
      'Traceback (most recent call last):',
      '  File "/app/serve.py", line 12, in <module>',
      '    engine = build_engine(cfg)',
      '  File "/app/engine.py", line 88, in build_engine',
      '    raise ValueError("No available memory for the cache blocks. "',
      '                     "Try increasing `gpu_memory_utilization` when initializing the engine.")',
    ],
    line: 5,
    category: 'gpu-oom',
  },
  'and so with no header pasted, under a logger prefix, when only source lines follow the raise': {
    log: [
      '[rank1]: epoch 3 step 10',
      '[rank1]:   File "/app/data.py", line 40, in load_shard',
      '[rank1]:     raise PermissionError(f"[Errno 13] Permission denied: {path}")',
    ],
    line: 3,
    category: 'permission',
  },
  "a paste cut inside the exception's dotted name: the traceback is unfinished, the launcher's report of a SIGKILL is the line": {
    log: [
      'E0101 10:00:00.000000 4242 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 0 (pid: 4300) of binary: /usr/bin/python3',
      'Traceback (most recent call last):',
      '  File "/usr/local/bin/torchrun", line 8, in <module>',
      '    sys.exit(main())',
      '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 269, in launch_agent',
      '    raise ChildFailedError(',
      'torch.distributed.elastic.multiprocessing.',
    ],
    line: 1,
    category: 'host-oom',
  },
  "a CUDA error NCCL logs on its own line, with no rank prefix, after the rank's NCCL error: cuda": {
    log: [
      '[rank1]: RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
      "gpu-node-4:2211:2290 [1] misc/cudawrap.cc:188 NCCL WARN Cuda failure 3 'initialization error'",
    ],
    line: 1,
    category: 'cuda',
  },
  'and so when it comes further on than the lines right after the NCCL error': {
    log: [
      'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
      'ERROR:root:all-reduce of bucket 3 failed',
      'step 400 aborted',
      'saving emergency state',
      'closing dataloader workers',
      'tearing down process group',
      "gpu-node-4:2211:2290 [1] transport/p2p.cc:272 NCCL WARN Cuda failure 'invalid argument'",
    ],
    line: 1,
    category: 'cuda',
  },
  "a GEMM kernel of TensorRT-LLM's or FlashInfer's that fails to run is the GPU's layer, not an unknown error": {
    log: [
      'Capturing CUDA graph for batch size 8',
      "tvm.error.InternalError: Error in function 'run' at csrc/trtllm_batched_gemm_runner.cu:286: Error occurred when running GEMM! (numBatches: 64, GemmMNK: 8 7168 2048)",
    ],
    line: 2,
    category: 'cuda',
  },
};

describe('round 4: mechanisms for the development sets\' remaining kinds of miss', () => {
  itTriagesEach(CASES);
});
