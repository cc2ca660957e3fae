import { triageSources, triageText } from '../../src/triage/index.js';

describe('triageSources', () => {
  it("picks worker 1's real error over the watchdog timeouts of the others", () => {
    const watchdog = '[E ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9) ran for 600000 milliseconds before timing out.';
    const results = [
      triageText(`step 1\n${watchdog}\n`, undefined, { pod: 'job-master-0', rank: 'master' }),
      triageText('step 1\nTraceback (most recent call last):\n  File "t.py"\nRuntimeError: CUDA error: an illegal memory access was encountered\n', undefined, { pod: 'job-worker-1', rank: 'worker 1' }),
      triageText(`${watchdog}\n`, undefined, { pod: 'job-worker-2', rank: 'worker 2' }),
    ];
    const root = triageSources(results);
    expect(root.category).toBe('cuda');
    expect(root.firstError?.source).toEqual({ pod: 'job-worker-1', rank: 'worker 1' });
  });

  it('picks the earlier error by timestamp when both are equally strong', () => {
    const late = triageText('2024-05-01T12:00:09Z ValueError: late\n', undefined, { pod: 'a' });
    const early = triageText('2024-05-01T12:00:01Z ValueError: early\n', undefined, { pod: 'b' });
    expect(triageSources([late, early]).firstError?.source?.pod).toBe('b');
  });

  it("keeps the caller's order when nothing tells them apart", () => {
    const a = triageText('ValueError: a\n', undefined, { pod: 'a' });
    const b = triageText('ValueError: b\n', undefined, { pod: 'b' });
    expect(triageSources([a, b]).firstError?.source?.pod).toBe('a');
  });

  it('prefers a definitive termination reason of one pod', () => {
    const oom = triageText('step 1\n', { reason: 'OOMKilled' }, { pod: 'w1' });
    const cascade = triageText('RuntimeError: NCCL communicator was aborted on rank 0\n', undefined, { pod: 'w0' });
    expect(triageSources([cascade, oom]).category).toBe('host-oom');
  });

  it('answers "nothing found" for no sources', () => {
    expect(triageSources([])).toMatchObject({ firstError: null, decidedBy: 'none' });
  });
});
