import { afterRead, controllerRef, createdWithOrAfter, ownerStep, type OwnerRef } from '../../src/cluster/ownership.js';

const WORKLOAD = { uid: 'w-new', createdAt: '2026-11-29T10:00:00Z' };
const ref = (apiVersion: string, kind: string, uid: string, name = 'train'): OwnerRef => ({ apiVersion, kind, name, uid });
const owned = (uid: string, owners: Array<Record<string, unknown>> = []) => ({ metadata: { uid, ownerReferences: owners } });

describe('controllerRef', () => {
  it.each([
    ['the controller among several owners', [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: '1' }, { apiVersion: 'run.ai/v1', kind: 'RunaiJob', name: 'j', uid: '2', controller: true }], '2'],
    ['the first owner when none is the controller', [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: '3' }], '3'],
    ['nothing without owners', [], undefined],
    ['nothing for a reference without a uid', [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', controller: true }], undefined],
  ])('%s', (_what, owners, uid) => {
    expect(controllerRef({ metadata: { ownerReferences: owners } })?.uid).toBe(uid);
  });

  it('reads nothing from what is not an object', () => {
    expect(controllerRef('pod')).toBeUndefined();
    expect(controllerRef({ metadata: { ownerReferences: 'x' } })).toBeUndefined();
  });
});

describe('ownerStep', () => {
  // [what, reference, expected]
  const rows: Array<[string, OwnerRef, unknown]> = [
    ['the workload itself owns the pod', ref('run.ai/v2alpha1', 'TrainingWorkload', 'w-new'), 'mine'],
    ['an owner with the workload uid, whatever its kind', ref('run.ai/v1', 'RunaiJob', 'w-new'), 'mine'],
    ['another Run:ai workload (an earlier run) is the top of another chain', ref('run.ai/v2alpha1', 'TrainingWorkload', 'w-old'), 'foreign'],
    ['a RunaiJob is read next', ref('run.ai/v1', 'RunaiJob', 'j1'), { read: { group: 'run.ai', plural: 'runaijobs' } }],
    ['a PyTorchJob is read next', ref('kubeflow.org/v1', 'PyTorchJob', 'p1'), { read: { group: 'kubeflow.org', plural: 'pytorchjobs' } }],
    ['a batch Job is read next', ref('batch/v1', 'Job', 'b1'), { read: { group: 'batch', plural: 'jobs' } }],
    ['a Knative Revision is read next (inference)', ref('serving.knative.dev/v1', 'Revision', 'r1'), { read: { group: 'serving.knative.dev', plural: 'revisions' } }],
    ['a kind the bot cannot read leaves the pod to be judged by time', ref('example.com/v1', 'Gizmo', 'g1'), 'unknown'],
    ['a core kind is not read', ref('v1', 'ReplicationController', 'rc1'), 'unknown'],
  ];
  it.each(rows)('%s', (_what, r, expected) => {
    expect(ownerStep(r, WORKLOAD)).toEqual(expected);
  });
});

describe('afterRead', () => {
  const job = ref('run.ai/v1', 'RunaiJob', 'j-old');
  it.each([
    ['the owner read names its own owner: follow it', owned('j-old', [{ apiVersion: 'run.ai/v2alpha1', kind: 'TrainingWorkload', name: 'train', uid: 'w-new', controller: true }]), ref('run.ai/v2alpha1', 'TrainingWorkload', 'w-new')],
    ['a newer object holds the name (the pod\'s owner is gone): foreign', owned('j-new', [{ apiVersion: 'run.ai/v2alpha1', kind: 'TrainingWorkload', name: 'train', uid: 'w-new', controller: true }]), 'foreign'],
    ['an owner without an owner is a top that is not the workload: foreign', owned('j-old'), 'foreign'],
    ['an owner that could not be read: unknown', undefined, 'unknown'],
  ])('%s', (_what, owner, expected) => {
    expect(afterRead(job, owner)).toEqual(expected);
  });
});

describe('createdWithOrAfter', () => {
  it.each([
    ['a pod created after the workload', '2026-11-29T10:00:05Z', true],
    ['a pod created in the same second', '2026-11-29T10:00:00Z', true],
    ['a pod created before the workload (an earlier run)', '2026-11-29T09:59:59Z', false],
    ['a pod without a creation time', undefined, true],
  ])('%s', (_what, podCreated, expected) => {
    expect(createdWithOrAfter(podCreated, WORKLOAD)).toBe(expected);
  });

  it('cannot judge without the workload\'s own creation time, and keeps the pod', () => {
    expect(createdWithOrAfter('2020-01-01T00:00:00Z', { createdAt: undefined })).toBe(true);
  });
});
