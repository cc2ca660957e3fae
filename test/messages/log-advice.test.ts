/**
 * The log-advice builders: the tip, the masked-failure DM, the failure DM's log-loss line and
 * the checkpoint line; what they say and that Slack would take them.
 */
import type { Workload } from '../../src/model.js';
import { LOG_SAVING } from '../../src/lifecycle/states.js';
import { ago, buildLogTip, buildMaskedFailureDm, checkpointLine, logLossLine, TIPS_OFF } from '../../src/messages/log-advice.js';
import { logAdvice } from '../../src/recovery/log-advice.js';
import { maskedFailure } from '../../src/recovery/masked.js';
import { submissionOf } from '../../src/recovery/submission.js';
import { triageText } from '../../src/triage/index.js';
import { messageViolation } from '../fakes/slack.js';

const now = new Date('2026-11-29T12:00:00Z');
const workload: Workload = { uid: 'u1', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'resnet', namespace: 'runai-vision', project: 'vision', state: 'Running', pods: [] };
const teed = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['bash', '-c', 'python train.py 2>&1 | tee /workspace/train.log'] }] } });

describe('the log-saving tip', () => {
  it('names the finding, quotes the guide, gives the fix and says how to turn tips off', () => {
    const [masked] = logAdvice(teed);
    const message = buildLogTip(workload, masked);
    expect(messageViolation(message as never)).toBeUndefined();
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("replaced by `tee`'s: a failure can show as Completed");
    expect(text).toContain(LOG_SAVING.pipefail);
    expect(text).toContain('`python train.py`');
    expect(text).toContain(TIPS_OFF);
    expect(message.text).toContain('Tip for resnet');
  });
});

describe('the masked-failure DM', () => {
  it('says completed, but likely hidden by tee, with the error line and the fix', () => {
    const masked = maskedFailure(teed, triageText('step 1\nTraceback (most recent call last):\n  File "t.py", line 1\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'))!;
    const message = buildMaskedFailureDm({ ...workload, state: 'Completed' }, masked, 'https://runai.example.org');
    expect(messageViolation(message as never)).toBeUndefined();
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('is *Completed*, but the end of its log holds an error');
    expect(text).toContain('likely hidden');
    expect(text).toContain('CUDA out of memory');
    expect(text).toContain('Likely, not certain');
    expect(message.text).toContain('completed, but its log ends in an error');
  });
});

describe('the log-loss line of a failure DM', () => {
  it('names buffered output first, then a log outside persistent storage', () => {
    expect(logLossLine(logAdvice(teed))).toMatch(/^:information_source: \*Why the log may be short:\* Python runs without `-u`/);
    const unbufferedButLost = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['bash', '-c', 'python -u t.py > /workspace/t.log'] }] } });
    expect(logLossLine(logAdvice(unbufferedButLost))).toContain('is written inside the container, and is lost with the pod');
  });

  it('says nothing when the command explains nothing', () => {
    expect(logLossLine([])).toBeUndefined();
    const fine = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['torchrun', 'train.py'] }] } });
    expect(logLossLine(logAdvice(fine))).toBeUndefined();
  });
});

describe('the checkpoint line', () => {
  it.each([
    [30_000, 'just now'],
    [40 * 60_000 + 59_000, '40 min ago'],
    [3 * 3_600_000 + 5 * 60_000, '3 h 5 min ago'],
    [2 * 3_600_000, '2 h ago'],
    [50 * 3_600_000, '2 days ago'],
  ])('%i ms ago reads "%s"', (ms, text) => {
    expect(ago(ms)).toBe(text);
  });

  it('says when and what, and never "no checkpoint"', () => {
    expect(checkpointLine({ linesRead: 300, lastSaved: { framework: 'Megatron-LM', progress: { unit: 'iteration', value: 12000 }, at: new Date(now.getTime() - 40 * 60_000) }, ageMs: 40 * 60_000 }, now)).toBe(
      'last checkpoint saved 40 min ago (iteration 12000)',
    );
    expect(checkpointLine({ linesRead: 500 }, now)).toBe('no checkpoint line in the last 500 lines of its log');
    // Never "the last 0 lines": an empty tail is said as such, and one line is a line.
    expect(checkpointLine({ linesRead: 0 }, now)).toBe('its log is empty so far, so it names no checkpoint');
    expect(checkpointLine({ linesRead: 1 }, now)).toBe('no checkpoint line in the last line of its log');
  });
});
