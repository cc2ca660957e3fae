/**
 * Pods as the real API server serves them: ownerReferences stored and served as the client (a
 * controller) wrote them, refused when incomplete or naming two controllers, and the creation
 * time set by the server whatever the client sent. Driven with the real client-node.
 */
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { kubeConfigFor, useFakeKube } from '../fakes/kube-apiserver.js';

const owner = (uid: string | undefined, controller: boolean) => ({ apiVersion: 'run.ai/v1', kind: 'RunaiJob', name: 'train', uid: uid as string, controller });
const podWith = (name: string, ownerReferences: ReturnType<typeof owner>[]): V1Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, ownerReferences, creationTimestamp: new Date('2001-01-01T00:00:00Z') },
  spec: { containers: [{ name: 'main', image: 'busybox' }] },
});

describe('the simulated API server: ownerReferences and creationTimestamp on pods', () => {
  const sim = useFakeKube();
  const core = () => kubeConfigFor(sim.kube).makeApiClient(CoreV1Api);
  beforeAll(() => sim.kube.addNamespace('runai-owners'));

  it('serves the ownerReferences a pod was created with, and a creation time of its own', async () => {
    const before = Date.now() - 1000;
    await core().createNamespacedPod({ namespace: 'runai-owners', body: podWith('owned', [owner('uid-1', true)]) });
    const read = await core().readNamespacedPod({ namespace: 'runai-owners', name: 'owned' });
    expect(read.metadata?.ownerReferences).toEqual([{ apiVersion: 'run.ai/v1', kind: 'RunaiJob', name: 'train', uid: 'uid-1', controller: true }]);
    expect(read.metadata?.creationTimestamp?.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('refuses an owner reference without a uid (422 Invalid)', async () => {
    await expect(core().createNamespacedPod({ namespace: 'runai-owners', body: podWith('no-uid', [owner('', true)]) }))
      .rejects.toMatchObject({ code: 422, body: expect.stringContaining('metadata.ownerReferences.uid: Invalid value: \\"\\": uid must not be empty') });
  });

  it('refuses two controllers (422 Invalid)', async () => {
    await expect(core().createNamespacedPod({ namespace: 'runai-owners', body: podWith('two', [owner('uid-1', true), owner('uid-2', true)]) }))
      .rejects.toMatchObject({ code: 422, body: expect.stringContaining('Only one reference can have Controller set to true') });
    expect(sim.kube.get({ kind: 'Pod', namespace: 'runai-owners', name: 'two' })).toBeUndefined();
  });
});
