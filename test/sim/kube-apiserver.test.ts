/**
 * The simulated API server against the real @kubernetes/client-node: if these pass, the bot's
 * cluster code talks to the simulation exactly as it would to a real API server.
 */
import {
  ApisApi, CoordinationV1Api, CoreV1Api, CustomObjectsApi, Watch, makeInformer,
  type KubeConfig, type KubernetesObject, type V1Pod,
} from '@kubernetes/client-node';
import { kubeConfigFor, runaiExample, startFakeKube, useFakeKube, type FakeKube, type KubeObject } from '../fakes/kube-apiserver.js';

const RUNAI = { group: 'run.ai', version: 'v2alpha1' };

function workload(name: string, namespace: string, phase = 'Running', kind = 'TrainingWorkload'): KubeObject {
  return {
    apiVersion: 'run.ai/v2alpha1',
    kind,
    metadata: { name, namespace, labels: { project: namespace.replace(/^runai-/, '') } },
    spec: { name: { value: name }, username: { value: 'dana' } },
    status: { phase },
  };
}

function pod(name: string, namespace: string, containers: string[], labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: containers.map((c) => ({ name: c, image: 'img:1' })) },
    status: { phase: 'Running' },
  };
}

/** Waits until `check` stops throwing (a watch event arrives asynchronously). */
async function eventually<T>(check: () => T, attempts = 200): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return check();
    } catch (err) {
      if (i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

interface WatchedEvent { type: string; object: KubernetesObject & { code?: number; status?: { phase?: string } } }

async function startWatch(kc: KubeConfig, path: string, query: Record<string, string | number | boolean | undefined> = {}) {
  const events: WatchedEvent[] = [];
  let ended: unknown = 'open';
  const request = await new Watch(kc).watch(path, query, (type, object) => events.push({ type, object }), (err) => {
    ended = err;
  });
  return {
    events,
    get ended() { return ended; },
    stop: () => request.abort(),
    types: () => events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`.trim()),
  };
}

async function apiError(promise: Promise<unknown>): Promise<{ code: number; body: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { code: number; body: unknown };
    return { code: e.code, body: typeof e.body === 'string' ? e.body : JSON.stringify(e.body) };
  }
  throw new Error('expected the request to fail');
}

describe('simulated Kubernetes API server with the real client-node', () => {
  const sim = useFakeKube();
  let kube: FakeKube;
  let kc: KubeConfig;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;

  beforeAll(() => {
    kube = sim.kube;
    kc = kubeConfigFor(kube);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
  });

  describe('discovery', () => {
    it('lists the Run:ai groups with their preferred versions', async () => {
      const groups = (await kc.makeApiClient(ApisApi).getAPIVersions()).groups;
      const byName = Object.fromEntries(groups.map((g) => [g.name, g.preferredVersion?.version]));
      expect(byName['run.ai']).toBe('v2alpha1');
      expect(byName['scheduling.run.ai']).toBe('v2alpha2');
      expect(byName['authorization.k8s.io']).toBe('v1');
    });

    it('describes the four Run:ai workload kinds as namespaced resources with short names', async () => {
      const list = await custom.getAPIResources(RUNAI);
      const kinds = list.resources.filter((r) => !r.name.includes('/'));
      expect(kinds.map((r) => [r.name, r.kind, r.namespaced])).toEqual([
        ['trainingworkloads', 'TrainingWorkload', true],
        ['interactiveworkloads', 'InteractiveWorkload', true],
        ['distributedworkloads', 'DistributedWorkload', true],
        ['inferenceworkloads', 'InferenceWorkload', true],
      ]);
      expect(kinds[0].shortNames).toEqual(['tw']);
      expect(kinds[0].verbs).toEqual(expect.arrayContaining(['list', 'watch', 'get']));
    });

    it('serves pods, pods/log, events and namespaces in the core group', async () => {
      const names = (await core.getAPIResources()).resources.map((r) => r.name);
      expect(names).toEqual(expect.arrayContaining(['namespaces', 'pods', 'pods/log', 'events']));
    });

    it('serves PodGroups under scheduling.run.ai/v2alpha2', async () => {
      const list = await custom.getAPIResources({ group: 'scheduling.run.ai', version: 'v2alpha2' });
      expect(list.resources[0]).toMatchObject({ name: 'podgroups', kind: 'PodGroup', namespaced: true });
    });
  });

  describe('namespaces, pods and selectors', () => {
    beforeAll(() => {
      kube.addNamespace('runai-vision', { 'runai/queue': 'vision' });
      kube.addNamespace('runai-nlp', { 'runai/queue': 'nlp' });
      kube.addNamespace('scratch');
      kube.apply(pod('train-0-0', 'runai-vision', ['main'], { workloadName: 'train', project: 'vision' }));
      kube.apply(pod('train-0-1', 'runai-vision', ['main'], { workloadName: 'train', project: 'vision', role: 'worker' }));
      kube.apply(pod('eval-0-0', 'runai-vision', ['main'], { workloadName: 'eval', project: 'vision' }));
    });

    it('finds Run:ai namespaces by their runai/queue label', async () => {
      const all = await core.listNamespace({ labelSelector: 'runai/queue' });
      expect(all.items.map((n) => n.metadata?.name)).toEqual(['runai-nlp', 'runai-vision']);
      const vision = await core.listNamespace({ labelSelector: 'runai/queue=vision' });
      expect(vision.items.map((n) => n.metadata?.labels)).toEqual([{ 'runai/queue': 'vision' }]);
    });

    it('selects pods with equality, inequality, existence and set label selectors', async () => {
      const names = async (labelSelector: string) =>
        (await core.listNamespacedPod({ namespace: 'runai-vision', labelSelector })).items.map((p) => p.metadata?.name);
      expect(await names('workloadName=train')).toEqual(['train-0-0', 'train-0-1']);
      expect(await names('workloadName!=train')).toEqual(['eval-0-0']);
      expect(await names('role')).toEqual(['train-0-1']);
      expect(await names('!role,project=vision')).toEqual(['eval-0-0', 'train-0-0']);
      expect(await names('workloadName in (eval, train),role notin (worker)')).toEqual(['eval-0-0', 'train-0-0']);
    });

    it('reads one pod and answers 404 with a NotFound Status for an unknown one', async () => {
      const found: V1Pod = await core.readNamespacedPod({ name: 'train-0-0', namespace: 'runai-vision' });
      expect(found.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
      const missing = await apiError(core.readNamespacedPod({ name: 'nope', namespace: 'runai-vision' }));
      expect(missing.code).toBe(404);
      expect(missing.body).toContain('pods \\"nope\\" not found');
    });

    it('refuses a malformed label selector with 400', async () => {
      const err = await apiError(core.listNamespacedPod({ namespace: 'runai-vision', labelSelector: 'a in (b' }));
      expect(err.code).toBe(400);
    });
  });

  describe('pod logs', () => {
    beforeAll(() => {
      kube.addNamespace('runai-logs');
      kube.apply(pod('job-0-0', 'runai-logs', ['trainer']));
      kube.apply(pod('multi-0-0', 'runai-logs', ['trainer', 'sidecar']));
      kube.appendLog('runai-logs', 'job-0-0', 'trainer', 'epoch 1\nepoch 2\nepoch 3\n');
      kube.appendLog('runai-logs', 'job-0-0', 'trainer', 'CUDA out of memory\n');
      kube.appendLog('runai-logs', 'job-0-0', 'trainer', 'first run crashed: ImportError\n', { previous: true });
      kube.appendLog('runai-logs', 'multi-0-0', 'sidecar', 'sidecar up\n');
    });

    it('returns the whole log of the only container when none is named', async () => {
      const log = await core.readNamespacedPodLog({ name: 'job-0-0', namespace: 'runai-logs' });
      expect(log).toBe('epoch 1\nepoch 2\nepoch 3\nCUDA out of memory\n');
    });

    it('cuts the log to the last tailLines lines', async () => {
      const log = await core.readNamespacedPodLog({ name: 'job-0-0', namespace: 'runai-logs', container: 'trainer', tailLines: 2 });
      expect(log).toBe('epoch 3\nCUDA out of memory\n');
    });

    it('cuts the log to limitBytes bytes after tailLines', async () => {
      const log = await core.readNamespacedPodLog({ name: 'job-0-0', namespace: 'runai-logs', tailLines: 2, limitBytes: 5 });
      expect(log).toBe('epoch');
    });

    it('prefixes each line with when it was written (the kubelet\'s RFC3339NanoFixed) with timestamps=true, before tailLines', async () => {
      kube.apply(pod('stamped-0-0', 'runai-logs', ['trainer']));
      kube.appendLog('runai-logs', 'stamped-0-0', 'trainer', 'iteration 1\nsaving chec', { at: new Date('2026-12-01T10:00:00.120Z') });
      // The runtime stamps a line once it has read all of it: the open line gets the time of the piece that ends it.
      kube.appendLog('runai-logs', 'stamped-0-0', 'trainer', 'kpoint\niteration 2\n', { at: new Date('2026-12-01T10:40:00Z') });
      const all = await core.readNamespacedPodLog({ name: 'stamped-0-0', namespace: 'runai-logs', timestamps: true });
      expect(all).toBe(
        '2026-12-01T10:00:00.120000000Z iteration 1\n2026-12-01T10:40:00.000000000Z saving checkpoint\n2026-12-01T10:40:00.000000000Z iteration 2\n',
      );
      expect(await core.readNamespacedPodLog({ name: 'stamped-0-0', namespace: 'runai-logs', timestamps: true, tailLines: 1 })).toBe('2026-12-01T10:40:00.000000000Z iteration 2\n');
      // limitBytes counts the prefix, as the kubelet cuts after it writes them.
      expect(await core.readNamespacedPodLog({ name: 'stamped-0-0', namespace: 'runai-logs', timestamps: true, tailLines: 1, limitBytes: 10 })).toBe('2026-12-01');
      expect(await core.readNamespacedPodLog({ name: 'stamped-0-0', namespace: 'runai-logs' })).toBe('iteration 1\nsaving checkpoint\niteration 2\n');
    });

    it("returns the previous instance's log with previous=true", async () => {
      const log = await core.readNamespacedPodLog({ name: 'job-0-0', namespace: 'runai-logs', previous: true });
      expect(log).toBe('first run crashed: ImportError\n');
    });

    it('moves the log to the previous instance and counts the restart when a container restarts', async () => {
      kube.apply(pod('flaky-0-0', 'runai-logs', ['trainer']));
      kube.appendLog('runai-logs', 'flaky-0-0', 'trainer', 'Killed\n');
      kube.restartContainer('runai-logs', 'flaky-0-0', 'trainer', { exitCode: 137, reason: 'OOMKilled' });
      kube.appendLog('runai-logs', 'flaky-0-0', 'trainer', 'starting again\n');
      expect(await core.readNamespacedPodLog({ name: 'flaky-0-0', namespace: 'runai-logs', previous: true })).toBe('Killed\n');
      expect(await core.readNamespacedPodLog({ name: 'flaky-0-0', namespace: 'runai-logs' })).toBe('starting again\n');
      const status = (await core.readNamespacedPod({ name: 'flaky-0-0', namespace: 'runai-logs' })).status?.containerStatuses?.[0];
      expect(status?.restartCount).toBe(1);
      expect(status?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    });

    it('answers 400 when a pod has several containers and none is named', async () => {
      const err = await apiError(core.readNamespacedPodLog({ name: 'multi-0-0', namespace: 'runai-logs' }));
      expect(err.code).toBe(400);
      expect(err.body).toContain('a container name must be specified for pod multi-0-0, choose one of: [trainer sidecar]');
      const log = await core.readNamespacedPodLog({ name: 'multi-0-0', namespace: 'runai-logs', container: 'sidecar' });
      expect(log).toBe('sidecar up\n');
    });

    it('answers 400 for a previous log that does not exist and 404 for an unknown pod', async () => {
      const noPrevious = await apiError(core.readNamespacedPodLog({ name: 'multi-0-0', namespace: 'runai-logs', container: 'trainer', previous: true }));
      expect(noPrevious.code).toBe(400);
      const unknown = await apiError(core.readNamespacedPodLog({ name: 'ghost', namespace: 'runai-logs' }));
      expect(unknown.code).toBe(404);
    });
  });

  describe('lists with limit and continue', () => {
    beforeAll(() => {
      for (const ns of ['runai-a', 'runai-b', 'runai-c']) {
        for (let i = 0; i < 9; i++) kube.apply(workload(`w-${i}`, ns, 'Running', 'InteractiveWorkload'));
      }
    });

    async function listAllPages(limit: number): Promise<{ names: string[]; pages: number; remaining: Array<number | undefined> }> {
      const names: string[] = [];
      const remaining: Array<number | undefined> = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await custom.listClusterCustomObject({ ...RUNAI, plural: 'interactiveworkloads', limit, _continue: token }) as {
          items: KubeObject[]; metadata: { continue?: string; resourceVersion: string; remainingItemCount?: number };
        };
        pages++;
        names.push(...page.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
        remaining.push(page.metadata.remainingItemCount);
        expect(page.metadata.resourceVersion).toMatch(/^\d+$/);
        token = page.metadata.continue || undefined;
      } while (token);
      return { names, pages, remaining };
    }

    it('pages through a cluster-wide list in namespace and name order', async () => {
      const { names, pages, remaining } = await listAllPages(10);
      expect(pages).toBe(3);
      expect(names).toHaveLength(27);
      expect(names.slice(0, 2)).toEqual(['runai-a/w-0', 'runai-a/w-1']);
      expect(names[26]).toBe('runai-c/w-8');
      expect(remaining).toEqual([17, 7, undefined]);
    });

    it('serves the rest of a paginated list as of its first page, even when objects change in between', async () => {
      const first = await custom.listClusterCustomObject({ ...RUNAI, plural: 'interactiveworkloads', limit: 20 }) as { metadata: { continue: string } };
      kube.delete({ kind: 'interactiveworkloads', namespace: 'runai-c', name: 'w-8' });
      const rest = await custom.listClusterCustomObject({ ...RUNAI, plural: 'interactiveworkloads', limit: 20, _continue: first.metadata.continue }) as { items: KubeObject[] };
      expect(rest.items.map((o) => o.metadata.name)).toContain('w-8');
      kube.apply(workload('w-8', 'runai-c', 'Running', 'InteractiveWorkload'));
    });

    it('answers 410 Expired for a continue token older than the compacted history', async () => {
      const first = await custom.listClusterCustomObject({ ...RUNAI, plural: 'interactiveworkloads', limit: 5 }) as { metadata: { continue: string } };
      kube.setPhase('iw', 'runai-a', 'w-0', 'Stopped');
      kube.compactHistory();
      const err = await apiError(custom.listClusterCustomObject({ ...RUNAI, plural: 'interactiveworkloads', limit: 5, _continue: first.metadata.continue }));
      expect(err.code).toBe(410);
      expect(err.body).toContain('Expired');
    });

    it('lists one namespace of a custom resource', async () => {
      const list = await custom.listNamespacedCustomObject({ ...RUNAI, namespace: 'runai-b', plural: 'interactiveworkloads' }) as { items: KubeObject[] };
      expect(list.items).toHaveLength(9);
      expect(new Set(list.items.map((o) => o.metadata.namespace))).toEqual(new Set(['runai-b']));
    });
  });

  describe('watch', () => {
    const path = '/apis/run.ai/v2alpha1/trainingworkloads';

    it('streams ADDED, MODIFIED and DELETED for Run:ai workloads in every namespace', async () => {
      const watch = await startWatch(kc, path, { resourceVersion: kube.resourceVersion });
      kube.apply(workload('resnet', 'runai-vision'));
      kube.setPhase('TrainingWorkload', 'runai-vision', 'resnet', 'Failed');
      kube.delete({ kind: 'tw', namespace: 'runai-vision', name: 'resnet' });
      await eventually(() => expect(watch.types()).toEqual(['ADDED resnet', 'MODIFIED resnet', 'DELETED resnet']));
      expect(watch.events[1].object.status?.phase).toBe('Failed');
      const versions = watch.events.map((e) => Number(e.object.metadata?.resourceVersion));
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      watch.stop();
    });

    it('replays the changes after a given resourceVersion', async () => {
      kube.apply(workload('bert', 'runai-nlp'));
      const from = kube.resourceVersion;
      kube.setPhase('trainingworkloads', 'runai-nlp', 'bert', 'Completed');
      kube.apply(workload('gpt', 'runai-nlp', 'Pending'));
      const watch = await startWatch(kc, path, { resourceVersion: from });
      await eventually(() => expect(watch.types()).toEqual(['MODIFIED bert', 'ADDED gpt']));
      watch.stop();
    });

    it('starts with the current objects as ADDED when no resourceVersion is given', async () => {
      const watch = await startWatch(kc, '/apis/run.ai/v2alpha1/namespaces/runai-nlp/trainingworkloads');
      await eventually(() => expect(watch.types()).toEqual(['ADDED bert', 'ADDED gpt']));
      watch.stop();
    });

    it('sends an ERROR event with a 410 Status for a resourceVersion older than the history, then closes', async () => {
      const old = kube.resourceVersion;
      kube.apply(workload('later', 'runai-nlp'));
      kube.compactHistory();
      const watch = await startWatch(kc, path, { resourceVersion: old });
      await eventually(() => expect(watch.ended).toBeNull());
      expect(watch.events).toHaveLength(1);
      expect(watch.events[0].type).toBe('ERROR');
      expect(watch.events[0].object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    });

    it('turns a change that leaves or enters a label selection into DELETED or ADDED', async () => {
      kube.apply(workload('moving', 'runai-vision'));
      const watch = await startWatch(kc, path, { resourceVersion: kube.resourceVersion, labelSelector: 'team=a' });
      kube.patch({ kind: 'tw', namespace: 'runai-vision', name: 'moving' }, (o) => { o.metadata.labels = { team: 'a' }; });
      kube.patch({ kind: 'tw', namespace: 'runai-vision', name: 'moving' }, (o) => { o.metadata.labels = { team: 'a', x: '1' }; });
      kube.patch({ kind: 'tw', namespace: 'runai-vision', name: 'moving' }, (o) => { o.metadata.labels = { team: 'b' }; });
      await eventually(() => expect(watch.types()).toEqual(['ADDED moving', 'MODIFIED moving', 'DELETED moving']));
      watch.stop();
    });

    it('sends BOOKMARK events carrying the current resourceVersion when allowed', async () => {
      const watch = await startWatch(kc, path, { resourceVersion: kube.resourceVersion, allowWatchBookmarks: true });
      await eventually(() => expect(kube.openWatches).toBeGreaterThan(0));
      kube.sendBookmarks();
      await eventually(() => expect(watch.events.map((e) => e.type)).toEqual(['BOOKMARK']));
      expect(watch.events[0].object).toMatchObject({ kind: 'TrainingWorkload', metadata: { resourceVersion: kube.resourceVersion } });
      watch.stop();
    });

    it('ends the stream after timeoutSeconds', async () => {
      const watch = await startWatch(kc, path, { resourceVersion: kube.resourceVersion, timeoutSeconds: 1 });
      await eventually(() => expect(watch.ended).toBeNull());
    });

    it('ends every open watch on dropWatches, so clients see the stream close', async () => {
      const watch = await startWatch(kc, path, { resourceVersion: kube.resourceVersion });
      await eventually(() => expect(kube.openWatches).toBeGreaterThan(0));
      kube.dropWatches();
      await eventually(() => expect(watch.ended).toBeNull());
      await eventually(() => expect(kube.openWatches).toBe(0));
    });

    it("feeds client-node's informer, which lists, then watches", async () => {
      kube.addNamespace('runai-informer');
      kube.apply(workload('existing', 'runai-informer'));
      const informerPath = '/apis/run.ai/v2alpha1/namespaces/runai-informer/trainingworkloads';
      const informer = makeInformer(kc, informerPath,
        () => custom.listNamespacedCustomObject({ ...RUNAI, namespace: 'runai-informer', plural: 'trainingworkloads' }) as never);
      const seen: string[] = [];
      informer.on('add', (o: KubernetesObject) => seen.push(`add ${o.metadata?.name}`));
      informer.on('update', (o: KubernetesObject) => seen.push(`update ${o.metadata?.name}`));
      await informer.start();
      await eventually(() => expect(kube.openWatches).toBeGreaterThan(0));
      kube.setPhase('tw', 'runai-informer', 'existing', 'Failed');
      await eventually(() => expect(seen).toEqual(['add existing', 'update existing']));
      await informer.stop();
    });
  });

  describe('wire format', () => {
    it('streams a watch=1 request as chunked JSON lines of {type, object}', async () => {
      kube.apply(workload('wire', 'runai-vision'));
      const from = Number(kube.resourceVersion) - 1;
      const res = await fetch(`${kube.url}/apis/run.ai/v2alpha1/namespaces/runai-vision/trainingworkloads?watch=1&resourceVersion=${from}&timeoutSeconds=1`);
      expect(res.status).toBe(200);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      const lines = (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; object: KubeObject });
      expect(lines.map((l) => [l.type, l.object.metadata.name])).toEqual([['ADDED', 'wire']]);
    });

    it('answers an unknown path with a 404 Status, as kubectl expects for /openapi/v3', async () => {
      const res = await fetch(`${kube.url}/openapi/v3`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    });
  });

  describe('events', () => {
    it('lists the events of one object with an involvedObject field selector', async () => {
      kube.addNamespace('runai-events');
      kube.apply(pod('stuck-0-0', 'runai-events', ['main']));
      const podUid = kube.get({ kind: 'Pod', namespace: 'runai-events', name: 'stuck-0-0' })!.metadata.uid;
      kube.addEvent({
        involvedObject: { kind: 'Pod', name: 'stuck-0-0', namespace: 'runai-events' },
        reason: 'Unschedulable', type: 'Warning', source: { component: 'runai-scheduler' },
        message: "no nodes with enough resources were found: 6 node(s) didn't have enough resources: GPUs.",
      });
      kube.addEvent({
        involvedObject: { kind: 'PodGroup', name: 'stuck-0-0', namespace: 'runai-events' },
        reason: 'NotReady', message: 'Job is not ready for scheduling', source: { component: 'runai-scheduler' },
      });
      kube.addEvent({ involvedObject: { kind: 'Pod', name: 'other', namespace: 'runai-events' }, reason: 'Scheduled', message: 'ok' });
      const list = await core.listNamespacedEvent({
        namespace: 'runai-events', fieldSelector: 'involvedObject.name=stuck-0-0,involvedObject.kind=Pod',
      });
      expect(list.items.map((e) => e.reason)).toEqual(['Unschedulable']);
      expect(list.items[0]).toMatchObject({
        type: 'Warning', source: { component: 'runai-scheduler' }, count: 1,
        involvedObject: { apiVersion: 'v1', uid: podUid },
      });
      const cluster = await core.listEventForAllNamespaces({ fieldSelector: 'reason!=Unschedulable' });
      expect(cluster.items.map((e) => e.reason).sort()).toEqual(['NotReady', 'Scheduled']);
    });
  });

  describe('fixtures', () => {
    it('loads a multi-document example file with its workload, RunaiJob and pod', async () => {
      const objects = kube.loadYamlFixtures(runaiExample('01-trainingworkload-failed.yaml'));
      expect(objects.map((o) => o.kind)).toEqual(['TrainingWorkload', 'RunaiJob', 'Pod']);
      const tw = await custom.getNamespacedCustomObject({ ...RUNAI, namespace: 'runai-vision', plural: 'trainingworkloads', name: 'resnet-finetune' }) as KubeObject;
      expect(tw.metadata.uid).toBe('5b1d7c62-3a40-4c1e-9a57-0d7f2d9e1a11');
      expect((tw.status as { phase: string }).phase).toBe('Failed');
    });

    it('loads the distributed example with its PodGroup and ranked pods', async () => {
      kube.loadYamlFixtures(runaiExample('04-distributedworkload-pytorch.yaml'));
      const pods = await core.listNamespacedPod({ namespace: 'runai-llm', labelSelector: 'training.kubeflow.org/replica-type=worker' });
      expect(pods.items.map((p) => p.metadata?.name)).toEqual(['llama-ddp-worker-0', 'llama-ddp-worker-1']);
      const groups = await custom.listNamespacedCustomObject({ group: 'scheduling.run.ai', version: 'v2alpha2', namespace: 'runai-llm', plural: 'podgroups' }) as { items: KubeObject[] };
      expect(groups.items).toHaveLength(1);
    });

    it('refuses an object of a kind it does not serve, naming the kinds it does', () => {
      expect(() => kube.apply({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } }))
        .toThrow(/does not serve apps\/v1 Deployment \(serves: .*run\.ai\/v2alpha1 TrainingWorkload/);
    });
  });

  describe('writes over the REST API', () => {
    it('creates, conflicts on a stale resourceVersion, and patches a Lease', async () => {
      const leases = kc.makeApiClient(CoordinationV1Api);
      const created = await leases.createNamespacedLease({
        namespace: 'default',
        body: { metadata: { name: 'runai-slack-bot' }, spec: { holderIdentity: 'pod-a', leaseDurationSeconds: 15 } },
      });
      expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
      const dup = await apiError(leases.createNamespacedLease({ namespace: 'default', body: { metadata: { name: 'runai-slack-bot' } } }));
      expect(dup.code).toBe(409);
      const renewed = await leases.replaceNamespacedLease({
        name: 'runai-slack-bot', namespace: 'default', body: { ...created, spec: { ...created.spec, holderIdentity: 'pod-a', leaseTransitions: 1 } },
      });
      expect(renewed.spec?.leaseTransitions).toBe(1);
      const stale = await apiError(leases.replaceNamespacedLease({
        name: 'runai-slack-bot', namespace: 'default', body: { ...created, spec: { holderIdentity: 'pod-b' } },
      }));
      expect(stale.code).toBe(409);
      expect(kube.get({ kind: 'Lease', namespace: 'default', name: 'runai-slack-bot' })?.spec).toMatchObject({ holderIdentity: 'pod-a' });
    });

    it('deletes a namespace together with everything in it', async () => {
      kube.addNamespace('runai-doomed');
      kube.apply(workload('w', 'runai-doomed'));
      kube.apply(pod('w-0-0', 'runai-doomed', ['main']));
      await core.deleteNamespace({ name: 'runai-doomed' });
      expect(kube.list('pods', 'runai-doomed')).toEqual([]);
      expect(kube.list('tw', 'runai-doomed')).toEqual([]);
    });
  });

  describe('faults, access and request counting', () => {
    it('answers injected failures for the next n matching requests, then recovers', async () => {
      kube.failNext(2, 500, '/pods');
      const first = await apiError(core.listNamespacedPod({ namespace: 'runai-vision' }));
      expect(first.code).toBe(500);
      await core.listNamespace();
      const second = await apiError(core.listPodForAllNamespaces());
      expect(second.code).toBe(500);
      await expect(core.listPodForAllNamespaces()).resolves.toBeDefined();
    });

    it('ends an injected outage of unknown length when the failures are cleared', async () => {
      kube.failNext(1_000_000, 500);
      expect((await apiError(core.listNamespace())).code).toBe(500);
      kube.clearFailures();
      await expect(core.listNamespace()).resolves.toBeDefined();
    });

    it('refuses a denied request with 403 and says so in a SelfSubjectAccessReview', async () => {
      kube.deny({ verb: 'list', group: '', resource: 'pods', namespace: 'runai-secret' });
      const err = await apiError(core.listNamespacedPod({ namespace: 'runai-secret' }));
      expect(err.code).toBe(403);
      expect(err.body).toContain('cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"runai-secret\\"');
      const { AuthorizationV1Api } = await import('@kubernetes/client-node');
      const authz = kc.makeApiClient(AuthorizationV1Api);
      const review = (namespace: string) => authz.createSelfSubjectAccessReview({
        body: { spec: { resourceAttributes: { verb: 'list', group: '', resource: 'pods', namespace } } },
      });
      expect((await review('runai-secret')).status?.allowed).toBe(false);
      expect((await review('runai-vision')).status?.allowed).toBe(true);
      kube.allowAll();
    });

    it('records every request with its method, path, query and the bytes of its answer', async () => {
      kube.resetRequests();
      const list = await core.listNamespacedPod({ namespace: 'runai-vision', labelSelector: 'workloadName=train' });
      expect(kube.requests).toEqual([
        { method: 'GET', path: '/api/v1/namespaces/runai-vision/pods', query: { labelSelector: 'workloadName=train' }, bytes: expect.any(Number) },
      ]);
      // The list as written: the envelope and its items' JSON.
      const envelope = `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${list.metadata?.resourceVersion}"},"items":[]}`;
      expect(kube.requests[0].bytes).toBe(envelope.length + kube.list('Pod', 'runai-vision').filter((p) => p.metadata.labels?.workloadName === 'train').map((p) => JSON.stringify(p)).join(',').length);
    });

    it('refuses a wrong bearer token with 401', async () => {
      const { KubeConfig } = await import('@kubernetes/client-node');
      const wrong = new KubeConfig();
      wrong.loadFromString(kube.kubeconfigYaml().replace(`token: ${kube.token}`, 'token: stolen'));
      const err = await apiError(wrong.makeApiClient(CoreV1Api).listNamespace());
      expect(err.code).toBe(401);
    });
  });
});

describe('simulated API server pacing, as a real one paces lists and bookmarks', () => {
  let kube: FakeKube | undefined;
  afterEach(async () => {
    await kube?.close();
    kube = undefined;
  });

  it('answers a slow list with the cluster as it was when the request arrived, while a watch streams what changed meanwhile', async () => {
    kube = await startFakeKube();
    const kc = kubeConfigFor(kube);
    const custom = kc.makeApiClient(CustomObjectsApi);
    for (let i = 0; i < 4; i++) kube.apply(workload(`w-${i}`, 'runai-vision'));
    const watch = await startWatch(kc, '/apis/run.ai/v2alpha1/trainingworkloads', { resourceVersion: kube.resourceVersion });
    kube.slowListsBy(400, (r) => r.path === '/apis/run.ai/v2alpha1/trainingworkloads' && r.query.watch !== 'true');
    const listing = custom.listClusterCustomObject({ ...RUNAI, plural: 'trainingworkloads', limit: 2 }) as Promise<{ items: KubeObject[]; metadata: { resourceVersion: string; continue?: string } }>;
    await eventually(() => expect(kube!.requests.some((r) => r.query.limit === '2')).toBe(true));
    kube.setPhase('TrainingWorkload', 'runai-vision', 'w-0', 'Failed');
    kube.apply(workload('w-new', 'runai-vision'));
    await eventually(() => expect(watch.types()).toEqual(['MODIFIED w-0', 'ADDED w-new']));
    const first = await listing;
    expect(first.items.map((o) => [o.metadata.name, (o.status as { phase: string }).phase])).toEqual([['w-0', 'Running'], ['w-1', 'Running']]);
    const rest = await custom.listClusterCustomObject({ ...RUNAI, plural: 'trainingworkloads', limit: 2, _continue: first.metadata.continue }) as { items: KubeObject[]; metadata: { resourceVersion: string } };
    expect(rest.items.map((o) => o.metadata.name)).toEqual(['w-2', 'w-3']);
    expect(rest.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(Number(first.metadata.resourceVersion)).toBeLessThan(Number(watch.events[0].object.metadata?.resourceVersion));
    kube.fastLists();
    const now = await custom.listClusterCustomObject({ ...RUNAI, plural: 'trainingworkloads' }) as { items: KubeObject[] };
    expect(now.items.map((o) => o.metadata.name)).toContain('w-new');
    watch.stop();
  });

  it('sends a BOOKMARK every bookmarkIntervalMs and one 2 s before the watch times out', async () => {
    kube = await startFakeKube({ bookmarkIntervalMs: 1500 });
    const kc = kubeConfigFor(kube);
    const started = Date.now();
    const watch = await startWatch(kc, '/apis/run.ai/v2alpha1/trainingworkloads', { resourceVersion: kube.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 4 });
    const at: number[] = [];
    await eventually(() => {
      while (at.length < watch.events.length) at.push(Date.now() - started);
      expect(watch.ended).toBeNull();
    }, 400);
    // At 1.5 s and 3 s (every interval) and at 2 s (2 s before the 4 s deadline).
    expect(watch.types()).toEqual(['BOOKMARK', 'BOOKMARK', 'BOOKMARK']);
    expect(at[0]).toBeGreaterThanOrEqual(1400);
  });

  it('sends no BOOKMARK with bookmarkIntervalMs 0, as a server without a watch cache', async () => {
    kube = await startFakeKube({ bookmarkIntervalMs: 0 });
    const kc = kubeConfigFor(kube);
    const watch = await startWatch(kc, '/apis/run.ai/v2alpha1/trainingworkloads', { resourceVersion: kube.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 3 });
    await eventually(() => expect(kube!.openWatches).toBe(1));
    kube.sendBookmarks();
    kube.apply(workload('after', 'runai-vision'));
    await eventually(() => expect(watch.ended).toBeNull(), 400);
    expect(watch.types()).toEqual(['ADDED after']);
  });
});
