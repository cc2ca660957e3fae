/**
 * The real kubectl against the simulated API server: discovery, server-side tables, chunked
 * lists, watch and logs must all satisfy it, which keeps the simulation faithful to the protocol.
 * Skipped (with a message) on a machine without kubectl.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { startFakeKube, runaiExample, type FakeKube } from '../fakes/kube-apiserver.js';
import { writeTempKubeconfig, type TempKubeconfig } from '../fakes/kubeconfig.js';
import { describeWithKubectl } from '../helpers/kubectl.js';

const run = promisify(execFile);

const describeKubectl = describeWithKubectl('the tests of the simulated API server with the real kubectl');

/** A fixed clock one hour after the example workload's creation, so AGE columns are exact. */
const NOW = new Date('2025-03-02T10:14:05Z');

describeKubectl('simulated Kubernetes API server with the real kubectl', () => {
  let kube: FakeKube;
  let config: TempKubeconfig;

  const args = (...rest: string[]) => ['--kubeconfig', config.path, '--cache-dir', `${config.dir}/cache`, ...rest];
  const kubectl = async (...rest: string[]) => (await run('kubectl', args(...rest))).stdout;
  const lines = (text: string) => text.trimEnd().split('\n').map((l) => l.replace(/\s+/g, ' ').trim());

  const pause = () => new Promise((resolve) => setTimeout(resolve, 25));

  /**
   * Runs a `kubectl get -w`, makes `change` once its watch is open, and returns what it printed
   * by the time `until` appears (kubectl is then stopped: a watch never ends by itself).
   */
  async function watchWithKubectl(argv: string[], change: () => void, until: string): Promise<string> {
    for (let i = 0; i < 400 && kube.openWatches > 0; i++) await pause();
    const child = spawn('kubectl', args(...argv));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 400 && kube.openWatches === 0; i++) await pause();
      change();
      for (let i = 0; i < 400 && !out.includes(until); i++) await pause();
    } finally {
      child.kill();
      await exited;
    }
    return out;
  }

  beforeAll(async () => {
    kube = await startFakeKube({ now: () => NOW });
    config = writeTempKubeconfig(kube);
    kube.addNamespace('runai-vision', { 'runai/queue': 'vision' });
    kube.loadYamlFixtures(runaiExample('01-trainingworkload-failed.yaml'));
    kube.loadYamlFixtures(runaiExample('04-distributedworkload-pytorch.yaml'));
    kube.appendLog('runai-vision', 'resnet-finetune-0-0', 'resnet-finetune',
      Array.from({ length: 9 }, (_, i) => `epoch ${i + 1} loss 0.${9 - i}`).join('\n') + '\nRuntimeError: CUDA error: out of memory\n');
  });

  afterAll(async () => {
    await kube.close();
    config.cleanup();
  });

  it('prints Run:ai workloads of every namespace with `get trainingworkloads -A`', async () => {
    expect(lines(await kubectl('get', 'trainingworkloads', '-A'))).toEqual([
      'NAMESPACE NAME AGE',
      'runai-vision resnet-finetune 60m',
    ]);
  });

  it('prints pods with their readiness, status and node with `get pods -o wide`', async () => {
    const out = lines(await kubectl('get', 'pods', '-n', 'runai-vision', '-o', 'wide'));
    expect(out[0]).toBe('NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES');
    expect(out[1]).toMatch(/^resnet-finetune-0-0 0\/1 Error 0 \S+ <none> gpu-node-07 <none> <none>$/);
  });

  it('pages through a list in chunks and selects by label', async () => {
    const names = lines(await kubectl('get', 'pods', '-A', '--chunk-size=1', '-l', 'project in (llm,vision)', '-o', 'name'));
    expect(names).toEqual([
      'pod/llama-ddp-master-0', 'pod/llama-ddp-worker-0', 'pod/llama-ddp-worker-1', 'pod/resnet-finetune-0-0',
    ]);
  });

  it('reads full objects with `-o jsonpath`', async () => {
    const phase = await kubectl('get', 'tw', 'resnet-finetune', '-n', 'runai-vision', '-o', 'jsonpath={.status.phase}');
    expect(phase).toBe('Failed');
  });

  it('prints the last lines of a container log with `logs --tail`', async () => {
    const out = await kubectl('logs', 'resnet-finetune-0-0', '-n', 'runai-vision', '-c', 'resnet-finetune', '--tail=2');
    expect(out).toBe('epoch 9 loss 0.1\nRuntimeError: CUDA error: out of memory\n');
  });

  it('shows the events of one object with `get events --field-selector`', async () => {
    kube.addEvent({
      involvedObject: { kind: 'Pod', name: 'resnet-finetune-0-0', namespace: 'runai-vision' },
      type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', source: { component: 'kubelet' },
    });
    const out = lines(await kubectl('get', 'events', '-n', 'runai-vision', '--field-selector', 'involvedObject.name=resnet-finetune-0-0'));
    expect(out).toEqual([
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '0s Warning BackOff pod/resnet-finetune-0-0 Back-off restarting failed container',
    ]);
  });

  it('prints a new row when a watched workload changes with `get -w`', async () => {
    const out = await watchWithKubectl(
      ['get', 'trainingworkloads', '-n', 'runai-vision', '-w', '-o', 'custom-columns=NAME:.metadata.name,PHASE:.status.phase'],
      () => kube.setPhase('TrainingWorkload', 'runai-vision', 'resnet-finetune', 'Running'),
      'Running',
    );
    expect(lines(out)).toEqual(['NAME PHASE', 'resnet-finetune Failed', 'resnet-finetune Running']);
  });

  it('prints the server-side table row of a change with `get -w`', async () => {
    const out = await watchWithKubectl(
      ['get', 'pods', '-n', 'runai-vision', '-w'],
      () => kube.patch({ kind: 'Pod', namespace: 'runai-vision', name: 'resnet-finetune-0-0' }, (pod) => {
        pod.metadata.deletionTimestamp = NOW.toISOString();
      }),
      'Terminating',
    );
    const rows = lines(out);
    expect(rows[0]).toBe('NAME READY STATUS RESTARTS AGE');
    expect(rows.slice(1).map((r) => r.split(' ').slice(0, 3).join(' '))).toEqual([
      'resnet-finetune-0-0 0/1 Error', 'resnet-finetune-0-0 0/1 Terminating',
    ]);
  });
});
