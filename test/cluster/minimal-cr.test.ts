/**
 * The reconciler keeps a normalised workload and where its fields came from, not the raw CR;
 * enrichment and commands re-normalise a minimal CR rebuilt from those with the pods they read.
 * That must give exactly what the raw CR gives, whichever fields came from the CR or the pods.
 */
import { minimalCr, normalizeWithOrigin, normalizeWorkload, type NormalizeOptions } from '../../src/cluster/normalize.js';

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
  status: {
    phase: 'Failed', phaseMessage: undefined,
    conditions: [
      { type: 'Running', lastTransitionTime: '2026-11-29T09:01:00Z', message: 'started' },
      { type: 'Failed', lastTransitionTime: '2026-11-29T10:00:00Z', message: 'pod failed' },
    ],
  },
};

const pod = (owner: string | undefined, project: string | undefined, phase = 'Failed') => ({
  metadata: {
    name: 'job-1-0-0', namespace: 'runai-p0',
    labels: { workloadName: 'job-1', ...(project ? { project } : {}), ...(owner ? { user: owner } : {}) },
    annotations: owner ? { user: owner } : {},
  },
  spec: { nodeName: 'gpu-node-01', containers: [{ name: 'job-1', image: 'registry.example.org/ml/from-pod:2.0' }] },
  status: { phase, containerStatuses: [{ name: 'job-1', image: 'registry.example.org/ml/from-pod:2.0', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } }] },
});

const bare = { apiVersion: 'run.ai/v2alpha1', kind: 'InteractiveWorkload', metadata: { name: 'nb', namespace: 'runai-team', uid: 'uid-2' } };

const cases: Array<[string, unknown, NormalizeOptions]> = [
  ['a full CR', trainingCr, {}],
  ['a full CR with namespace labels', trainingCr, { namespaceLabels: { 'runai/queue': 'vision' } }],
  ['a CR without owner, project label, image or phase', bare, {}],
  ['owner keys that ask the pods first', trainingCr, { ownerKeys: ['pod.labels.user', 'spec.username.value'] }],
  ['an owner key outside spec', { ...bare, metadata: { ...bare.metadata, annotations: { owner: 'dave' } } }, { ownerKeys: ['metadata.annotations.owner', 'pod.annotations.user'] }],
];

const podSets: Array<[string, unknown[]]> = [
  ['no pods', []],
  ['a pod naming owner and project', [pod('carol', 'from-pod')]],
  ['a pod naming neither', [pod(undefined, undefined, 'Running')]],
];

describe('minimalCr', () => {
  for (const [label, raw, options] of cases) {
    for (const [podLabel, pods] of podSets) {
      it(`normalises like the raw CR: ${label}, ${podLabel}`, () => {
        const { workload, origin } = normalizeWithOrigin(raw, [], options);
        expect(normalizeWorkload(minimalCr(workload, origin, options.ownerKeys), pods, options)).toEqual(normalizeWorkload(raw, pods, options));
      });
    }
  }

  it('carries none of what the bot never reads (annotations, managedFields, other spec fields)', () => {
    const { workload, origin } = normalizeWithOrigin(trainingCr, []);
    const text = JSON.stringify(minimalCr(workload, origin));
    for (const unread of ['managedFields', 'a long annotation', 'gpu', 'other']) expect(text).not.toContain(unread);
  });
});
