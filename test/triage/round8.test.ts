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
