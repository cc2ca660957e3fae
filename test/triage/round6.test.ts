import { addWordsOfLine, STOP_WORDS } from '../../src/triage/learnt-words.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 6 (issue 24): mechanisms for the kinds of miss round 6's 101 new dev2 logs showed, each
 * as a short log written in the words the software prints, not a copy of a corpus log. Each
 * case fails with its mechanism removed. (The vocabulary's new entries are checked row by row
 * from their examples in vocabulary.test.ts.)
 */
const CASES: Record<string, LogCase> = {
  // libstdc++'s what() of a standard exception is its name: it adds nothing to the terminate line.
  "a terminate whose what() only repeats the type keeps its place": {
    log: ['indexing done', "terminate called after throwing an instance of 'std::bad_alloc'", '  what():  std::bad_alloc', 'Aborted (core dumped)'],
    line: 2,
    category: 'host-oom',
  },
  'and one whose what() says why still gives its place': {
    log: ['step 9', "terminate called after throwing an instance of 'c10::Error'", "  what():  CUDA error: an illegal memory access was encountered", 'Aborted (core dumped)'],
    line: 3,
    category: 'cuda',
  },
  // torchelastic's ChildFailedError.format_msg: a title, section headers, then the root cause's rows.
  "torchelastic's summary: the root cause's exitcode row, not its title or headers": {
    log: [
      '============================================================',
      'train.py FAILED',
      '------------------------------------------------------------',
      'Failures:',
      '  <NO_OTHER_FAILURES>',
      '------------------------------------------------------------',
      'Root Cause (first observed failure):',
      '[0]:',
      '  time      : 2025-01-04_15:11:47',
      '  rank      : 0 (local_rank: 0)',
      '  exitcode  : 1 (pid: 4242)',
      '  error_file: <N/A>',
    ],
    line: 11,
    category: 'other',
  },
  // A launcher's ERROR line wrapped by the paste: its tail, on the next physical line, names the signal.
  'a signal named after a logged error line is evidence, though the logged error came first': {
    log: [
      "[2024-02-06 06:23:39,510] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--deepspeed',",
      "'ds_config.json'] exits with return code = -9",
    ],
    line: 1,
    category: 'host-oom',
  },
  "a rank's negative exit code names its signal: -8 is SIGFPE, a crash": {
    log: ['E0902 14:11:47.447608 140430 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: -8) local_rank: 1 (pid: 104) of binary: /usr/bin/python'],
    line: 1,
    category: 'crash',
  },
  // c10d logs its socket waits at warning level; the exception after it is a wrapper's header.
  "c10d's socket timeout, logged as a warning, is the line before a scheduler's wrapper": {
    log: [
      '[rank3]:[W208 00:55:32.444220068 socket.cpp:487] [c10d] waitForInput: socket SocketImpl(fd=7, addr=[::ffff:10.0.0.3]:5236, remote=[::ffff:10.0.0.1]:5000) timed out after 1800000ms',
      '[2025-02-08 00:55:32 TP5] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/usr/lib/python3/dist-packages/sglang/srt/managers/scheduler.py", line 1787, in run_scheduler_process',
    ],
    line: 1,
    category: 'nccl',
  },
  // The kubelet's ErrImagePull is a cascade; the registry's answer on the same line is the cause.
  "a registry's answer on the kubelet's ErrImagePull line is the cause, and beats an earlier back-off": {
    log: ['ImagePullBackOff: Back-off pulling image "org/app:v9"', 'ErrImagePull: rpc error: code = Unknown desc = Error response from daemon: manifest for org/app:v9 not found: manifest unknown: manifest unknown'],
    line: 2,
    category: 'image-pull',
  },
};

describe('round 6: the kinds of miss round 6 showed', () => {
  itTriagesEach(CASES);

  it('leaves English function words out of the learnt reading, and keeps the words that carry meaning in an error', () => {
    const words = new Set<string>();
    addWordsOfLine('torchvision requires torch, but you have torch 2.2 which is not compatible with the others; out of memory', words);
    expect([...words].filter((w) => STOP_WORDS.has(w))).toEqual([]);
    expect([...words]).toEqual(expect.arrayContaining(['torchvision', 'requires', 'torch', 'not', 'compatible', 'out', 'memory']));
    expect(words.has('but')).toBe(false);
  });
});
