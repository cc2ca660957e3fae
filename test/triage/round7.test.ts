import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 7 (issue 24): the mechanism round 7's logs asked for beyond vocabulary (whose entries are
 * checked row by row from their examples in vocabulary.test.ts), as a short log in the words
 * PyTorch and NCCL print. Each fails with its mechanism removed (the precedence row 'the usage error NCCL names', status
 * rows that name no kind being no line).
 */
const CASES: Record<string, LogCase> = {
  "NCCL's invalid usage gives its place to the last error that says what the job got wrong": {
    log: [
      'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5',
      'ncclInvalidUsage: This usually reflects invalid usage of NCCL library.',
      'Last error:',
      'Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000',
    ],
    line: 4,
    category: 'config',
  },
  'and without a last error it stays an NCCL failure': {
    log: ['torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5'],
    line: 1,
    category: 'nccl',
  },
  // A pasted pod description: its Status and Reason fields name a state; its Message says why.
  "a describe's Status and Reason fields that name no known kind give way to its Message": {
    log: ['Status:         Failed', 'Reason:         UnexpectedAdmissionError', 'Message:        Pod Allocate failed due to rpc error: code = Unknown desc = device plugin allocation failed'],
    line: 3,
    category: 'other',
  },
};

describe('round 7: the kinds of miss round 7 showed', () => {
  itTriagesEach(CASES);
});
