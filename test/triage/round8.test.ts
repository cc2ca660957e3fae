import { announcesDetail } from '../../src/triage/precedence.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 8 (issue 24): the mechanism beyond vocabulary (whose entries are checked row by row from
 * their examples in vocabulary.test.ts) that pasted pod descriptions asked for. When the
 * description's `Exit Code:` field decides the kind over lines that only follow the container's
 * end (a back-off state, a failed exec probe), that field is the line to read; a field that names
 * the decided kind in words (`Reason: OOMKilled`) stays the line. Each case fails with the
 * mechanism removed.
 */
const CASES: Record<string, LogCase> = {
  "a description's exit code that decides over a failed exec probe is the line to read": {
    log: [
      'Containers:',
      '  trainer:',
      '    State:          Waiting',
      '      Reason:       CrashLoopBackOff',
      '    Last State:     Terminated',
      '      Reason:       Error',
      '      Exit Code:    139',
      'Events:',
      '  Warning  Unhealthy  2m  kubelet  Liveness probe errored: rpc error: code = Unknown desc = failed to exec in container: OCI runtime exec failed: exec failed: unable to start container process: error executing setns process: exit status 1: unknown',
    ],
    line: 7,
    category: 'crash',
    transient: false,
  },
  'a Reason field naming the kind the exit code decides stays the line': {
    log: [
      '    Last State:     Terminated',
      '      Reason:       OOMKilled',
      '      Exit Code:    137',
      '  Warning  Unhealthy  2m  kubelet  Readiness probe errored: rpc error: code = Unknown desc = failed to exec in container: OCI runtime exec failed: exec failed: unable to start container process: error executing setns process: exit status 1: unknown',
    ],
    line: 2,
    category: 'host-oom',
  },
  "NCCL's last connect attempt, cut before it gives up, still says why the rank never connected": {
    log: [
      'node-3:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying (33/34) after sleep for 3300 msec',
      'node-3:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying (34/34) after sleep for 3400 msec',
    ],
    line: 2,
    category: 'nccl',
  },
};

describe('round 8: the kinds of miss round 8 showed', () => {
  itTriagesEach(CASES);
});

/**
 * Round 9: a line that only announces what follows (it ends with a colon, or is a bare
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
