/**
 * A CR is normalised once, when it arrives (normalizeWorkload, what the reconciler caches);
 * enrichment, the commands and the archive attach the pods they read with withPods. What the
 * CR decided stays; the pods only fill what the CR names nowhere.
 */
import { normalizeWorkload, withPods } from '../../src/cluster/normalize.js';

const trainingCr = {
  apiVersion: 'run.ai/v2alpha1',
  kind: 'TrainingWorkload',
  metadata: {
    name: 'job-1', namespace: 'runai-p0', uid: 'uid-1', resourceVersion: '42', creationTimestamp: '2026-11-29T09:00:00Z',
    labels: { project: 'p0', other: 'x' }, annotations: { note: 'a long annotation the bot never reads' },
    managedFields: [{ manager: 'runai', operation: 'Update' }],
  },
  spec: {
    name: { value: 'job-1' }, image: { value: 'registry.example.org/ml/train:1.0' }, command: { value: 'torchrun' },
    arguments: { value: '--nproc_per_node=8 train.py' }, username: { value: ' alice ' }, gpu: { value: '8' },
  },
  status: { phase: 'Failed', conditions: [{ type: 'Failed', lastTransitionTime: '2026-11-29T10:00:00Z', message: 'pod failed' }] },
};

/** No owner, no project label, no image, no phase. */
const bare = { apiVersion: 'run.ai/v2alpha1', kind: 'InteractiveWorkload', metadata: { name: 'nb', namespace: 'runai-team', uid: 'uid-2' } };

const pod = (labels: Record<string, string>, annotations: Record<string, string> = {}, phase = 'Failed') => ({
  metadata: { name: 'job-1-0-0', namespace: 'runai-p0', labels: { workloadName: 'job-1', ...labels }, annotations },
  spec: { nodeName: 'gpu-node-01', containers: [{ name: 'main', image: 'registry.example.org/ml/from-pod:2.0' }] },
  status: { phase, containerStatuses: [{ name: 'main', image: 'registry.example.org/ml/from-pod:2.0', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } }] },
});

describe('withPods', () => {
  it('attaches the pods and keeps everything the CR decided: state, project, owner, image', () => {
    const cached = normalizeWorkload(trainingCr);
    const w = withPods(cached, [pod({ project: 'from-pod', user: 'carol', 'runai/queue': 'q' }, { user: 'carol' }, 'Running')]);
    expect(w).toEqual({ ...cached, pods: w.pods });
    expect(w.pods).toMatchObject([{ name: 'job-1-0-0', node: 'gpu-node-01', phase: 'Running', containers: [{ name: 'main', terminated: { exitCode: 1 } }] }]);
    expect(cached.pods).toEqual([]);
  });

  it("fills an owner the CR names nowhere from the pods, in owners.keys' order", () => {
    const cached = normalizeWorkload(bare);
    expect(cached.owner).toBeUndefined();
    expect(withPods(cached, [pod({ user: 'by-label' }, { user: 'by-annotation' })]).owner).toBe('by-annotation');
    expect(withPods(cached, [pod({ user: 'by-label' }, { user: 'by-annotation' })], { ownerKeys: ['spec.username.value', 'pod.labels.user'] }).owner).toBe('by-label');
    expect(withPods(cached, [pod({ user: 'by-label' })], { ownerKeys: ['spec.username.value'] }).owner).toBeUndefined();
  });

  it('fills an image the spec does not give from the first app container', () => {
    expect(withPods(normalizeWorkload(bare), [pod({})]).image).toBe('registry.example.org/ml/from-pod:2.0');
    expect(withPods(normalizeWorkload(bare), []).image).toBeUndefined();
  });

  it('keeps the project and state of a CR that gives neither (namespace name, Pending) whatever the pods say', () => {
    const w = withPods(normalizeWorkload(bare), [pod({ project: 'from-pod' })]);
    expect(w).toMatchObject({ project: 'team', state: 'Pending' });
  });

  it('caches none of what the bot never reads (annotations, managedFields, other spec fields)', () => {
    const text = JSON.stringify(normalizeWorkload(trainingCr));
    for (const unread of ['managedFields', 'a long annotation', 'gpu', 'other']) expect(text).not.toContain(unread);
  });
});
