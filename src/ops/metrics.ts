/**
 * Prometheus metrics (prom-client), one registry per bot instance so tests and the demo can
 * run several bots in one process.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { skipAheadFallbacks } from '../maintenance/skip-ahead.js';

export class Metrics {
  readonly registry = new Registry();
  readonly transitions = new Counter({ name: 'runai_bot_transitions_total', help: 'Workload state transitions seen', labelNames: ['from', 'to', 'cluster'], registers: [this.registry] });
  readonly messagesSent = new Counter({ name: 'runai_bot_messages_sent_total', help: 'Slack messages sent, by kind', labelNames: ['kind'], registers: [this.registry] });
  readonly slackCalls = new Counter({ name: 'runai_bot_slack_api_calls_total', help: 'Slack Web API calls made', labelNames: ['method'], registers: [this.registry] });
  readonly slackErrors = new Counter({ name: 'runai_bot_slack_errors_total', help: 'Slack send failures, by kind (ratelimited = HTTP 429)', labelNames: ['kind'], registers: [this.registry] });
  readonly storeErrors = new Counter({ name: 'runai_bot_store_errors_total', help: 'SQLite calls of the outbox that failed (SQLITE_FULL, SQLITE_BUSY, …), by call', labelNames: ['op'], registers: [this.registry] });
  // Per cluster: labelled `cluster` when clusters: names them; unlabelled for the one unnamed cluster.
  readonly kubeRequests = new Gauge({ name: 'runai_bot_kube_api_requests', help: 'Kubernetes API requests made since start', labelNames: ['cluster'], registers: [this.registry] });
  readonly watchRestarts = new Gauge({ name: 'runai_bot_watch_restarts', help: 'Watch streams restarted since start', labelNames: ['cluster'], registers: [this.registry] });
  readonly watchStalls = new Gauge({ name: 'runai_bot_watch_stalls', help: 'Watch streams cut and restarted because they delivered nothing (no event, no bookmark) for longer than the server may stay silent', labelNames: ['cluster'], registers: [this.registry] });
  readonly kubeErrors = new Gauge({ name: 'runai_bot_kube_errors', help: 'Kubernetes API errors since start', labelNames: ['cluster'], registers: [this.registry] });
  readonly malformed = new Counter({ name: 'runai_bot_malformed_workloads_total', help: 'Workload objects skipped as malformed', labelNames: ['cluster'], registers: [this.registry] });
  readonly triageSeconds = new Histogram({
    name: 'runai_bot_triage_seconds',
    help: 'Time to enrich and triage a failed workload (pods, events, logs)',
    labelNames: ['category'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly decisionsRequeued = new Counter({ name: 'runai_bot_decisions_requeued_total', help: 'Decisions (reconcile, deletion, stuck check) and alert preparations that failed (the store refused, …) and are made again after a backoff, by stage', labelNames: ['stage'], registers: [this.registry] });
  readonly deliverySkipped = new Counter({ name: 'runai_bot_delivery_skipped_total', help: 'Owed messages planned to nobody (muted, not opted in, nowhere to go), by reason: not enriched, not queued, no ledger row', labelNames: ['reason'], registers: [this.registry] });
  readonly refusedChannels = new Gauge({ name: 'runai_bot_refused_channels', help: 'Channels where Slack refuses the bot\'s posts (not_in_channel, channel_not_found): 1 per channel while it refuses', labelNames: ['channel', 'error'], registers: [this.registry] });
  readonly outboxDepth = new Gauge({ name: 'runai_bot_outbox_depth', help: 'Messages waiting to be sent', registers: [this.registry] });
  readonly leader = new Gauge({ name: 'runai_bot_leader', help: '1 while this replica leads (sends to Slack, runs the schedules), else 0; always 1 without ha.enabled', registers: [this.registry] });
  readonly workloads = new Gauge({ name: 'runai_bot_workloads', help: 'Workloads in the watch cache', labelNames: ['cluster'], registers: [this.registry] });
  // Read from the maintenance module at scrape time: parsing has no metrics object to count into.
  readonly icalSkipAheadFallbacks = new Gauge({
    name: 'runai_bot_ical_skip_ahead_fallbacks',
    help: 'Maintenance series stepped from DTSTART since start because the ical.js skip-ahead was unavailable (internals changed) or failed',
    labelNames: ['kind'],
    registers: [this.registry],
    collect() {
      for (const [kind, count] of Object.entries(skipAheadFallbacks())) this.set({ kind }, count);
    },
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }
}
