/**
 * `npm run bench:failover [-- --quick]`: two replicas of the built bot with ha.enabled on one
 * PostgreSQL schema; the leader is SIGKILLed while 60 workloads of 10 owners fail over 20 s, right
 * after Slack accepted one of its posts (`--kill-anytime`: at 8 s, wherever it is).
 * Prints each figure as a JSON line (like `npm run bench`): failover_s (SIGKILL → the follower
 * leads), failover_duplicates, failover_lost, and the failure → DM latency with two replicas
 * across the failover; then, without a kill, detect_latency_watch_p99_ms_ha: failure → DM with two
 * replicas on PostgreSQL in a cluster of 2,000 workloads (1,000 with --quick), each failure of a
 * different owner. Exits 1 when something owed is lost or told more than once extra.
 */
import { join } from 'node:path';
import { runFailover, postgresUnavailable, FAILOVER_DATABASE_URL } from './failover-run.js';
import { Report, table } from './figures.js';

const LEASE_S = 5;

function progress(message: string): void {
  process.stderr.write(`[failover ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function main(): Promise<void> {
  const why = await postgresUnavailable();
  if (why) {
    progress(`PostgreSQL at ${FAILOVER_DATABASE_URL} is not reachable (${why}); start it or set TEST_DATABASE_URL`);
    process.exit(1);
  }
  const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
  const result = await runFailover({ cli, workloads: 60, owners: 10, streamMs: 20_000, killAtMs: 8_000, killOnAccept: !process.argv.includes('--kill-anytime'), leaseDurationSeconds: LEASE_S, burstWindow: '5s', progress, logLevel: process.env.FAILOVER_LOG_LEVEL });
  const a = result.assessment;
  const report = new Report();
  report.add({ name: 'failover_s', value: result.failoverS, unit: 's', target: { op: '<=', value: LEASE_S + 3 }, note: `SIGKILL of ${result.killed}${result.killedAfterAccept ? ' right after Slack accepted its post' : ''} → ${result.survivor} leads (/readyz), lease ${LEASE_S} s` });
  report.add({ name: 'failover_duplicates', value: a.duplicates, unit: 'alerts', target: { op: '<=', value: 1 }, note: `${a.duplicated.map((d) => d.name).join(', ') || 'none'}` });
  report.add({ name: 'failover_lost', value: a.lost.length, unit: 'alerts', target: { op: '=', value: 0 }, note: `of ${result.owed} owed; ${a.crosstalk.length} crosstalk; Slack accepted ${result.acceptedBeforeKill} posts/edits before the kill, ${result.acceptedAfterKill} after; ${a.lost.slice(0, 8).join(', ')}` });
  report.add({ name: 'failover_detect_latency_p50_ms', value: result.latencyP50Ms, unit: 'ms', note: 'failure → DM, two replicas on PostgreSQL, across the failover (5 s burst window)' });
  report.add({ name: 'failover_detect_latency_p99_ms', value: result.latencyP99Ms, unit: 'ms', note: 'includes the alerts held while nobody led' });

  const quick = process.argv.includes('--quick');
  const size = quick ? 1000 : 2000;
  const failures = quick ? 50 : 100;
  const latency = await runFailover({ cli, workloads: size, owners: failures, failures, streamMs: failures * 200, leaseDurationSeconds: 15, burstWindow: '30s', progress, logLevel: process.env.FAILOVER_LOG_LEVEL });
  report.add({ name: 'detect_latency_watch_p50_ms_ha', value: latency.latencyP50Ms, unit: 'ms', target: { op: '<=', value: 200 }, note: `two replicas on PostgreSQL, ${size} workloads, ${failures} failures of distinct owners, one every 200 ms; lost ${latency.assessment.lost.length}, duplicates ${latency.assessment.duplicates}` });
  report.add({ name: 'detect_latency_watch_p99_ms_ha', value: latency.latencyP99Ms, unit: 'ms', target: { op: '<=', value: 1000 }, note: 'same run' });
  console.log('');
  console.log(table(report.figures));
  const la = latency.assessment;
  const failed = a.lost.length > 0 || a.duplicates > 1 || a.crosstalk.length > 0 || !result.readyAtEnd || la.lost.length > 0 || la.duplicates > 0 || la.crosstalk.length > 0;
  if (failed) progress(`FAILED: logs kept in ${result.dir}`);
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
