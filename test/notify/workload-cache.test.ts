import { WorkloadCache } from '../../src/notify/workload-cache.js';
import type { Workload } from '../../src/model.js';

const workload = (uid: string, extra: Partial<Workload> = {}): Workload =>
  ({ uid, name: `job-${uid}`, namespace: 'runai-team-a', project: 'team-a', owner: 'alice', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', state: 'Running', ...extra }) as Workload;

describe('WorkloadCache: what the watch shows, shared by the parts that only look', () => {
  it('answers the readers from what the reconciler wrote', () => {
    const cache = new WorkloadCache();
    cache.set('a', workload('a'), 'trainingworkloads');
    cache.set('b', workload('b', { owner: 'bob', state: 'Failed' }), 'trainingworkloads');
    expect(cache.currentState('b')).toBe('Failed');
    expect(cache.currentState('gone')).toBeUndefined();
    expect([...cache.ownersPresent()].sort()).toEqual(['alice', 'bob']);
    cache.delete('b');
    expect(cache.workloads().map((w) => w.uid)).toEqual(['a']);
    expect(cache.ownersPresent()).toEqual(new Set(['alice']));
  });

  it('keeps the kind\'s plural with each workload, for telling which list it belongs to', () => {
    const cache = new WorkloadCache();
    const kept = cache.set('1', workload('1'), 'trainingworkloads');
    expect(kept).toEqual(workload('1'));
    expect(cache.get('1')?.plural).toBe('trainingworkloads');
    cache.set('1', workload('1', { state: 'Failed' }), 'trainingworkloads');
    expect(cache.size).toBe(1);
    expect(cache.currentState('1')).toBe('Failed');
  });
});
