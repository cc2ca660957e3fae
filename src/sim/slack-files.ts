/**
 * Slack's file upload flow as the simulation serves it (files.upload was retired in November
 * 2025; docs.slack.dev/reference/methods/files.getUploadURLExternal and
 * files.completeUploadExternal):
 *
 * 1. `files.getUploadURLExternal` (files:write; `filename` and `length` required, a `length`
 *    of 0 or none answers `missing_argument`) answers an `upload_url` and a `file_id`.
 * 2. The file's bytes are POSTed to the upload URL, raw or as a multipart form; Slack answers
 *    HTTP 200 with "OK - <bytes>". The URL is pre-signed: no token is asked for.
 * 3. `files.completeUploadExternal` (files:write; `files` required: `[{id, title?}]`) finishes
 *    the upload and, with `channel_id`, shares the file there with `initial_comment` as the
 *    message text. It may be called once per file; an upload not completed is discarded.
 *
 * Checked against the method pages (docs.slack.dev/reference/methods/…): both methods are Tier 4
 * (slack-tiers.ts); getUploadURLExternal requires `filename` and `length` and documents
 * `missing_argument` for a length of 0; completeUploadExternal requires `files`, takes
 * `channel_id` optionally (without it the file stays private, as here) and refuses a channel the
 * bot may not post in as chat.postMessage does (membershipRefusal).
 *
 * Where the docs name no error, the simulation answers the names a client is most likely to
 * meet and says so: `file_not_found` for an id it never handed out, one already completed, or
 * one whose bytes never arrived; `invalid_arguments` for a malformed `files`.
 */
import { randomBytes } from 'node:crypto';

export interface SimulatedFile {
  id: string;
  filename: string;
  /** The length the app declared in step 1. */
  length: number;
  /** What arrived at the upload URL (undefined until then). */
  bytes?: Buffer;
  title?: string;
  /** Where it was shared by completeUploadExternal, and the message that carries it. */
  channel?: string;
  ts?: string;
  initialComment?: string;
  completed: boolean;
}

export class SlackFiles {
  private readonly byId = new Map<string, SimulatedFile>();
  private readonly byToken = new Map<string, string>();
  private seq = 0;

  reserve(filename: string, length: number): { file: SimulatedFile; token: string } {
    const id = `F${String(++this.seq).padStart(9, '0')}`;
    const token = randomBytes(12).toString('hex');
    const file: SimulatedFile = { id, filename, length, completed: false };
    this.byId.set(id, file);
    this.byToken.set(token, id);
    return { file, token };
  }

  /** A POST to the upload URL: 200 "OK - n" when the token is one handed out, else 404. */
  receive(token: string, body: Buffer, contentType: string | undefined): { status: number; text: string } {
    const file = this.byId.get(this.byToken.get(token) ?? '');
    if (!file || file.completed) return { status: 404, text: 'not_found' };
    file.bytes = contentType?.startsWith('multipart/form-data') ? firstFilePart(body, contentType) ?? body : body;
    return { status: 200, text: `OK - ${file.bytes.length}` };
  }

  get(id: string): SimulatedFile | undefined {
    return this.byId.get(id);
  }

  /** Every file completed so far, oldest first. */
  completed(): SimulatedFile[] {
    return [...this.byId.values()].filter((f) => f.completed);
  }
}

/** The content of the first part of a multipart form that has a filename (curl's `-F file=@x`). */
function firstFilePart(body: Buffer, contentType: string): Buffer | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const headersEnd = body.indexOf('\r\n\r\n', at);
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (headersEnd === -1 || next === -1) return undefined;
    const headers = body.subarray(at, headersEnd).toString('latin1');
    if (/filename=/i.test(headers)) return body.subarray(headersEnd + 4, next - 2);
    at = next;
  }
  return undefined;
}
