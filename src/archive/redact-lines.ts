/**
 * Redacts a log as it streams, line by line, with triage's line-level `redact`: chunks are cut
 * anywhere by the network, so a secret split across two chunks is only seen whole once its line
 * is. A private-key block spans many lines, so the state "inside a key" is carried from line to
 * line (and so from chunk to chunk). Memory is bounded by the longest line kept
 * (MAX_LINE_BYTES), never by the log.
 *
 * Lines that need no redaction are passed on as the original bytes, so an archive differs from
 * the log only where a secret was removed (invalid UTF-8, CRLF and all).
 */
import { marker, redact } from '../triage/redact.js';

/** A line longer than this (a progress bar without newlines, a binary blob) is cut and redacted in pieces. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** A PEM key body is under 100 lines even for RSA-8192; past this the block is taken as ended. */
const MAX_KEY_LINES = 200;

const KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
/** What may sit inside a PEM block: base64 lines, blank lines, RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`). */
const KEY_BODY = /^\s*(?:[A-Za-z0-9+/=]*|[A-Za-z-]+:[^\n]*)\s*$/;

const NEWLINE = 0x0a;
const CR = 0x0d;
const NOTHING: Buffer[] = [];

export class LineRedactor {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private inKey = false;
  private keyLines = 0;

  /**
   * Takes the next chunk; returns what can be written now (complete lines, redacted). The
   * buffers returned may share the chunk's memory: write them before pushing the next chunk.
   */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl + 1);
      const line = this.pendingBytes ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      out.push(...this.line(line));
      start = nl + 1;
    }
    if (start < chunk.length) {
      // Copied: the caller's stream may reuse its buffer for the next chunk.
      const rest = Buffer.from(chunk.subarray(start));
      this.pending.push(rest);
      this.pendingBytes += rest.length;
      if (this.pendingBytes >= MAX_LINE_BYTES) out.push(...this.end());
    }
    return out;
  }

  /** The log ended (or was cut): the last line, which has no newline. */
  end(): Buffer[] {
    if (!this.pendingBytes) return NOTHING;
    const line = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return this.line(line);
  }

  private line(bytes: Buffer): Buffer[] {
    let bodyEnd = bytes.length;
    if (bodyEnd && bytes[bodyEnd - 1] === NEWLINE) bodyEnd--;
    if (bodyEnd && bytes[bodyEnd - 1] === CR) bodyEnd--;
    const eol = bytes.subarray(bodyEnd).toString('latin1');
    const text = bytes.subarray(0, bodyEnd).toString('utf8');

    if (this.inKey) {
      const end = KEY_END.exec(text);
      if (end) {
        this.inKey = false;
        const rest = text.slice(end.index + end[0].length);
        return rest.trim() ? [Buffer.from(redact(rest) + eol)] : NOTHING;
      }
      if (KEY_BODY.test(text) && ++this.keyLines <= MAX_KEY_LINES) return NOTHING;
      // Not key material: the block was cut short; this line is an ordinary one again.
      this.inKey = false;
    }

    const begin = KEY_BEGIN.exec(text);
    if (begin && !KEY_END.test(text.slice(begin.index))) {
      this.inKey = true;
      this.keyLines = 0;
      return [Buffer.from(redact(text.slice(0, begin.index)) + marker('private-key') + eol)];
    }
    const redacted = redact(text);
    return redacted === text ? [bytes] : [Buffer.from(redacted + eol)];
  }
}
