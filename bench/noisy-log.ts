/**
 * A GPU training log as operators see it: tqdm progress bars redrawn with carriage returns,
 * NCCL INFO chatter, Python and c10d warnings, INFO logging and metrics, and then, near the end,
 * the error that killed the job followed by the cascade it causes. Deterministic, so every run
 * triages the same text.
 */

/** The real error: a CUDA OOM traceback on rank 3, then the lines it drags along. */
export const REAL_ERROR = [
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 212, in <module>',
  '    main()',
  '  File "/workspace/train.py", line 188, in main',
  '    loss.backward()',
  '  File "/usr/local/lib/python3.11/site-packages/torch/_tensor.py", line 581, in backward',
  '    torch.autograd.backward(',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which 1.23 GiB is free. Of the allocated memory 74.10 GiB is allocated by PyTorch.',
  '[rank1]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank 1] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error',
  'ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 3 (pid: 4711) of binary: /usr/bin/python',
  'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: train.py FAILED',
].join('\n') + '\n';

/** Lines of noise starting at step `from`: about 110 bytes per line on average. */
export function noiseLines(from: number, count: number): string {
  const out: string[] = [];
  for (let i = from; i < from + count; i++) {
    const step = i % 5000;
    switch (i % 20) {
      case 0:
        out.push(`NCCL INFO Channel ${String(i % 32).padStart(2, '0')}/0 : ${i % 8}[${i % 8}] -> ${(i + 1) % 8}[${(i + 1) % 8}] via P2P/CUMEM/read`);
        break;
      case 1:
        out.push(`gpu-node-${String(i % 40).padStart(2, '0')}:4711:4790 [${i % 8}] NCCL INFO Connected all rings, comm 0x55d1c${(i % 4096).toString(16)} nRanks 08`);
        break;
      case 2:
        out.push(`/usr/local/lib/python3.11/site-packages/torch/utils/data/dataloader.py:557: UserWarning: This DataLoader will create 16 worker processes in total.`);
        break;
      case 3:
        out.push(`[W socket.cpp:663] [c10d] The client socket has failed to connect to [train-master-0]:29500 (errno: 111 - Connection refused).`);
        break;
      case 4:
        out.push(`2026-11-29 09:${String((i >> 6) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${String(i % 1000).padStart(3, '0')} INFO trainer: step ${step} loss=${(2 + Math.sin(i) ).toFixed(4)} lr=3.0e-04 grad_norm=${(1 + Math.cos(i)).toFixed(3)}`);
        break;
      case 5:
        out.push(`WARNING:root:gradient overflow detected at step ${step}, reducing loss scale to ${2 ** (i % 16)}`);
        break;
      case 6:
        out.push(`{"level":"info","ts":${1764406800 + i},"msg":"checkpoint shard written","shard":${i % 64},"bytes":${(i * 7919) % 100000000}}`);
        break;
      default: {
        // tqdm redraws its bar in place: several states on one physical line.
        const pct = (n: number) => `${String(n).padStart(3)}%|${'#'.repeat(n / 10)}${' '.repeat(10 - Math.floor(n / 10))}| ${n * 50}/5000`;
        const n = (i * 7) % 91;
        out.push(`Epoch ${i % 90}: ${pct(n)} [01:${String(n % 60).padStart(2, '0')}<02:10, 3.85it/s]\r` + `Epoch ${i % 90}: ${pct(n + 1)} [01:${String((n + 1) % 60).padStart(2, '0')}<02:09, 3.86it/s]`);
      }
    }
  }
  return out.join('\n') + '\n';
}

/** A small failing log (for a workload's pod): `lines` of noise, the error, a little more noise. */
export function failingLog(lines: number): string {
  return noiseLines(0, lines) + REAL_ERROR + noiseLines(lines, 5);
}
