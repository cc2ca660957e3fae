import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 11 (issue 24): the mechanisms its first run asked for. Each case fails with its
 * mechanism taken out (statedFact and ncclLastError in triage.ts, the back-off entry's
 * secondary tier and NCCL's SYSCHECK entry in vocabulary.ts, the library row in signatures.ts).
 */
const CASES: Record<string, LogCase> = {
  "a pasted description's last termination is the line to read when the termination reason decided": {
    log: ['    State:          Waiting', '      Reason:       CrashLoopBackOff', '    Last State:     Terminated', '      Reason:       OOMKilled', '      Exit Code:    137'],
    hints: { reason: 'OOMKilled' },
    line: 4,
    category: 'host-oom',
  },
  "NCCL's last error is the line to read under its error code": {
    log: [
      'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1',
      'ncclInternalError: Internal check failed.',
      'Last error:',
      'NET/IB : Got completion from peer 10.0.0.2<36262> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids ::ffff:10.0.0.2',
    ],
    line: 4,
    category: 'nccl',
  },
  "the kubelet's back-off gives way to the pull error that says why": {
    log: [
      'Failed\t\tError: ErrImagePull',
      'BackOff\t\tBack-off pulling image "openshift/hello-openshift:v3.6.0"',
      'Failed\t\tFailed to pull image "openshift/hello-openshift:v3.6.0": rpc error: code = Unknown desc = toomanyrequests: You have reached your unauthenticated pull rate limit.',
    ],
    line: 3,
    category: 'image-pull',
    transient: true,
  },
  "NCCL's refused shm_open is access, before the shared-memory segment it then cannot create": {
    log: [
      'node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied',
      'node08:27106:27302 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-b79 (size 4460544)',
    ],
    line: 1,
    category: 'permission',
  },
  // env prints the name as quote() does: a carriage return as the two characters \r.
  "a script whose #! names an interpreter env cannot find (a Windows line end) is the command's configuration": {
    log: ["/usr/bin/env: 'bash\\r': No such file or directory", 'make: *** [Makefile:249: docker-init] Error 127'],
    line: 1,
    category: 'config',
  },
  'a library that cannot be loaded is a package, not data': {
    log: ['20/08/28 20:46:43 ERROR NativeDepsLoader: Could not load cudf jni library...'],
    line: 1,
    category: 'import',
  },
  "wget's failed lookup is a source that cannot be reached": {
    log: ["wget: unable to resolve host address 'binaries.example.com'"],
    line: 1,
    category: 'data-path',
    transient: false,
  },
};

describe('round 11: the first run on 94 new logs', () => {
  itTriagesEach(CASES);
});
