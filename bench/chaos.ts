/**
 * `npm run chaos [-- --short] [-- --seed N]`: the "never lose an alert" chaos suite. The built bot
 * is SIGKILLed at random moments and meets API 5xx, dropped watches, 410 Gone, a Slack outage, 429
 * storms and a locked store; then what the simulated Slack accepted is checked. Prints each figure
 * as a JSON line (like `npm run bench`) and exits 1 when an assertion fails: nothing owed lost,
 * duplicates at most one per kill, no message naming another owner's or project's workload, and
 * the bot ready at the end.
 */
import { join } from 'node:path';
import { runChaos } from './chaos-run.js';
import { FULL, planChaos, SHORT } from './chaos-plan.js';
import { Report, table } from './figures.js';

function progress(message: string): void {
  process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

async function main(): Promise<void> {
  const sizes = process.argv.includes('--short') ? SHORT : FULL;
  const seedText = argValue('--seed');
  const seed = seedText === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seedText);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, not ${seedText}`);
  progress(`${sizes.label} run, seed ${seed} (replay with --seed ${seed})`);
  const plan = planChaos(sizes, seed);
  const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
  const started = performance.now();
  const result = await runChaos({ plan, cli, progress, logLevel: process.env.CHAOS_LOG_LEVEL });
  const { assessment: a } = result;

  const report = new Report();
  report.add({ name: 'chaos_lost', value: a.lost.length, unit: 'alerts', target: { op: '=', value: 0 }, note: `of ${result.owed} owed (${plan.workloads.filter((w) => !w.slackUser).length} to project channels); ${a.summarized} counted by an "…and N more" rather than named${a.lost.length ? `; the bot's store: ${Object.entries(result.lostWhy).map(([why, n]) => `${n} ${why}`).join(', ')}; first: ${a.lost.slice(0, 8).join(', ')}` : ''}` });
  report.add({ name: 'chaos_duplicates', value: a.duplicates, unit: 'alerts', target: { op: '<=', value: result.kills }, note: `${a.duplicated.length} workloads named in more than one posted message` });
  report.add({ name: 'chaos_crosstalk', value: a.crosstalk.length, unit: 'alerts', target: { op: '=', value: 0 }, note: a.crosstalk.slice(0, 5).map((c) => `${c.name} in ${c.conversation}`).join(', ') || 'no message named another owner\'s or project\'s workload' });
  report.add({ name: 'chaos_ready_at_end', value: result.readyAtEnd ? 1 : 0, unit: 'bool', target: { op: '=', value: 1 }, note: '/readyz after the drain' });
  report.add({ name: 'chaos_kills', value: result.kills, unit: 'SIGKILL', target: { op: '>=', value: plan.kills.length }, note: `${result.killsAfterAccept} right after Slack accepted a post or an edit (${plan.kills.filter((k) => k.why === 'after-accept').length} armed), ${plan.kills.filter((k) => k.why === 'in-burst').length} in burst windows` });
  report.add({ name: 'chaos_crashes', value: result.crashes, unit: 'exits', note: `the bot exited without being killed; ${result.starts} starts in all` });
  report.add({ name: 'chaos_max_delay_after_outage_s', value: result.maxDelayAfterOutageS, unit: 's', note: `${result.heldByOutage} alerts owed before a ${sizes.slackOutageMs / 1000} s Slack outage ended were delivered after it began` });
  report.add({ name: 'chaos_rate_limited', value: result.rateLimited, unit: '429s', note: '1 post/s per channel enforced throughout, plus one storm' });
  report.add({ name: 'chaos_seed', value: seed, unit: 'seed', note: `replay with --seed ${seed}` });
  console.log('');
  console.log(table(report.figures));

  const failed = a.lost.length > 0 || a.duplicates > result.kills || a.crosstalk.length > 0 || !result.readyAtEnd;
  progress(`done in ${Math.round((performance.now() - started) / 1000)} s${failed ? `; FAILED: bot log and store kept in ${result.dir}` : ''}`);
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
