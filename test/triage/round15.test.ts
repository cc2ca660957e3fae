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
};

describe('round 15: the first run on new logs', () => {
  itTriagesEach(CASES);
});
