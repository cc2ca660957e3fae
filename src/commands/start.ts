/**
 * `runai-slack-bot start [--config FILE]`: run the bot until SIGTERM/SIGINT, then stop within
 * 10 seconds, keeping anything unsent in the outbox on disk.
 */
import type { Command } from 'commander';
import { startBot } from '../app.js';
import { ConfigError, loadConfig, slackSecretProblems } from '../config.js';
import { createLogger } from '../ops/logger.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

export function register(program: Command): void {
  program
    .command('start')
    .description('run the bot against the cluster and the Slack workspace')
    .option('-c, --config <file>', 'YAML config file (default: $RUNAI_BOT_CONFIG)')
    .action(async (opts: { config?: string }) => {
      let config;
      try {
        config = loadConfig(opts.config, process.env);
        const missing = slackSecretProblems(config);
        if (missing.length) throw new ConfigError(missing);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        process.stderr.write(`${err.message}\n`);
        process.exitCode = 2;
        return;
      }
      const log = createLogger(config.log.level);
      const bot = await startBot({ config, log });
      const shutdown = (signal: string) => {
        log.info({ signal }, 'shutting down');
        const deadline = setTimeout(() => {
          log.error('shutdown took too long; exiting');
          process.exit(1);
        }, SHUTDOWN_DEADLINE_MS);
        deadline.unref();
        bot.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    });
}
