/**
 * Tells the operators, once, that the log archive cannot be written: one message per kind of
 * problem (full, unwritable, failing) until an archive succeeds again, then one saying it
 * works again, after which a new breakage is reported anew. The outbox's unique keys carry the
 * "once", so it holds across restarts: a problem's key names the archive's generation, and a
 * generation ends with each recovery message.
 */
import type { Logger } from 'pino';
import { archiveProblemKey, archiveRecoveredKey, KEY_PREFIX } from '../keys.js';
import type { LedgerStore, OutboxStore } from '../store/port.js';
import { buildArchiveProblemMessage, buildArchiveRecoveredMessage } from '../messages/archive-problem.js';
import type { ArchiveResult, StorageProblem } from './archive.js';

export interface ArchiveProblemReporterOptions {
  store: Pick<LedgerStore, 'wasSent' | 'ledgerKeys'> & Pick<OutboxStore, 'enqueue' | 'isQueued'>;
  /** slack.opsChannel; without it problems are only logged. */
  opsChannel?: string;
  /** archive.dir, named in the messages. */
  dir: string;
  log: Logger;
  /** Sends what was queued (the outbox's kick). */
  queued(): void;
}

const PROBLEM_KINDS: readonly StorageProblem['kind'][] = ['disk-full', 'unwritable', 'io-error'];

export class ArchiveProblemReporter {
  /** Reports run one at a time: each reads the generation the one before it may have ended. */
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly options: ArchiveProblemReporterOptions) {}

  /** Call with every archive's result, successful or not. Resolves once reported; never rejects (a store failure is logged). */
  report(result: ArchiveResult, workload: string, now: Date): Promise<void> {
    this.last = this.last.then(() =>
      this.reportNow(result, workload, now).catch((err: unknown) =>
        this.options.log.error({ err: (err as Error)?.message ?? String(err) }, 'cannot record the log archive problem'),
      ),
    );
    return this.last;
  }

  private async reportNow(result: ArchiveResult, workload: string, now: Date): Promise<void> {
    const { store, opsChannel, dir, log } = this.options;
    if (!opsChannel) return;
    const generation = await this.generation();
    if (result.storage) {
      const message = buildArchiveProblemMessage({ problem: result.storage, dir, workload });
      const key = archiveProblemKey(result.storage.kind, generation);
      if (await store.enqueue({ key, kind: 'archive-problem', target: { type: 'channel', channel: opsChannel }, payload: message }, now)) {
        log.warn({ key, problem: result.storage.kind }, 'log archive problem reported to the operators');
        this.options.queued();
      }
      return;
    }
    let reported = false;
    for (const kind of PROBLEM_KINDS) if ((reported = await this.wasReported(archiveProblemKey(kind, generation)))) break;
    if (!reported) return;
    const message = buildArchiveRecoveredMessage({ dir, path: result.path });
    if (await store.enqueue({ key: archiveRecoveredKey(generation), kind: 'archive-recovered', target: { type: 'channel', channel: opsChannel }, payload: message }, now)) {
      this.options.queued();
    }
  }

  /** How many recoveries were announced (or are about to be): problems after one are news again. */
  private async generation(): Promise<number> {
    const announced = (await this.options.store.ledgerKeys(KEY_PREFIX.archiveRecovered)).size;
    return (await this.options.store.isQueued(archiveRecoveredKey(announced))) ? announced + 1 : announced;
  }

  private async wasReported(key: string): Promise<boolean> {
    return (await this.options.store.wasSent(key)) || (await this.options.store.isQueued(key));
  }
}
