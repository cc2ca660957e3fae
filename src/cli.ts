#!/usr/bin/env node
/**
 * The command line. Each subcommand lives in src/commands/<name>.ts and exports
 * `register(program)`; this file only lists them.
 */
import { Command } from 'commander';
import * as check from './commands/check.js';
import * as demo from './commands/demo.js';
import * as maintenance from './commands/maintenance.js';
import * as start from './commands/start.js';
import * as triageLog from './commands/triage-log.js';

const program = new Command('runai-slack-bot')
  .description('Slack app for GPU clusters running NVIDIA Run:ai')
  .showHelpAfterError();

const commands: Array<{ register(program: Command): void }> = [
  // one line per command module
  start,
  demo,
  check,
  triageLog,
  maintenance,
];
for (const command of commands) command.register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`runai-slack-bot: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
