import type { Workload } from '../../src/model.js';
import { UNRECOGNISED, buildWorkloadAlert } from '../../src/messages/alert.js';
import { whyMessage } from '../../src/messages/replies.js';
import { triageText } from '../../src/triage/index.js';

const workload: Workload = {
  uid: 'uid-1', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'train', namespace: 'runai-vision',
  project: 'vision', owner: 'alice', state: 'Failed', pods: [],
};

const textOf = (blocks: unknown): string => JSON.stringify(blocks);

describe('the category sentence of a failure', () => {
  it('names the category when the log or the pod named a kind', () => {
    const alert = buildWorkloadAlert({ workload, state: 'Failed', triage: triageText('torch.OutOfMemoryError: CUDA out of memory.\n') });
    expect(textOf(alert.blocks)).toContain('Category: *GPU out of memory*.');
    // A recognised error of no category (a Job that stopped retrying) is still a diagnosis.
    const backoff = buildWorkloadAlert({ workload, state: 'Failed', triage: triageText('message: Job has reached the specified backoff limit\n') });
    expect(textOf(backoff.blocks)).toContain('Category: *Other error*.');
  });

  it('says plainly that the kind is unknown instead of dressing up other as a diagnosis', () => {
    const triage = triageText('ValueError: too many values to unpack (expected 2)\n');
    for (const message of [buildWorkloadAlert({ workload, state: 'Failed', triage }), whyMessage({ workload, triage, schedulerReasons: [] })]) {
      const text = textOf(message.blocks);
      expect(text).toContain(UNRECOGNISED.withLine);
      expect(text).not.toContain('Category:');
      expect(text).toContain('Do not just retry');
    }
    expect(whyMessage({ workload, triage, schedulerReasons: [] }).text).not.toContain('Other error');
  });

  it('says so when there is neither an error line nor a reason from Kubernetes', () => {
    const alert = buildWorkloadAlert({ workload, state: 'Failed', triage: triageText('step 1\nstep 2\n') });
    expect(textOf(alert.blocks)).toContain(UNRECOGNISED.withoutLine);
  });

  it('calls the line a guess rests on that, not a first error, in the DM, its fallback text and the why reply', () => {
    // No line is a candidate (a warning); the words of this one are an allocator's (learnt-words.ts).
    const triage = triageText('step 1200 loss 2.1\nWARNING: the allocator could not reserve the buffer, out of device memory on gpu 0 (tried to allocate 4 GiB)\n');
    expect(triage.firstError?.guessed).toBe(true);
    const alert = buildWorkloadAlert({ workload, state: 'Failed', triage });
    expect(textOf(alert.blocks)).toContain('*The line the guess rests on*, log line 2:');
    expect(textOf(alert.blocks)).not.toContain('First relevant error');
    expect(alert.text).toContain('Line to read: WARNING: the allocator');
    expect(textOf(whyMessage({ workload, triage, schedulerReasons: [] }).blocks)).toContain('*The line the guess rests on*, log line 2:');
    const recognised = buildWorkloadAlert({ workload, state: 'Failed', triage: triageText('torch.OutOfMemoryError: CUDA out of memory.\n') });
    expect(textOf(recognised.blocks)).toContain('*First relevant error*, log line 1:');
  });
});
