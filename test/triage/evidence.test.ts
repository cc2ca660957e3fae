import { TIER, classifyLine } from '../../src/triage/signatures.js';
import { triageStream, triageText } from '../../src/triage/index.js';

/**
 * The category from the whole failure, as the scanner gathers it from a log: the evidence
 * within the chosen line, the lines right after it, its chained exceptions and the last
 * exception; and the first line is never a bare traceback header when a line says more.
 */
describe('evidence within one line', () => {
  it('takes a CUDA error that NCCL\'s watchdog quotes for the CUDA error, as a recognised error', () => {
    const text = '[rank0]:[E1105 03:12:44.123 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 0] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered';
    expect(classifyLine(text.replace(/^\[rank0\]:/, ''))).toMatchObject({ category: 'cuda', tier: TIER.recognised });
    expect(triageText(`${text}\n`).category).toBe('cuda');
  });

  it('takes shared memory that NCCL names for host memory', () => {
    expect(classifyLine("NCCL WARN Error: unable to allocate shared memory, No space left on device (/dev/shm is full)")).toMatchObject({ category: 'host-oom', kind: 'shared-memory' });
  });

  it('takes a CUDA out-of-memory that an NCCL abort quotes for GPU memory', () => {
    expect(classifyLine('RuntimeError: NCCL communicator was aborted on rank 1. Original reason for failure was: CUDA error: out of memory')).toMatchObject({ category: 'gpu-oom', tier: TIER.recognised });
  });
});

describe('evidence from the lines after the chosen one', () => {
  it("lets a recognised detail of the same writer outrank the NCCL line that reports it, and shows NCCL's last error as the line", () => {
    const r = triageText(
      [
        '[rank3]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error',
        '[rank3]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
        '[rank3]: Last error:',
        "[rank3]: misc/shmutils.cc:72 NCCL WARN Error: unable to allocate shared memory",
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(4);
    expect(r.category).toBe('host-oom');
    expect(r.evidence[0]).toMatchObject({ role: 'detail', lineNumber: 4 });
  });

  it('reads the prefixed lines after an unprefixed NCCL error as its own (a launcher prefixed only the continuation)', () => {
    const r = triageText(
      [
        'torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5',
        '[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
        '[rank0]: Last error:',
        '[rank0]: Error while creating shared memory segment /dev/shm/nccl-eQz2sT (size 5767520)',
      ].join('\n'),
    );
    expect([r.category, r.firstError?.lineNumber]).toEqual(['host-oom', 4]);
  });

  it("keeps another writer's lines apart from a prefixed error", () => {
    const r = triageText(
      [
        '[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error',
        '[rank0]: Error while creating shared memory segment /dev/shm/nccl-eQz2sT (size 5767520)',
      ].join('\n'),
    );
    expect(r.evidence.filter((e) => e.role === 'detail')).toEqual([]);
  });
});

describe('a line that only reports', () => {
  it('gives its place to the detail that states why: an abort before the CUDA error that caused it', () => {
    const r = triageText(
      [
        '(RayWorkerVllm pid=7046) Fatal Python error: Aborted',
        '(RayWorkerVllm pid=7046) Thread 0x00007f (most recent call first):',
        '[E ProcessGroupNCCL.cpp:916] [Rank 0] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered',
      ].join('\n'),
    );
    expect(r).toMatchObject({ category: 'cuda', firstError: { lineNumber: 3 } });
    expect(r.firstError?.context[0]).toContain('Fatal Python error');
  });

  it("takes the NVIDIA hook's error under the container runtime's report for cuda, and shows it", () => {
    const r = triageText(
      [
        "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'",
        'nvidia-container-cli: initialization error: driver rpc error: failed to process request: unknown.',
      ].join('\n'),
    );
    expect(r).toMatchObject({ category: 'cuda', firstError: { lineNumber: 2 } });
  });

  it('takes the retry verdict from a detail of the same kind: a 429 on the wrapped line after the failed pull', () => {
    const r = triageText(
      [
        'Warning  Failed     76s   kubelet   Failed to pull image "busybox": rpc error: code = Unknown',
        'desc = failed to pull and unpack image "docker.io/library/busybox:latest": failed to copy: httpReadSeeker: failed open:',
        '429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
      ].join('\n'),
    );
    expect(r).toMatchObject({ category: 'image-pull', transient: true, firstError: { lineNumber: 1 } });
  });

  it('takes a bus error (SIGBUS) for shared memory, as in a container it nearly always is', () => {
    expect(triageText('ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) local_rank: 0 (pid: 37386) of binary: /usr/bin/python\n').category).toBe('host-oom');
    expect(triageText('step 9\n', { exitCode: 135 }).category).toBe('host-oom');
  });
});

describe('evidence from chained exceptions', () => {
  it('keeps the Python root cause as the line and takes the kind its wrapper names when the root names none', () => {
    const r = triageText(
      [
        'Traceback (most recent call last):',
        '  File "hub.py", line 10, in fetch',
        "ValueError: unexpected header 'x-repo-commit'",
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "train.py", line 3, in <module>',
        'huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. Repository Not Found for url: https://huggingface.co/api/models/org/x',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(3);
    expect(r.category).toBe('data-path');
    expect(r.evidence[0]).toMatchObject({ role: 'chain', lineNumber: 9 });
  });

  it("takes a Java exception's deepest cause for the line, and keeps the chain as evidence", () => {
    const r = triageText(
      [
        'org.apache.spark.SparkException: Job aborted due to stage failure: Task 3 in stage 2.0 failed 4 times',
        '\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(DAGScheduler.scala:2672)',
        'Caused by: java.util.concurrent.ExecutionException: Boxed Error',
        '\tat scala.concurrent.impl.Promise$.resolver(Promise.scala:87)',
        '\t... 12 more',
        'Caused by: org.example.etl.BadRecordException: record 12 has 3 fields, expected 4',
        '\tat org.example.etl.Parser.parse(Parser.java:88)',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(6);
    expect(r.evidence.filter((e) => e.role === 'chain').map((e) => e.lineNumber)).toEqual([1, 3]);
  });

  it('takes the kind of the exception raised while handling an unrecognised one', () => {
    const r = triageText("Traceback (most recent call last):\nKeyError: 'train_path'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\nPermissionError: [Errno 13] Permission denied: '/data/out'\n");
    expect(r.firstError?.lineNumber).toBe(2);
    expect(r.category).toBe('permission');
  });
});

describe('a bare traceback header', () => {
  it('is not the line when a line after it says what failed', () => {
    // The traceback of rank 0 is never finished (the rank was killed); the C++ error line after it has no prefix.
    const r = triageText(
      [
        '[rank0]: Traceback (most recent call last):',
        '[rank0]:   File "train.py", line 5, in <module>',
        '2024-09-25 10:12:01 ERROR cuda_dnn: Loaded runtime CuDNN library: 8.9.2 but source was compiled with: 8.9.4.',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(3);
  });

  it('is the line when the log was cut before its exception and nothing else says anything', async () => {
    const r = await triageStream((async function* () {
      yield Buffer.from('step 9\nTraceback (most recent call last):\n  File "train.py", line 5, in <module>\n');
    })());
    expect(r.firstError?.lineNumber).toBe(2);
    expect(r.recognised).toBe(false);
  });
});
