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
    // A recognised error of no category (a full disk) is still a diagnosis.
    const disk = buildWorkloadAlert({ workload, state: 'Failed', triage: triageText('OSError: [Errno 28] No space left on device\n') });
    expect(textOf(disk.blocks)).toContain('Category: *Other error*.');
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
});
