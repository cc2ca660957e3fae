/**
 * maskedFailure on real logs that end in a fatal error: one from a run that exited 0
 * (test/fixtures/logs/masked/, source in its README row), and real failure logs of the same
 * shape from the triage corpus (test/fixtures/logs/real/, sources in its manifest).
 */
import { readFileSync } from 'node:fs';
import { MASKED_TAIL_LINES, maskedFailure } from '../../src/recovery/masked.js';
import { submissionOf, type Submission } from '../../src/recovery/submission.js';
import { triageText } from '../../src/triage/index.js';

const log = (path: string) => readFileSync(new URL(`../fixtures/logs/${path}`, import.meta.url), 'utf8');
const tailOf = (text: string, lines = 200) => text.split('\n').slice(-lines).join('\n');

function workload(script: string): Submission {
  return submissionOf({
    kind: 'Pod',
    spec: {
      containers: [{ name: 'main', image: 'img:1', command: ['bash', '-c', script], volumeMounts: [{ name: 'd', mountPath: '/data' }] }],
      volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
    },
  });
}

const teed = workload('python -u train.py 2>&1 | tee -a /data/logs/train.log');
const piped = workload('python -u train.py 2>&1 | grep -v Warning');
const pipefail = workload('set -o pipefail\npython -u train.py 2>&1 | tee -a /data/logs/train.log');
const plain = workload('python -u train.py > /data/logs/train.log 2>&1');

describe('maskedFailure', () => {
  it('finds the CUDA OOM a run that exited 0 ended in (VIAME/VIAME#146), with the error line and the fix', () => {
    const masked = maskedFailure(teed, triageText(log('masked/viame-exit-0-cuda-oom.log')));
    expect(masked).toBeDefined();
    expect(masked!.errorLine).toContain('CUDA out of memory');
    expect(masked!.categoryLabel).toBe('GPU out of memory');
    expect(masked!.finding.kind).toBe('masked-exit');
    expect(masked!.finding.fix.join('')).toContain('set -o pipefail');
  });

  it.each(['real/jax-xla-oom-traceback.log', 'real/vllm-worker-nccl-cuda-oom-shutdown.log', 'real/nccl-libibverbs-invalid-device-function.log', 'real/ray-oom-traceback-get.log', 'real/cuda-nll-assert-then-traceback.log'])(
    'finds the fatal error at the end of %s behind a tee',
    (path) => {
      const tail = triageText(tailOf(log(path)));
      expect(maskedFailure(teed, tail)?.errorLine).toBe(tail.firstError?.line);
      expect(maskedFailure(piped, tail)?.finding.problem).toContainEqual({ code: 'grep' });
    },
  );

  it('says nothing when pipefail keeps the exit status, or nothing pipes the output', () => {
    const tail = triageText(log('masked/viame-exit-0-cuda-oom.log'));
    expect(maskedFailure(pipefail, tail)).toBeUndefined();
    expect(maskedFailure(plain, tail)).toBeUndefined();
  });

  it('says nothing when the log does not end in an error: an error followed by a long, ordinary run was survived', () => {
    const recovered = [log('masked/viame-exit-0-cuda-oom.log'), ...Array.from({ length: MASKED_TAIL_LINES + 10 }, (_, i) => `epoch ${i} loss 0.${i}`), 'Training finished.'].join('\n');
    expect(maskedFailure(teed, triageText(recovered))).toBeUndefined();
    expect(maskedFailure(teed, triageText('epoch 1 loss 0.3\nepoch 2 loss 0.2\nTraining finished.'))).toBeUndefined();
  });

  it('does not take a mere mention of an error for a failure', () => {
    expect(maskedFailure(teed, triageText('step 10 loss 0.1\nnum_errors: 0\nDone.'))).toBeUndefined();
  });

  it('takes triage\'s tiers as they are: a watchdog timeout alone is a secondary error, not said to be masked', () => {
    const tail = triageText(tailOf(log('real/nccl-watchdog-reduce-scatter.log')));
    expect(tail.strength).toBeLessThan(2);
    expect(maskedFailure(teed, tail)).toBeUndefined();
  });
});
