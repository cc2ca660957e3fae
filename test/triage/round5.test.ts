import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 5 (issue 24): mechanisms for dev2's remaining kinds of miss, each as a short log written
 * in the words the software prints, not a copy of a corpus log. Each case fails with its
 * mechanism removed.
 */
const CASES: Record<string, LogCase> = {
  // A CUDA device allocation that failed for memory is GPU memory, though the line names no GPU word the vote knows.
  'cudaMalloc failing with out of memory is the GPU out of memory': {
    log: [
      'llm_load_tensors: offloading 80 repeating layers to GPU',
      'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9120.50 MiB on device 1: cudaMalloc failed: out of memory',
      'llama_model_load: error loading model: unable to allocate CUDA1 buffer',
    ],
    line: 2,
    category: 'gpu-oom',
  },
  'and the layer words read an allocation call by name as CUDA: an unknown allocator line is GPU memory too': {
    log: ['step 3', 'my_alloc: cudaMallocAsync failed (out of memory) while growing the pool'],
    line: 2,
    category: 'gpu-oom',
  },
  // vLLM logs its cache plan at INFO and raises after it: the plan stands in when the paste ends first.
  "vLLM's zero GPU blocks, in a paste cut before its ValueError": {
    log: [
      'INFO 04-27 10:13:05 gpu_executor.py:76] # GPU blocks: 0, # CPU blocks: 2048',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/dist-packages/vllm/engine/llm_engine.py", line 340, in _initialize_kv_caches',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  "and a negative KV cache reservation, newer vLLM's words": {
    log: [
      'INFO 08-12 22:32:11 [worker.py:295] model weights take 21.59GiB; non_torch_memory takes 0.29GiB; PyTorch activation peak memory takes 1.93GiB; the rest of the memory reserved for KV Cache is -2.17GiB.',
      'Traceback (most recent call last):',
    ],
    line: 1,
    category: 'gpu-oom',
  },
  'when the ValueError is there, it is the line': {
    log: [
      'INFO 04-27 10:13:05 executor_base.py:110] # CUDA blocks: 0, # CPU blocks: 2048',
      'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
    ],
    line: 2,
    category: 'gpu-oom',
  },
};

describe('round 5: the kinds of miss left on dev2', () => {
  itTriagesEach(CASES);
});
