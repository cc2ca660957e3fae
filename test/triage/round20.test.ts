import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 20 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "a CUDA error 2 around a program's own words is still the allocation that failed": {
    log: [
      '[W] Skipping tactic 0x0000000000000003 due to exception autotuning: CUDA error 2 allocating 536870912-byte buffer: out of memory',
      '[E] 10: Could not find any implementation for node {ForeignNode[MatMul_12...Add_40]}.',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  "MindSpore's device pool refusing an allocation past the device's total is device memory": {
    log: [
      'Traceback (most recent call last):',
      '[ERROR] PRE_ACT(101,ffff,python):2025-01-02-03:04:05.678.901 [mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:400] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 31000000000 plus TotalUsedByEventMemStatistics : 0 and plus alloc size : 1048576 is more than total mem size : 31000500000.',
    ],
    line: 2,
    category: 'gpu-oom',
  },
  "Dask's nanny restarting a worker over its memory budget is host memory, though logged as a warning": {
    log: [
      'distributed.worker.memory - WARNING - Unmanaged memory use is high. This may indicate a memory leak or the memory may not be released to the OS',
      'distributed.nanny.memory - WARNING - Worker tcp://10.0.0.4:40121 (pid=811) exceeded 95% memory budget. Restarting...',
      'distributed.nanny - WARNING - Restarting worker',
    ],
    line: 2,
    category: 'host-oom',
  },
  "Ray's kill report stays the line when its advice follows the table of memory users": {
    log: [
      'Memory on the node (IP: 10.0.0.9, ID: 3f2a) where the task (actor ID: 9c1d, name=Trainer.__init__, pid=77, memory used=30.10GB) was running was 60.20GB / 63.00GB (0.955556), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: 51ab) because it was the most recently scheduled task. Top 10 memory users:',
      'PID\tMEM(GB)\tCOMMAND',
      '77\t30.10\tray::Trainer.__init__',
      'Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html.',
    ],
    line: 1,
    category: 'host-oom',
  },
  "and its advice stands in for the kill report a paste cut": {
    log: [
      '(raylet) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node.',
    ],
    line: 1,
    category: 'host-oom',
  },
  'GROMACS with no detected device at all has no GPU to run on': {
    log: [
      'Program:     gmx mdrun, version 2025.2',
      'Range checking error (possible bug):',
      'Device ID 1 did not correspond to any of the 0 detected device(s)',
    ],
    line: 3,
    category: 'cuda',
  },
  "a CUDA library JAX's plugin cannot load is the environment's packages, not a missing data file": {
    log: [
      '    raise RuntimeError(err_msg) from e',
      'RuntimeError: Unable to load cuDNN. Is it installed?',
      'WARNING:jax._src.xla_bridge:An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.',
    ],
    line: 2,
    category: 'import',
  },
  'a flag XLA does not know, in XLA_FLAGS, is the environment\'s setting': {
    log: ['parse_flags_from_env.cc:234] Unknown flag in XLA_FLAGS: --xla_gpu_enable_async_all_gather=true', 'Perhaps you meant to specify these on the TF_XLA_FLAGS envvar?'],
    line: 1,
    category: 'config',
  },
  "an input ONNX Runtime's model does not accept is the settings that fed it": {
    log: ['onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Invalid rank for input: pixel_values Got: 3 Expected: 4 Please fix either the inputs/outputs or the model.'],
    line: 1,
    category: 'config',
  },
  "a model architecture llama.cpp does not know is the runtime and model not fitting, not a missing file": {
    log: [
      'llama_model_load: error loading model: error loading model architecture: unknown model architecture: \'qwen9moe\'',
      'llama_model_load_from_file_impl: failed to load model',
    ],
    line: 1,
    category: 'config',
  },
  "NIM's cache it cannot write is permission": {
    log: ['    raise RuntimeError(f"Unable to write to NIM_CACHE_PATH ({cache_path})")', 'RuntimeError: Unable to write to NIM_CACHE_PATH (/opt/nim/.cache)'],
    line: 2,
    category: 'permission',
  },
  "a cloud project's accelerator quota used up is a wait for quota": {
    log: ['ERROR: (gcloud.compute.tpus.tpu-vm.create) RESOURCE_EXHAUSTED: Quota limit \'TPUV5sLitepodPerProjectPerZoneForTPUAPI\' has been exceeded. Limit: 16 in zone us-west4-a.'],
    line: 1,
    category: 'scheduling',
    transient: true,
  },
  "the watchdog's 'Some NCCL operations have failed' gives its place to the line naming the collective": {
    log: [
      '[rank3]:[E1204 10:00:00.000000000 ProcessGroupNCCL.cpp:684] [Rank 3] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.',
      '[rank3]:[E1204 10:00:00.000100000 ProcessGroupNCCL.cpp:698] [Rank 3] To avoid data inconsistency, we are taking the entire process down.',
      '[rank3]:[E1204 10:00:00.000200000 ProcessGroupNCCL.cpp:1899] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=912, OpType=ALLGATHER, NumelIn=1024, NumelOut=8192, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.',
    ],
    line: 3,
    category: 'nccl',
  },
  "pydantic's header gives its place to the validator's own error under it": {
    log: [
      'pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig',
      '  Value error, Pipeline parallel size (4) cannot be larger than the number of hidden layers (2). [type=value_error, input_value=ArgsKwargs(()), input_type=ArgsKwargs]',
      '    For further information visit https://errors.pydantic.dev/2.11/v/value_error',
    ],
    line: 2,
    category: 'config',
  },
  "but keeps it over pydantic's own type check, which names less than the header": {
    log: [
      'pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig',
      'reduce_bucket_size',
      '  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=500000.5, input_type=float]',
    ],
    line: 1,
    category: 'config',
  },
  "a serialised error's name field gives its place to its message": {
    log: ['{', '\t"name": "ConcretizationTypeError",', '\t"message": "Abstract tracer value encountered where concrete value is expected: traced array with shape int32[]', '\t"stack": "---"', '}'],
    line: 3,
    category: 'other',
  },
  "a mount that failed with only mount's exit status gives its place to the mounter's output": {
    log: [
      '  Warning  FailedMount  12s (x6 over 40s)  kubelet  MountVolume.SetUp failed for volume "datasets" : mount failed: exit status 32',
      'Mounting command: mount',
      'Mounting arguments: -t nfs 10.0.0.20:/exports/datasets /var/lib/kubelet/pods/0b1c/volumes/kubernetes.io~nfs/datasets',
      'Output: mount.nfs: access denied by server while mounting 10.0.0.20:/exports/datasets',
    ],
    line: 4,
    category: 'volume-mount',
  },
  "past systemd-run's scope notice, to the mount program's error on the line after it": {
    log: [
      'MountVolume.SetUp failed for volume "nfs" : mount failed: exit status 32',
      'Mounting command: systemd-run',
      'Mounting arguments: --description=Kubernetes transient mount for /var/lib/kubelet/pods/d4/volumes/kubernetes.io~nfs/nfs --scope -- mount -t nfs 10.0.0.20:/exports /var/lib/kubelet/pods/d4/volumes/kubernetes.io~nfs/nfs',
      'Output: Running scope as unit: run-r81c2.scope',
      'mount.nfs: access denied by server while mounting 10.0.0.20:/exports',
    ],
    line: 5,
    category: 'volume-mount',
  },
  'a mount failure that states its own reason keeps its place': {
    log: [
      'MountVolume.SetUp failed for volume "efs" : rpc error: code = Internal desc = Could not mount "" at "/var/lib/kubelet/pods/c3/volumes/kubernetes.io~csi/efs/mount": mount failed: waitid: no child processes',
      'Mounting command: mount',
      'Mounting arguments: -t efs /var/lib/kubelet/pods/c3/volumes/kubernetes.io~csi/efs/mount',
      "Output: mount: /var/lib/kubelet/pods/c3/volumes/kubernetes.io~csi/efs/mount: can't find in /etc/fstab.",
    ],
    line: 1,
    category: 'volume-mount',
  },
  "DeepSpeed's ssh check to its first host is a node of the job not reached": {
    log: [
      '    raise CalledProcessError(retcode, cmd)',
      "subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no worker-1 hostname' returned non-zero exit status 255.",
    ],
    line: 2,
    category: 'nccl',
  },
  'running out of file descriptors is the open-files limit to raise': {
    log: ['  File "/usr/lib/python3.11/multiprocessing/connection.py", line 216, in send_bytes', 'OSError: [Errno 24] Too many open files'],
    line: 2,
    category: 'config',
  },
  "cuBLAS's kernel that failed to launch, as XLA reports it, is the GPU's": {
    log: ['  File "/app/run.py", line 311, in run_inference', 'jaxlib.xla_extension.XlaRuntimeError: INTERNAL: the function failed to launch on the GPU'],
    line: 2,
    category: 'cuda',
  },
  "a float conversion Triton cannot compile for an older GPU is the GPU's, not a crash": {
    log: ['Predicting DataLoader 0:   0%|          | 0/1 [00:00<?, ?it/s]Unsupported conversion from bf16 to f16', 'LLVM ERROR: Unsupported rounding mode for conversion.', '#blocked = #ttg.blocked<{sizePerThread = [1]}>'],
    line: 1,
    category: 'cuda',
  },
  "a cuDNN library its loader cannot find is the environment's packages": {
    log: ['INFO:faster_whisper:Processing audio with duration 00:04.100', 'Could not locate cudnn_cnn64_9.dll. Please make sure it is in your library path!', 'Invalid handle. Cannot load symbol cudnnCreateConvolutionDescriptor'],
    line: 2,
    category: 'import',
  },
  "an Intel GPU's Unified Runtime out of device memory is GPU memory": {
    log: ['level_zero backend failed with error: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)', 'Exception caught at file:/src/ggml/src/ggml-sycl/ggml-sycl.cpp, line:3100, func:operator()', 'SYCL error: CHECK_TRY_ERROR(stream->memcpy(dst, src, size)): Exception caught in this line of code.'],
    line: 1,
    category: 'gpu-oom',
  },
  "a native program's failed glibc assertion is a crash": {
    log: ['[24.659s] [ext: isaacsim.ros2.bridge-4.1.0] startup', "kit: /build/interfaces/srv/_reset_s.c:88: interfaces__srv__reset__convert_from_py: Assertion `PyLong_Check(field)' failed.", '2025-09-09T16:11:08Z [0ms] [Warning] [carb.crashreporter-breakpad.plugin] [crash] A crash has occurred.'],
    line: 2,
    category: 'crash',
  },
  "a kernel's device-side assertion stays the GPU's": {
    log: ['/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [7,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.'],
    line: 1,
    category: 'cuda',
  },
  'an image layer that does not match its digest is the pull': {
    log: ['33651ed6f9d9: Waiting', '4befd7c84777: Verifying Checksum', 'filesystem layer verification failed for digest sha256:0c6b2bfd0f6e4a1f5b2c1e0d9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b'],
    line: 3,
    category: 'image-pull',
  },
  "a bare 'Error:' heading gives its place to the launcher's line that says how a rank ended": {
    log: [
      'Error:',
      'WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 2201 closing signal SIGTERM',
      'ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 2200) of binary: /usr/bin/python3',
    ],
    line: 3,
    category: 'host-oom',
  },
  "an MPI rank's segfault comes before the launcher's SIGTERMs to the others": {
    log: ['node-0017: rank 12 died from signal 11', 'node-0001: rank 0 died from signal 15'],
    line: 1,
    category: 'crash',
    transient: false,
  },
  'a TPU another process still holds wants a fresh node': {
    log: ["jax.errors.JaxRuntimeError: UNKNOWN: TPU initialization failed: open(/dev/accel0): Device or resource busy: Device or resource busy"],
    line: 1,
    category: 'cuda',
    transient: true,
  },
  "a TPU chip's fatal error is the accelerator's": {
    log: [
      '(train pid=9, ip=10.0.0.2) E0101 00:00:00.000000   100 synchronous_driver.cc:820] [/dev/accel3 tpu7:pe0:3] !!!! FATAL ERROR !!!! for [/dev/accel3 tpu7:pe0:3] , fatal_error: true, running_timer: 0x1',
      '(train pid=9, ip=10.0.0.2) E0101 00:00:00.000100   101 error_handler.cc:100] Received Error Interrupt! fatal: true, running_timer: 0x1',
    ],
    line: 1,
    category: 'cuda',
  },
  "PyTorch's warning that the runtime could not count the GPUs is why every later CUDA call fails": {
    log: [
      '/usr/lib/python3.11/site-packages/torch/cuda/__init__.py:129: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)',
      '  return torch._C._cuda_getDeviceCount() > 0',
      'Traceback (most recent call last):',
      '  File "/app/train.py", line 12, in <module>',
    ],
    line: 1,
    category: 'cuda',
  },
};

describe('round 20: the first run on new logs', () => {
  itTriagesEach(CASES);
});
