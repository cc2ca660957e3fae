/** What changes while the bot runs, read by the parts built before it changes. */
export interface RunState {
  /** Set when stop() begins. */
  stopping: boolean;
  /** Whether this replica leads now (kept by Leadership's onChange; the archive hook reads it). */
  leading: boolean;
}
