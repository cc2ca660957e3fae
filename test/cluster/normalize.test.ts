import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { MalformedWorkloadError, normalizeWorkload, podWorkloadName, rankLabel, withPods } from '../../src/cluster/normalize.js';

const examples = new URL('../fixtures/spec/runai-examples/', import.meta.url);

function load(file: string): Array<Record<string, any>> {
  return YAML.parseAllDocuments(readFileSync(new URL(file, examples), 'utf8')).map((d) => d.toJS()).filter(Boolean);
}

describe('normalizeWorkload', () => {
  it('reads a failed TrainingWorkload and its pod from the reference example', () => {
    const docs = load('01-trainingworkload-failed.yaml');
    const cr = docs.find((d) => d.kind === 'TrainingWorkload')!;
    const pods = docs.filter((d) => d.kind === 'Pod');
    const w = withPods(normalizeWorkload(cr, { namespaceLabels: { 'runai/queue': 'vision' } }), pods);
    expect(w).toMatchObject({
      uid: '5b1d7c62-3a40-4c1e-9a57-0d7f2d9e1a11',
      kind: 'TrainingWorkload',
      name: 'resnet-finetune',
      namespace: 'runai-vision',
      project: 'vision',
      owner: 'dana.cohen@example.com',
      phase: 'Failed',
      state: 'Failed',
      image: 'registry.example.com/vision/resnet-train:1.4.2',
      command: 'python',
      arguments: 'train.py --epochs 30 --data /data/imagenet-subset',
      phaseChangedAt: '2025-03-02T09:41:37Z',
    });
    expect(w.pods).toHaveLength(1);
    expect(w.pods[0]).toMatchObject({ name: 'resnet-finetune-0-0', node: 'gpu-node-07', phase: 'Failed' });
    expect(w.pods[0].containers[0].terminated).toMatchObject({ reason: 'Error', exitCode: 1 });
  });

  it('gives each rank of a distributed workload its replica type and index', () => {
    const docs = load('04-distributedworkload-pytorch.yaml');
    const cr = docs.find((d) => d.kind === 'DistributedWorkload')!;
    const pods = docs.filter((d) => d.kind === 'Pod');
    const w = withPods(normalizeWorkload(cr), pods);
    expect(w.state).toBe('Running');
    expect(w.pods.map(rankLabel)).toEqual(['master 0', 'worker 0', 'worker 1']);
    expect(pods.map(podWorkloadName)).toEqual(['llama-ddp', 'llama-ddp', 'llama-ddp']);
  });

  it('maps a stopped workload to the guide state Stopped', () => {
    const cr = load('02-trainingworkload-stopped.yaml').find((d) => d.kind === 'TrainingWorkload')!;
    expect(normalizeWorkload(cr).state).toBe('Stopped');
  });

  it('takes the owner from the pods when the CR names none, and the project from the namespace name last', () => {
    const cr = { kind: 'TrainingWorkload', metadata: { name: 'x', namespace: 'runai-team', uid: 'u1' }, status: { phase: 'Running' } };
    const pod = { metadata: { name: 'x-0-0', namespace: 'runai-team', labels: { user: 'carol' } }, status: {} };
    const w = withPods(normalizeWorkload(cr), [pod]);
    expect(w.owner).toBe('carol');
    expect(w.project).toBe('team');
  });

  it.each([
    ['the condition of the phase that holds', { phase: 'Failed', conditions: [{ type: 'Running', status: 'True', lastTransitionTime: '2026-01-01T08:00:00Z' }, { type: 'Failed', status: 'True', lastTransitionTime: '2026-01-01T09:00:00Z' }] }, '2026-01-01T09:00:00Z'],
    ['not a condition of another type: it dates another change', { phase: 'Failed', conditions: [{ type: 'Running', status: 'True', lastTransitionTime: '2026-01-01T08:00:00Z' }] }, undefined],
    ['not a condition of the phase that no longer holds', { phase: 'Failed', conditions: [{ type: 'Failed', status: 'False', lastTransitionTime: '2026-01-01T08:00:00Z' }] }, undefined],
    ['else the phase-updated time', { phase: 'Stopped', phaseUpdatedAt: '2026-01-01T10:00:00Z' }, '2026-01-01T10:00:00Z'],
    ['else, for an end, the completion time', { phase: 'Completed', completedAt: '2026-01-01T11:00:00Z' }, '2026-01-01T11:00:00Z'],
    ['but not the completion time of a phase that is no end', { phase: 'Running', completedAt: '2026-01-01T11:00:00Z' }, undefined],
  ])("dates the phase by the CR's own time for it: %s", (_what, status, expected) => {
    const cr = { kind: 'TrainingWorkload', metadata: { name: 'x', namespace: 'n', uid: 'u' }, status };
    expect(normalizeWorkload(cr).phaseChangedAt).toBe(expected);
  });

  it('follows configured owner keys in order', () => {
    const cr = { kind: 'TrainingWorkload', metadata: { name: 'x', namespace: 'n', uid: 'u', annotations: { owner: 'dave' } }, spec: { username: { value: 'eve' } } };
    expect(normalizeWorkload(cr, { ownerKeys: ['metadata.annotations.owner', 'spec.username.value'] }).owner).toBe('dave');
  });

  it('tolerates missing spec and status: without a phase the workload is waiting', () => {
    const cr = { kind: 'InferenceWorkload', metadata: { name: 'svc', namespace: 'runai-a', uid: 'u2' } };
    expect(normalizeWorkload(cr).state).toBe('Pending');
  });

  it.each([
    ['a string', 'nonsense', /not an object/],
    ['no name', { metadata: { namespace: 'n', uid: 'u' } }, /metadata.name is missing/],
    ['no uid', { metadata: { namespace: 'n', name: 'x' } }, /metadata.uid is missing/],
    ['a string status', { metadata: { namespace: 'n', name: 'x', uid: 'u' }, status: 'Failed' }, /status is not an object/],
  ])('refuses a malformed object (%s) with a MalformedWorkloadError', (_label, raw, message) => {
    expect(() => normalizeWorkload(raw)).toThrow(MalformedWorkloadError);
    expect(() => normalizeWorkload(raw)).toThrow(message);
  });
});
