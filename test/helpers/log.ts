/** A pino logger whose entries land in an array, so tests can assert what was logged. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/ops/logger.js';

export interface CapturedLog {
  log: Logger;
  entries: Array<Record<string, unknown>>;
  /** Every entry as raw JSON text: for "this string never appears in the logs" checks. */
  text(): string;
}

export function captureLog(level = 'debug'): CapturedLog {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const log = createLogger(level, stream);
  return {
    log,
    get entries() {
      return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    text: () => lines.join('\n'),
  };
}
