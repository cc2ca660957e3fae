/**
 * The log archive as the notifier uses it: when a workload fails or is stopped, read its pods
 * now (before they are deleted), save their logs, and tell the operators once if the archive
 * cannot be written. A few archives run at a time, so a burst of failures streams a few logs
 * at once rather than hundreds; the same workload is archived once however often it is asked.
 */
import type { Logger } from 'pino';
import { workloadId, type LifecycleState, type Workload } from '../model.js';
import type { ClusterReader } from '../cluster/reader.js';
import { describeKubeError } from '../cluster/kinds.js';
import { withPods } from '../cluster/normalize.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';
import { archiveWorkloadLogs, type ArchiveResult } from './archive.js';
import { workloadArchiveDir } from './paths.js';
import type { ArchiveProblemReporter } from './problem-reporter.js';

/** The guide says to save the logs of these at once (GUIDE.Failed, GUIDE.Stopped). */
const ARCHIVED_STATES: ReadonlySet<LifecycleState> = new Set(['Failed', 'Stopped']);

export interface LogArchiverOptions {
  /** The reader of the workload's own cluster (undefined: the unnamed one). */
  readerFor(cluster: string | undefined): Pick<ClusterReader, 'podsOf' | 'streamLog'>;
  /** archive.dir */
  dir: string;
  /** archive.maxBytesPerContainer */
  maxBytesPerContainer: number;
  reporter: ArchiveProblemReporter;
  log: Logger;
  now(): Date;
  /** Archives running at once (default 2). */
  maxConcurrent?: number;
}

export class LogArchiver {
  private readonly inFlight = new Map<string, Promise<string | undefined>>();
  /** The directories being written now: retention must not delete them under the writer. */
  private readonly writing = new Map<string, string>();
  private readonly slots: ConcurrencyLimiter;

  constructor(private readonly options: LogArchiverOptions) {
    this.slots = new ConcurrencyLimiter(options.maxConcurrent ?? 2);
  }

  /** Where a workload's logs go: the DM can name it ("being saved to …") before they are saved. */
  pathFor(workload: Pick<Workload, 'project' | 'name' | 'uid' | 'cluster'>): string {
    return workloadArchiveDir(this.options.dir, workload);
  }

  /**
   * Saves the logs of a Failed or Stopped workload. Resolves with its archive directory once at
   * least one log is saved there, otherwise undefined (other states, no pods left, storage
   * failure). Never rejects. Race it against a deadline: it may take long for big logs.
   */
  archive(workload: Workload): Promise<string | undefined> {
    if (!ARCHIVED_STATES.has(workload.state)) return Promise.resolve(undefined);
    const id = workloadId(workload);
    const running = this.inFlight.get(id);
    if (running) return running;
    const job = this.slots.run(() => this.run(workload))
      .catch((err: unknown) => {
        this.options.log.error({ workload: `${workload.namespace}/${workload.name}`, err: (err as Error).message }, 'archiving logs failed');
        return undefined;
      })
      .finally(() => {
        this.inFlight.delete(id);
        this.writing.delete(id);
      });
    this.inFlight.set(id, job);
    this.writing.set(id, this.pathFor(workload));
    return job;
  }

  busyPaths(): string[] {
    return [...this.writing.values()];
  }

  /** Resolves when every archive started so far has ended (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight.values());
  }

  private async run(workload: Workload): Promise<string | undefined> {
    const { log } = this.options;
    const reader = this.options.readerFor(workload.cluster);
    const label = `${workload.cluster ? `${workload.cluster}/` : ''}${workload.namespace}/${workload.name}`;
    let withItsPods: Workload;
    try {
      withItsPods = withPods(workload, await reader.podsOf(workload));
    } catch (err) {
      log.warn({ workload: label, err: describeKubeError(err) }, 'cannot list the pods whose logs to archive');
      return undefined;
    }
    if (!withItsPods.pods.length) return undefined;
    const result: ArchiveResult = await archiveWorkloadLogs({
      reader,
      dir: this.options.dir,
      maxBytesPerContainer: this.options.maxBytesPerContainer,
      workload: withItsPods,
      log,
      now: this.options.now(),
    });
    await this.options.reporter.report(result, label, this.options.now());
    return result.files.length ? result.path : undefined;
  }

}
