import { splitPrefix } from '../../src/triage/line-prefix.js';
import { triageText } from '../../src/triage/index.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * What the dev2 set (test/fixtures/logs/dev2) showed the triage misreading, each as a short
 * log in the words the software prints (vocabulary.ts cites them), not a copy of a dev2 log:
 * the mechanism, not the log, is what is tested. Each case fails with its mechanism removed.
 */
const CASES: Record<string, LogCase> = {
  "a compiler the kernel killed during a build is out of host memory, not a crash": {
    log: ['[ 40%] Building CXX object src/CMakeFiles/ops.dir/kernels.cpp.o', 'g++: fatal error: Killed signal terminated program cc1plus', 'compilation terminated.', 'make[2]: *** [src/CMakeFiles/ops.dir/build.make:90: src/CMakeFiles/ops.dir/kernels.cpp.o] Error 1'],
    line: 2,
    category: 'host-oom',
  },
  "the same in a zh_CN locale, after the assembler's errors on the compiler's cut output": {
    log: ['{standard input}:812: 错误：expected symbol name', 'gcc: 致命错误：已杀死 signal terminated program cc1', '编译中断。'],
    line: 2,
    category: 'host-oom',
  },
  "the shell's Killed in a zh_CN locale is the OOM killer's SIGKILL, as in English": {
    log: ['epoch 3 step 400 loss 0.82', 'Writing metrics: /logs/run/metrics.jsonl', '已杀死'],
    line: 3,
    category: 'host-oom',
  },
  "an old NCCL's WARN line without the word NCCL, a peer resetting the socket": {
    log: ['mpirun -np 4 python train.py', 'host-2:4410:4520 [0] include/socket.h:194 WARN Call to recv failed : Connection reset by peer', 'host-2:4410:4520 [0] INFO bootstrap.cu:169 -> 2'],
    line: 2,
    category: 'nccl',
  },
  "a CUDA error pasted on one line with PyTorch's hints after it": {
    log: ['step 120 loss 1.93', 'RuntimeError: CUDA error: uncorrectable ECC error encountered CUDA kernel errors might be asynchronously reported at some other API call. For debugging consider passing CUDA_LAUNCH_BLOCKING=1.'],
    line: 2,
    category: 'cuda',
    transient: true,
  },
  "PyTorch's hint lines on their own stay noise": {
    log: ['RuntimeError: CUDA error: an illegal memory access was encountered', 'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.', 'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.'],
    line: 1,
    category: 'cuda',
  },
  "the Hugging Face Hub's 429 is the data source saying not now, not an image pull": {
    log: ['Loading model', 'huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/org/model/revision/main'],
    line: 2,
    category: 'data-path',
    transient: true,
  },
  "a registry's rate limit is still a pull": {
    log: ['Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading'],
    line: 1,
    category: 'image-pull',
    transient: true,
  },
  'a traceback whose indentation the paste lost (frames and source lines flush left)': {
    log: [
      'Traceback (most recent call last):',
      'File "train.py", line 7, in <module>',
      'ds = load_dataset("glue", "mrpc")',
      'File "/opt/conda/lib/python3.8/site-packages/datasets/utils/file_utils.py", line 475, in get_from_cache',
      'raise ConnectionError("Couldn\'t reach {}".format(url))',
      "ConnectionError: Couldn't reach https://raw.githubusercontent.com/huggingface/datasets/1.1.3/datasets/glue/glue.py",
    ],
    line: 6,
    category: 'data-path',
  },
  'the same with the quotes a forum turned typographic': {
    log: ['Traceback (most recent call last):', 'File \u201ctrain.py\u201d, line 7, in', 'ds = load_dataset(\u201cglue\u201d)', 'ConnectionError: Couldn\u2019t reach https://raw.githubusercontent.com/huggingface/datasets/1.1.3/datasets/glue/glue.py'],
    line: 4,
    category: 'data-path',
  },
  "IPython's traceback: its header names the exception, its frames are not indented": {
    log: [
      '---------------------------------------------------------------------------',
      'ImportError                               Traceback (most recent call last)',
      'Cell In[2], line 1',
      '----> 1 import flash_attn_2_cuda',
      '',
      'ImportError: /usr/lib/python3/dist-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEa',
    ],
    line: 6,
    category: 'import',
  },
  // CUDA, not import: the image lacks the CUDA toolkit, as dev2's labels name it (five DeepSpeed build failures).
  "an extension build that misses a CUDA header is the image's CUDA toolkit, not a data path": {
    log: ['[2/3] c++ -MMD -c cpu_adam.cpp', 'csrc/includes/gemm_test.h:6:10: fatal error: cuda_profiler_api.h: No such file or directory', 'compilation terminated.'],
    line: 2,
    category: 'cuda',
  },
  "the linker missing libcuda is the same": {
    log: ['/usr/bin/ld: cannot find -lcuda: No such file or directory', 'collect2: error: ld returned 1 exit status'],
    line: 1,
    category: 'cuda',
  },
  "pip's resolver giving up (no Error or Exception in its name)": {
    log: ['#12 8000.1   File "/usr/lib/python3/dist-packages/pip/_vendor/resolvelib/resolvers.py", line 392, in resolve', '#12 8000.1     raise ResolutionTooDeep(max_rounds)', '#12 8000.1 pip._vendor.resolvelib.resolvers.ResolutionTooDeep: 200000'],
    line: 3,
    category: 'import',
  },
  "mpirun's banner run into the sentence that names the killed rank": {
    log: ['Primary job  terminated normally, but 1 process returned a non-zero exit code. Per user-direction, the job has been aborted. mpirun noticed that process rank 3 with PID 0 on node gpu-4 exited on signal 9 (Killed).'],
    line: 1,
    category: 'host-oom',
  },
  "mpirun's banner on its own lines stays noise": {
    log: ['Primary job  terminated normally, but 1 process returned', 'a non-zero exit code. Per user-direction, the job has been aborted.', 'mpirun noticed that process rank 0 with PID 10313 on node gpu-1 exited on signal 6 (Aborted).'],
    line: 3,
    category: 'crash',
  },
  "Open MPI's signal report: the rank crashed": {
    log: ['[gpu-1:10319] *** Process received signal ***', '[gpu-1:10319] Signal: Aborted (6)', '[gpu-1:10319] *** End of error message ***'],
    line: 1,
    category: 'crash',
  },
  'the kubelet reclaiming disk on the node': {
    log: ['Events:', '  Warning  EvictionThresholdMet  4m32s  kubelet, node-3  Attempting to reclaim ephemeral-storage', '  Normal   NodeHasDiskPressure   4m23s  kubelet, node-3  Node node-3 status is now: NodeHasDiskPressure'],
    line: 2,
    category: 'eviction',
    transient: true,
  },
  "a pod evicted for the node's condition": {
    log: ['trainer-0   0/1   Evicted   0   5m', 'Message:        The node had condition: [DiskPressure].'],
    line: 2,
    category: 'eviction',
    transient: true,
  },
  "Docker's registry client answering 502 (no error word on the line)": {
    log: ['received unexpected HTTP status: 502 Bad Gateway'],
    line: 1,
    category: 'image-pull',
    transient: true,
  },
  "runc unable to exec the container's command": {
    log: ['standard_init_linux.go:211: exec user process caused "no such file or directory"'],
    line: 1,
    category: 'config',
  },
  "runc 1.1's wording of the same": {
    log: ['exec /entrypoint.sh: no such file or directory'],
    line: 1,
    category: 'config',
  },
  'YARN killing an executor for its memory': {
    log: ['24/05/01 10:00:00 ERROR YarnScheduler: Lost executor 3 on node-7: Container killed by YARN for exceeding memory limits. 9.1 GB of 9 GB physical memory used.'],
    line: 1,
    category: 'host-oom',
  },
  "torch.distributed's store connect timing out, inside a traceback": {
    log: ['Traceback (most recent call last):', '  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 155, in _create_tcp_store', '    store = TCPStore(', 'RuntimeError: connect() timed out. Original timeout was 60000 ms.'],
    line: 4,
    category: 'nccl',
  },
  "a Ray node losing the head's GCS": {
    log: ['Map_Batches:  99%|#########| 396/400', '(raylet, ip=10.0.0.128) [2022-07-25 08:35:14,805 C 157 212] (raylet) gcs_rpc_client.h:537:  Check failed: Failed to connect to GCS within 60 seconds'],
    line: 2,
    category: 'nccl',
  },
  "TensorFlow's wrapped Resource exhausted line": {
    log: ['2019-06-13 01:17:08.886805: E external/org_tensorflow/tensorflow/compiler/xla/python/local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out ', 'of memory while trying to allocate 5520758552 bytes.'],
    line: 1,
    category: 'gpu-oom',
  },
  "an undated glog error line is an error, not silence": {
    log: ['I tensorflow/core/common_runtime/gpu/gpu_device.cc:1411] Found device 0', 'E tensorflow/core/framework/op_kernel.cc:1622] could not finish the step'],
    line: 2,
    category: 'other',
  },
  "a CUDA kernel's device-side assertion, before the errors it causes": {
    log: [
      "/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.",
      'RuntimeError: CUDA error: device-side assert triggered',
    ],
    line: 1,
    category: 'cuda',
  },
  // Round 6 (issue 24): the root cause's exitcode row, not the header above it, is the line.
  "torchelastic's summary: its error_file and traceback fields are not the failure, its exitcode row says how the process ended": {
    log: ['[1]:', '  time      : 2024-03-05_07:01:51', '  rank      : 1 (local_rank: 1)', '  exitcode  : 1 (pid: 69812)', '  error_file: <N/A>', '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html', 'Root Cause (first observed failure):'],
    line: 4,
    category: 'other',
  },
  "`python -m` naming a module the image does not have": {
    log: ['/usr/local/bin/python: No module named trainer'],
    line: 1,
    category: 'import',
  },
  "a traceback inside a Ray worker's vLLM error log is followed to its exception": {
    log: [
      '(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] Error executing method init_device. This might cause deadlock in distributed execution.',
      '(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] Traceback (most recent call last):',
      '(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45]   File "/usr/lib/python3/dist-packages/vllm/engine/ray_utils.py", line 37, in execute_method',
      "(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] FileNotFoundError: [Errno 2] No such file or directory: '/models/llama/config.json'",
    ],
    // A recognised exception, so the category does not rest on the learnt guess (which the
    // wrapper's words, "deadlock in distributed execution", move with each retraining).
    line: 4,
    category: 'data-path',
  },
  "vLLM's INFO lines keep their stamp and stay noise": {
    log: ['INFO 02-26 09:54:05 worker.py:267] the rest of the memory reserved for KV Cache is -1.05GiB, no error', 'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.'],
    line: 2,
    category: 'gpu-oom',
  },
  'a traceback quoted with `> ` in a reply': {
    log: ['> Traceback (most recent call last):', '>   File "/workspace/train.py", line 12, in <module>', ">     main()", "> KeyError: 'labels'"],
    line: 4,
    category: 'other',
  },
  "events dumped by the Kubernetes e2e framework (its INFO stamp is not the event's level)": {
    log: [
      'May  4 15:49:12.578: INFO: At 2021-05-04 15:45:47 +0000 UTC - event for tester-zlrfq: {kubelet kind-worker} Pulling: Pulling image "centos"',
      'May  4 15:49:12.579: INFO: At 2021-05-04 15:45:50 +0000 UTC - event for tester-zlrfq: {kubelet kind-worker} Failed: Failed to pull image "centos": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/centos:latest": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/centos/manifests/sha256:dbba: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
    ],
    line: 2,
    category: 'image-pull',
    transient: true,
  },
};

describe('the kinds of miss the dev2 set showed', () => {
  itTriagesEach(CASES);

  it("takes the exit code a pasted kubectl describe states when the cluster gave none, and the cluster's over it", () => {
    const describe = ['    Last State:     Terminated', '      Reason:       Error', '      Exit Code:    137', '      Started:      Fri, 15 Sep 2023 09:56:14 +0200', ''].join('\n');
    expect(triageText(describe)).toMatchObject({ category: 'host-oom', decidedBy: 'exit-code' });
    expect(triageText(describe.replace('137', '139')).category).toBe('crash');
    expect(triageText(describe, { exitCode: 139 }).category).toBe('crash');
    expect(triageText(describe.replace('137', '0')).category).toBe('other');
  });

  it("strips the e2e framework's stamp and event header, keeping the event's reason and message", () => {
    const line = 'Apr 28 09:35:34.104: INFO: At 2021-04-28 09:30:27 +0100 BST - event for pod-eb16: {kubelet minikube} Failed: Error: ErrImagePull';
    expect(splitPrefix(line).rest).toBe('Failed: Error: ErrImagePull');
    expect(splitPrefix('May  4 15:49:12.578: INFO: Waiting up to 5m0s for pod').rest).toBe('May  4 15:49:12.578: INFO: Waiting up to 5m0s for pod');
  });

  it("strips Ray's and vLLM's worker prefixes and vLLM's stamp on error lines only", () => {
    expect(splitPrefix('(EngineCore_DP0 pid=223840) ERROR 10-25 13:08:43 [core.py:708] Traceback (most recent call last):').rest).toBe('Traceback (most recent call last):');
    expect(splitPrefix('(raylet, ip=10.0.0.128) [2022-07-25 08:35:14,805 C 157 212] (raylet) check').rest).toBe('[2022-07-25 08:35:14,805 C 157 212] (raylet) check');
    expect(splitPrefix('INFO 04-30 10:20:35 [monitor.py:33] torch.compile takes 13.93 s in total').rest).toBe('INFO 04-30 10:20:35 [monitor.py:33] torch.compile takes 13.93 s in total');
    expect(splitPrefix('(pid=41720)   File "worker.py", line 1070').writer).toBe(splitPrefix('  File "worker.py", line 1070').writer);
  });
});
