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

  it('keeps one copy of each repeated string, so 100,000 workloads share their namespaces and owners', () => {
    const cache = new WorkloadCache();
    // Strings built at run time, as JSON.parse gives them: equal, but not the same object.
    const kept = [1, 2].map((n) => cache.set(String(n), workload(String(n), { namespace: ['runai', 'team', 'a'].join('-'), owner: `ali${'ce'}` }), ['training', 'workloads'].join('')));
    expect(kept[0].namespace).toBe(kept[1].namespace);
    expect(cache.get('1')?.plural).toBe('trainingworkloads');
    expect(cache.size).toBe(2);
  });
});
