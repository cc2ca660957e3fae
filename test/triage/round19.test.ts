import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 19 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "a name lookup that fails inside torch.distributed's rendezvous is the ranks not meeting": {
    log: [
      'Traceback (most recent call last):',
      '  File "train.py", line 413, in init_distribution',
      '    torch.distributed.init_process_group(backend=backend)',
      '  File "/usr/lib/python3/site-packages/torch/distributed/rendezvous.py", line 143, in _env_rendezvous_handler',
      '    store = TCPStore(master_addr, master_port, start_daemon)',
      'ValueError: host not found: Name or service not known',
    ],
    line: 6,
    category: 'nccl',
    transient: false,
  },
  'the same lookup failing while a model is downloaded is still the data source': {
    log: [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/site-packages/urllib3/connection.py", line 174, in _new_conn',
      '    conn = connection.create_connection(',
      'socket.gaierror: [Errno -2] Name or service not known',
    ],
    line: 4,
    category: 'data-path',
  },
  "a probe the container's server does not answer says only that the server is down": {
    log: [
      '  Warning  Unhealthy  41s (x3 over 61s)  kubelet  Liveness probe failed: Get "http://10.0.10.177:8000/v2/health/live": dial tcp 10.0.10.177:8000: connect: connection refused',
      '  Normal   Killing    41s                kubelet  Container triton failed liveness probe, will be restarted',
    ],
    line: 1,
    category: 'other',
  },
  "the server's own error outranks the probe that noticed it": {
    log: [
      '  Warning  Unhealthy  41s (x3 over 61s)  kubelet  Readiness probe failed: Get "http://10.0.0.7:8000/v2/health/ready": dial tcp 10.0.0.7:8000: connect: connection refused',
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 15.77 GiB of which 1.02 GiB is free.',
    ],
    line: 2,
    category: 'gpu-oom',
  },
  "fewer free GPUs at the node's admission than the scheduler counted is a placement to retry": {
    log: ['Message:        Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 2, Available: 1, which is unexpected'],
    hints: { reason: 'UnexpectedAdmissionError' },
    line: 1,
    category: 'scheduling',
    transient: true,
  },
  "a claim the volume controller cannot bind is the volume's failure": {
    log: [
      'Status:        Pending',
      '  Warning  VolumeMismatch  4s (x26 over 6m14s)  persistentvolume-controller  Cannot bind to requested volume "models": storageClassName does not match',
    ],
    line: 2,
    category: 'volume-mount',
  },
  'a claim no class can provision is the volume too': {
    log: ['  Warning  ProvisioningFailed  60s  persistentvolume-controller  Failed to provision volume with StorageClass "fast": rpc error: code = ResourceExhausted desc = Not enough disk space'],
    line: 1,
    category: 'volume-mount',
  },
  "Ray's memory monitor advice stands for the kill a cut paste left out": {
    log: [
      "ERR cli.py:72 -- Job 'raysubmit_abc' failed",
      '95412   14.05   ray::LLMRayActor',
      'Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task.',
    ],
    line: 3,
    category: 'host-oom',
  },
  "a Ray job client that cannot reach the head's dashboard is the cluster's parts not meeting": {
    log: ['    raise ConnectionError(', 'ConnectionError: Failed to connect to Ray at address: http://raycluster-head-svc.default.svc.cluster.local:8265.'],
    line: 2,
    category: 'nccl',
  },
  "mpirun losing a node's daemon is the network between the job's nodes": {
    log: ['ORTE has lost communication with a remote daemon.', '', '  HNP daemon   : [[43015,0],0] on node launcher', '  Remote daemon: [[43015,0],20] on node worker-19', '', 'This is usually due to either a failure of the TCP network'],
    line: 1,
    category: 'nccl',
  },
  "ssh ignoring a key others may read is the key file's mode, before the refusals it causes": {
    log: [
      '@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @',
      "Permissions 0644 for '/root/.ssh/id_rsa' are too open.",
      'It is required that your private key files are NOT accessible by others.',
      'Load key "/root/.ssh/id_rsa": bad permissions',
      'Permission denied, please try again.',
    ],
    line: 2,
    category: 'permission',
  },
  "a parallel layout that does not cover the processes launched is the job's configuration": {
    log: ['[rank1]: RuntimeError: world_size (8) is not equal to tensor_model_parallel_size (4) x pipeline_model_parallel_size (1)'],
    line: 1,
    category: 'config',
  },
  "ZeRO-Offload with the script's own optimizer is the configuration": {
    log: ["deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided optimizer (<class 'apex.optimizers.fused_adam.FusedAdam'>) which in most cases will yield poor performance."],
    line: 1,
    category: 'config',
  },
  "rclone's missing remote is the configuration, past its notices that it runs without a config file": {
    log: [
      '2022/06/28 10:17:19 DEBUG : Configuration directory could not be created and will not be used: mkdir /config: permission denied',
      '2022/06/28 10:17:19 NOTICE: Config file "/.rclone.conf" not found - using defaults',
      '2022/06/28 10:17:19 Failed to create file system for "s3://bucket/models/": didn\'t find section in config file',
    ],
    line: 3,
    category: 'config',
  },
  "a missing source directory after rclone's notices is the data's path": {
    log: [
      '2022/04/15 07:28:49 NOTICE: Config file "/.rclone.conf" not found - using defaults',
      '2022/04/15 07:28:49 ERROR : Local file system at /mnt/pvc/model: error reading source root directory: directory not found',
    ],
    line: 2,
    category: 'data-path',
  },
  'two settings a server refuses together are the configuration': {
    log: ['{', '    "error": {', '        "message": "Use tensor-parallel-size and gpu-selector at the same time is not allowed.",', '        "code": 400', '    }', '}'],
    line: 3,
    category: 'config',
  },
  'settings a framework calls mutually exclusive are the configuration': {
    log: ['INFO 05-02 10:11:12 Loading model weights', 'ValueError: `quantization` and `load_format=dummy` are mutually exclusive'],
    line: 2,
    category: 'config',
  },
  'or ones it says cannot be set together': {
    log: ['ValueError: max_steps and num_train_epochs cannot be set at the same time'],
    line: 1,
    category: 'config',
  },
};

describe('round 19: the first run on new logs', () => {
  itTriagesEach(CASES);
});
