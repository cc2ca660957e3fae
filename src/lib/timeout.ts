/**
 * The one way the bot bounds a wait on the cluster. The work gets an AbortSignal that fires at
 * the deadline, so a request that is still open is cancelled (its socket closed) rather than
 * left running after nobody waits for it; and the wait ends at the deadline even if the work
 * ignores the signal.
 */
export class TimeoutError extends Error {
  constructor(readonly what: string, readonly ms: number) {
    super(`the cluster did not answer within ${formatMs(ms)} while ${what}`);
    this.name = 'TimeoutError';
  }
}

export async function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    onAbort = () => reject(new TimeoutError(what, ms));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work(signal), timedOut]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
