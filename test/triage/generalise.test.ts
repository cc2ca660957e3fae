import { triageText } from '../../src/triage/index.js';

/**
 * The kinds of miss seen on real logs the rules were never tuned on: source lines taken for
 * the exception, status rows taken for their explanation, allocator dumps hiding the OOM,
 * and categories decided by one phrase instead of what the error means.
 */
describe('the exception line, not the source line that raised it', () => {
  it('under a rank prefix, with the traceback header', () => {
    const r = triageText(
      [
        '[rank1]: Traceback (most recent call last):',
        '[rank1]:   File "/workspace/train.py", line 88, in <module>',
        '[rank1]:     raise ValueError(f"unknown optimizer {name}")',
        "[rank1]: ValueError: unknown optimizer adamw8bit",
      ].join('\n'),
    );
    expect(r.firstError?.line).toBe('[rank1]: ValueError: unknown optimizer adamw8bit');
    expect(r.firstError?.source?.rank).toBe('rank 1');
  });

  it('when the header was cut and the raise line is not indented', () => {
    const r = triageText(
      [
        'raise _format(GatedRepoError, message, response) from e',
        'huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-66f4b037)',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(2);
    expect(r.category).toBe('permission');
  });

  it('in a notebook traceback and behind a launcher prefix', () => {
    expect(triageText('--> 491                 raise KeyError("Non-existent config key: {}".format(full_key))\n\nKeyError: \'Non-existent config key: MODEL.X\'\n').firstError?.lineNumber).toBe(3);
    const r = triageText(
      [
        "<>  [2021-12-07 10:43:01] 087c0ee7 ||     raise RuntimeError('Horovod detected that one or more processes exited with non-zero '",
        '<>  [2021-12-07 10:43:01] 087c0ee7 || RuntimeError: Horovod detected that one or more processes exited with non-zero status',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(2);
  });

  it('with mpirun --tag-output prefixes, per rank', () => {
    const r = triageText('[1,3]<stderr>:Traceback (most recent call last):\n[1,3]<stderr>:  File "t.py", line 1, in <module>\n[1,3]<stderr>:KeyError: \'labels\'\n');
    expect(r.firstError?.line).toBe("[1,3]<stderr>:KeyError: 'labels'");
    expect(r.firstError?.source?.rank).toBe('rank 3');
  });
});

describe('what explains a status, not the status row', () => {
  it('takes the Message: of kubectl describe over Reason: Evicted', () => {
    const r = triageText('Status:         Failed\nReason:         Evicted\nMessage:        The node was low on resource: ephemeral-storage. Container backend was using 96Ki.\n');
    expect(r.firstError?.lineNumber).toBe(3);
    expect(r.category).toBe('eviction');
    expect(r.transient).toBe(true);
  });

  it('takes the Warning event over a `kubectl get pods` row', () => {
    const r = triageText(
      [
        '$ kubectl get pod catalog-mysql-ebs-0 -n catalog',
        'NAME                  READY   STATUS                       RESTARTS   AGE',
        'catalog-mysql-ebs-0   0/1     CreateContainerConfigError   0          2m20s',
        '  Warning  Failed   24s (x12 over 2m34s)  kubelet  Error: couldn\'t find key name in Secret catalog/catalog-db',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(4);
    expect(r.category).toBe('config');
  });

  it('still uses the row when nothing explains it', () => {
    const r = triageText('NAME        READY   STATUS      RESTARTS   AGE\ntrain-0     0/1     OOMKilled   4          2m\n');
    expect(r.firstError?.lineNumber).toBe(2);
    expect(r.category).toBe('host-oom');
  });
});

describe('allocator dumps', () => {
  it("finds TensorFlow's OOM summary among hundreds of chunk lines logged at info and warning level", () => {
    const chunks = Array.from({ length: 600 }, (_, i) => `2018-05-10 09:14:16.5349${i}: I tensorflow/core/common_runtime/bfc_allocator.cc:661] Chunk at 0x1323f9bd00 of size 246016000`);
    const r = triageText(
      [
        ...chunks.slice(0, 300),
        "2018-05-10 09:14:16.535099: W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory trying to allocate 469.22MiB.  Current allocation summary follows.",
        ...chunks.slice(300),
        '2018-05-10 09:14:16.908099: W tensorflow/core/common_runtime/bfc_allocator.cc:279] *****___*************************************______',
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(301);
    expect(r.category).toBe('gpu-oom');
  });
});

describe('categories from what the error means', () => {
  it.each([
    ['botocore.exceptions.ClientError: An error occurred (403) when calling the HeadObject operation: Forbidden', 'permission'],
    ['botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the GetObject operation: Access Denied', 'permission'],
    ['google.api_core.exceptions.Forbidden: 403 GET https://storage.googleapis.com/storage/v1/b/ckpt: sa@p.iam.gserviceaccount.com does not have storage.buckets.get access', 'permission'],
    ["KeyError: 'Non-existent config key: MODEL.BACKBONE.OUT_CHANNELS'", 'config'],
    ["omegaconf.errors.ConfigAttributeError: Missing key optimizer", 'config'],
    ["sqlalchemy.exc.ArgumentError: Could not parse rfc1738 URL from string 'postgres//db:5432'", 'config'],
    ['AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 8 != 2 * 1 * 1', 'config'],
    ['ValueError: `num_heads` must be divisible by `num_shards` (got `num_heads`: 71 and `num_shards`: 2', 'config'],
    ['[ERROR]  RuntimeError: CUDA error: device-side assert triggered', 'cuda'],
    ['RuntimeError: CUDA error: no kernel image is available for execution on the device', 'cuda'],
    ['ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.', 'host-oom'],
    ['Memory cgroup out of memory: Kill process 1557026 (stress) score 1957 or sacrifice child', 'host-oom'],
    ["ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be stored in KV cache (3664).", 'gpu-oom'],
    ['ResourceExhaustedError: 2 root error(s) found.', 'gpu-oom'],
    ['Failed to pull image "registry.example.com/team/img:1": rpc error: code = Unknown desc = failed to pull and unpack image: 401 Unauthorized', 'image-pull'],
  ])('%s → %s', (line, category) => {
    expect(triageText(`${line}\n`).category).toBe(category);
  });
});

describe('an NCCL error that names its CUDA cause', () => {
  it("keeps the NCCL line but takes the category of its `Cuda failure '…'` detail", () => {
    const r = triageText(
      [
        '(VllmWorker rank=7 pid=240) torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:133, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
        '(VllmWorker rank=7 pid=240) ncclUnhandledCudaError: Call to CUDA function failed.',
        '(VllmWorker rank=7 pid=240) Last error:',
        "(VllmWorker rank=7 pid=240) Cuda failure 'out of memory'",
      ].join('\n'),
    );
    expect(r.firstError?.lineNumber).toBe(1);
    expect(r.category).toBe('gpu-oom');
  });

  it('stays nccl when no CUDA failure follows', () => {
    const r = triageText('torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n');
    expect(r.category).toBe('nccl');
  });
});
