/**
 * Waits for work only so long. The owner's DM must not wait on the archive for more than a
 * moment: the notifier starts archiving when it prepares the alert, waits up to ~2 s, and says
 * "Full logs saved to <path>" when it finished in time, "being saved to <path>" otherwise. The
 * work goes on after the deadline; only the waiting stops.
 */
export type Deadlined<T> = { settled: true; value: T } | { settled: false };

/** Resolves with the promise's value if it settles within `ms`, else with `{ settled: false }`. Rejections pass through. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<Deadlined<T>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Deadlined<T>>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false }), ms);
    timer.unref();
  });
  return Promise.race([promise.then((value): Deadlined<T> => ({ settled: true, value })), deadline]).finally(() => clearTimeout(timer));
}
