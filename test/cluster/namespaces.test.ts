/**
 * Namespace labels name a namespace's project (runai/queue). Read from the simulated API
 * server with the real client-node; when the cluster cannot answer, the last labels read stay.
 */
import { NamespaceLabels } from '../../src/cluster/namespaces.js';
import { createClusterReader } from '../../src/cluster/reader.js';
import { kubeConfigFor, useFakeKube } from '../fakes/kube-apiserver.js';
import { captureLog } from '../helpers/log.js';

describe('NamespaceLabels', () => {
  const sim = useFakeKube();

  it('hands normalize the labels of the namespace, and keeps the last ones when a refresh fails', async () => {
    sim.kube.addNamespace('team-vision', { 'runai/queue': 'vision' });
    const captured = captureLog();
    const { log } = captured;
    const labels = new NamespaceLabels({ reader: createClusterReader(kubeConfigFor(sim.kube)), ownerKeys: ['user'], refreshMs: 60_000, log });
    expect(labels.normalize('team-vision')).toEqual({ ownerKeys: ['user'], namespaceLabels: undefined });

    await labels.refresh();
    expect(labels.normalize('team-vision').namespaceLabels).toMatchObject({ 'runai/queue': 'vision' });

    sim.kube.patch({ kind: 'Namespace', name: 'team-vision' }, (ns) => {
      ns.metadata.labels = { 'runai/queue': 'speech' };
    });
    sim.kube.failNext(1, 500, '/api/v1/namespaces');
    await labels.refresh();
    expect(labels.normalize('team-vision').namespaceLabels).toMatchObject({ 'runai/queue': 'vision' });
    expect(captured.entries.some((e) => e.level === 'warn' && String(e.msg).startsWith('cannot read namespace labels'))).toBe(true);

    await labels.refresh();
    expect(labels.normalize('team-vision').namespaceLabels).toMatchObject({ 'runai/queue': 'speech' });
  });
});
