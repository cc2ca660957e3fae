/**
 * The real kubectl on the simulated API server's Leases (coordination.k8s.io/v1), which the
 * bot's leader election uses: discovery, the server-side table (NAME HOLDER AGE), create,
 * replace and apply with optimistic concurrency (a stale resourceVersion is a 409 Conflict),
 * watch and delete. Skipped (with a message) on a machine without kubectl.
 */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startFakeKube, type FakeKube } from '../fakes/kube-apiserver.js';
import { writeTempKubeconfig, type TempKubeconfig } from '../fakes/kubeconfig.js';
import { describeWithKubectl } from '../helpers/kubectl.js';

const run = promisify(execFile);

const describeKubectl = describeWithKubectl('the Lease tests with the real kubectl');

const NOW = new Date('2026-01-01T12:00:00Z');
const NS = 'runai-slack-bot';

function leaseYaml(holder: string, resourceVersion?: string): string {
  return [
    'apiVersion: coordination.k8s.io/v1',
    'kind: Lease',
    'metadata:',
    '  name: runai-slack-bot-leader',
    `  namespace: ${NS}`,
    ...(resourceVersion ? [`  resourceVersion: "${resourceVersion}"`] : []),
    'spec:',
    `  holderIdentity: ${holder}`,
    '  leaseDurationSeconds: 15',
    '  renewTime: "2026-01-01T12:00:00.000000Z"',
    '',
  ].join('\n');
}

describeKubectl('simulated API server: Leases with the real kubectl', () => {
  let kube: FakeKube;
  let config: TempKubeconfig;

  const args = (...rest: string[]) => ['--kubeconfig', config.path, '--cache-dir', `${config.dir}/cache`, ...rest];
  const kubectl = async (...rest: string[]) => (await run('kubectl', args(...rest))).stdout;
  /** kubectl's stderr and exit code for a command that must fail. */
  const kubectlFails = async (...rest: string[]) => {
    try {
      await run('kubectl', args(...rest));
    } catch (err) {
      const e = err as { stderr: string; code: number };
      return { stderr: e.stderr, code: e.code };
    }
    throw new Error(`kubectl ${rest.join(' ')} succeeded`);
  };
  // The simulator serves no OpenAPI documents, which kubectl's client-side schema check downloads.
  const noSchema = '--validate=false';
  const lines = (text: string) => text.trimEnd().split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
  const file = (name: string, text: string) => {
    const path = join(config.dir, name);
    writeFileSync(path, text);
    return path;
  };
  const holder = () => (kube.get({ kind: 'Lease', namespace: NS, name: 'runai-slack-bot-leader' })?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;

  beforeAll(async () => {
    kube = await startFakeKube({ now: () => NOW });
    config = writeTempKubeconfig(kube);
    kube.addNamespace(NS);
  });

  afterAll(async () => {
    await kube.close();
    config.cleanup();
  });

  it('lists leases in discovery under coordination.k8s.io/v1', async () => {
    const out = lines(await kubectl('api-resources', '--api-group=coordination.k8s.io', '--no-headers'));
    expect(out).toEqual(['leases coordination.k8s.io/v1 true Lease']);
  });

  it('creates a Lease from a file and prints it with its holder', async () => {
    expect(await kubectl('create', noSchema, '-f', file('lease.yaml', leaseYaml('bot-a')))).toBe('lease.coordination.k8s.io/runai-slack-bot-leader created\n');
    expect(lines(await kubectl('get', 'lease', '-n', NS))).toEqual(['NAME HOLDER AGE', 'runai-slack-bot-leader bot-a 0s']);
    const rv = await kubectl('get', 'leases.coordination.k8s.io', 'runai-slack-bot-leader', '-n', NS, '-o', 'jsonpath={.metadata.resourceVersion}');
    expect(rv).toBe(kube.get({ kind: 'Lease', namespace: NS, name: 'runai-slack-bot-leader' })!.metadata.resourceVersion);
  });

  it('refuses a second create of the same Lease as AlreadyExists', async () => {
    const { stderr } = await kubectlFails('create', noSchema, '-f', file('lease.yaml', leaseYaml('bot-b')));
    expect(stderr).toContain('leases.coordination.k8s.io "runai-slack-bot-leader" already exists');
    expect(holder()).toBe('bot-a');
  });

  it('replaces on the current resourceVersion, and refuses a stale one with a conflict', async () => {
    const rv = kube.get({ kind: 'Lease', namespace: NS, name: 'runai-slack-bot-leader' })!.metadata.resourceVersion!;
    expect(await kubectl('replace', noSchema, '-f', file('current.yaml', leaseYaml('bot-b', rv)))).toBe('lease.coordination.k8s.io/runai-slack-bot-leader replaced\n');
    expect(holder()).toBe('bot-b');
    const { stderr } = await kubectlFails('replace', noSchema, '-f', file('stale.yaml', leaseYaml('bot-c', rv)));
    expect(stderr).toContain('Operation cannot be fulfilled on leases.coordination.k8s.io "runai-slack-bot-leader": the object has been modified; please apply your changes to the latest version and try again');
    expect(holder()).toBe('bot-b');
  });

  it('applies a change, and refuses to apply a manifest carrying a stale resourceVersion', async () => {
    const stale = kube.get({ kind: 'Lease', namespace: NS, name: 'runai-slack-bot-leader' })!.metadata.resourceVersion!;
    expect(await kubectl('apply', noSchema, '-f', file('apply.yaml', leaseYaml('bot-d')))).toBe('lease.coordination.k8s.io/runai-slack-bot-leader configured\n');
    expect(holder()).toBe('bot-d');
    const { stderr } = await kubectlFails('apply', noSchema, '-f', file('apply-stale.yaml', leaseYaml('bot-e', stale)));
    expect(stderr).toContain('the object has been modified; please apply your changes to the latest version and try again');
    expect(holder()).toBe('bot-d');
  });

  it('prints a new row when the holder changes with `get lease -w`', async () => {
    const child = spawn('kubectl', args('get', 'lease', '-n', NS, '-w'));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 25));
    try {
      for (let i = 0; i < 400 && kube.openWatches === 0; i++) await pause();
      kube.patch({ kind: 'Lease', namespace: NS, name: 'runai-slack-bot-leader' }, (lease) => {
        (lease.spec as { holderIdentity: string }).holderIdentity = 'bot-f';
      });
      for (let i = 0; i < 400 && !out.includes('bot-f'); i++) await pause();
    } finally {
      child.kill();
      await exited;
    }
    expect(lines(out)).toEqual(['NAME HOLDER AGE', 'runai-slack-bot-leader bot-d 0s', 'runai-slack-bot-leader bot-f 0s']);
  });

  it('deletes the Lease', async () => {
    expect(await kubectl('delete', 'lease', 'runai-slack-bot-leader', '-n', NS)).toBe('lease.coordination.k8s.io "runai-slack-bot-leader" deleted\n');
    expect(holder()).toBeUndefined();
    expect(lines(await kubectl('get', 'leases', '-n', NS, '-o', 'name'))).toEqual(['']);
  });
});
