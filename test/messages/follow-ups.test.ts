/**
 * The follow-up builders: the root's status line, the thread replies, the resubmission with
 * its diff and the guide's verdict, and the "failed again" DM.
 */
import type { Workload } from '../../src/model.js';
import { SAFE_RECOVERY } from '../../src/lifecycle/states.js';
import { buildWorkloadAlert } from '../../src/messages/alert.js';
import {
  buildFailedAgainDm,
  buildResubmittedReply,
  buildStateFollowUp,
  changeSummary,
  describeChange,
  rootStatusLine,
  withRootStatus,
  type FollowUpEvent,
} from '../../src/messages/follow-ups.js';
import { diffSubmission, resubmissionVerdict, type SubmissionChange } from '../../src/recovery/diff.js';
import { submissionOf } from '../../src/recovery/submission.js';
import { triageText } from '../../src/triage/index.js';
import { messageViolation } from '../fakes/slack.js';

const workload: Workload = { uid: 'u2', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'resnet', namespace: 'runai-vision', project: 'vision', state: 'Pending', pods: [] };
const cr = (image: string, args: string, gpu = '1') => ({ kind: 'TrainingWorkload', spec: { image: { value: image }, command: { value: 'python' }, arguments: { value: args }, gpu: { value: gpu } } });

describe('rootStatusLine', () => {
  it.each<['Failed' | 'Stopped', FollowUpEvent[], string]>([
    ['Failed', [], 'Failed'],
    ['Failed', ['resubmitted'], 'Failed \u2192 resubmitted'],
    ['Failed', ['resubmitted', 'running'], 'Failed \u2192 resubmitted, running'],
    ['Failed', ['resubmitted', 'running', 'completed'], 'Failed \u2192 resubmitted, completed'],
    ['Failed', ['resubmitted', 'running', 'failed'], 'Failed \u2192 resubmitted, failed again'],
    ['Failed', ['resubmitted', 'failed', 'resubmitted', 'running'], 'Failed \u2192 resubmitted 2 times, running'],
    ['Failed', ['deleted'], 'Failed \u2192 deleted'],
    ['Stopped', ['running'], 'Stopped \u2192 running again'],
    ['Stopped', ['running', 'stopped'], 'Stopped \u2192 stopped'],
    ['Stopped', ['resubmitted', 'running'], 'Stopped \u2192 resubmitted, running'],
  ])('%s then %j → "%s"', (alerted, events, line) => {
    expect(rootStatusLine(alerted, events)).toBe(line);
  });

  it('puts the status line into the alert\'s first line and its fallback text, keeping the rest', () => {
    const alert = buildWorkloadAlert({ workload: { ...workload, state: 'Failed' }, state: 'Failed', triage: triageText('RuntimeError: CUDA out of memory.', { exitCode: 1 }) });
    const edited = withRootStatus(alert, 'resnet', rootStatusLine('Failed', ['resubmitted', 'running']));
    expect(edited.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'resnet: Failed \u2192 resubmitted, running', emoji: true } });
    expect(edited.blocks.slice(1)).toEqual(alert.blocks.slice(1));
    expect(edited.text.startsWith('Failed \u2192 resubmitted, running. ')).toBe(true);
    expect(messageViolation(edited as never)).toBeUndefined();
  });
});

describe('the resubmission reply', () => {
  const previous = submissionOf(cr('registry.example.com/x/train:2.1', 'train.py --lr 1e-4'));

  it('says "1 change: image tag 2.1 → 2.2" and keeps the previous image and command for the owner', () => {
    const next = submissionOf(cr('registry.example.com/x/train:2.2', 'train.py --lr 1e-4'));
    const changes = diffSubmission(previous, next);
    expect(changeSummary(changes)).toBe('1 change: image tag 2.1 \u2192 2.2');
    const reply = buildResubmittedReply({ workload, previous, changes, verdict: resubmissionVerdict(changes, { state: 'Failed', transient: false }) });
    expect(messageViolation(reply as never)).toBeUndefined();
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain('*1 change:* image tag `2.1` \u2192 `2.2`');
    expect(text).toContain('Before: image `registry.example.com/x/train:2.1`, command `python train.py --lr 1e-4`');
    expect(reply.text).toBe('resnet was resubmitted (1 change: image tag 2.1 \u2192 2.2).');
  });

  it('lists several changes and quotes the guide: one intentional change at a time', () => {
    const next = submissionOf(cr('registry.example.com/x/train:2.2', 'train.py --lr 3e-4', '2'));
    const changes = diffSubmission(previous, next);
    const reply = buildResubmittedReply({ workload, previous, changes, verdict: resubmissionVerdict(changes, { state: 'Failed', transient: false }) });
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain('*3 changes:*');
    expect(text).toContain('argument `--lr`: `1e-4` \u2192 `3e-4`');
    expect(text).toContain('GPUs `1` \u2192 `2`');
    expect(text).toContain('The guide suggests one intentional change at a time, so that the fix can be told apart');
    expect(text).toContain(SAFE_RECOVERY.oneChangeAtATime);
  });

  it('tells an unchanged resubmission after an application error that it will most likely fail the same way', () => {
    const reply = buildResubmittedReply({ workload, previous, changes: [], verdict: 'unchanged-after-application-error', earlierCategory: 'GPU out of memory' });
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain('It failed with *GPU out of memory*, an application error, and nothing changed: it will most likely fail the same way.');
    expect(text).toContain(SAFE_RECOVERY.fixApplication);
  });

  it('tells an unchanged resubmission after a transient failure that a plain retry is what the guide allows', () => {
    const text = JSON.stringify(buildResubmittedReply({ workload, previous, changes: [], verdict: 'unchanged-after-transient-failure' }).blocks);
    expect(text).toContain(SAFE_RECOVERY.retryTransient);
  });

  it('lists at most ten changes and counts the rest', () => {
    const changes: SubmissionChange[] = Array.from({ length: 14 }, (_, i) => ({ kind: 'env-added', subject: `VAR_${i}` }));
    const text = JSON.stringify(buildResubmittedReply({ workload, previous, changes, verdict: 'several-changes' }).blocks);
    expect(text).toContain('VAR_9');
    expect(text).not.toContain('VAR_10');
    expect(text).toContain('and 4 more');
  });

  it.each<[SubmissionChange, string]>([
    [{ kind: 'argument-added', after: '--fp16' }, 'argument added: `--fp16`'],
    [{ kind: 'env-removed', subject: 'HF_HOME' }, 'environment variable removed: `HF_HOME`'],
    [{ kind: 'mount-added', subject: '/out', after: 'pvc results' }, 'data source added at `/out`: `pvc results`'],
    [{ kind: 'node-pool', before: undefined, after: 'a100' }, 'node pool none \u2192 `a100`'],
    [{ kind: 'arguments-rewritten', before: '40 words', after: '52 words' }, 'arguments rewritten (40 words \u2192 52 words)'],
  ])('describes %j as "%s"', (change, text) => {
    expect(describeChange(change)).toBe(text);
  });
});

describe('thread replies for later states', () => {
  it.each([
    ['running', {}, 'is *Running* again'],
    ['running', { resubmission: true }, 'The resubmitted TrainingWorkload'],
    ['completed', {}, 'is *Completed*'],
    ['stopped', {}, 'is *Stopped*'],
    ['deleted', {}, 'is *Deleted*'],
  ] as const)('%s %j', (event, options, expected) => {
    const reply = buildStateFollowUp(event, workload, options);
    expect(messageViolation(reply as never)).toBeUndefined();
    expect(JSON.stringify(reply.blocks)).toContain(expected);
  });
});

describe('the "failed again" DM', () => {
  const alert = { workload: { ...workload, state: 'Failed' as const }, state: 'Failed' as const, triage: triageText('RuntimeError: CUDA out of memory.', { exitCode: 1 }) };

  it('is the full alert under a "failed again" header, linking the earlier thread', () => {
    const dm = buildFailedAgainDm(alert, { permalink: 'https://acme.slack.com/archives/D0123ABCD/p1732870000123456', failures: 2 });
    expect(messageViolation(dm as never)).toBeUndefined();
    expect(dm.blocks[0]).toMatchObject({ type: 'header', text: { text: 'resnet failed again' } });
    expect(JSON.stringify(dm.blocks[1])).toContain("<https://acme.slack.com/archives/D0123ABCD/p1732870000123456|the earlier alert's thread>");
    expect(dm.blocks.slice(2)).toEqual(buildWorkloadAlert(alert).blocks.slice(1));
    expect(dm.text.startsWith('Failed again: ')).toBe(true);
  });

  it('makes only a Slack message permalink a link', () => {
    for (const permalink of ['javascript:alert(1)', 'https://evil.example/x|click', '<!channel>', 'https://acme.slack.com/archives/D01/p1 extra']) {
      const dm = buildFailedAgainDm(alert, { permalink });
      expect(JSON.stringify(dm.blocks[1])).not.toContain('<');
    }
  });
});
