/**
 * `runai-slack-bot check [--config FILE]`: before a real deployment, verifies the config, the
 * Slack tokens and scopes, the cluster permissions and the maintenance feed, prints a table of
 * what is fine and what to fix, and exits 0 only when everything is.
 */
import type { Command } from 'commander';
import { loadKubeConfig } from '../app.js';
import { allOk, fail, formatTable, type CheckRow } from '../check/report.js';
import { runChecks } from '../check/run.js';
import { ConfigError, loadConfig } from '../config.js';

export function register(program: Command): void {
  program
    .command('check')
    .description('verify the config, Slack tokens and scopes, cluster permissions and maintenance feed before deploying')
    .option('-c, --config <file>', 'YAML config file (default: $RUNAI_BOT_CONFIG)')
    .action(async (opts: { config?: string }) => {
      const source = opts.config ?? process.env.RUNAI_BOT_CONFIG ?? 'the default config (no file given)';
      let rows: CheckRow[];
      try {
        const config = loadConfig(opts.config, process.env);
        rows = await runChecks(config, { source, now: () => new Date(), loadKubeConfig });
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        // Nothing else can be checked reliably with a config that does not parse.
        rows = err.problems.map((problem) => fail('config', problem));
      }
      process.stdout.write(formatTable(rows));
      process.exitCode = allOk(rows) ? 0 : 1;
    });
}
