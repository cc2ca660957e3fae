/**
 * Turns "this owner is owed a message about this workload" into a queued Slack message:
 * enrich (pods, logs, events, triage), build the Block Kit, queue it in the outbox. One
 * enrichment per key at a time, however many events arrive for the workload meanwhile.
 */
import type { Logger } from 'pino';
import type { Transition, Workload } from '../model.js';
import type { Store } from '../store/sqlite.js';
import { buildWorkloadAlert } from '../slack/messages.js';
import { enrichWorkload, type EnrichOptions } from './enrich.js';
import type { Outbox } from './outbox.js';
import type { AlertSink } from './reconciler.js';

export interface NotifierOptions {
  store: Store;
  outbox: Outbox;
  enrich: EnrichOptions;
  log: Logger;
  now(): Date;
  uiUrl?: string;
  onTriage?(ms: number, category: string): void;
}

export class Notifier implements AlertSink {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly options: NotifierOptions) {}

  owed(key: string, workload: Workload, raw: unknown, _transition: Transition | undefined): void {
    if (this.inFlight.has(key)) return;
    const job = this.prepare(key, workload, raw)
      .catch((err: unknown) => this.options.log.error({ key, err: (err as Error).message }, 'preparing an alert failed'))
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
  }

  /** Resolves when every alert being prepared is queued (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight.values());
  }

  private async prepare(key: string, workload: Workload, raw: unknown): Promise<void> {
    const { store, outbox, now } = this.options;
    const started = performance.now();
    const enriched = await enrichWorkload(raw, workload, this.options.enrich);
    if (enriched.triage) this.options.onTriage?.(performance.now() - started, enriched.triage.category);
    const w = enriched.workload;
    const message = buildWorkloadAlert({
      workload: w,
      state: workload.state,
      triage: enriched.triage,
      site: enriched.site,
      uiUrl: this.options.uiUrl,
      logProblem: enriched.logProblem,
    });
    const queued = store.enqueue(
      {
        key,
        kind: workload.state.toLowerCase(),
        target: w.owner
          ? { type: 'owner', owner: w.owner, project: w.project, workload: `${w.namespace}/${w.name}` }
          : { type: 'owner', owner: '', project: w.project, workload: `${w.namespace}/${w.name}` },
        payload: message,
      },
      now(),
    );
    if (queued) {
      this.options.log.info(
        { key, workload: `${w.namespace}/${w.name}`, state: workload.state, category: enriched.triage?.category, errorLine: enriched.triage?.firstError?.lineNumber },
        'alert queued',
      );
      outbox.kick();
    }
  }
}
