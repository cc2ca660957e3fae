/**
 * Redacts a log as it streams, line by line, through the text pipeline's file destination
 * (src/triage/sanitize.ts: strip control codes, then redact): chunks are cut anywhere by the
 * network, so a secret split across two chunks is only seen whole once its line is. A
 * private-key block spans many lines, so the state "inside a key" is carried from line to
 * line (and so from chunk to chunk). Memory is bounded by the longest line kept
 * (MAX_LINE_BYTES), never by the log; time is linear in the log (a long line is redacted in
 * bounded pieces).
 *
 * Lines that need no redaction are passed on as the original bytes, so an archive differs from
 * the log only where a secret was removed (invalid UTF-8, CRLF, colour codes and all).
 */
import { KeyBlockState } from '../triage/redact.js';
import { forFile } from '../triage/sanitize.js';

/** A line longer than this (a progress bar without newlines, a binary blob) is cut and redacted in pieces. */
export const MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;
const NOTHING: Buffer[] = [];

export class LineRedactor {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly keys = new KeyBlockState();

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
    const shown = forFile(bytes.subarray(0, bodyEnd).toString('utf8'), this.keys);
    if (shown === undefined) return [bytes];
    if (shown === null) return NOTHING;
    return [Buffer.from(shown + bytes.subarray(bodyEnd).toString('latin1'))];
  }
}
