/**
 * Container logs for the demo's workloads, written to look like what PyTorch jobs really print:
 * progress bars redrawn with \r, library warnings, a traceback, and the noise after it. The
 * bot has to find the one line that matters in each.
 */

/** resnet-finetune: runs out of GPU memory in epoch 3 when the batch grows. */
export const OOM_LOG = [
  '2026-11-29 09:00:02,114 INFO  Using device cuda:0 (NVIDIA A100-SXM4-80GB)',
  '2026-11-29 09:00:02,530 INFO  Loaded 1,281,167 training images from /data/imagenet/train',
  '/opt/conda/lib/python3.11/site-packages/torch/utils/data/dataloader.py:617: UserWarning: This DataLoader will create 16 worker processes in total. Our suggested max number of worker in current system is 8, which is smaller than what this DataLoader is going to create.',
  '  warnings.warn(',
  'Epoch 1/10: 100%|██████████| 5005/5005 [14:02<00:00,  5.94it/s, loss=2.114, acc=0.512]',
  'Epoch 2/10: 100%|██████████| 5005/5005 [13:58<00:00,  5.97it/s, loss=1.602, acc=0.618]',
  '2026-11-29 09:28:11,902 INFO  Saved checkpoint /checkpoints/resnet-finetune/epoch-2.pt',
  '2026-11-29 09:28:12,007 INFO  Increasing batch size to 512 (gradient accumulation off)',
  'Epoch 3/10:   0%|          | 0/2503 [00:00<?, ?it/s]\rEpoch 3/10:   0%|          | 1/2503 [00:03<2:05:11,  3.00s/it]\rEpoch 3/10:   0%|          | 2/2503 [00:04<1:31:40,  2.20s/it]',
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 214, in <module>',
  '    main()',
  '  File "/workspace/train.py", line 187, in main',
  '    loss = criterion(model(images), targets)',
  '  File "/opt/conda/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1736, in _wrapped_call_impl',
  '    return self._call_impl(*args, **kwargs)',
  '  File "/opt/conda/lib/python3.11/site-packages/torchvision/models/resnet.py", line 285, in forward',
  '    return self._forward_impl(x)',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.06 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.21 GiB is free. Including non-PyTorch memory, this process has 77.93 GiB memory in use. Of the allocated memory 74.20 GiB is allocated by PyTorch, and 2.91 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.',
  'wandb: 🚀 View run resnet-finetune at: https://wandb.example.org/vision/runs/3kq9x2',
  'wandb: Waiting for W&B process to finish... (failed 1).',
  '',
].join('\n');

/** resnet-finetune resubmitted: its first minutes (epoch 1 has not ended, so no checkpoint yet). */
export const RESNET_RESTART_LOG = [
  '2026-11-29 10:05:41,220 INFO  Using device cuda:0 (NVIDIA A100-SXM4-80GB)',
  '2026-11-29 10:05:41,688 INFO  Loaded 1,281,167 training images from /data/imagenet/train',
  '',
].join('\n');

/** jupyter-bob: a notebook server, stopped by its owner. */
export const JUPYTER_LOG = [
  '[I 2026-11-29 08:02:11.412 ServerApp] Jupyter Server 2.14.2 is running at:',
  '[I 2026-11-29 08:02:11.412 ServerApp] http://jupyter-bob-0-0:8888/lab',
  '[I 2026-11-29 09:41:57.003 ServerApp] Saving file at /notebooks/segmentation-eval.ipynb',
  '[C 2026-11-29 09:45:00.118 ServerApp] received signal 15, stopping',
  '[I 2026-11-29 09:45:00.120 ServerApp] Shutting down 2 kernels',
  '',
].join('\n');

/** llama-ddp worker 1: a data shard is missing, so this rank dies first. */
export const DDP_WORKER1_LOG = [
  '[rank2]: INFO  Rank 2/3 on host dgx-a100-03, local_rank 0',
  '[rank2]: INFO  Loading shards 16-23 from /data/shards',
  'Loading shard 16: 100%|██████████| 1/1 [00:02<00:00,  2.41s/it]',
  '[rank2]: Traceback (most recent call last):',
  '[rank2]:   File "/workspace/finetune.py", line 96, in <module>',
  '[rank2]:     dataset = load_shards(args.data_dir, rank=rank)',
  '[rank2]:   File "/workspace/data.py", line 41, in load_shards',
  '[rank2]:     return pq.read_table(path)',
  "[rank2]: FileNotFoundError: [Errno 2] No such file or directory: '/data/shards/shard-17.parquet'",
  'E1129 09:30:00.412000 1 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 57) of binary: /opt/conda/bin/python',
  '',
].join('\n');

/** llama-ddp master and worker 0: they wait for the dead rank until NCCL's watchdog gives up. */
export function ddpWatchdogLog(rank: number): string {
  return [
    `[rank${rank}]: INFO  Rank ${rank}/3 on host dgx-a100-0${rank + 1}, local_rank 0`,
    `[rank${rank}]: INFO  Loading shards ${rank * 8}-${rank * 8 + 7} from /data/shards`,
    `[rank${rank}]:[E1129 09:40:00.118000 ProcessGroupNCCL.cpp:616] [Rank ${rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600004 milliseconds before timing out.`,
    `[rank${rank}]: RuntimeError: NCCL communicator was aborted on rank ${rank}.`,
    '',
  ].join('\n');
}

/**
 * fish-detector (bob): a detector's training that ran out of GPU memory, yet exited 0, as its
 * command pipes through `tee` without `pipefail`. The real log of VIAME/VIAME#146 ("Training exit
 * code 0 even if CUDA errors"), copied from test/fixtures/logs/masked/viame-exit-0-cuda-oom.log
 * (source and licence in test/fixtures/README.md: quoted, copyright with its author); the end of
 * its traceback is not in that copy either.
 */
export const MASKED_OOM_LOG = [
  "ERROR: an <class 'RuntimeError'> error occurred in the train loop: RuntimeError('CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.80 GiB total capacity; 1.28 GiB already allocated; 5.44 MiB free; 1.32 GiB reserved in total by PyTorch)',)",
  "INFO: Traceback (most recent call last):",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/netharn/fit_harn.py\", line 1554, in run",
  "    test_loader",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/netharn/fit_harn.py\", line 1768, in _run_tagged_epochs",
  "    harn._run_epoch(train_loader, tag='train', learn=True)",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/netharn/fit_harn.py\", line 1981, in _run_epoch",
  "    outputs, loss = harn.run_batch(batch)",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/bioharn/detect_fit.py\", line 293, in run_batch",
  "    return_result=return_result)",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/netharn/device.py\", line 58, in forward",
  "    return self.module.forward(*inputs, **kwargs)",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/bioharn/models/mm_models.py\", line 871, in forward",
  "    return_loss=True, **trainkw)",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/mmcv/runner/fp16_utils.py\", line 84, in new_func",
  "    return old_func(*args, **kwargs)",
  "  File \"/opt/noaa/viame/lib/python3.6/site-packages/mmdet/models/detectors/base.py\", line 168, in forward",
  '',
].join('\n');

/**
 * llama-ddp's master while it trains: the Hugging Face Trainer's own line when it saves
 * ("Saving model checkpoint to ...", transformers/trainer.py `_save_checkpoint`, as its default
 * logging prints it: the message alone; the API server adds the time), written
 * `minutesAgo` before the maintenance reminder; the progress after it is not a save.
 */
export const LLAMA_TRAINING_LOG = {
  before: [
    "[rank0]: INFO  Rank 0/3 on host dgx-a100-01, local_rank 0",
    "{'loss': 1.9312, 'grad_norm': 0.8125, 'learning_rate': 1.8e-05, 'epoch': 0.41}",
    '',
  ].join('\n'),
  checkpoint: [
    "Saving model checkpoint to /checkpoints/llama-ddp/checkpoint-12000",
    '',
  ].join('\n'),
  after: [
    "{'loss': 1.8874, 'grad_norm': 0.7969, 'learning_rate': 1.7e-05, 'epoch': 0.44}",
    '',
  ].join('\n'),
};
