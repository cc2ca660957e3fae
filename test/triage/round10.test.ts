import { droppedForItsLevel } from '../../src/triage/signatures.js';
import { itTriagesEach, type LogCase } from './log-cases.js';

/**
 * Round 10 (issue 24): the mechanisms its first run asked for. Each case fails with its
 * mechanism taken out (the crash row in precedence.ts, firstSaid in triage.ts, the retry
 * verdict of the log's own line in classify.ts, the shared-library row and the DNS move in
 * signatures.ts).
 */
const CASES: Record<string, LogCase> = {
  'a failed CHECK that quotes a missing file is the missing file, not the abort': {
    log: [
      '[I 210906 08:11:56 storage:50] Copying contents of /mnt/models to local',
      'xgboost.core.XGBoostError: [08:11:56] /workspace/dmlc-core/src/io/local_filesys.cc:209: Check failed: allow_null LocalFileSystem::Open "/mnt/models/model.bst": No such file or directory',
    ],
    line: 2,
    category: 'data-path',
  },
  'an error first logged at warning level is shown where it was first said': {
    log: [
      "2026-05-21 23:55:54 WARNING _http.py:320: MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /org/model/resolve/main/config.json (Caused by ConnectTimeoutError())\")",
      'Retrying in 8s [Retry 4/5].',
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /org/model/resolve/main/config.json (Caused by ConnectTimeoutError())",
    ],
    line: 1,
    category: 'data-path',
    transient: false,
  },
  "a name server's try-again inside a pod is not a reason to retry": {
    log: ['Traceback (most recent call last):', '  File "download.py", line 3, in <module>', 'socket.gaierror: [Errno -3] Temporary failure in name resolution'],
    line: 3,
    category: 'data-path',
    transient: false,
  },
  "a pod evicted for its own storage limit is evicted again: the kubelet's line overrides the reason's retry": {
    log: ['  Warning  Evicted  109s  kubelet  Pod ephemeral local storage usage exceeds the total limit of containers 5Gi.'],
    hints: { reason: 'Evicted' },
    line: 1,
    category: 'eviction',
    transient: false,
  },
  'a pod evicted for node pressure may run elsewhere': {
    log: ['  Warning  Evicted  3m  kubelet  The node was low on resource: ephemeral-storage.'],
    hints: { reason: 'Evicted' },
    line: 1,
    category: 'eviction',
    transient: true,
  },
  'a shared library that is not found is a package, not data': {
    log: ['>>> import dgl', 'FileNotFoundError: Cannot find DGL C++ graphbolt library at /opt/dgl/graphbolt/libgraphbolt_pytorch_2.3.0.so'],
    line: 2,
    category: 'import',
  },
  'a data file that is not found stays data, even beside a stack naming a library': {
    log: ["FileNotFoundError: [Errno 2] No such file or directory: '/data/train/shard-0001.parquet' (loaded by /usr/lib/libarrow.so)"],
    line: 1,
    category: 'data-path',
  },
  "the launcher's ssh that cannot resolve a worker is the network between the job's nodes": {
    log: ['ssh: Could not resolve hostname train-worker-1.train-worker: Name or service not known', 'ORTE was unable to reliably start one or more daemons.'],
    line: 1,
    category: 'nccl',
  },
  "a Job's backoff limit is a wrapper, said as one": {
    log: ['status:', '  conditions:', '  - message: Job has reached the specified backoff limit', '    reason: BackoffLimitExceeded', '    type: Failed'],
    line: 3,
    category: 'other',
  },
};

describe('round 10: the first run on 90 new logs', () => {
  itTriagesEach(CASES);
});

describe('droppedForItsLevel', () => {
  it('answers for a line dropped for its level alone, with the error it names', () => {
    expect(droppedForItsLevel("WARNING _http.py:320: MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded\")")?.category).toBe('data-path');
    expect(droppedForItsLevel('I1030 05:12:02.805419       1 main.go:79] Failed to initialize NVML: could not load NVML library.')?.category).toBe('cuda');
  });
  it('answers null for a line kept at its level, and for one dropped for another reason than its level', () => {
    expect(droppedForItsLevel('RuntimeError: CUDA error: an illegal memory access was encountered')).toBeNull();
    expect(droppedForItsLevel('│ ❱  891 │   │   │   f"Check batch related parameters. train_batch_si │')).toBeNull();
    expect(droppedForItsLevel('E0108 22:07:47 factory.go:660] Error scheduling default/kafka-0: pod has unbound immediate PersistentVolumeClaims; retrying')).toBeNull();
  });
});
