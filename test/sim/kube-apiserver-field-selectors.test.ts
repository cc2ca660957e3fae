/**
 * Field selectors as the real API server takes them (kubernetes.io, "Field Selectors": the
 * supported fields per kind; every kind takes metadata.name and metadata.namespace): a supported
 * label selects, any other is refused with 400. Driven with the real client-node.
 */
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { kubeConfigFor, useFakeKube } from '../fakes/kube-apiserver.js';

describe('the simulated API server: field selectors', () => {
  const sim = useFakeKube();
  const core = () => kubeConfigFor(sim.kube).makeApiClient(CoreV1Api);
  const namespace = 'runai-fields';

  beforeAll(() => {
    sim.kube.addNamespace(namespace);
    sim.kube.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p-0', namespace }, spec: { nodeName: 'gpu-1', containers: [{ name: 'c', image: 'i' }] } });
    for (const [component, reason] of [['runai-scheduler', 'Unschedulable'], ['kubelet', 'BackOff']]) {
      sim.kube.addEvent({ involvedObject: { kind: 'Pod', name: 'p-0', namespace }, reason, message: reason, source: { component } });
    }
  });

  it("selects events by the fields events support, `source` being the source's component", async () => {
    const bySource = await core().listNamespacedEvent({ namespace, fieldSelector: 'source=runai-scheduler' });
    expect(bySource.items.map((e) => e.reason)).toEqual(['Unschedulable']);
    const byObject = await core().listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.kind=Pod,involvedObject.name=p-0,type=Normal' });
    expect(byObject.items).toHaveLength(2);
  });

  it('refuses a field events do not support with 400 "field label not supported"', async () => {
    await expect(core().listNamespacedEvent({ namespace, fieldSelector: 'message=Unschedulable' }))
      .rejects.toMatchObject({ code: 400, body: expect.stringContaining('field label not supported: message') });
    await expect(core().listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.labels=x' }))
      .rejects.toMatchObject({ code: 400, body: expect.stringContaining('field label not supported: involvedObject.labels') });
  });

  it("takes a pod's documented fields and refuses others, on lists and watches alike", async () => {
    expect((await core().listNamespacedPod({ namespace, fieldSelector: 'spec.nodeName=gpu-1' })).items).toHaveLength(1);
    await expect(core().listNamespacedPod({ namespace, fieldSelector: 'spec.containers=c' }))
      .rejects.toMatchObject({ code: 400, body: expect.stringContaining('field label not supported: spec.containers') });
    await expect(core().listNamespacedPod({ namespace, fieldSelector: 'status.hostIP=1.2.3.4', watch: true }))
      .rejects.toMatchObject({ code: 400 });
  });

  it('answers a kind without field conversions as the documentation shows', async () => {
    const leases = kubeConfigFor(sim.kube).makeApiClient(CoordinationV1Api);
    await expect(leases.listNamespacedLease({ namespace, fieldSelector: 'spec.holderIdentity=me' }))
      .rejects.toMatchObject({ code: 400, body: expect.stringContaining('\\"spec.holderIdentity\\" is not a known field selector: only \\"metadata.name\\", \\"metadata.namespace\\"') });
    expect((await leases.listNamespacedLease({ namespace, fieldSelector: 'metadata.name=none' })).items).toEqual([]);
  });

  it('bounds an events list by its limit, with a continue token for the rest', async () => {
    const page = await core().listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.name=p-0', limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.metadata?._continue).toBeTruthy();
  });
});
