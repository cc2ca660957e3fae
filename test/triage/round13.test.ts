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
};

describe('round 13: the first run on new logs', () => {
  itTriagesEach(CASES);
});
