/**
 * One structured JSON logger (pino), handed to every component as a child. Secrets never go
 * in: token-shaped keys are censored, and log text from workloads is never logged at all
 * (only its line number and category).
 */
import { pino, type DestinationStream, type Logger } from 'pino';

const SECRET_PATHS = [
  'token', '*.token', 'botToken', 'appToken', 'signingSecret', '*.signingSecret',
  'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization',
  'secrets', '*.secrets', 'password', '*.password',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name: 'runai-slack-bot',
      level,
      redact: { paths: SECRET_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

export type { Logger };
