/**
 * Namespace labels, re-read on the resync schedule: Run:ai names a namespace's project with
 * its `runai/queue` label, and normalize reads it to attribute a workload to its project.
 */
import type { Logger } from 'pino';
import { describeKubeError } from './kinds.js';
import type { NormalizeOptions } from './normalize.js';
import type { ClusterReader } from './reader.js';
import { repeat } from '../lib/repeat.js';

export interface NamespaceLabelsOptions {
  reader: Pick<ClusterReader, 'namespaceLabels'>;
  /** owners.keys: which labels or annotations name a workload's owner. */
  ownerKeys?: string[];
  refreshMs: number;
  log: Logger;
}

export class NamespaceLabels {
  private labels = new Map<string, Record<string, string>>();
  private stopTimer?: () => void;

  constructor(private readonly options: NamespaceLabelsOptions) {}

  /** What normalizing a workload of this namespace needs; a function so it can be handed on. */
  readonly normalize = (namespace: string): NormalizeOptions => ({ ownerKeys: this.options.ownerKeys, namespaceLabels: this.labels.get(namespace) });

  /** Keeps the last labels read when the cluster cannot answer: a stale project beats none. */
  async refresh(): Promise<void> {
    try {
      this.labels = await this.options.reader.namespaceLabels();
    } catch (err) {
      this.options.log.warn({ err: describeKubeError(err) }, 'cannot read namespace labels; projects fall back to pod labels and namespace names');
    }
  }

  start(): void {
    this.stopTimer ??= repeat(this.options.refreshMs, () => void this.refresh());
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }
}
