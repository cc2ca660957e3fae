/**
 * The words around "Save the whole log": the message the file arrives with in the DM, and the
 * ephemeral answers to the click. Pure; workload names go through the sanitize pipeline.
 */
import type { Workload } from '../model.js';
import { section, type SlackMessage } from './blocks.js';
import { nameCode, onCluster } from './cluster.js';
import { forMrkdwn } from './mrkdwn.js';

export interface SavedLog {
  workload: Workload;
  pod: string;
  container: string;
  previous: boolean;
  /** Where the text came from: the bot's archive, or the cluster (no archive copy). */
  from: 'archive' | 'cluster';
  bytes: number;
  /** Bytes left off the front to stay within the cap (the end of a log matters most). */
  cutBytes: number;
}

/** "840 bytes", "12.5 KB", "2.0 MB": a size as a person reads it. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function where(s: SavedLog): string {
  return `pod ${s.pod}, container ${s.container}${s.previous ? ', previous run' : ''}`;
}

/** The text the file is shared with in the DM (mrkdwn: a message's text). */
export function savedLogComment(s: SavedLog): string {
  const source = s.from === 'archive' ? 'the copy I archived when it failed' : 'read from the cluster now (no archived copy)';
  const cut = s.cutBytes ? ` Its first ${sizeText(s.cutBytes)} were left off to keep the file under the size limit.` : '';
  return `The log of ${nameCode(s.workload)} in project *${forMrkdwn(s.workload.project, 100)}*${onCluster(s.workload)} (${forMrkdwn(where(s), 300)}): ${source}, secrets redacted.${cut}`;
}

export function savedLogMessage(s: SavedLog): SlackMessage {
  const text = `I put the log of ${nameCode(s.workload)} into our DM as a file (${sizeText(s.bytes)}${s.cutBytes ? ', its end' : ''}).`;
  return { text, blocks: [section(`:floppy_disk: ${text}`)] };
}

/** A project member may read the log in Slack, but only its owner or an admin gets a copy to keep. */
export function notOwnerToSaveMessage(w: Workload): SlackMessage {
  const text = `Only the owner of ${nameCode(w)} or a bot admin can save its whole log as a file. \`/runai logs ${forMrkdwn(w.name, 120)}\` shows its last lines.`;
  return { text, blocks: [section(text)] };
}

export function noLogToSaveMessage(w: Workload, problem?: string): SlackMessage {
  const text = `I have no log of ${nameCode(w)} to save: ${problem ? forMrkdwn(problem, 300) : 'it is not in the archive and its pods are gone'}.`;
  return { text, blocks: [section(text)] };
}

/** The app was installed without files:write (before this button existed). */
export function cannotUploadMessage(): SlackMessage {
  const text = 'I cannot upload files: this Slack app lacks the `files:write` scope. An admin can add it (manifest.yml lists it) and reinstall the app.';
  return { text, blocks: [section(`:warning: ${text}`)] };
}
