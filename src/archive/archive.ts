/**
 * Saves the full logs of a failed or stopped workload before its pods (and their logs) are
 * deleted: every container of every pod (init containers, and the previous instance of a
 * container that restarted), one file per container per pod — so one per rank of a
 * distributed workload — redacted as it streams, capped per container, written under a
 * temporary name and renamed when complete. A storage failure (full disk, read-only or
 * unwritable directory) is returned, never thrown, so the caller's DM never fails over it.
 */
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { ContainerInfo, PodInfo, StorageProblem, Workload } from '../model.js';
import type { ClusterReader } from '../cluster/reader.js';
import { describeKubeError } from '../cluster/kinds.js';
import { rankLabel } from '../cluster/normalize.js';
import { logFileName, partialFileName, workloadArchiveDir } from './paths.js';
import { LineRedactor } from './redact-lines.js';

export interface ArchiveOptions {
  reader: Pick<ClusterReader, 'streamLog'>;
  /** archive.dir: the persistent volume the logs go to. */
  dir: string;
  /** archive.maxBytesPerContainer: log bytes kept per container; the rest is cut with a note. */
  maxBytesPerContainer: number;
  /** The workload with its pods as they are now (enrichWorkload's). */
  workload: Workload;
  log: Logger;
  now: Date;
  /** A log that sends nothing for this long is given up (default 60 s): a stalled read must not hold the archive. */
  idleTimeoutMs?: number;
}

/** Why the archive could not be written at all: the operators' business, not the owner's. */
export type { StorageProblem };

export interface ArchiveResult {
  /** The workload's directory in the archive. */
  path: string;
  /** The log files written, complete. */
  files: string[];
  /** What could not be saved, in words (a log that could not be read, the storage failure). */
  problems: string[];
  /** Set when writing failed: nothing more was attempted and no partial file is left. */
  storage?: StorageProblem;
}

/** One log to save: a container of a pod, its current or its previous instance. */
export interface LogToSave {
  pod: PodInfo;
  container: ContainerInfo;
  previous: boolean;
}

/** What the files are, for a person or tool browsing the archive (which file is which rank). */
export const MANIFEST_FILE = 'archive.json';

/** Logs may still hold what redaction missed: readable by the bot and its group only. */
const DIR_MODE = 0o750;
const FILE_MODE = 0o640;

const STORAGE_PROBLEMS: Readonly<Record<string, StorageProblem['kind']>> = {
  ENOSPC: 'disk-full',
  EDQUOT: 'disk-full',
  EFBIG: 'disk-full',
  EACCES: 'unwritable',
  EPERM: 'unwritable',
  EROFS: 'unwritable',
  ENOTDIR: 'unwritable',
  EEXIST: 'unwritable',
};

class StorageError extends Error {
  constructor(readonly problem: StorageProblem) {
    super(problem.message);
  }
}

interface SavedLog {
  file: string;
  bytes: number;
  truncated: boolean;
}

export async function archiveWorkloadLogs(options: ArchiveOptions): Promise<ArchiveResult> {
  const { workload, log } = options;
  const path = workloadArchiveDir(options.dir, workload);
  const files: string[] = [];
  const problems: string[] = [];
  const manifest: Array<Record<string, unknown>> = [];
  try {
    await storage(`creating ${path}`, () => mkdir(path, { recursive: true, mode: DIR_MODE }));
    for (const target of logsToSave(workload)) {
      const name = logFileName(target.pod.name, target.container.name, target.previous);
      try {
        const saved = await saveLog(options, target, path, name);
        files.push(saved.file);
        manifest.push({
          file: name,
          pod: target.pod.name,
          container: target.container.name,
          rank: rankLabel(target.pod),
          init: target.container.init,
          previous: target.previous || undefined,
          node: target.pod.node,
          bytes: saved.bytes,
          truncated: saved.truncated || undefined,
        });
      } catch (err) {
        if (err instanceof StorageError) throw err;
        const which = `${target.previous ? 'previous ' : ''}log of ${target.pod.name}/${target.container.name}`;
        problems.push(`could not read the ${which}: ${describeKubeError(err)}`);
      }
    }
    await writeManifest(options, path, manifest, problems);
  } catch (err) {
    if (!(err instanceof StorageError)) {
      // Never thrown to the notifier: the DM goes out whatever happens here.
      problems.push(`archiving failed: ${(err as Error).message}`);
      log.error({ workload: `${workload.namespace}/${workload.name}`, err: (err as Error).message }, 'archiving logs failed');
      return { path, files, problems };
    }
    problems.push(err.problem.message);
    log.error({ workload: `${workload.namespace}/${workload.name}`, dir: options.dir, ...err.problem }, 'cannot write the log archive');
    return { path, files, problems, storage: err.problem };
  }
  log.info({ workload: `${workload.namespace}/${workload.name}`, path, files: files.length, problems: problems.length }, 'logs archived');
  return { path, files, problems };
}

/**
 * Every log a workload's pods still hold: each container that has started (init containers
 * too), and the previous instance of each that restarted — its log is where the failure is.
 */
export function logsToSave(workload: Workload): LogToSave[] {
  const found: LogToSave[] = [];
  for (const pod of workload.pods) {
    for (const container of pod.containers) {
      const restarted = container.restartCount > 0 || !!container.lastTerminated;
      const started = restarted || !!container.running || !!container.terminated;
      if (started) found.push({ pod, container, previous: false });
      if (restarted) found.push({ pod, container, previous: true });
    }
  }
  return found;
}

async function saveLog(options: ArchiveOptions, target: LogToSave, dir: string, name: string): Promise<SavedLog> {
  const cap = options.maxBytesPerContainer;
  const file = join(dir, name);
  const partial = join(dir, partialFileName(name));
  const out = new PartialFile(partial, await storage(`creating ${partial}`, () => open(partial, 'w', FILE_MODE)));
  try {
    const redactor = new LineRedactor();
    let bytes = 0;
    let truncated = false;
    // cap + 1 bytes: one byte past the cap is how a cut log is told from one that fits exactly.
    const chunks = withIdleTimeout(options.idleTimeoutMs ?? 60_000, options.reader.streamLog({
      namespace: options.workload.namespace,
      pod: target.pod.name,
      container: target.container.name,
      previous: target.previous || undefined,
      limitBytes: cap + 1,
    }));
    for await (const chunk of chunks) {
      let piece = chunk;
      if (bytes + piece.length > cap) {
        piece = piece.subarray(0, cap - bytes);
        truncated = true;
      }
      bytes += piece.length;
      await out.write(redactor.push(piece));
      if (truncated) break;
    }
    await out.write(redactor.end());
    if (truncated) await out.write([Buffer.from(`${out.endsLine ? '' : '\n'}${truncationNote(cap)}\n`)]);
    await out.close();
    await storage(`renaming ${partial}`, () => rename(partial, file));
    return { file, bytes, truncated };
  } catch (err) {
    await out.abandon();
    throw err;
  }
}

/**
 * The chunks of `source`, failing when the next one takes longer than `ms`. The source is
 * closed either way: a stream is destroyed (an async iterator's return() would wait behind the
 * read that stalled), any other iterator is told to return without waiting for it.
 */
async function* withIdleTimeout(ms: number, source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const chunks = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the log stream sent nothing for ${ms / 1000} s`)), ms);
      });
      const next = await Promise.race([chunks.next(), stalled]).finally(() => clearTimeout(timer));
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (source instanceof Readable) source.destroy();
    else void chunks.return?.().catch(() => undefined);
  }
}

/** The last line of a cut log, so nobody mistakes it for the whole log. */
export function truncationNote(cap: number): string {
  return `[runai-slack-bot: log truncated at ${formatBytes(cap)} (archive.maxBytesPerContainer)]`;
}

/** 100000000 → "100 MB", 67108864 → "64 MiB": as the config was most likely written. */
export function formatBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [1e9, 'GB'], [1024 ** 3, 'GiB'], [1e6, 'MB'], [1024 ** 2, 'MiB'], [1e3, 'kB'], [1024, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The temporary file a log is written to; every failure to write it is a StorageError. */
class PartialFile {
  /** Whether what was written so far ends with a newline (or nothing was written). */
  endsLine = true;

  constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  async write(buffers: Buffer[]): Promise<void> {
    if (!buffers.length) return;
    const data = buffers.length === 1 ? buffers[0] : Buffer.concat(buffers);
    if (!data.length) return;
    await storage(`writing ${this.path}`, async () => {
      for (let offset = 0; offset < data.length; ) offset += (await this.handle.write(data, offset)).bytesWritten;
    });
    this.endsLine = data[data.length - 1] === 0x0a;
  }

  async close(): Promise<void> {
    await storage(`closing ${this.path}`, () => this.handle.close());
  }

  /** Something failed: no half file is left behind. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.path, { force: true }).catch(() => undefined);
  }
}

async function writeManifest(options: ArchiveOptions, dir: string, files: Array<Record<string, unknown>>, problems: string[]): Promise<void> {
  const { workload } = options;
  const manifest = {
    workload: { ...(workload.cluster ? { cluster: workload.cluster } : {}), namespace: workload.namespace, name: workload.name, uid: workload.uid, kind: workload.kind, project: workload.project, owner: workload.owner, state: workload.state },
    archivedAt: options.now.toISOString(),
    maxBytesPerContainer: options.maxBytesPerContainer,
    files,
    problems: problems.length ? problems : undefined,
  };
  const partial = join(dir, partialFileName(MANIFEST_FILE));
  try {
    await storage(`writing ${partial}`, () => writeFile(partial, `${JSON.stringify(manifest, null, 2)}\n`, { mode: FILE_MODE }));
    await storage(`renaming ${partial}`, () => rename(partial, join(dir, MANIFEST_FILE)));
  } catch (err) {
    await rm(partial, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Runs a file-system step; its failure becomes a StorageError saying what and why. */
async function storage<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const kind = (code ? STORAGE_PROBLEMS[code] : undefined) ?? 'io-error';
    throw new StorageError({ kind, code, message: `${what}: ${code ?? describeKubeError(err)} (${STORAGE_WORDS[kind]})` });
  }
}

const STORAGE_WORDS: Readonly<Record<StorageProblem['kind'], string>> = {
  'disk-full': 'the archive volume is full',
  unwritable: 'the archive directory cannot be written',
  'io-error': 'the archive volume failed',
};
