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
  /** The configured name of the cluster these namespaces are in; every workload normalised here carries it. */
  cluster?: string;
  refreshMs: number;
  log: Logger;
}

export class NamespaceLabels {
  private labels = new Map<string, Record<string, string>>();
  private stopTimer?: () => void;

  constructor(private readonly options: NamespaceLabelsOptions) {}

  /** What normalizing a workload of this namespace needs; a function so it can be handed on. */
  readonly normalize = (namespace: string): NormalizeOptions => ({ ownerKeys: this.options.ownerKeys, namespaceLabels: this.labels.get(namespace), cluster: this.options.cluster });

  /** Keeps the last labels read when the cluster cannot answer: a stale project beats none. */
  /** Whether the labels could be read. */
  async refresh(): Promise<boolean> {
    try {
      this.labels = await this.options.reader.namespaceLabels();
      return true;
    } catch (err) {
      this.options.log.warn({ err: describeKubeError(err), cluster: this.options.cluster }, 'cannot read namespace labels; projects fall back to pod labels and namespace names');
      return false;
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
