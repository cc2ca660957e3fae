/**
 * "Save the whole log": the failed workload's log, redacted, uploaded as a file into the DM of
 * the person who clicked — its owner, or an admin (a project member may read the log in Slack,
 * but a copy to keep is its owner's). The text is the archive's copy of the failed container's
 * log when there is one, else the log as the cluster still holds it; either way it is redacted
 * again on the way (the archive of an older version, or the live log, may hold what the
 * archive's pass would have caught) and cut to its last SAVE_LOG_MAX_BYTES.
 *
 * Slack's current upload flow (files.upload was retired in November 2025): the WebClient's
 * filesUploadV2 calls files.getUploadURLExternal, POSTs the bytes to the URL it answers, and
 * finishes with files.completeUploadExternal into the DM (files:write).
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import type { Workload } from '../model.js';
import { MANIFEST_FILE } from '../archive/archive.js';
import { logFileName, safePathComponent, workloadArchiveDir } from '../archive/paths.js';
import { LineRedactor } from '../archive/redact-lines.js';
import { describeKubeError } from '../cluster/kinds.js';
import { withTimeout } from '../lib/timeout.js';
import type { SlackMessage } from '../messages/blocks.js';
import {
  cannotUploadMessage, noLogToSaveMessage, notOwnerToSaveMessage, savedLogComment, savedLogMessage, type SavedLog,
} from '../messages/save-log.js';
import { logTarget } from './commands/logs.js';
import { CLUSTER_TIMEOUT_MS, findByRef, withCurrentPods, type Asker, type parseRef } from './commands/context.js';

/** The file keeps the end of the log up to this size: a DM attachment, not the archive. */
export const SAVE_LOG_MAX_BYTES = 2 * 1024 * 1024;
/** Read from the cluster when there is no archived copy: enough lines that the cap, not the read, decides. */
const LIVE_TAIL_LINES = 100_000;
const LIVE_LIMIT_BYTES = 16 * 1024 * 1024;

interface LogSource {
  pod: string;
  container: string;
  previous: boolean;
  from: 'archive' | 'cluster';
  /** The last bytes of the log (at most SAVE_LOG_MAX_BYTES, plus the line they start inside). */
  bytes: Buffer;
  /** Bytes of the log before `bytes`. */
  before: number;
}

export async function saveLogAnswer(asker: Asker, ref: ReturnType<typeof parseRef>): Promise<SlackMessage> {
  const lookup = await findByRef(asker, ref);
  if ('reply' in lookup) return lookup.reply;
  const { found } = lookup;
  if (found.reason === 'project member') return notOwnerToSaveMessage(found.workload);
  let workload = found.workload;
  let podProblem: string | undefined;
  try {
    workload = await withCurrentPods(asker.deps, found);
  } catch (err) {
    podProblem = `its pods could not be read (${describeKubeError(err)})`;
  }
  const source = (await archivedLog(asker, workload)) ?? (podProblem ? undefined : await liveLog(asker, workload));
  if (!source) return noLogToSaveMessage(workload, podProblem);
  const { text, cutBytes } = redactedTail(source);
  if (!text.length) return noLogToSaveMessage(workload, 'its log is empty');
  const saved: SavedLog = { workload, pod: source.pod, container: source.container, previous: source.previous, from: source.from, bytes: text.length, cutBytes };
  try {
    await uploadToDm(asker.client, asker.userId, text, saved);
  } catch (err) {
    if ((err as { data?: { error?: string } }).data?.error === 'missing_scope') return cannotUploadMessage();
    throw err;
  }
  return savedLogMessage(saved);
}

/** The archive's copy of the failed container's log (else its first listed), when the archive holds one. */
async function archivedLog(asker: Asker, workload: Workload): Promise<LogSource | undefined> {
  const dir = asker.deps.config.archive?.dir;
  if (!dir) return undefined;
  const path = workloadArchiveDir(dir, workload);
  let files: Array<{ file: string; pod: string; container: string; previous?: boolean; init?: boolean }>;
  try {
    files = (JSON.parse(await readFile(join(path, MANIFEST_FILE), 'utf8')) as { files?: typeof files }).files ?? [];
  } catch {
    return undefined;
  }
  const target = logTarget(workload);
  const wanted = target && logFileName(target.pod.name, target.container, target.previous);
  const entry = files.find((f) => f.file === wanted) ?? files.find((f) => !f.init) ?? files[0];
  // The manifest names files the archive wrote; a name is still made safe before it is joined.
  if (!entry || safePathComponent(entry.file) !== entry.file) return undefined;
  try {
    const { bytes, before } = await fileTail(join(path, entry.file), SAVE_LOG_MAX_BYTES);
    return { pod: entry.pod, container: entry.container, previous: entry.previous === true, from: 'archive', bytes, before };
  } catch {
    return undefined;
  }
}

/** The last `max` bytes of a file (and the size before them), read without loading the rest. */
async function fileTail(path: string, max: number): Promise<{ bytes: Buffer; before: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - max);
    const bytes = Buffer.alloc(size - start);
    await handle.read(bytes, 0, bytes.length, start);
    return { bytes, before: start };
  } finally {
    await handle.close();
  }
}

/** The failed container's log as the cluster holds it now. */
async function liveLog(asker: Asker, workload: Workload): Promise<LogSource | undefined> {
  const target = logTarget(workload);
  if (!target) return undefined;
  const text = await withTimeout(
    (signal) => asker.deps.readerFor(workload.cluster).readLog({
      namespace: workload.namespace,
      pod: target.pod.name,
      container: target.container,
      previous: target.previous || undefined,
      tailLines: LIVE_TAIL_LINES,
      limitBytes: LIVE_LIMIT_BYTES,
    }, signal),
    CLUSTER_TIMEOUT_MS,
    'reading the log',
  );
  const all = Buffer.from(text, 'utf8');
  const start = Math.max(0, all.length - SAVE_LOG_MAX_BYTES);
  return { pod: target.pod.name, container: target.container, previous: target.previous, from: 'cluster', bytes: all.subarray(start), before: start };
}

/**
 * The tail redacted line by line (the archive's own redactor), starting at a whole line, and at
 * most SAVE_LOG_MAX_BYTES. A cut tail may begin inside a private-key block whose first line is
 * gone; so the partial first line is dropped, and a line the redactor cannot place is its problem.
 */
export function redactedTail(source: Pick<LogSource, 'bytes' | 'before'>): { text: Buffer; cutBytes: number } {
  let bytes = source.bytes;
  let cutBytes = source.before;
  if (cutBytes > 0) {
    const nl = bytes.indexOf(0x0a);
    const drop = nl === -1 ? bytes.length : nl + 1;
    bytes = bytes.subarray(drop);
    cutBytes += drop;
  }
  const redactor = new LineRedactor();
  let text = Buffer.concat([...redactor.push(bytes), ...redactor.end()]);
  // Redaction only shortens or keeps a line's length, mostly; a marker longer than a tiny secret is cut from the front.
  if (text.length > SAVE_LOG_MAX_BYTES) {
    const over = text.length - SAVE_LOG_MAX_BYTES;
    const nl = text.indexOf(0x0a, over);
    const drop = nl === -1 ? text.length : nl + 1;
    text = text.subarray(drop);
    cutBytes += drop;
  }
  return { text, cutBytes };
}

async function uploadToDm(client: WebClient, userId: string, text: Buffer, saved: SavedLog): Promise<void> {
  const { channel } = await client.conversations.open({ users: userId });
  const base = `${safePathComponent(saved.workload.name)}.${safePathComponent(saved.container)}${saved.previous ? '.previous' : ''}`;
  await client.filesUploadV2({
    channel_id: channel!.id!,
    file: text,
    filename: `${base}.log`,
    title: `${saved.workload.name} log`.slice(0, 200),
    initial_comment: savedLogComment(saved),
  });
}
