/**
 * Run:ai facts of KAI-based schedulers: the queue (project) label `kai.scheduler/queue` beside
 * `runai/queue` on namespaces and pods, and the owner on the PodGroup (the scheduler copies the
 * pod's `user` annotation and label onto it).
 */
import { normalizeWorkload, ownerFromPodGroup, queueFrom, withPods } from '../../src/cluster/normalize.js';

const cr = (labels: Record<string, string> = {}) => ({
  kind: 'TrainingWorkload', metadata: { name: 'x', namespace: 'runai-team', uid: 'u1', labels }, status: { phase: 'Pending' },
});
const pod = (labels: Record<string, string>, annotations: Record<string, string> = {}) => ({
  metadata: { name: 'x-0-0', namespace: 'runai-team', labels, annotations }, status: {},
});
const podGroup = (labels: Record<string, string>, annotations: Record<string, string> = {}) => ({
  apiVersion: 'scheduling.run.ai/v2alpha2', kind: 'PodGroup',
  metadata: { name: 'pg-x-u1', namespace: 'runai-team', labels: { workloadName: 'x', ...labels }, annotations },
  spec: { queue: 'team', minMember: 1 },
});

describe('queue labels', () => {
  it('reads the project from a namespace labelled kai.scheduler/queue only', () => {
    expect(normalizeWorkload(cr(), { namespaceLabels: { 'kai.scheduler/queue': 'vision' } }).project).toBe('vision');
  });

  it("prefers Run:ai's runai/queue when a namespace carries both", () => {
    expect(normalizeWorkload(cr(), { namespaceLabels: { 'kai.scheduler/queue': 'kai-name', 'runai/queue': 'vision' } }).project).toBe('vision');
    expect(queueFrom({ 'kai.scheduler/queue': ' kai ', 'runai/queue': '' })).toBe('kai');
    expect(queueFrom(undefined)).toBeUndefined();
  });

  it('falls back to the queue label on the workload before guessing from the namespace name', () => {
    expect(normalizeWorkload(cr({ 'kai.scheduler/queue': 'from-cr' })).project).toBe('from-cr');
    expect(normalizeWorkload(cr()).project).toBe('team');
  });

  it("keeps the project the reconciler decided when pods join (the pods' labels do not move it)", () => {
    expect(withPods(normalizeWorkload(cr()), [pod({ 'runai/queue': 'from-pod', project: 'proj' })]).project).toBe('team');
  });
});

describe('owner from the PodGroup', () => {
  it('reads the user annotation, then the user label', () => {
    expect(ownerFromPodGroup(podGroup({ user: 'label-user' }, { user: 'annotated-user' }))).toBe('annotated-user');
    expect(ownerFromPodGroup(podGroup({ user: 'label-user' }))).toBe('label-user');
    expect(ownerFromPodGroup(podGroup({}))).toBeUndefined();
    expect(ownerFromPodGroup('not an object')).toBeUndefined();
  });

  it('names the owner of a workload whose CR and pods name none', () => {
    const w = withPods(normalizeWorkload(cr()), [], { podGroups: [podGroup({}), podGroup({ user: 'carol' })] });
    expect(w.owner).toBe('carol');
  });

  it('never overrides an owner the workload or its pods name', () => {
    const w = withPods(normalizeWorkload(cr()), [pod({}, { user: 'dana' })], { podGroups: [podGroup({ user: 'carol' })] });
    expect(w.owner).toBe('dana');
    expect(normalizeWorkload(cr()).owner).toBeUndefined();
  });
});
