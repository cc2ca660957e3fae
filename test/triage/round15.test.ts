import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 15 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "Warp's own frame around the runtime's out-of-memory string is the GPU's memory": {
    log: ['Warp CUDA error 2: out of memory (in function alloc_device_async, warp/native/warp.cu:588)', "terminate called after throwing an instance of 'std::bad_alloc'"],
    line: 1,
    category: 'gpu-oom',
  },
  "a solver's banner quoting the runtime's out-of-memory string is the GPU's memory": {
    log: ['', 'CUDA error !!!!! <out of memory> !!!!! ', 'at CUDA call error code: # 2402', 'MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD'],
    line: 2,
    category: 'gpu-oom',
  },
  "a program's own out-of-CPU-memory error is the host's memory": {
    log: ['Traceback (most recent call last):', '  File "df.py", line 228, in cholesky_eri_gpu', "RuntimeError: Out of CPU memory"],
    line: 3,
    category: 'host-oom',
  },
  'Vulkan finding no compatible driver in a headless container is the GPU driver stack': {
    log: [
      '2025-12-11T08:37:08Z [4,779ms] [Error] [carb.graphics-vulkan.plugin] VkResult: ERROR_INCOMPATIBLE_DRIVER',
      '2025-12-11T08:37:08Z [4,779ms] [Error] [carb.graphics-vulkan.plugin] vkCreateInstance failed. Vulkan 1.1 is not supported, or your driver requires an update.',
    ],
    line: 1,
    category: 'cuda',
  },
  "a lost Vulkan device is the GPU, not the memory its list of possible reasons names": {
    log: [
      '2026-01-22T14:49:49Z [258,132ms] [Error] [carb.graphics-vulkan.plugin] VkResult: ERROR_DEVICE_LOST',
      '2026-01-22T14:49:49Z [258,132ms] [Error] [gpu.foundation.plugin] A GPU crash occurred. Exiting the application...',
      'Reasons for the failure: a device lost, out of memory, or an unexpected bug.',
    ],
    line: 1,
    category: 'cuda',
  },
  "Vulkan's device out-of-memory is the GPU's memory": {
    log: ['vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY'],
    line: 1,
    category: 'gpu-oom',
  },
  "Apptainer refusing --nvccli under its setuid starter is the command's set-up": {
    log: ["INFO:    Setting 'NVIDIA_VISIBLE_DEVICES=all' to emulate legacy GPU binding.", 'FATAL:   nvidia-container-cli not allowed in setuid mode'],
    line: 2,
    category: 'config',
  },
  "UCX that cannot connect to a rank is the job's parts not reaching each other, not a data source": {
    log: [
      '[1700554343.440877] [node-1:7356 :0]            sock.c:323  UCX  ERROR   connect(fd=48, dest_addr=172.17.0.1:42887) failed: Connection refused',
      '[node-1:07356] *** An error occurred in MPI_Allgather',
    ],
    line: 1,
    category: 'nccl',
  },
  "Open MPI's UCX endpoint that cannot be created names the unreachable rank first": {
    log: [
      '[n097:127549] pml_ucx.c:421  Error: ucp_ep_create(proc=108) failed: Destination is unreachable',
      '[n097:127549] pml_ucx.c:472  Error: Failed to resolve UCX endpoint for rank 108',
      '[1660340564.784335] [n097:127549:0]            sock.c:327  UCX  ERROR   connect(fd=45, dest_addr=192.168.248.98:41748) failed: Connection timed out',
    ],
    line: 1,
    category: 'nccl',
  },
  "Open MPI's signal banner gives its place to the line naming the signal": {
    log: ['[gpua025:322643] *** Process received signal ***', '[gpua025:322643] Signal: Segmentation fault (11)', '[gpua025:322643] Signal code: Invalid permissions (2)'],
    line: 2,
    category: 'crash',
  },
  "S3's SlowDown after botocore's retries is a reason to retry later": {
    log: ['botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the ListObjectsV2 operation (reached max retries: 4): Please reduce your request rate.'],
    line: 1,
    category: 'data-path',
    transient: true,
  },
  "an object store's 400 through Arrow's S3 filesystem is the request the job made": {
    log: ["OSError: When completing multiple part upload for key 'out/part-0.parquet' in bucket 'data': AWS Error UNKNOWN (HTTP status 400) during CompleteMultipartUpload operation: Unable to parse ExceptionName: InvalidPart"],
    line: 1,
    category: 'data-path',
  },
  "the Hub's Xet storage timing out is the model source, and a full disk under it stays the disk's": {
    log: ['RuntimeError: Data processing error: CAS service error : IO Error: Timer expired (os error 62)'],
    line: 1,
    category: 'data-path',
  },
  "a full disk reported through the Hub's Xet client is the volume": {
    log: ['RuntimeError: Data processing error: CAS service error : IO Error: No space left on device (os error 28)'],
    line: 1,
    category: 'volume-mount',
  },
  "urllib3's connect timeout is a source the job could not reach, not the ranks": {
    log: ['Connection to cas-bridge.xethub.hf.co timed out. (connect timeout=10)'],
    line: 1,
    category: 'data-path',
  },
  "DALI's reader finding no files is the data's path": {
    log: ['read 0 files from 0 directories', 'RuntimeError: [/opt/dali/dali/operators/reader/loader/file_loader.h:108] Assert on "Size() > 0" failed: No files found.'],
    line: 2,
    category: 'data-path',
  },
  'a dataset shard tarfile cannot read is the data': {
    log: ['tarfile.ReadError: ("unexpected end of data @ <_io.BufferedReader name=\'train/00000022.tar\'>",)'],
    line: 1,
    category: 'data-path',
  },
  "a GPU with no CDI spec on the node, under the runtime's report on the same line, is the node's, not the command's": {
    log: ['  Warning  Failed   7s    kubelet  Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices management.nvidia.com/gpu=0: unknown'],
    hints: { reason: 'StartError' },
    line: 1,
    category: 'other',
  },
  "a start error's runtime message folded over lines: the driver it names, not the report": {
    log: [
      '        exitCode: 128',
      '        reason: StartError',
      '        message: >-',
      '          failed to create containerd task: failed to create shim task: OCI',
      '          runtime create failed: runc create failed: unable to start container',
      '          process: error during container init: error running hook #0: error',
      '          running hook: exit status 1, stdout: , stderr:',
      '          nvidia-container-cli.real: initialization error: nvml error: driver',
      '          not loaded: unknown',
    ],
    hints: { exitCode: 128, reason: 'StartError' },
    line: 8,
    category: 'cuda',
  },
  "a folded runtime report keeps its first line when the next piece only continues the report": {
    log: [
      "        message: 'failed to create containerd task: failed to create shim task: OCI",
      '          runtime create failed: runc create failed: unable to start container process:',
      "          error during container init: unknown'",
      '        reason: StartError',
    ],
    line: 1,
    category: 'config',
  },
  "nvidia-smi that cannot reach the driver is the node's GPU driver": {
    log: ["NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."],
    line: 1,
    category: 'cuda',
  },
  "the driver's device nodes missing where the runtime looks is the driver, not a data path": {
    log: ['  Warning  Failed  12s  kubelet  Error: failed to generate container spec: failed to generate spec: lstat /run/nvidia/driver/dev/nvidiactl: no such file or directory'],
    hints: { reason: 'CreateContainerError' },
    line: 1,
    category: 'cuda',
  },
  "NVML's Unknown Error in a running container is the node's lost device access, not CUDA": {
    log: ['$ nvidia-smi', 'Failed to initialize NVML: Unknown Error'],
    line: 2,
    category: 'other',
    recognised: true,
  },
  "a connection lost because the OOM killer ended its other end shows the OOM killer's line": {
    log: [
      '[2025-07-28 08:40:52,953 E 1 43] gcs_rpc_client.h:196: Failed to connect to GCS within 60 seconds. GCS may have been killed.',
      '[1318952.007948] Memory cgroup out of memory: Killed process 3293402 (gcs_server) total-vm:999400kB, anon-rss:387784kB',
    ],
    line: 2,
    category: 'host-oom',
  },
  "Kueue evicting a workload whose pods were not ready in time": {
    log: ['  Normal  EvictedDueToPodsReadyTimeout  2m5s  kueue-workload-controller  Exceeded the PodsReady timeout team-a/job-67543'],
    line: 1,
    category: 'eviction',
    transient: true,
  },
  "llama.cpp that cannot open the GGUF file is the model's path": {
    log: ["gguf_init_from_file: failed to open GGUF file '/models/gemma-3-12b-it-q4_0.gguf'", 'llama_model_load: error loading model: llama_model_loader: failed to load model'],
    line: 1,
    category: 'data-path',
  },
  "TurboMind's CUDA runtime error naming out of memory is the GPU's memory": {
    log: ['[TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/core/allocator.cc:49'],
    line: 1,
    category: 'gpu-oom',
  },
  "Ollama's model pull is data, though its registry speaks the image API": {
    log: ['pulling manifest', 'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/llama3/manifests/8b": dial tcp: lookup registry.ollama.ai on 8.8.8.8:53: i/o timeout'],
    line: 2,
    category: 'data-path',
  },
  "TensorRT-LLM's KV cache too small for one sequence is the GPU memory left for it": {
    log: ['RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: maxTokensInPagedKvCache (1856) must be large enough to process at least 1 sequence to completion (i.e. must be larger than beam_width (1) * tokensPerBlock (64) * maxBlocksPerSeq (30))'],
    line: 1,
    category: 'gpu-oom',
  },
  "a warning that quotes a kernel's sticky launch failure is the failure, not the hint after it": {
    log: [
      'WARNING 05-15 15:12:09 model_runner_base.py:143] Failed to pickle inputs of failed execution: CUDA error: unspecified launch failure',
      'WARNING 05-15 15:12:09 model_runner_base.py:143] CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.',
    ],
    line: 1,
    category: 'cuda',
  },
  "DeepSpeed's ZeRO-3 refusing no_sync is the trainer's configuration": {
    log: ['[rank0]: AssertionError: no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage 3'],
    line: 1,
    category: 'config',
  },
  "Megatron without a tokenizer path is its configuration": {
    log: ['    assert tokenizer_path, "Tokenizer path must be specified."', 'AssertionError: Tokenizer path must be specified.'],
    line: 2,
    category: 'config',
  },
  "the watchdog ending a rank for a hung collective is the ranks' communication": {
    log: [
      "18:19:06.687 [rank2]:[F205 18:19:06.383067836 ProcessGroupNCCL.cpp:1614] [PG ID 17 PG GUID 137(INTRA_DISTRIBUTED_OPTIMIZER_INSTANCE_GROUP) Rank 2] [PG ID 17 PG GUID 137(INTRA_DISTRIBUTED_OPTIMIZER_INSTANCE_GROUP) Rank 2] Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.",
      "18:19:08.785 W0205 18:19:08.782000 4021 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 4086 closing signal SIGTERM",
    ],
    line: 1,
    category: 'nccl',
  },
  "ranks calling different collectives is the script's own bug, not the GPUs the fingerprint names": {
    log: ['[rank1]: RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[195812480], TensorDtypes=BFloat16, TensorDeviceTypes=TensorOptions(dtype=float, device=cuda)), but Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[195811840])'],
    line: 1,
    category: 'other',
    recognised: true,
  },
  "the rendezvous port already in use is the command's port, not the network": {
    log: [
      '[W socket.cpp:464] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).',
      '[E socket.cpp:500] [c10d] The server socket has failed to listen on any local network address.',
    ],
    line: 1,
    category: 'config',
  },
  "torchrun's agent logging an outside SIGTERM is the line when no exception follows": {
    log: ['W1130 12:13:49.388000 124326 torch/distributed/elastic/agent/server/api.py:723] Received 15 death signal, shutting down workers', 'W1130 12:13:49.389000 124326 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 124533 closing signal SIGTERM'],
    line: 1,
    category: 'other',
  },
  "tensors on two devices is the script's own bug, recognised rather than guessed": {
    log: ['RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)'],
    line: 1,
    category: 'other',
    recognised: true,
  },
  "PyTorch's nll_loss batch-size check is the batch or label layout, recognised rather than guessed": {
    log: ['ValueError: Expected input batch_size (32) to match target batch_size (16).'],
    line: 1,
    category: 'config',
    recognised: true,
  },
  "the device plugin that cannot see the node's GPUs is the node's set-up, not its advice after it": {
    log: [
      'I0506 17:45:45.421854       1 main.go:356] Retrieving plugins.',
      'E0506 17:45:45.421956       1 factory.go:112] Incompatible strategy detected auto',
      'E0506 17:45:45.421965       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container Toolkit?',
      'E0506 17:45:45.421969       1 factory.go:114] You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites',
    ],
    line: 2,
    category: 'other',
    recognised: true,
  },
  "nvidia-smi that cannot reach a GPU gives its place to the kernel's Xid that says why": {
    log: [
      'Unable to determine the device handle for GPU0000:A1:00.0: Unknown Error',
      '',
      '[Fri Apr  5 21:29:39 2024] NVRM: GPU at PCI:0000:a1:00: GPU-979426f2-893a-7cbb-c4cf-81472f89a462',
      "[Fri Apr  5 21:29:39 2024] NVRM: Xid (PCI:0000:a1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
    ],
    line: 4,
    category: 'cuda',
    transient: true,
  },
  "a pod's description inside k9s's box: the message field, not the status row the border hid": {
    log: [
      '| Status:           Failed                                   \u2502',
      '\u2502 Reason:           OutOfmemory                              \u2502',
      "\u2502 Message:          Pod was rejected: Node didn't have enough resource: memory, requested: 2147483648, used: 32290433792",
    ],
    line: 3,
    category: 'scheduling',
    transient: true,
  },
  "rich's traceback box stays noise: its source lines are not the error": {
    log: [
      '\u256d\u2500\u2500\u2500 Traceback (most recent call last) \u2500\u2500\u2500\u256e',
      '\u2502 \u2771  891 \u2502   \u2502   f"Check batch related parameters. train_batch_size is not equal" \u2502',
      '\u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f',
      'AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 256 != 4 * 8 * 1',
    ],
    line: 4,
    category: 'config',
  },
};

describe('round 15: the first run on new logs', () => {
  itTriagesEach(CASES);
});
