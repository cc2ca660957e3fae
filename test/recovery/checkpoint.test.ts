/**
 * lastCheckpoint over log tails read with `kubectl logs --timestamps`. Every save line below
 * is a framework's own format string (file named in each row, as in src/recovery/checkpoint.ts)
 * filled in with example values; the kubectl timestamp is RFC 3339 with nanoseconds.
 */
import { lastCheckpoint, MAX_TAIL_LINES, type CheckpointSighting } from '../../src/recovery/checkpoint.js';
import { checkpointLine } from '../../src/messages/log-advice.js';

const now = new Date('2026-11-29T10:40:41Z');
/** A tail whose lines are stamped a second apart, starting at 10:00:00 (kubectl --timestamps). */
function tail(...lines: string[]): string[] {
  return lines.map((line, i) => `2026-11-29T10:00:${String(i).padStart(2, '0')}.123456789Z ${line}`);
}
const line = (sighting: CheckpointSighting) => checkpointLine(sighting, now);

describe('lastCheckpoint, framework by framework', () => {
  it('Megatron-LM (megatron/training/checkpointing.py): counts the save at its "successfully saved" line', () => {
    const s = lastCheckpoint(
      tail(
        ' iteration    11990/  500000 | consumed samples: 767360 | elapsed time per iteration (ms): 812.3 | lm loss: 2.051E+00 |',
        '[2026-11-29 10:00:01.000000] saving checkpoint at iteration   12000 to /ckpt/gpt in torch_dist format',
        '  [2026-11-29 10:00:41.000000] successfully saved checkpoint from iteration   12000 to /ckpt/gpt [ t 1/2, gtp_remat 1/1, p 1/1 ]',
      ),
      now,
    );
    expect(s.lastSaved).toMatchObject({ framework: 'Megatron-LM', progress: { unit: 'iteration', value: 12000 }, path: '/ckpt/gpt' });
    expect(s.lastSaved?.at?.toISOString()).toBe('2026-11-29T10:00:02.123Z');
    expect(line(s)).toBe('last checkpoint saved 40 min ago (iteration 12000, `/ckpt/gpt`)');
  });

  it('Megatron-LM async: a save begun and not finished is not a save', () => {
    const s = lastCheckpoint(tail('[2026-11-29 10:00:00.000000] saving checkpoint at iteration   12000 to /ckpt in torch_dist format'), now);
    expect(s.lastSaved).toBeUndefined();
    expect(line(s)).toBe('no finished checkpoint save in the last line of its log; a save begun 40 min ago (iteration 12000) has not said it finished');
  });

  it('Megatron-LM: the last finished save, and a later one still open', () => {
    const s = lastCheckpoint(
      tail(
        'saving checkpoint at iteration   11000 to /ckpt in torch_dist format',
        'successfully saved checkpoint from iteration   11000 to /ckpt [ t 1/1, gtp_remat 1/1, p 1/1 ]',
        'saving checkpoint at iteration   12000 to /ckpt in torch_dist format',
      ),
      now,
    );
    expect(s.lastSaved?.progress).toEqual({ unit: 'iteration', value: 11000 });
    expect(s.unfinished).toMatchObject({ progress: { unit: 'iteration', value: 12000 }, scheduled: false });
  });

  it('torchtitan (components/checkpointer/dcp.py): "Finished saving", with the step of the last training line', () => {
    const s = lastCheckpoint(
      tail(
        '[titan] 2026-11-29 10:00:00,000 - root - INFO - \x1b[31mstep: 500  \x1b[32mloss:  3.21000  \x1b[33mgrad_norm:  0.9000',
        '[titan] 2026-11-29 10:00:01,000 - root - INFO - Saving the checkpoint.',
        '[titan] 2026-11-29 10:00:13,000 - root - INFO - Finished saving the checkpoint in 12.34 seconds.',
      ),
      now,
    );
    expect(s.lastSaved).toMatchObject({ framework: 'torchtitan', progress: { unit: 'step', value: 500 } });
  });

  it('torchtitan async: staging is not a save', () => {
    const s = lastCheckpoint(tail('[titan] - root - INFO - Staging the checkpoint.', '[titan] - root - INFO - Finished staging the checkpoint in 0.52 seconds.'), now);
    expect(s.lastSaved).toBeUndefined();
    expect(s.unfinished?.scheduled).toBe(true);
    expect(line(s)).toContain('an asynchronous save scheduled');
  });

  it('torchtitan last step: "Last step checkpoint completed in"', () => {
    const s = lastCheckpoint(tail('Saving the checkpoint.', 'Saving a full checkpoint at last step, step 1000.', 'Last step checkpoint completed in 3.20s'), now);
    expect(s.lastSaved?.progress).toEqual({ unit: 'step', value: 1000 });
  });

  it('NeMo 2 (nemo/lightning/io/pl.py): "Global Checkpoint Save" is a save when synchronous', () => {
    const s = lastCheckpoint(tail('Global Checkpoint Save : Rank: 0 : Iteration: 500 : Start time: 1732870000.123s : Save duration: 12.345s'), now);
    expect(s.lastSaved).toMatchObject({ framework: 'NeMo', progress: { unit: 'iteration', value: 500 } });
  });

  it('NeMo 2 async (callbacks/model_checkpoint.py): scheduled is not saved; finalized is', () => {
    const scheduled = [
      'Global Checkpoint Save : Rank: 0 : Iteration: 499 : Start time: 1732870000.123s : Save duration: 0.811s',
      'Scheduled async checkpoint save for /results/checkpoints/model--step=499-epoch=0.ckpt',
    ];
    const open = lastCheckpoint(tail(...scheduled), now);
    expect(open.lastSaved).toBeUndefined();
    expect(open.unfinished).toMatchObject({ scheduled: true, progress: { unit: 'iteration', value: 499 } });
    const done = lastCheckpoint(
      tail(...scheduled, 'Successfully saved checkpoint from iteration     499 to /results/checkpoints/model--step=499-epoch=0.ckpt', 'Async checkpoint save for step 500 (/results/checkpoints/model--step=499-epoch=0.ckpt) finalized successfully.'),
      now,
    );
    expect(done.lastSaved).toMatchObject({ framework: 'NeMo', progress: { unit: 'step', value: 500 } });
    expect(done.unfinished).toBeUndefined();
  });

  it('NeMo 1 (utils/callbacks/nemo_model_checkpoint.py): a save started, then the .nemo file saved', () => {
    const s = lastCheckpoint(tail('Checkpoint save for step 1000 started at 1732870000.5.', 'New .nemo model saved to: /results/megatron_gpt.nemo'), now);
    expect(s.lastSaved).toMatchObject({ progress: { unit: 'step', value: 1000 }, path: '/results/megatron_gpt.nemo' });
  });

  it('PyTorch Lightning (callbacks/model_checkpoint.py on_exception): the save made as a run stops on an exception', () => {
    const s = lastCheckpoint(tail('An KeyboardInterrupt was raised with message: , saved checkpoint to /ckpt/exception-epoch=2-step=900.ckpt'), now);
    expect(s.lastSaved).toMatchObject({ framework: 'PyTorch Lightning', path: '/ckpt/exception-epoch=2-step=900.ckpt' });
  });

  it('PyTorch Lightning (callbacks/model_checkpoint.py, verbose=True): "saving model to", not "was not in top"', () => {
    const s = lastCheckpoint(
      tail(
        "Epoch 3, global step 1200: 'val_loss' reached 0.12345 (best 0.12345), saving model to '/ckpt/epoch=3-step=1200.ckpt' as top 1",
        "Epoch 4, global step 1500: 'val_loss' was not in top 1",
      ),
      now,
    );
    expect(s.lastSaved).toMatchObject({ framework: 'PyTorch Lightning', progress: { unit: 'global step', value: 1200, epoch: 3 }, path: '/ckpt/epoch=3-step=1200.ckpt' });
    expect(s.lastSaved?.at?.toISOString()).toBe('2026-11-29T10:00:00.123Z');
  });

  it('Hugging Face Trainer (trainer.py _save): "Saving model checkpoint to …/checkpoint-N"; deleting one is not a save', () => {
    const s = lastCheckpoint(
      tail('[INFO|trainer.py:3705] 2026-11-29 10:00:00,000 >> Saving model checkpoint to /out/checkpoint-500', '[INFO|trainer.py:3812] 2026-11-29 10:00:05,000 >> Deleting older checkpoint [/out/checkpoint-400] due to args.save_total_limit'),
      now,
    );
    expect(s.lastSaved).toMatchObject({ framework: 'Hugging Face Trainer', progress: { unit: 'global step', value: 500 }, path: '/out/checkpoint-500' });
  });

  it('DeepSpeed (runtime/engine.py, checkpoint_engine): "Saving model checkpoint:" starts, "is ready now!" finishes', () => {
    const started = '[2026-11-29 10:00:00,000] [INFO] [engine.py:3427:_save_checkpoint] Saving model checkpoint: /ckpt/global_step100/mp_rank_00_model_states.pt';
    expect(lastCheckpoint(tail(started), now).lastSaved).toBeUndefined();
    const s = lastCheckpoint(tail(started, '[2026-11-29 10:00:05,000] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step100 is ready now!'), now);
    expect(s.lastSaved).toMatchObject({ framework: 'DeepSpeed', progress: { unit: 'global step', value: 100 } });
  });

  it('Keras (callbacks/model_checkpoint.py, verbose=1): "Epoch N: saving model to", and "improved from"', () => {
    expect(lastCheckpoint(tail('Epoch 5: saving model to /ckpt/model.keras'), now).lastSaved?.progress).toEqual({ unit: 'epoch', value: 5 });
    const s = lastCheckpoint(tail('Epoch 6: val_loss improved from 0.50000 to 0.40000, saving model to /ckpt/best.keras', 'Epoch 7: val_loss did not improve from 0.40000'), now);
    expect(s.lastSaved).toMatchObject({ framework: 'Keras', progress: { unit: 'epoch', value: 6 }, path: '/ckpt/best.keras' });
  });

  it('recognises the frameworks\' folder names in a save line of its own, but not in a load', () => {
    expect(lastCheckpoint(tail('Saved checkpoint to /ckpt/step-3000'), now).lastSaved?.progress).toEqual({ unit: 'step', value: 3000 });
    expect(lastCheckpoint(tail('saving to s3://bucket/run/iter_0012000/'), now).lastSaved?.progress).toEqual({ unit: 'iteration', value: 12000 });
    expect(lastCheckpoint(tail('Loading checkpoint from /ckpt/checkpoint-500', 'resuming from saved /ckpt/global_step100'), now).lastSaved).toBeUndefined();
  });
});

describe('lastCheckpoint, when it sees none', () => {
  it('says how many lines it read, never "no checkpoint"', () => {
    const s = lastCheckpoint(tail('epoch 1 loss 0.3', 'epoch 2 loss 0.2'), now);
    expect(line(s)).toBe('no checkpoint line in the last 2 lines of its log');
    expect(line(s)).not.toMatch(/no checkpoint(?! line)/);
  });

  it('says when a save line had no timestamp', () => {
    const s = lastCheckpoint(['Saving model checkpoint to /out/checkpoint-20'], now);
    expect(line(s)).toBe('last checkpoint saved (global step 20, `/out/checkpoint-20`), its time not in the log');
  });

  it(`reads at most the last ${MAX_TAIL_LINES} lines`, () => {
    const lines = [...tail('Saving model checkpoint to /out/checkpoint-1'), ...Array.from({ length: MAX_TAIL_LINES }, () => 'noise')];
    const s = lastCheckpoint(lines, now);
    expect(s.linesRead).toBe(MAX_TAIL_LINES);
    expect(s.lastSaved).toBeUndefined();
  });

  it('reads a hostile line without trouble and shows its path only escaped', () => {
    const s = lastCheckpoint(tail(`Saving model checkpoint to /out/<!channel>checkpoint-7 ${'x'.repeat(100_000)}`), now);
    expect(line(s)).not.toContain('<!channel>');
    expect(s.lastSaved?.progress).toEqual({ unit: 'global step', value: 7 });
  });
});
