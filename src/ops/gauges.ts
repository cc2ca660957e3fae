/**
 * The gauges of /metrics that mirror a size or a count kept elsewhere (the outbox, the watch
 * cache, the API client's counters), sampled every few seconds rather than on every change.
 */
import type { Logger } from 'pino';
import { repeat } from '../lib/repeat.js';
import type { Metrics } from './metrics.js';

type Source = () => number | Promise<number>;
/** One value per cluster: labelled `cluster` by name; the unnamed cluster's (undefined) unlabelled. */
type PerCluster = () => Array<[cluster: string | undefined, value: number]>;

export interface GaugeSources {
  outboxDepth: Source;
  kubeRequests: Source | PerCluster;
  watchRestarts: Source | PerCluster;
  watchStalls: Source | PerCluster;
  kubeErrors: Source | PerCluster;
  workloads: Source | PerCluster;
}

export const GAUGE_SAMPLE_MS = 5000;

export class GaugeSampler {
  private stopTimer?: () => void;

  constructor(
    private readonly metrics: Metrics,
    private readonly sources: GaugeSources,
    private readonly log: Logger,
    private readonly everyMs = GAUGE_SAMPLE_MS,
  ) {}

  /** Reads every source once and sets its gauge; a failing source keeps its gauge's last value. */
  async sample(): Promise<void> {
    await Promise.all(
      (Object.keys(this.sources) as Array<keyof GaugeSources>).map(async (name) => {
        try {
          const value = await this.sources[name]();
          if (typeof value === 'number') this.metrics[name].set(value);
          else {
            for (const [cluster, v] of value) {
              if (cluster === undefined) this.metrics[name].set(v);
              else this.metrics[name].set({ cluster }, v);
            }
          }
        } catch (err) {
          this.log.debug({ gauge: name, err: (err as Error).message }, 'gauge not sampled');
        }
      }),
    );
  }

  start(): void {
    this.stopTimer ??= repeat(this.everyMs, () => void this.sample());
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }
}
