import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 16 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "HAMi's vGPU limit refusing an allocation is the GPU's memory, not the CUDA error after it": {
    log: ['[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 0 OOM 3171158016 / 3145728000', 'RuntimeError: CUDA error: unrecognized error code'],
    line: 1,
    category: 'gpu-oom',
  },
  "HAMi's failed cuMemoryAllocate with CUDA's out-of-memory code": {
    log: ['[HAMI-core ERROR (pid:7 thread=140360328144640 allocator.c:115)]: cuMemoryAllocate failed res=2'],
    line: 1,
    category: 'gpu-oom',
  },
  "SGLang's host KV cache larger than the host's free memory": {
    log: ['ValueError: Not enough host memory available. Requesting 40.00 GB but only have 44.87 GB free. Please reduce the size of the hierarchical cache.'],
    line: 1,
    category: 'host-oom',
  },
  "TensorRT-LLM's CUDA call that ran out of memory, named with the call": {
    log: ["Model 'tensorrt_llm' loading failed with error: version 1 is at UNAVAILABLE state: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:122)"],
    line: 1,
    category: 'gpu-oom',
  },
  "NCCL with no interface to bootstrap on is the job's interface setting": {
    log: ['Failed to create NCCL communicator: INTERNAL: ncclCommInitRankConfig(...) failed:', "invalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'"],
    line: 2,
    category: 'config',
  },
  'Ray started with no head address is the command, not the network': {
    log: ['+ ray start --address=:6379 --num-gpus 8 --block', '[2025-07-23 10:05:49,679 W 51000 51000] gcs_rpc_client.h:151: Failed to connect to GCS at address :6379 within 5 seconds.'],
    line: 2,
    category: 'config',
  },
  "AWS Batch's failed pull is the pull, though IAM's AccessDenied is on its line": {
    log: ['CannotPullECRContainerError: AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/job-role is not authorized to perform: ecr:GetAuthorizationToken on resource: * because no identity-based policy allows the ecr:GetAuthorizationToken action'],
    line: 1,
    category: 'image-pull',
  },
  "Artifact Registry's refused download is the image pull": {
    log: ['DENIED: Permission "artifactregistry.repositories.downloadArtifacts" denied on resource "projects/p/locations/us/repositories/gcr.io" (or it may not exist)'],
    line: 1,
    category: 'image-pull',
  },
  'an image without a build for the node\'s platform': {
    log: ['Using default tag: latest', 'docker: no matching manifest for linux/arm64/v8 in the manifest list entries.'],
    line: 2,
    category: 'image-pull',
  },
  "systemd-coredump's report of a segfault": {
    log: ['           PID: 725475 (nv-hostengine)', '        Signal: 11 (SEGV)', '     Timestamp: Fri 2024-10-25 17:52:21 CEST (3min 9s ago)'],
    line: 2,
    category: 'crash',
  },
  "NVML that cannot get a GPU's handle is a GPU fault, a reason to move to a sound GPU": {
    log: ['    raise NVMLError(ret)', 'pynvml.NVMLError_Unknown: Unknown Error'],
    line: 2,
    category: 'cuda',
    transient: true,
  },
  "pynvml's NoPermission is a permission, not scheduling": {
    log: ['Traceback (most recent call last):', '    raise NVMLError(ret)', 'pynvml.NVMLError_NoPermission: Insufficient Permissions'],
    line: 3,
    category: 'permission',
  },
  "a fabric manager of another version than the driver": {
    log: ["fabric manager NVIDIA GPU driver interface version 590.48.01 don't match with driver version 580.126.09.", 'Please update with matching NVIDIA driver package.'],
    line: 1,
    category: 'cuda',
  },
  'a GPU that cannot be reset to take its MIG mode': {
    log: ['time="2025-08-19T11:17:36Z" level=debug msg="Applying MIG mode change..."', 'Resetting GPU 00000000:00:04.0 is not supported.'],
    line: 2,
    category: 'cuda',
  },
  "a start script's test that read a word where it wanted a number is the script's bug": {
    log: ['via-server-1  | Total GPU memory is [Insufficient MiB per GPU', 'via-server-1  | /opt/nvidia/via/start_via.sh: line 79: [[: [Insufficient: syntax error: operand expected (error token is "[Insufficient")'],
    line: 2,
    category: 'other',
    recognised: true,
  },
  "an application Xid alone is the program's fault: not a reason to retry": {
    log: ["[93297.027938] NVRM: Xid (PCI:0000:43:00): 13, pid='<unknown>', name=<unknown>, Graphics Exception: ESR 0x52e7b0=0x101000e 0x52e7b4=0x4"],
    line: 1,
    category: 'cuda',
    transient: false,
  },
  'an application Xid that names the hardware Xid before it is that fault: a sound GPU helps': {
    log: ['kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149'],
    line: 1,
    category: 'cuda',
    transient: true,
  },
  "bash's quoted carriage return is a script with Windows line ends, in any locale": {
    log: ["./tools/dist_train.sh: \u884c 2: $'\\r'\uff1a\u672a\u627e\u5230\u547d\u4ee4", "': [Errno 2] No such file or directoryle '"],
    line: 1,
    category: 'config',
  },
  "Hydra without the primary config the command names is configuration, not a data path": {
    log: ["hydra.errors.MissingConfigException: Cannot find primary config 'configs/sam2.1_training/custom.yaml'. Check that it's in your config search path."],
    line: 1,
    category: 'config',
  },
  "the Trainer's --deepspeed naming a file that is not there": {
    log: ['ValueError: Expected a string path to an existing deepspeed config, or a dictionary, or a base64 encoded string. Received: ds_config_zero2.json'],
    line: 1,
    category: 'config',
  },
  "DeepSpeed's config check refusing a fractional bucket size": {
    log: ['pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig', 'stage3_prefetch_bucket_size', '  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=15099494.4, input_type=float]'],
    line: 1,
    category: 'config',
  },
  "Slurm refusing a submission is the job's request, not a missing file": {
    log: ['sbatch: error: Cannot find GPU specification, you may not submit a job', 'not requesting GPUs in a non-CPU partition, partition: batch'],
    line: 1,
    category: 'config',
  },
  "a manifest Kubernetes cannot read is the workload's YAML": {
    log: ['error: error validating "job-2.yml": error validating data: [ValidationError(Job.spec.template.spec): unknown field "computeResources" in io.k8s.api.core.v1.PodSpec]'],
    line: 1,
    category: 'config',
  },
  "Helm's announcement gives its place to the API server's reason under it": {
    log: ['Error: INSTALLATION FAILED: 1 error occurred:', '\t* Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ResourceRequirements.spec.template.spec.containers.resources.limits of type v1.ResourceList'],
    line: 2,
    category: 'config',
  },
};

describe('round 16: the first run on new logs', () => {
  itTriagesEach(CASES);
});
