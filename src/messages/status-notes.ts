/**
 * What `/runai status`, `/runai why` and the owners' maintenance DM add about a workload
 * besides its state: the last checkpoint its log names, and what its command gets wrong about
 * keeping its log (the guide's "Save application logs to persistent storage"). Pure; workload
 * text (paths, program names, problems) goes through the sanitize pipeline via phraseText,
 * checkpointLine and forMrkdwn.
 */
import type { CheckpointReading } from '../recovery/checkpoint.js';
import type { LogFinding } from '../recovery/log-advice.js';
import { checkpointLine, phraseText } from './log-advice.js';
import { forMrkdwn, truncate } from './mrkdwn.js';

/** At most this many findings are listed (there are five kinds). */
const FINDINGS_SHOWN = 5;
/** Room for one finding's line: its problem and fix quote workload text (each code part ≤ 300). */
const FINDING_CHARS = 560;

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * "Last checkpoint saved 40 min ago (iteration 12000)", "No checkpoint line in the last 2000
 * lines of its log", or why its log could not be read — never "no checkpoint".
 */
export function checkpointNote(reading: CheckpointReading, now: Date): string {
  if ('problem' in reading) return `Could not look for its last checkpoint: ${forMrkdwn(reading.problem, 300)}`;
  return capitalized(checkpointLine(reading.sighting, now));
}

/** The findings as short lines under one heading, or undefined when there are none. */
export function logFindingsSection(findings: readonly LogFinding[]): string | undefined {
  if (!findings.length) return undefined;
  const lines = findings.slice(0, FINDINGS_SHOWN).map((f) => `• ${truncate(`${phraseText(f.problem)}. ${phraseText(f.fix)}`, FINDING_CHARS)}`);
  return `:memo: *Keeping its log* (cluster guide: save application logs to persistent storage):\n${lines.join('\n')}`;
}
