import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 13 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  // Without the CRI prefix removed, Go's `panic:` is not at the start of its line and the
  // SIGSEGV line after it is taken instead.
  "a node's container log file: the CRI prefix is removed, so Go's panic line is the crash": {
    log: [
      '2024-03-07T10:55:47.977734126Z stderr F I0307 10:55:47.977559       1 plugin.go:296] Allocate',
      '2024-03-07T10:55:48.374277561Z stderr F panic: runtime error: invalid memory address or nil pointer dereference',
      '2024-03-07T10:55:48.374309502Z stderr F [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1092953]',
    ],
    line: 2,
    category: 'crash',
  },
  "the kubelet's refusal after scheduling names the resource, not just the pod's Failed status": {
    log: [
      'Status:           Failed',
      'Reason:           OutOfnvidia.com/gpu',
      "Message:          Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 8, capacity: 8",
    ],
    line: 3,
    category: 'scheduling',
    transient: true,
  },
  // Without the level filter the library's warning about its config folder is read as a
  // missing file, and taken over the watchdog's abort.
  "a program's own 'Warning:' is not the failure": {
    log: [
      "libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.",
      '[rank0]:[E ProcessGroupNCCL.cpp:1025] [PG 0 Rank 0] Future for ProcessGroup abort timed out after 600000 ms',
    ],
    line: 2,
    category: 'nccl',
  },
  "an application's Xid gives way to the hardware Xid on another GPU": {
    log: [
      'NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch 00000008',
      'NVRM: Xid (PCI:0000:00:07): 31, pid=2512125, name=python3, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS',
      "NVRM: Xid (PCI:0000:00:08): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU",
    ],
    line: 3,
    category: 'cuda',
    transient: true,
  },
  'a GPU the driver cannot initialise is a hardware fault: a retry on a sound GPU': {
    log: ['[ 12.3] NVRM: GPU 0000:3b:00.0: RmInitAdapter failed! (0x22:0x56:884)', '[ 12.4] NVRM: GPU 0000:3b:00.0: rm_init_adapter failed, device minor number 0'],
    line: 1,
    category: 'cuda',
    transient: true,
  },
  "slurmstepd cannot execute a program the image lacks: configuration, not data": {
    log: ['srun: error: node12: task 0: Exited with exit code 2', 'slurmstepd: error: execve(): deepspeed: No such file or directory'],
    line: 2,
    category: 'config',
  },
  'a shell that cannot find the program at a bin/ path: configuration': {
    log: ['/bin/sh: line 1: /usr/local/bin/launch: No such file or directory'],
    line: 1,
    category: 'config',
  },
  'a shell that cannot find a data file stays a missing path': {
    log: ['/bin/bash: line 1: /data/train/manifest.csv: No such file or directory'],
    line: 1,
    category: 'data-path',
  },
  "the training operator's init container cannot resolve the master: the job's pods cannot find each other": {
    log: ["nslookup: can't resolve 'llama-ft-master-0': Name does not resolve", 'waiting for master'],
    line: 1,
    category: 'nccl',
  },
  "DeepEP's kernels timing out on the other node is a communication failure": {
    log: ['DeepEP combine NVL receiver timeout, channel: 3, RDMA: 0, nvl: 2, src RDMA: 1, start: 0, end: 0'],
    line: 1,
    category: 'nccl',
  },
  'ptxas that does not know the GPU is the toolkit, not the code': {
    log: ['PTXASError: PTXAS error: Internal Triton PTX codegen error', "ptxas fatal   : Value 'sm_103a' is not defined for option 'gpu-name'"],
    line: 2,
    category: 'cuda',
  },
  'ptxas older than the PTX it is given': {
    log: ['ptxas /tmp/kernel_1.ptx, line 5; fatal   : Unsupported .version 8.7; current version is \'8.4\''],
    line: 1,
    category: 'cuda',
    recognised: true,
  },
  "TensorFlow's warning that the driver refused the PTX is the failure": {
    log: [
      'Loading checkpoint shards: 100%|##########| 2/2',
      "2025-03-01 10:00:00.000001: W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_UNSUPPORTED_PTX_VERSION'",
    ],
    line: 2,
    category: 'cuda',
  },
  'pip refusing a package for this Python is the environment': {
    log: ["ERROR: Package 'fastkit' requires a different Python: 3.9.18 not in '>=3.10'"],
    line: 1,
    category: 'import',
  },
  "conda that cannot find a pinned package in its channels": {
    log: ['Solving environment: failed', '', 'ResolvePackageNotFound: ', '  - cudatoolkit=11.1.74'],
    line: 3,
    category: 'import',
  },
  "an image's NVIDIA_REQUIRE_* the hook cannot parse is configuration, not the driver": {
    log: ['Error: failed to create containerd task: OCI runtime create failed: error running hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: requirement error: invalid expression: unknown'],
    line: 1,
    category: 'config',
  },
  "TensorRT's allocator out of memory while building an engine": {
    log: [
      '[03/01/2025-10:00:00] [E] Error[1]: [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)',
      '[03/01/2025-10:00:00] [E] Error[10]: IBuilder::buildSerializedNetwork: Error Code 10: Internal Error (Could not find any implementation for node Conv_3.)',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  "a checkpoint PyTorch cannot write, and a full disk, are the volume's": {
    log: ['RuntimeError: [enforce fail at inline_container.cc:603] . PytorchStreamWriter failed writing file data/12: file write failed'],
    line: 1,
    category: 'volume-mount',
  },
  'a full disk is the volume, not the code': {
    log: ['Traceback (most recent call last):', '  File "train.py", line 9, in <module>', 'OSError: [Errno 122] Disk quota exceeded'],
    line: 3,
    category: 'volume-mount',
  },
  'S3 without credentials: the data cannot be reached': {
    log: ['botocore.exceptions.NoCredentialsError: Unable to locate credentials'],
    line: 1,
    category: 'data-path',
  },
  "Kueue's message as kubectl get -o yaml writes it (couldn''t)": {
    log: ['status:', '  conditions:', "  - message: 'couldn''t assign flavors to pod set main: insufficient", '      unused quota'],
    line: 3,
    category: 'scheduling',
  },
  // Without it, the banner's second line is shown: its "failure" and "crash" made it a candidate.
  "wrapped prose that only mentions a failure is shown from its sentence's first line": {
    log: [
      '--------------------------------------------------------------------------',
      'A process on the other node has exited unexpectedly while the job  This',
      'usually indicates a failure in that process (e.g., a crash or',
      'a kill by the kernel).',
    ],
    line: 2,
    category: 'other',
  },
  'a line that starts a sentence of its own is shown as it is': {
    log: ['Sending process 15 closing signal SIGTERM', 'stderr: job failed after 3 attempts'],
    line: 2,
    category: 'other',
  },
  // The pod's reason names the step that refused it; before, it decided as an eviction (a
  // retry) over the device plugin's own answer.
  "an UnexpectedAdmissionError under a line that names the cause is that cause": {
    log: ['Message:        Pod Allocate failed due to rpc error: code = Unknown desc = nvml: GPU is lost'],
    hints: { reason: 'UnexpectedAdmissionError' },
    line: 1,
    category: 'cuda',
    transient: true,
  },
  'an UnexpectedAdmissionError whose message names no kind is not a reason to retry': {
    log: ['Reason:         UnexpectedAdmissionError', 'Message:        Pod Allocate failed due to rpc error: code = Unknown desc = allocation refused by the plugin'],
    hints: { reason: 'UnexpectedAdmissionError' },
    line: 2,
    category: 'other',
    transient: false,
    recognised: true,
  },
  "the Run:ai (KAI) scheduler's fit error is the line, not the condition's bare reason": {
    log: [
      '  Scheduling Conditions:',
      "    Message:               PodSchedulingErrors: Resources were not found for pod team-a/train-0 due to: no nodes with enough resources were found: 3 node(s) didn't have enough resources: GPUs.",
      '    Reason:     Unschedulable',
    ],
    line: 2,
    category: 'scheduling',
    transient: true,
  },
};

describe('round 13: the first run on new logs', () => {
  itTriagesEach(CASES);
});
