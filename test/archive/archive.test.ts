import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadKubeConfig } from '../../src/app.js';
import { archiveWorkloadLogs, MANIFEST_FILE, truncationNote, type ArchiveOptions } from '../../src/archive/archive.js';
import { withDeadline } from '../../src/archive/deadline.js';
import { logFileName, partialFileName, workloadArchiveDir } from '../../src/archive/paths.js';
import { createClusterReader, type ClusterReader } from '../../src/cluster/reader.js';
import { normalizeWorkload, withPods } from '../../src/cluster/normalize.js';
import type { Workload } from '../../src/model.js';
import { startFakeKube, type FakeKube, type KubeObject } from '../fakes/kube-apiserver.js';
import { tempDir } from '../helpers/bot.js';
import { captureLog } from '../helpers/log.js';
import { ns, pod, workloadCr, type WorkloadSpec } from '../helpers/workloads.js';

const GITHUB_TOKEN = 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const KEY_BODY = ['MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', 'VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDu'];

/** A long training log (several MB, so it arrives in many chunks) with secrets in the middle, and its redacted form. */
function trainingLog(): { log: string; redacted: string } {
  const before: string[] = [];
  const after: string[] = [];
  for (let i = 0; i < 20_000; i++) before.push(`step ${i} loss=${(1 / (i + 1)).toFixed(6)} lr=0.0001 throughput=412.5 samples/s`);
  for (let i = 0; i < 20_000; i++) after.push(`step ${20_000 + i} loss=0.000050 lr=0.0001 grad_norm=0.91`);
  const secret = [
    `cloning with ${GITHUB_TOKEN} now`,
    `aws_secret_access_key = ${AWS_SECRET}`,
    '-----BEGIN PRIVATE KEY-----',
    ...KEY_BODY,
    '-----END PRIVATE KEY-----',
  ];
  const clean = ['cloning with [REDACTED:github-token] now', 'aws_secret_access_key = [REDACTED:aws-secret-key]', '[REDACTED:private-key]'];
  return {
    log: [...before, ...secret, ...after, 'RuntimeError: CUDA error: an illegal memory access was encountered', ''].join('\n'),
    redacted: [...before, ...clean, ...after, 'RuntimeError: CUDA error: an illegal memory access was encountered', ''].join('\n'),
  };
}

describe('archiving the logs of a workload', () => {
  let kube: FakeKube;
  let reader: ClusterReader;
  let dir: string;
  const captured = captureLog();
  const now = new Date('2026-11-29T10:00:00Z');

  beforeAll(async () => {
    kube = await startFakeKube();
    reader = createClusterReader(loadKubeConfig(kube.writeKubeconfig(tempDir('archive-kube-'))));
  });
  afterAll(async () => {
    await kube.close();
  });
  beforeEach(() => {
    dir = tempDir('archive-');
  });

  async function workload(spec: WorkloadSpec, pods: KubeObject[]): Promise<Workload> {
    const cr = kube.apply(workloadCr(spec));
    for (const p of pods) kube.apply(p);
    const cached = normalizeWorkload(cr);
    return { ...withPods(cached, await reader.podsOf(cached)), state: 'Failed' };
  }

  const archive = (w: Workload, options: Partial<ArchiveOptions> = {}) =>
    archiveWorkloadLogs({ reader, dir, maxBytesPerContainer: 100_000_000, workload: w, log: captured.log, now, ...options });

  it('saves the complete log, byte for byte except the secrets, which are redacted', async () => {
    const w = await workload({ name: 'resnet', project: 'vision', owner: 'alice', phase: 'Failed' }, [pod({ workload: 'resnet', project: 'vision', exitCode: 1 })]);
    const { log, redacted } = trainingLog();
    kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', log);

    const result = await archive(w);

    expect(result.problems).toEqual([]);
    expect(result.path).toBe(join(dir, 'vision', 'resnet', w.uid));
    expect(result.files).toEqual([join(result.path, 'resnet-0-0.resnet.log')]);
    const saved = readFileSync(result.files[0], 'utf8');
    expect(saved).toBe(redacted);
    for (const secret of [GITHUB_TOKEN, AWS_SECRET, ...KEY_BODY, 'BEGIN PRIVATE KEY']) expect(saved).not.toContain(secret);
    expect(statSync(result.files[0]).mode & 0o777).toBe(0o640);
  });

  it('writes one file per rank of a distributed workload, and a manifest saying which rank each is', async () => {
    const ranks = [
      { name: 'llama-master-0', type: 'master', index: 0 },
      { name: 'llama-worker-0', type: 'worker', index: 0 },
      { name: 'llama-worker-1', type: 'worker', index: 1 },
    ];
    const w = await workload(
      { kind: 'DistributedWorkload', name: 'llama', project: 'llm', owner: 'alice', phase: 'Failed' },
      ranks.map((r) => pod({ workload: 'llama', project: 'llm', name: r.name, container: 'pytorch', replicaType: r.type, replicaIndex: r.index, exitCode: 1 })),
    );
    for (const r of ranks) kube.appendLog(ns('llm'), r.name, 'pytorch', `rank ${r.type} ${r.index} starting\nNCCL timeout on ${r.name}\n`);

    const result = await archive(w);

    expect(result.files.map((f) => f.slice(result.path.length + 1)).sort()).toEqual(['llama-master-0.pytorch.log', 'llama-worker-0.pytorch.log', 'llama-worker-1.pytorch.log']);
    for (const r of ranks) expect(readFileSync(join(result.path, `${r.name}.pytorch.log`), 'utf8')).toBe(`rank ${r.type} ${r.index} starting\nNCCL timeout on ${r.name}\n`);
    const manifest = JSON.parse(readFileSync(join(result.path, MANIFEST_FILE), 'utf8'));
    expect(manifest.files.map((f: { file: string; rank: string }) => [f.file, f.rank]).sort()).toEqual([
      ['llama-master-0.pytorch.log', 'master 0'],
      ['llama-worker-0.pytorch.log', 'worker 0'],
      ['llama-worker-1.pytorch.log', 'worker 1'],
    ]);
    expect(manifest).toMatchObject({ workload: { name: 'llama', project: 'llm', uid: w.uid }, archivedAt: now.toISOString() });
  });

  it("saves a restarted container's previous log beside its current one, and init containers' logs", async () => {
    const p = pod({ workload: 'bert', project: 'nlp', restarted: true, exitCode: 137, reason: 'OOMKilled' });
    const spec = p.spec as { initContainers?: unknown[] };
    spec.initContainers = [{ name: 'fetch-data', image: 'busybox' }];
    (p.status as { initContainerStatuses?: unknown[] }).initContainerStatuses = [
      { name: 'fetch-data', image: 'busybox', ready: true, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
    ];
    const w = await workload({ name: 'bert', project: 'nlp', owner: 'alice', phase: 'Running' }, [p]);
    kube.appendLog(ns('nlp'), 'bert-0-0', 'bert', 'epoch 1\nKilled\n', { previous: true });
    kube.appendLog(ns('nlp'), 'bert-0-0', 'bert', 'epoch 1 again\n');
    kube.appendLog(ns('nlp'), 'bert-0-0', 'fetch-data', 'downloaded 3 shards\n');

    const result = await archive(w);

    expect(result.problems).toEqual([]);
    expect(readFileSync(join(result.path, 'bert-0-0.bert.previous.log'), 'utf8')).toBe('epoch 1\nKilled\n');
    expect(readFileSync(join(result.path, 'bert-0-0.bert.log'), 'utf8')).toBe('epoch 1 again\n');
    expect(readFileSync(join(result.path, 'bert-0-0.fetch-data.log'), 'utf8')).toBe('downloaded 3 shards\n');
  });

  it('stops at the cap and says so in a last line; a log exactly at the cap is kept whole without the note', async () => {
    const w = await workload({ name: 'chatty', project: 'vision', phase: 'Failed' }, [
      pod({ workload: 'chatty', project: 'vision', name: 'chatty-a', exitCode: 1 }),
      pod({ workload: 'chatty', project: 'vision', name: 'chatty-b', exitCode: 1 }),
    ]);
    const line = 'step 1 loss=0.5 '.padEnd(99, '.') + '\n';
    kube.appendLog(ns('vision'), 'chatty-a', 'chatty', line.repeat(50)); // 5000 bytes
    kube.appendLog(ns('vision'), 'chatty-b', 'chatty', line.repeat(10)); // 1000 bytes

    const result = await archive(w, { maxBytesPerContainer: 1000 });

    expect(truncationNote(1000)).toBe('[runai-slack-bot: log truncated at 1 kB (archive.maxBytesPerContainer)]');
    expect(truncationNote(100_000_000)).toBe('[runai-slack-bot: log truncated at 100 MB (archive.maxBytesPerContainer)]');
    expect(readFileSync(join(result.path, 'chatty-a.chatty.log'), 'utf8')).toBe(`${line.repeat(10)}${truncationNote(1000)}\n`);
    expect(readFileSync(join(result.path, 'chatty-b.chatty.log'), 'utf8')).toBe(line.repeat(10));
    const manifest = JSON.parse(readFileSync(join(result.path, MANIFEST_FILE), 'utf8'));
    expect(manifest.files.find((f: { file: string }) => f.file === 'chatty-a.chatty.log')).toMatchObject({ bytes: 1000, truncated: true });
  });

  it('ends a log cut mid-line with the rest of that line, then the note on a line of its own', async () => {
    const w = await workload({ name: 'midline', project: 'vision', phase: 'Failed' }, [pod({ workload: 'midline', project: 'vision', exitCode: 1 })]);
    kube.appendLog(ns('vision'), 'midline-0-0', 'midline', 'abcdefghij\nklmnopqrst\n');
    const result = await archive(w, { maxBytesPerContainer: 15 });
    expect(readFileSync(result.files[0], 'utf8')).toBe(`abcdefghij\nklmn\n${truncationNote(15)}\n`);
  });

  it('writes under a temporary name and renames it when complete, leaving no partial file', async () => {
    const w = await workload({ name: 'vit', project: 'vision', phase: 'Failed' }, [pod({ workload: 'vit', project: 'vision', exitCode: 1 })]);
    kube.appendLog(ns('vision'), 'vit-0-0', 'vit', trainingLog().log);
    const final = join(workloadArchiveDir(dir, w), logFileName('vit-0-0', 'vit', false));
    const partial = join(workloadArchiveDir(dir, w), partialFileName(logFileName('vit-0-0', 'vit', false)));
    const seenWhileStreaming: Array<{ final: boolean; partial: boolean }> = [];
    const watching: ArchiveOptions['reader'] = {
      async *streamLog(request) {
        for await (const chunk of reader.streamLog(request)) {
          seenWhileStreaming.push({ final: existsSync(final), partial: existsSync(partial) });
          yield chunk;
        }
      },
    };

    const result = await archive(w, { reader: watching });

    expect(seenWhileStreaming.length).toBeGreaterThan(1);
    expect(seenWhileStreaming.every((s) => !s.final && s.partial)).toBe(true);
    expect(result.files).toEqual([final]);
    expect(readdirSync(result.path).sort()).toEqual([MANIFEST_FILE, 'vit-0-0.vit.log']);
  });

  it('keeps the saved logs after the pods and their logs are deleted', async () => {
    const w = await workload({ name: 'gone', project: 'vision', phase: 'Failed' }, [pod({ workload: 'gone', project: 'vision', exitCode: 1 })]);
    kube.appendLog(ns('vision'), 'gone-0-0', 'gone', 'Traceback (most recent call last):\nValueError: bad shape\n');
    const result = await archive(w);

    kube.delete({ kind: 'Pod', namespace: ns('vision'), name: 'gone-0-0' });
    await expect(reader.readLog({ namespace: ns('vision'), pod: 'gone-0-0', container: 'gone' })).rejects.toBeDefined();

    expect(readFileSync(result.files[0], 'utf8')).toBe('Traceback (most recent call last):\nValueError: bad shape\n');
  });

  it('names a log it could not read as a problem and saves the others', async () => {
    const w = await workload({ name: 'half', project: 'vision', phase: 'Failed' }, [
      pod({ workload: 'half', project: 'vision', name: 'half-a', exitCode: 1 }),
      pod({ workload: 'half', project: 'vision', name: 'half-b', exitCode: 1 }),
    ]);
    kube.appendLog(ns('vision'), 'half-b', 'half', 'still here\n');
    kube.delete({ kind: 'Pod', namespace: ns('vision'), name: 'half-a' });

    const result = await archive(w);

    expect(result.storage).toBeUndefined();
    expect(result.problems).toEqual([expect.stringMatching(/^could not read the log of half-a\/half: HTTP 404/)]);
    expect(result.files).toEqual([join(result.path, 'half-b.half.log')]);
    expect(readdirSync(result.path).sort()).toEqual([MANIFEST_FILE, 'half-b.half.log']);
  });

  it('gives up a log that stops sending, closes its stream and leaves no partial file', async () => {
    const w = await workload({ name: 'stall', project: 'vision', phase: 'Failed' }, [pod({ workload: 'stall', project: 'vision', exitCode: 1 })]);
    const stalled = new PassThrough();
    stalled.write('first line\n');
    const hanging: ArchiveOptions['reader'] = { streamLog: () => stalled };

    const result = await archive(w, { reader: hanging, idleTimeoutMs: 50 });

    expect(result.problems).toEqual(['could not read the log of stall-0-0/stall: the log stream sent nothing for 0.05 s']);
    expect(stalled.destroyed).toBe(true);
    expect(readdirSync(result.path)).toEqual([MANIFEST_FILE]);
  });

  it('returns an unwritable directory as a storage problem instead of throwing', async () => {
    const w = await workload({ name: 'nowhere', project: 'vision', phase: 'Failed' }, [pod({ workload: 'nowhere', project: 'vision', exitCode: 1 })]);
    const notADirectory = join(dir, 'file');
    writeFileSync(notADirectory, 'not a directory');

    const result = await archive(w, { dir: notADirectory });

    expect(result.storage).toMatchObject({ kind: 'unwritable', code: 'ENOTDIR' });
    expect(result.files).toEqual([]);
    expect(result.problems).toEqual([expect.stringContaining('the archive directory cannot be written')]);
  });

  it('returns a full disk as a storage problem, removes the partial file and stops', async () => {
    const w = await workload({ name: 'full', project: 'vision', phase: 'Failed' }, [
      pod({ workload: 'full', project: 'vision', name: 'full-a', exitCode: 1 }),
      pod({ workload: 'full', project: 'vision', name: 'full-b', exitCode: 1 }),
    ]);
    kube.appendLog(ns('vision'), 'full-a', 'full', 'some log\n');
    kube.appendLog(ns('vision'), 'full-b', 'full', 'more log\n');
    // The first file is written through to /dev/full, which answers every write with ENOSPC.
    const path = workloadArchiveDir(dir, w);
    mkdirSync(path, { recursive: true });
    symlinkSync('/dev/full', join(path, partialFileName(logFileName('full-a', 'full', false))));

    const result = await archive(w);

    expect(result.storage).toMatchObject({ kind: 'disk-full', code: 'ENOSPC' });
    expect(result.files).toEqual([]);
    expect(readdirSync(path)).toEqual([]);
  });
});

describe('withDeadline', () => {
  it('gives the value of work that finishes in time', async () => {
    await expect(withDeadline(Promise.resolve('/archive/vision/resnet/1'), 2000)).resolves.toEqual({ settled: true, value: '/archive/vision/resnet/1' });
  });

  it('stops waiting for work that does not finish in time, without stopping the work', async () => {
    let finish!: (value: string) => void;
    const work = new Promise<string>((resolve) => (finish = resolve));
    await expect(withDeadline(work, 5)).resolves.toEqual({ settled: false });
    finish('done later');
    await expect(work).resolves.toBe('done later');
  });
});
