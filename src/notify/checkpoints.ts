/**
 * Reads the tail of a running workload's log, with the kubelet's timestamps, and names the last
 * checkpoint it says it saved (recovery/checkpoint.ts decides; this only reads). Used by the
 * owners' maintenance DM and by `/runai status`.
 *
 * Bounded: one container per workload (the lead pod's first app container: rank 0 is the one
 * the frameworks print their save lines from), CHECKPOINT_TAIL_LINES lines and
 * CHECKPOINT_LIMIT_BYTES at most, each read timed out, and at most CHECKPOINT_READS_AT_ONCE
 * reads in flight, so a DM to someone with fifty running workloads is not fifty connections.
 * A read that fails is a reading with a problem, never an exception: the DM still goes out.
 */
import type { PodInfo, Workload } from '../model.js';
import { withPods } from '../cluster/normalize.js';
import { describeKubeError } from '../cluster/kinds.js';
import type { ClusterReader } from '../cluster/reader.js';
import { ConcurrencyLimiter } from '../lib/limiter.js';
import { withTimeout } from '../lib/timeout.js';
import { lastCheckpoint, type CheckpointReading } from '../recovery/checkpoint.js';

/** Lines of the tail read: a save line every few hundred steps of logging still falls inside. */
export const CHECKPOINT_TAIL_LINES = 2000;
/**
 * The server applies limitBytes after tailLines and keeps the *first* bytes, so a tail of very
 * long lines would lose its newest ones: such a read is made again with half the lines.
 */
export const CHECKPOINT_LIMIT_BYTES = 4 * 1024 * 1024;
export const CHECKPOINT_READS_AT_ONCE = 4;
const READ_TIMEOUT_MS = 10_000;
/**
 * readAll's answer is due within this: a slow cluster makes each read wait its 10 s, and a
 * queue of a hundred owners' workloads behind four slots would hold the maintenance DMs for
 * many minutes. What is not read by then is a reading that says so; reads not yet begun are
 * not begun.
 */
export const CHECKPOINT_READ_ALL_MS = 30_000;

/** Replica types whose pod leads a distributed workload (and prints its checkpoint lines). */
const LEAD_REPLICAS = new Set(['master', 'launcher', 'leader', 'chief']);

/** The lead pod (master, launcher, leader or chief; else the first) and its first app container. */
export function leadContainer(pods: readonly PodInfo[]): { pod: PodInfo; container: string } | undefined {
  const pod = pods.find((p) => LEAD_REPLICAS.has((p.replicaType ?? '').toLowerCase())) ?? pods[0];
  const container = pod?.containers.find((c) => !c.init) ?? pod?.containers[0];
  return pod && container ? { pod, container: container.name } : undefined;
}

export interface CheckpointReaderOptions {
  readerFor(cluster: string | undefined): ClusterReader;
  ownerKeys?: string[];
  now(): Date;
  timeoutMs?: number;
  concurrency?: number;
}

export class CheckpointReader {
  private readonly limiter: ConcurrencyLimiter;
  /** Log reads made (for tests: a reading that needed no read made none). */
  reads = 0;

  constructor(private readonly options: CheckpointReaderOptions) {
    this.limiter = new ConcurrencyLimiter(options.concurrency ?? CHECKPOINT_READS_AT_ONCE);
  }

  /** The reading of one workload; its pods are read first when it carries none. */
  read(workload: Workload): Promise<CheckpointReading> {
    return this.limiter.run(() => this.readNow(workload));
  }

  /**
   * Readings of several workloads, in their order, at most CHECKPOINT_READS_AT_ONCE at a time,
   * all within `withinMs`: a workload not read by then gets a reading that says so.
   */
  readAll(workloads: readonly Workload[], withinMs = CHECKPOINT_READ_ALL_MS): Promise<CheckpointReading[]> {
    const late: CheckpointReading = { problem: `its log was not read within ${withinMs >= 1000 ? `${Math.round(withinMs / 1000)} s` : `${withinMs} ms`}` };
    let timer: NodeJS.Timeout | undefined;
    let overdue = false;
    const deadline = new Promise<CheckpointReading>((resolve) => {
      timer = setTimeout(() => {
        overdue = true;
        resolve(late);
      }, withinMs);
    });
    const readings = workloads.map((w) => Promise.race([this.limiter.run(() => (overdue ? Promise.resolve(late) : this.readNow(w))), deadline]));
    return Promise.all(readings).finally(() => clearTimeout(timer));
  }

  private async readNow(base: Workload): Promise<CheckpointReading> {
    const reader = this.options.readerFor(base.cluster);
    const timeoutMs = this.options.timeoutMs ?? READ_TIMEOUT_MS;
    let workload = base;
    try {
      if (!workload.pods.length) {
        const pods = await withTimeout((signal) => reader.podsOf(base, signal), timeoutMs, 'listing the pods');
        workload = withPods(base, pods, { ownerKeys: this.options.ownerKeys });
      }
    } catch (err) {
      return { problem: `its pods could not be listed (${describeKubeError(err)})` };
    }
    const lead = leadContainer(workload.pods);
    if (!lead) return { problem: 'it has no pods to read a log from' };
    const readTail = async (tailLines: number): Promise<{ lines: string[]; cut: boolean }> => {
      this.reads++;
      const text = await withTimeout(
        (signal) => reader.readLog({
          namespace: workload.namespace,
          pod: lead.pod.name,
          container: lead.container,
          tailLines,
          limitBytes: CHECKPOINT_LIMIT_BYTES,
          timestamps: true,
        }, signal),
        timeoutMs,
        'reading the log',
      );
      const lines = text.split('\n');
      if (lines.at(-1) === '') lines.pop();
      return { lines, cut: Buffer.byteLength(text) >= CHECKPOINT_LIMIT_BYTES };
    };
    try {
      let tail = await readTail(CHECKPOINT_TAIL_LINES);
      if (tail.cut) tail = await readTail(Math.max(1, Math.floor(tail.lines.length / 2)));
      return { sighting: lastCheckpoint(tail.lines, this.options.now()), pod: lead.pod.name, container: lead.container };
    } catch (err) {
      return { problem: `its log could not be read (${describeKubeError(err)})` };
    }
  }
}
