/**
 * Runs a task every `ms` without keeping the process alive, and returns how to stop it.
 * setInterval with unref is all the bot's periodic checks need (no overlap handling, no
 * catch-up after sleep); a scheduler library would add a dependency for nothing.
 */
export function repeat(ms: number, task: () => void): () => void {
  const timer = setInterval(task, ms);
  timer.unref();
  return () => clearInterval(timer);
}
