import { announcesDetail } from '../../src/triage/signatures.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 9 (issue 24): a line that only announces what follows (it ends with a colon, or is a bare
 * `reason=`/`Reason:` field) gives its place to the detail of its own kind after it; an
 * exception's own line and a line a terminal wrapped inside a bracket keep theirs.
 */
const ANNOUNCED: Record<string, LogCase> = {
  "kubectl's Forbidden header gives its place to the line that names who may not do what": {
    log: [
      '$ kubectl apply -f job.yaml',
      'Error from server (Forbidden): error when retrieving current configuration of:',
      'Resource: "kubeflow.org/v1, Resource=pytorchjobs", GroupVersionKind: "kubeflow.org/v1, Kind=PyTorchJob"',
      'from server for: "job.yaml": pytorchjobs.kubeflow.org "train" is forbidden: User "system:serviceaccount:team:default" cannot get resource "pytorchjobs" in API group "kubeflow.org" in the namespace "team"',
    ],
    line: 4,
    category: 'permission',
  },
  'a bare reason field gives its place to the message that says why': {
    log: ['reason=Evicted', 'The node was low on resource: ephemeral-storage.', 'Container app was using 1148032Ki, request is 0'],
    line: 2,
    category: 'eviction',
  },
};

describe('round 9: a line that only announces what follows', () => {
  itTriagesEach(ANNOUNCED);
});

describe('announcesDetail', () => {
  it('takes a line ending with a colon, or a bare reason or status field, for one that announces what follows', () => {
    expect(['Error from server (Forbidden): error when retrieving current configuration of:', 'reason=Evicted', '  Reason:  Evicted', 'Status: Failed'].map(announcesDetail)).toEqual([true, true, true, true]);
  });
  it("keeps an exception's own line, a line wrapped inside an open bracket, and a line that states something", () => {
    expect([
      'RuntimeError: Error(s) in loading state_dict for Net:',
      'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage, Last error:',
      'ERROR    Load model: repo="black-forest-labs/FLUX.1-dev" login=True 401 Client Error. (Request ID:',
      'Reason: the node was low on resource: ephemeral-storage.',
      'The node was low on resource: ephemeral-storage.',
    ].map(announcesDetail)).toEqual([false, false, false, false, false]);
  });
});
