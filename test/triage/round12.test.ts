import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 12 (issue 24): vocabulary its first run asked for, each case a wording of the software's
 * own that the rules before it read as another kind (or as nothing).
 */
const CASES: Record<string, LogCase> = {
  // NVML's refusal on its own line is a permission (inside the runtime's OCI error line, the
  // runtime's report still decides: a cause it states of another kind is not taken from it).
  "NVML's refusal is a permission, not the driver": {
    log: ['Failed to initialize NVML: Insufficient Permissions'],
    line: 1,
    category: 'permission',
  },
  'a CUDA toolkit older than the GPU cannot compile for it': {
    log: ['building extension block_sparse_attn', "nvcc fatal   : Unsupported gpu architecture 'compute_120'", 'error: command /usr/local/cuda/bin/nvcc failed with exit code 1'],
    line: 2,
    category: 'cuda',
  },
  "vLLM asked for a longer context than the model's is the command's configuration": {
    log: ["pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig", "  Value error, User-specified max_model_len (131072) is greater than the derived max_model_len (max_position_embeddings=32768.0 or model_max_length=None in model's config.json)."],
    line: 2,
    category: 'config',
  },
  'an option given a value it does not take is configuration': {
    log: ["ValueError: fsdp2 is not a valid FSDPOption, please select one of ['full_shard', 'shard_grad_op', 'no_shard']"],
    line: 1,
    category: 'config',
  },
  "a parallel layout the model's layers do not divide into is configuration": {
    log: ['[rank15]: AssertionError: num_layers should be divisible by pipeline_model_parallel_size'],
    line: 1,
    category: 'config',
  },
  "SGLang's prefill out of memory is the GPU's memory": {
    log: ['RuntimeError: Prefill out of memory. Try to lower your batch size.'],
    line: 1,
    category: 'gpu-oom',
  },
};

describe('round 12: the first run on 69 new logs', () => {
  itTriagesEach(CASES);
});
