import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 14 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "ggml's abort names only the layer; the runtime's string after it says what": {
    log: ['ggml/src/ggml-cuda/ggml-cuda.cu:88: CUDA error', 'ggml_cuda_compute_forward: MUL_MAT failed', 'CUDA error: no kernel image is available for execution on the device'],
    line: 3,
    category: 'cuda',
  },
  'vLLM finds no LoRA adapter where the command points': {
    log: ['ERROR 12-15 18:57:10 [core.py:918] ValueError: Loading lora finance failed: No adapter found for /models/out/checkpoint-500'],
    line: 1,
    category: 'data-path',
  },
  "an adapter's rank above the engine's max_lora_rank is configuration": {
    log: ["RuntimeError: Worker failed with error 'LoRA rank 64 is greater than max_lora_rank 16.', please check the stack trace above for the root cause"],
    line: 1,
    category: 'config',
  },
  "Dynamo's parts cannot reach their etcd: the serving job's parts cannot find each other": {
    log: ['Traceback (most recent call last):', '  File "/opt/dynamo/worker.py", line 4, in <module>', 'Exception: Failed to connect to etcd server with config ClientOptions { etcd_url: ["http://etcd:2379"] }'],
    line: 3,
    category: 'nccl',
  },
  "TensorRT-LLM's attention plugin without a fused kernel for this GPU": {
    log: ["terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'", '  what():  [TensorRT-LLM][ERROR] Assertion failed: Deepseek should be supported by fmha in context and generation part. (gptAttentionCommon.cpp:712)'],
    line: 2,
    category: 'cuda',
  },
  "FastAPI's missing python-multipart is a package the image lacks": {
    log: ['Form data requires "python-multipart" to be installed.', 'You can install "python-multipart" with:', '', 'pip install python-multipart', '', 'Traceback (most recent call last):', '  File "/app/server.py", line 3, in <module>'],
    line: 1,
    category: 'import',
  },
  "the registry's 429 to enroot is a reason to retry later": {
    log: ['[INFO] Querying registry for permission grant', '[ERROR] URL https://registry-1.docker.io/v2/library/pytorch/manifests/2.4 returned error code: 429 Too Many Requests'],
    line: 2,
    category: 'image-pull',
    transient: true,
  },
  "enroot cannot execute the container's entrypoint: configuration": {
    log: ['slurmstepd: error: pyxis:     enroot-switchroot: failed to execute: /usr/bin/python3: No such file or directory'],
    line: 1,
    category: 'config',
  },
  "a controller's info line quoting the kubelet's node-pressure rejection is the failure": {
    log: ['level=info msg="Pod failed: Pod was rejected: The node had condition: [DiskPressure]. " pod=wf-step-12 workflow=wf'],
    line: 1,
    category: 'eviction',
    transient: true,
  },
  'Slurm cancelling a job to requeue it is not a reason to change it': {
    log: ['slurmstepd: error: *** JOB 912 ON gpu-7 CANCELLED AT 2025-02-01T10:00:00 DUE TO JOB REQUEUE ***'],
    line: 1,
    category: 'eviction',
    transient: true,
  },
  "a warning that quotes a kernel's illegal memory access is the failure, not the Ray worker's death before it": {
    log: [
      '(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker.',
      '(WorkerDict pid=812) WARNING 02-21 04:32:47 model_runner_base.py:143] Failed to pickle inputs of failed execution: CUDA error: an illegal memory access was encountered',
    ],
    line: 2,
    category: 'cuda',
  },
  "ONNX Runtime's arena that cannot allocate is the GPU's memory, not the node that reported it": {
    log: ["onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running MatMul node. Name:'/blocks.3/MatMul' Status Message: bfc_arena.cc:376 AllocateRawInternal Failed to allocate memory for requested buffer of size 2147483648"],
    line: 1,
    category: 'gpu-oom',
  },
  "TensorFlow without a usable cuDNN for its convolution": {
    log: ['UnimplementedError: Exception encountered when calling layer "conv2d" (type Conv2D).', '', 'DNN library is not found. [Op:Conv2D]'],
    line: 3,
    category: 'cuda',
  },
  "Paddle's loader warns that a library it needs is missing, and the op fails after it": {
    log: [
      'W0203 07:54:14.771862 13098 dynamic_loader.cc:307] The third-party dynamic library (libcublas.so) that Paddle depends on is not configured correctly. (error code is libcublas.so: cannot open shared object file: No such file or directory)',
      'Traceback (most recent call last):',
      '  File "train.py", line 9, in <module>',
    ],
    line: 1,
    category: 'import',
  },
  "Orbax refusing a relative checkpoint directory is the command's configuration": {
    log: ['ValueError: Checkpoint path should be absolute. Got ckpt/step_100'],
    line: 1,
    category: 'config',
  },
  "PyTorch's allocator message cut short after its device number is still the GPU's memory": {
    // Before 2.1 the device index was written as a character: device 0 ended the message there.
    log: ['2024-12-16 17:10:56,767 - root - ERROR - !!! Exception during processing !!! Allocation on device ', '2024-12-16 17:10:56,770 - root - ERROR - Traceback (most recent call last):'],
    line: 1,
    category: 'gpu-oom',
    recognised: true,
  },
  'headless rendering whose EGL cannot initialise the GPU: the driver stack, not the segfault after it': {
    log: ['[Open3D INFO] EGL headless mode enabled.', 'FEngine (64 bits) created at 0x7f1396ceb010 (threading is enabled)', 'eglInitialize failed', 'Segmentation fault (core dumped)'],
    line: 3,
    category: 'cuda',
  },
  "torchrun's agent logging the hang-up it got stands in for the exception a cut paste lacks": {
    log: [
      'W0815 15:34:28.708000 3280712 torch/distributed/elastic/agent/server/api.py:719] Received 1 death signal, shutting down workers',
      'W0815 15:34:28.709000 3280712 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 3280796 closing signal SIGHUP',
      'Traceback (most recent call last):',
      '  File "<frozen runpy>", line 198, in _run_module_as_main',
    ],
    line: 1,
    category: 'other',
  },
  "a launch check's assertion is the failure, not the command line quoting its source": {
    log: [
      'RuntimeError: Error running command.',
      `Command: "/app/venv/bin/python3" -c "import torch; assert torch.cuda.is_available(), 'Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check'"`,
      'Error code: 1',
      'stderr: Traceback (most recent call last):',
      '  File "<string>", line 1, in <module>',
      'AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check',
    ],
    line: 6,
    category: 'cuda',
  },
};

describe('round 14: the first run on new logs', () => {
  itTriagesEach(CASES);
});
