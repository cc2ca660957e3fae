/**
 * The worker-thread side of parseFeedOffThread: runs the pure parseFeed on what it is sent and
 * posts the result back, a thrown error included as a value. One parse per worker: the worker
 * (and the ical.js heap it grew) is gone once the answer is out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FeedError, parseFeed, type ParseOptions } from './parse.js';
import type { ParseAnswer } from './parse-off-thread.js';

function answer(text: string, opts: ParseOptions): ParseAnswer {
  try {
    return { ok: true, result: parseFeed(text, opts) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), feedError: err instanceof FeedError };
  }
}

if (parentPort) {
  const { text, opts } = workerData as { text: string; opts: ParseOptions };
  parentPort.postMessage(answer(text, opts));
}
