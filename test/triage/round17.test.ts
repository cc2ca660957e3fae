import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 17 (issue 24): mechanisms and vocabulary its first run asked for, each case a line the
 * rules before it read as another kind, or a line they passed over.
 */
const CASES: Record<string, LogCase> = {
  "JAX's processes missing their coordination barrier is the job's processes not meeting": {
    log: ['jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:', '/job:jax_worker/replica:0/task:2'],
    line: 1,
    category: 'nccl',
  },
  "a JAX task coming back restarted, as the coordination service says": {
    log: ['2025-04-05 18:39:10.837611: E external/xla/xla/tsl/distributed_runtime/coordination/coordination_service.cc:962] /job:jax_worker/replica:0/task:1 unexpectedly tried to connect with a different incarnation. It has likely restarted.'],
    line: 1,
    category: 'nccl',
  },
  "JAX finding a CUDA library older than its build is CUDA, not the TensorFlow warning before it": {
    log: [
      '2024-01-05 14:04:57.610604: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to use GPU.',
      "Unable to initialize backend 'cuda': Found cuSOLVER version 11002, but JAX was built against version 11401, which is newer.",
    ],
    line: 2,
    category: 'cuda',
  },
  "XLA's PTX compiler CHECK is the CUDA toolkit, not a crash": {
    log: ['2024-02-27 16:32:33.075782: F external/xla/xla/service/gpu/nvptx_compiler.cc:614] Check failed: options.is_autotuning_compilation', 'Aborted (core dumped)'],
    line: 1,
    category: 'cuda',
  },
  "LLVM's PTX version too old for the GPU": {
    log: ['LLVM Fatal Error while compiling target binary for module: jit_iota', "Reason: PTX version 8.8 does not support target 'sm_107a'.", 'Minimum required PTX version is 9.4.'],
    line: 2,
    category: 'cuda',
  },
  "a TensorFlow Datasets download that is not the file it should be is the data's source": {
    log: ['NonMatchingChecksumError: Artifact https://drive.google.com/uc?export=download&id=1vRY, downloaded to /root/tensorflow_datasets/downloads/ucexport_download, has wrong checksum.', "* Got: UrlInfo(size=2.40 KiB, checksum='d86ce49a2')"],
    line: 1,
    category: 'data-path',
  },
  'both load_in_4bit and a quantization_config is the command': {
    log: ["ValueError: You can't pass `load_in_4bit`or `load_in_8bit` as a kwarg when passing `quantization_config` argument at the same time."],
    line: 1,
    category: 'config',
  },
  'a dataset that needs its own code without trust_remote_code is the command': {
    log: ['ValueError: The repository for mteb/amazon_counterfactual contains custom code which must be executed to correctly load the dataset. You can inspect the repository content at https://hf.co/datasets/mteb/amazon_counterfactual.'],
    line: 1,
    category: 'config',
  },
  "the shell's Killed at the end of a progress bar is the host's memory": {
    log: ['Loading checkpoint shards:  38%|######8           | 3/8 [00:02<00:03,  1.28it/s]Killed'],
    line: 1,
    category: 'host-oom',
  },
  "an exception whose message breaks off after a comma is shown from its own line": {
    log: [
      "ValueError: To serve at least one request with the model's max seq len (1048576),",
      '22.5 GiB KV cache is needed, which is larger than the available KV cache memory (17.39 GiB).',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  "crun's missing executable is the image's command, not a data path": {
    log: ['container create failed: executable file `lmcache_experimental_server` not found in $PATH: No such file or directory'],
    line: 1,
    category: 'config',
  },
  "the source line under a frame of a traceback whose header was cut is code, not the error": {
    log: [
      'trainer-2:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/rendezvous.py", line 174, in _create_c10d_store',
      'trainer-2:     return TCPStore(',
      'trainer-2: torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (192.168.121.122, 1040).',
    ],
    line: 3,
    category: 'nccl',
  },
};

describe('round 17: the first run on new logs', () => {
  itTriagesEach(CASES);
});
