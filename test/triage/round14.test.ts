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
};

describe('round 14: the first run on new logs', () => {
  itTriagesEach(CASES);
});
