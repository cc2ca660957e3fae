import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Metrics } from '../ops/metrics.js';
import type { SlackApp } from '../slack/app.js';
import type { Store } from '../store/port.js';

/** What changes while the bot runs, read by the parts built before it changes. */
export interface RunState {
  /** Set when stop() begins. */
  stopping: boolean;
  /** Whether this replica leads now (kept by Leadership's onChange; the archive hook reads it). */
  leading: boolean;
}

/** What every factory of src/parts/ is built from: the config, the clock and log, and the parts all groups share. */
export interface SharedParts {
  config: Config;
  log: Logger;
  now(): Date;
  store: Store;
  metrics: Metrics;
  run: RunState;
  slackApp: SlackApp;
}
