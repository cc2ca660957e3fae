import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * The kinds of miss issue 24 lists, each as a short log in the words the software prints
 * (vocabulary.ts cites them): the first line an engineer would point at, and the category.
 */
const CASES: Record<string, LogCase> = {
  'a registry answering 502 while an image is pulled': {
    log: [
      '  Normal   Pulling    2m (x3 over 4m)  kubelet  Pulling image "nvcr.io/nvidia/pytorch:24.05-py3"',
      '  Warning  Failed     2m (x3 over 4m)  kubelet  Failed to pull image "nvcr.io/nvidia/pytorch:24.05-py3": rpc error: code = Unknown desc = failed to pull and unpack image "nvcr.io/nvidia/pytorch:24.05-py3": failed to copy: httpReadSeeker: failed open: unexpected status from GET request to https://nvcr.io/v2/nvidia/pytorch/blobs/sha256:9f2a: 502 Bad Gateway',
      '  Warning  Failed     2m (x3 over 4m)  kubelet  Error: ErrImagePull',
    ],
    line: 2,
    category: 'image-pull',
    transient: true,
  },
  'a NumPy 2 ABI banner with no exception': {
    log: [
      '',
      'A module that was compiled using NumPy 1.x cannot be run in',
      'NumPy 2.1.3 as it may crash. To support both 1.x and 2.x',
      'versions of NumPy, modules must be compiled with NumPy 2.0.',
      'Traceback (most recent call last):  File "/workspace/train.py", line 3, in <module>',
      '    import torchvision',
    ],
    line: 2,
    category: 'import',
  },
  'a Spark RAPIDS memory pool exhausted, in Java': {
    log: [
      '24/06/01 10:12:01 ERROR Executor: Exception in task 3.0 in stage 2.0 (TID 41)',
      'org.apache.spark.SparkException: Job aborted due to stage failure: Task 3 in stage 2.0 failed 4 times',
      '\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(DAGScheduler.scala:2672)',
      'Caused by: java.lang.RuntimeException: Error in task',
      '\tat com.nvidia.spark.rapids.GpuHashAggregateExec.doExecute(GpuHashAggregateExec.scala:301)',
      'Caused by: com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory: could not split inputs and retry',
    ],
    line: 6,
    category: 'gpu-oom',
  },
  'a storage initializer failing DNS for S3': {
    log: [
      'INFO:root:Copying contents of s3://models/llama-3 to local',
      "botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: \"https://minio.storage.svc:9000/models?list-type=2\"",
    ],
    line: 2,
    category: 'data-path',
    transient: false,
  },
  'chmod on a read-only mount in an entrypoint script': {
    log: ['+ cp /config/run.sh /workspace/run.sh', "chmod: changing permissions of '/workspace/run.sh': Read-only file system"],
    line: 2,
    category: 'permission',
  },
  "an NGC container's no-supported-GPU banner": {
    log: ['=============', '== PyTorch ==', '=============', 'NVIDIA Release 21.05 (build 22596046)', 'ERROR: Detected NVIDIA Tesla K80 GPU, which is not supported by this container', 'ERROR: No supported GPU(s) detected to run this container'],
    line: 5,
    category: 'cuda',
  },
  "a CUDA error surfacing through NCCL's watchdog": {
    log: [
      '[rank3]:[E1105 03:12:44.123 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 3] Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered',
      "terminate called after throwing an instance of 'c10::DistBackendError'",
    ],
    line: 1,
    category: 'cuda',
  },
  '/dev/shm exhaustion reported by NCCL': {
    log: [
      'node-3:2211:2302 [1] include/shm.h:48 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-RqWUpz (size 9637888)',
      'torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3',
    ],
    line: 1,
    category: 'host-oom',
  },
  "an out-of-memory inside a model server's engine start-up": {
    log: [
      '(EngineCore_DP0 pid=253) ERROR 06-01 10:00:01 [core.py:708] EngineCore failed to start.',
      '(EngineCore_DP0 pid=253) ValueError: Free memory on device cuda:0 (12.18/23.56 GiB) on startup is less than desired GPU memory utilization (0.92, 21.67 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
      '(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ],
    line: 2,
    category: 'gpu-oom',
  },
  'JAX: a cuDNN version mismatch, with a traceback after it': {
    log: [
      'E0430 22:32:43.417007 2493694 cuda_dnn.cc:454] Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0. CuDNN library needs to have matching major version and equal or higher minor version.',
      'Traceback (most recent call last):',
      '  File "/workspace/train.py", line 12, in <module>',
      'jax.errors.JaxRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.',
    ],
    line: 1,
    category: 'cuda',
  },
  'Horovod: the NCCL warning that states the cause, before the wrapper': {
    log: [
      'worker-1:391:446 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.12<0>',
      'worker-1:391:446 [0] include/socket.h:403 NCCL WARN Call to connect failed : Connection refused',
      '[1,1]<stderr>:tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled system error',
    ],
    line: 2,
    category: 'nccl',
  },
};

describe('the kinds of miss of issue 24', () => {
  itTriagesEach(CASES);
});
