/**
 * Counts turns of the event loop (one setImmediate callback per turn) until stopped: a test that
 * the loop kept turning while work ran, without timing anything.
 */
export function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  return {
    get turns() {
      return turns;
    },
    stop() {
      spinning = false;
    },
  };
}
