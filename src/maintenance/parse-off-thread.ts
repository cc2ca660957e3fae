/**
 * parseFeed in a worker thread, so a big feed (a 5,000-event calendar takes about a second of
 * ical.js) never stalls the event loop that serves Slack and the watch. The pure parseFeed is
 * unchanged; this only moves where it runs. Errors come back as values, never as rejections.
 *
 * Where no compiled worker script sits beside this module (the TypeScript sources run by
 * jest), the parse runs inline: same answer, on the calling thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FeedError, parseFeed, type ParseOptions, type ParseResult } from './parse.js';

export type ParseAnswer =
  | { ok: true; result: ParseResult }
  | { ok: false; error: string; feedError: boolean };

const DEFAULT_WORKER = new URL('./parse-worker.js', import.meta.url);

export interface OffThreadOptions {
  /** The compiled parse-worker.js; defaults to the one beside this module. */
  workerUrl?: URL;
}

/** Whether parses run in a worker thread (a compiled worker is there) or inline. */
export function workerAvailable(options: OffThreadOptions = {}): boolean {
  const url = options.workerUrl ?? DEFAULT_WORKER;
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}

export function parseInline(text: string, opts: ParseOptions): ParseAnswer {
  try {
    return { ok: true, result: parseFeed(text, opts) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), feedError: err instanceof FeedError };
  }
}

export async function parseFeedOffThread(text: string, opts: ParseOptions, options: OffThreadOptions = {}): Promise<ParseAnswer> {
  const url = options.workerUrl ?? DEFAULT_WORKER;
  if (!workerAvailable({ workerUrl: url })) return parseInline(text, opts);
  return new Promise<ParseAnswer>((resolve) => {
    let settled = false;
    const done = (value: ParseAnswer) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const worker = new Worker(url, { workerData: { text, opts } });
    worker.once('message', (message: ParseAnswer) => {
      done(message);
      void worker.terminate();
    });
    worker.once('error', (err) => done({ ok: false, error: `the feed parser failed: ${err.message}`, feedError: false }));
    worker.once('exit', (code) => done({ ok: false, error: `the feed parser stopped (exit code ${code}) before answering`, feedError: false }));
  });
}
