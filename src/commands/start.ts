/**
 * `runai-slack-bot start [--config FILE]`: run the bot until SIGTERM/SIGINT, then stop within
 * 10 seconds, keeping anything unsent in the outbox on disk. A start-up failure prints one line
 * with its fix and exits non-zero; so does any error nothing handled: a half-alive process
 * (answering /runai but watching nothing) is worse than a restart by Kubernetes.
 */
import type { Command } from 'commander';
import { startBot } from '../app.js';
import { ConfigError, loadConfig, slackSecretProblems } from '../config.js';
import { createLogger, type Logger } from '../ops/logger.js';
import { scrubSecrets, StartupError } from '../ops/startup.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

export function register(program: Command): void {
  program
    .command('start')
    .description('run the bot against the cluster and the Slack workspace')
    .option('-c, --config <file>', 'YAML config file (default: $RUNAI_BOT_CONFIG)')
    .action(async (opts: { config?: string }) => {
      let log: Logger | undefined;
      exitOnUnhandled(() => log);
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
      log = createLogger(config.log.level);
      let bot;
      try {
        bot = await startBot({ config, log, announce: (line) => process.stderr.write(`runai-slack-bot: ${scrubSecrets(line)}\n`) });
      } catch (err) {
        // A cluster's kubeconfig or context is only checked here, where it is read: still a config problem.
        if (err instanceof ConfigError) {
          process.stderr.write(`${err.message}\n`);
          process.exit(2);
        }
        const message = err instanceof StartupError ? err.message : `cannot start: ${(err as Error)?.message ?? String(err)}`;
        process.stderr.write(`runai-slack-bot: ${scrubSecrets(message)}\n`);
        // exit, not exitCode: timers and sockets opened before the failure would keep a half-started process alive.
        process.exit(1);
      }
      const running = bot;
      const shutdown = (signal: string) => {
        log!.info({ signal }, 'shutting down');
        const deadline = setTimeout(() => {
          log!.error('shutdown took too long; exiting');
          process.exit(1);
        }, SHUTDOWN_DEADLINE_MS);
        deadline.unref();
        running.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    });
}

/** Logs what escaped every handler (message and stack, secrets cut out) and exits non-zero. */
function exitOnUnhandled(logger: () => Logger | undefined): void {
  const die = (kind: string) => (reason: unknown) => {
    const err = reason instanceof Error ? reason : undefined;
    const message = scrubSecrets(err?.message ?? String(reason));
    const stack = err?.stack ? scrubSecrets(err.stack) : undefined;
    const log = logger();
    if (log) log.fatal({ err: { message, stack }, kind }, `${kind}: exiting`);
    else process.stderr.write(`runai-slack-bot: ${kind}: ${message}\n${stack ?? ''}\n`);
    process.exit(70); // EX_SOFTWARE: a bug, not a configuration problem
  };
  process.on('unhandledRejection', die('unhandled promise rejection'));
  process.on('uncaughtException', die('uncaught exception'));
}
