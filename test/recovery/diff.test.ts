/**
 * diffSubmission row by row: each field the guide asks to keep, argument diffs of long
 * command lines, and the verdict the guide's Safe recovery gives a resubmission.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { argumentChanges, diffSubmission, MAX_ARGUMENT_EDITS, resubmissionVerdict, type SubmissionChange } from '../../src/recovery/diff.js';
import { submissionOf, type Submission } from '../../src/recovery/submission.js';

const failed = parseAllDocuments(readFileSync(new URL('../fixtures/spec/runai-examples/01-trainingworkload-failed.yaml', import.meta.url), 'utf8'))
  .map((d) => d.toJS() as { kind: string; spec: Record<string, unknown> })
  .find((d) => d.kind === 'TrainingWorkload')!;

/** The failed example with some of its spec fields replaced. */
function resubmitted(spec: Record<string, unknown>): Submission {
  return submissionOf({ ...failed, spec: { ...failed.spec, ...spec } });
}

const before = submissionOf(failed);

describe('diffSubmission, field by field', () => {
  it.each<[string, Record<string, unknown>, SubmissionChange[]]>([
    ['nothing', {}, []],
    ['the image tag', { image: { value: 'registry.example.com/vision/resnet-train:1.4.3' } }, [{ kind: 'image-tag', subject: 'registry.example.com/vision/resnet-train', before: '1.4.2', after: '1.4.3' }]],
    ['the image repository', { image: { value: 'nvcr.io/nvidia/pytorch:24.05-py3' } }, [{ kind: 'image-repository', before: 'registry.example.com/vision/resnet-train:1.4.2', after: 'nvcr.io/nvidia/pytorch:24.05-py3' }]],
    ['the command', { command: { value: 'python3' } }, [{ kind: 'command', before: 'python', after: 'python3' }]],
    ['an argument value', { arguments: { value: 'train.py --epochs 40 --data /data/imagenet-subset' } }, [{ kind: 'argument-changed', subject: '--epochs', before: '30', after: '40' }]],
    ['an argument added', { arguments: { value: 'train.py --epochs 30 --data /data/imagenet-subset --fp16' } }, [{ kind: 'argument-added', after: '--fp16' }]],
    ['an argument removed', { arguments: { value: 'train.py --data /data/imagenet-subset' } }, [{ kind: 'argument-removed', before: '--epochs 30' }]],
    ['an environment variable added (its name only)', { environment: { items: { WANDB_MODE: { value: 'offline' }, HF_HOME: { value: '/secret/value' } } } }, [{ kind: 'env-added', subject: 'HF_HOME' }]],
    ['an environment variable removed', { environment: { items: {} } }, [{ kind: 'env-removed', subject: 'WANDB_MODE' }]],
    ['a data source', { pvcs: { items: { data: { value: { claimName: 'imagenet-full', path: '/data', readOnly: true } } } } }, [{ kind: 'mount-changed', subject: '/data', before: 'pvc imagenet-subset (read-only)', after: 'pvc imagenet-full (read-only)' }]],
    ['a mount added', { pvcs: { items: { data: { value: { claimName: 'imagenet-subset', path: '/data', readOnly: true } }, out: { value: { claimName: 'results', path: '/out' } } } } }, [{ kind: 'mount-added', subject: '/out', after: 'pvc results' }]],
    ['the GPU request', { gpu: { value: '2' } }, [{ kind: 'gpu-devices', before: '1', after: '2' }]],
    ['a GPU fraction instead', { gpu: { value: '0.5' } }, [{ kind: 'gpu-devices', before: '1', after: undefined }, { kind: 'gpu-fraction', before: undefined, after: '0.5' }]],
    ['the memory request', { memory: { value: '32G' } }, [{ kind: 'memory', before: '16G', after: '32G' }]],
    ['the node pool', { nodePools: { value: 'a100' } }, [{ kind: 'node-pool', before: undefined, after: 'a100' }]],
  ])('%s', (_what, spec, expected) => {
    expect(diffSubmission(before, resubmitted(spec))).toEqual(expected);
  });

  it('never names an environment value, even when only the value changed', () => {
    const changes = diffSubmission(before, resubmitted({ environment: { items: { WANDB_MODE: { value: 'online-secret-value' } } } }));
    expect(changes).toEqual([]);
    expect(JSON.stringify(changes)).not.toContain('online');
  });

  it('names a changed --flag=value after its flag', () => {
    expect(argumentChanges(['t.py', '--lr=1e-4', '--bs=32'], ['t.py', '--lr=3e-4', '--bs=32'])).toEqual([{ kind: 'argument-changed', subject: '--lr', before: '1e-4', after: '3e-4' }]);
  });

  it('diffs inside a bash -c script word by word, not as one long argument', () => {
    const a = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['bash', '-c', 'cd /data && python -u train.py --lr 1e-4 --epochs 30 2>&1 | tee -a /data/train.log'] }] } });
    const b = submissionOf({ kind: 'Pod', spec: { containers: [{ name: 'c', command: ['bash', '-c', 'cd /data && python -u train.py --lr 3e-4 --epochs 30 2>&1 | tee -a /data/train.log'] }] } });
    expect(diffSubmission(a, b)).toEqual([{ kind: 'argument-changed', subject: '--lr', before: '1e-4', after: '3e-4' }]);
  });

  it('finds one change in a Megatron-sized command line', () => {
    const args = Array.from({ length: 400 }, (_, i) => `--option-${i}=${i}`);
    const changed = [...args];
    changed[250] = '--option-250=999';
    expect(argumentChanges(args, changed)).toEqual([{ kind: 'argument-changed', subject: '--option-250', before: '250', after: '999' }]);
  });

  it(`reports the arguments as rewritten past ${MAX_ARGUMENT_EDITS} edits, instead of a diff that costs more than the lines`, () => {
    const a = Array.from({ length: 500 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 500 }, (_, i) => `b${i}`);
    expect(argumentChanges(a, b)).toEqual([{ kind: 'arguments-rewritten', before: '500 words', after: '500 words' }]);
  });

  it('keeps a long argument value cut, not whole', () => {
    const [change] = argumentChanges(['x'.repeat(5000)], ['y'.repeat(5000)]);
    expect(change.before!.length).toBeLessThanOrEqual(300);
  });

  it('compares redacted text: a changed token on the command line is never shown', () => {
    const a = resubmitted({ arguments: { value: 'train.py --hf-token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123' } });
    const b = resubmitted({ arguments: { value: 'train.py --hf-token hf_ZyXwVuTsRqPoNmLkJiHgFeDc9876' } });
    const changes = diffSubmission(a, b);
    expect(JSON.stringify(changes)).not.toMatch(/hf_[A-Za-z]/);
  });
});

describe('resubmissionVerdict', () => {
  const one: SubmissionChange[] = [{ kind: 'image-tag', before: '2.1', after: '2.2' }];
  const two: SubmissionChange[] = [...one, { kind: 'memory', before: '16G', after: '32G' }];
  it.each([
    [one, { state: 'Failed' as const, transient: false }, 'one-change'],
    [two, { state: 'Failed' as const, transient: false }, 'several-changes'],
    [[], { state: 'Failed' as const, transient: false }, 'unchanged-after-application-error'],
    [[], { state: 'Failed' as const, transient: true }, 'unchanged-after-transient-failure'],
    [[], { state: 'Failed' as const }, 'unchanged'],
    [[], { state: 'Stopped' as const }, 'unchanged-after-stop'],
  ])('%j after %j → %s', (changes, earlier, verdict) => {
    expect(resubmissionVerdict(changes, earlier)).toBe(verdict);
  });
});
