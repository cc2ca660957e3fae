import { TextDecoder } from 'node:util';
import { lastRedraw, stripAnsi } from './escape.js';
import { NO_PREFIX_WRITER, splitPrefix } from './line-prefix.js';
import { LayerVote } from './layer-words.js';
import { learntEvidence, learntScoringModel, strongestLine, WordBag } from './learnt-words.js';
import { KEY_BEGIN, KEY_END } from './redact.js';
import {
  CAUSED_BY,
  CHAIN_MARKER,
  CUT_EXCEPTION_NAME,
  EXCEPTION_LINE,
  INFO_LEVEL,
  PREFILTER,
  RENDEZVOUS_FRAME,
  RETRY_NOTICE,
  TERMINATE_ANNOUNCES,
  TIER,
  TRACEBACK_HEADER,
  UNINDENTED_FRAME,
  WHAT_LINE,
  classifyExceptionLine,
  classifyLine,
  droppedForItsLevel,
  inRendezvous,
  isExceptionLine,
  raisedException,
  type Classification,
} from './signatures.js';
import type { Category, EvidenceItem, EvidenceRole, LogSource } from './types.js';

/**
 * The streaming scan for the first relevant error. It keeps no more of the log than a few
 * recent chunks (for context and the tail), so a log of any size is read in bounded memory.
 *
 * Speed comes from not looking at most lines: the prefilter (prefilter.ts) runs over a whole chunk
 * and jumps to the next line that could matter. Lines are examined one by one only while
 * something is open: a Python traceback waiting for its exception line, a private-key block
 * waiting for its END, or a candidate collecting the lines after it.
 *
 * Binary input is scanned as latin1 (one character per byte, so ASCII keywords match and a
 * split multi-byte character cannot break a line); the few lines kept are decoded as UTF-8
 * when the result is built.
 */

export const CONTEXT_BEFORE = 5;
export const CONTEXT_AFTER = 5;
export const TAIL_LINES = 30;
/** Longest piece of one line that is examined and kept. */
export const MAX_SEGMENT_CHARS = 4096;
/** An unterminated line longer than this is examined in pieces instead of being buffered. */
const MAX_CARRY_CHARS = 256 * 1024;
/** Recent text kept for context and the tail (beyond what TAIL_LINES needs). */
const HISTORY_CHARS = 1024 * 1024;
const TRACEBACK_MAX_LINES = 400;
const KEY_BLOCK_MAX_LINES = 400;
const KEY_RANGES_KEPT = 32;
const WRITERS_TRACKED = 256;
const BINARY_PROBE_CHARS = 8192;
/** Exceptions chained with one candidate that are kept as its evidence. */
const CHAIN_KEPT = 8;
/** A Java `Caused by:` belongs to the last exception of its writer this many lines before. */
const JAVA_TRACE_MAX_LINES = 2000;
const HEADER: Classification = { tier: TIER.secondary, category: 'other', summary: 'A Python traceback whose exception line is missing' };
/** kubectl's container state field (kubectl/pkg/describe/describe.go "Exit Code:\t%d"), or the pod's YAML. */
const DESCRIBED_EXIT_CODE = /^\s*(?:Exit Code|exitCode):\s+(\d{1,3})\s*$/;

/** A line as read: raw text (latin1 bytes in byte mode) with its number. */
export interface RawLine {
  text: string;
  lineNumber: number;
  /** Inside a private-key block: shown only as a marker. */
  secret: boolean;
}

export interface Candidate {
  classification: Classification;
  line: RawLine;
  source: LogSource;
  /** The writer (rank, pod) of the line, as splitPrefix names it. */
  writer: string;
  before: RawLine[];
  after: RawLine[];
  /** Exceptions chained with this one: the wrappers of a Python root cause, a Java exception's causes. */
  chain: EvidenceItem[];
}


export interface ScanOutcome {
  /** The best candidate: highest tier, earliest within it. */
  best: Candidate | null;
  /**
   * What the log says about the best candidate's failure: its line, the recognised errors right
   * after it from the same writer, its chained exceptions, and the log's last exception.
   */
  evidence: EvidenceItem[];
  tail: RawLine[];
  lineCount: number;
  bytes: number;
  binary: boolean;
  /** True when raw text is latin1-encoded bytes that must be decoded as UTF-8. */
  byteMode: boolean;
  /**
   * The last container exit code a pasted `kubectl describe pod` or `kubectl get pod -o yaml`
   * states (`Exit Code:    137`, `exitCode: 137`), for when the cluster gave no exit code.
   */
  describedExitCode?: number;
  /** The line that states it, with the lines around it where the tail still holds them. */
  describedExitCodeLine?: LineInContext;
  /** The words of the log's error-looking lines (learnt-words.ts), for training the learnt reading. */
  words: ReadonlySet<string>;
  /**
   * With no candidate line and a learnt guess, the line the guess rests on (the bag's line whose
   * words point at the guessed category most) and the lines around it where the tail still
   * holds them: shown as the line to read, never as a recognised error.
   */
  restingLine?: LineInContext;
}

/** A line of the log with the lines around it (as many as the tail still holds) and the source its prefix names. */
export interface LineInContext {
  line: RawLine;
  before: RawLine[];
  after: RawLine[];
  source: LogSource;
}

interface History {
  text: string;
  /** Number of the first line in text. */
  firstLine: number;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  let i = s.indexOf('\n', from);
  while (i !== -1 && i < to) {
    n++;
    i = s.indexOf('\n', i + 1);
  }
  return n;
}

const isSpace = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x1680 || code === 0x202f || code === 0x205f;

/**
 * `s` without its last partial word. A loop, not `s.replace(/\S*$/, '')`: that regex is tried
 * at every start of a long run and scans the run each time, so a 1 MB word followed by a
 * space took minutes.
 */
function dropTrailingWord(s: string): string {
  let end = s.length;
  while (end > 0 && !isSpace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** `s` with its first partial word replaced by an ellipsis, in linear time. */
function markLeadingWord(s: string): string {
  let start = 0;
  while (start < s.length && !isSpace(s.charCodeAt(start))) start++;
  return `…${s.slice(start)}`;
}

/** Cuts an over-long piece, dropping a partial word at the cut so no half token survives. */
function cutSegment(s: string): string {
  if (s.length <= MAX_SEGMENT_CHARS) return s;
  return `${dropTrailingWord(s.slice(0, MAX_SEGMENT_CHARS))}…`;
}

function evidenceItem(role: EvidenceRole, c: Classification, lineNumber: number): EvidenceItem {
  return {
    role,
    category: c.category,
    summary: c.summary,
    recognised: c.tier >= TIER.recognised,
    lineNumber,
    ...(c.kind && { kind: c.kind }),
    ...(c.transient !== undefined && { transient: c.transient }),
  };
}

const TERMINATED_TYPE = /terminate called after throwing an instance of '([^'\n]{1,300})'/;

/** The exception type a C++ terminate line names (`… an instance of 'std::bad_alloc'`), '' when cut. */
function terminatedType(seg: string): string {
  return TERMINATED_TYPE.exec(seg)?.[1] ?? '';
}

/**
 * Whether a what() line (WHAT_LINE) says more than the type its terminate line named: `what():  std::bad_alloc`
 * after `… an instance of 'std::bad_alloc'` repeats it (std::exception::what() of the standard
 * exceptions is their name), and the terminate line, first, stays the line.
 */
function whatSaysMore(whatLine: string, type: string): boolean {
  const said = whatLine.replace(WHAT_LINE, '').trim();
  return said !== '' && said !== type;
}

/**
 * The scanner's own patterns run on every examined line: each is tried only when the line holds
 * a string it cannot match without (`Traceback`; a chain marker starts with D or T; `Caused by:`;
 * `Exit Code` and `exitCode` share `xit`), which a flood of short error lines mostly lacks.
 */
function isTracebackHeader(rest: string): boolean {
  return rest.includes('Traceback') && TRACEBACK_HEADER.test(rest);
}

function isChainMarker(rest: string): boolean {
  const first = rest.charAt(0);
  return (first === 'D' || first === 'T') && CHAIN_MARKER.test(rest);
}

/** What a terminal would show of a line (its last redraw after carriage returns), cut. */
function displayOf(raw: string): string {
  return cutSegment(lastRedraw(raw));
}

/** A Python traceback's frame line, indented as Python prints it. */
const INDENTED_FRAME = /^\s{1,8}File "[^"\n]{1,2000}", line \d{1,9}, in /;

export class FirstErrorScanner {
  private readonly fixedSource: LogSource;
  private byteMode: boolean | undefined;
  private textDecoder: TextDecoder | undefined;
  private carry = '';
  /** A line was cut in pieces: the next piece starts inside a word. */
  private continuation = false;
  private lines = 0;
  private bytes = 0;
  private binary = false;
  private probed = 0;
  private history: History[] = [];
  private historyChars = 0;
  /** Per tier, the first candidate of that tier. */
  private readonly best: Array<Candidate | undefined> = [];
  /**
   * The first bare `Traceback (most recent call last):` whose exception never came (a cut log):
   * chosen only when no line says anything, since any line that states a cause is better.
   */
  private header: Candidate | undefined;
  /** An error relayed at info level was taken as a stand-in (at most one per log). */
  private relayedAtInfo = false;
  private awaiting: Candidate[] = [];
  /**
   * The last `raise Name(…)` source line, as the candidate it would be if the paste was cut
   * before its exception line (see raisedException), with the exception line it would print.
   * `inTraceback`: it was a line of an open traceback of its writer.
   */
  private raise: { candidate: Candidate; exception: string; inTraceback: boolean } | undefined;
  /**
   * The last candidate whose line ends with a colon, announcing that its cause follows
   * (transformers' "Failed to import X because of the following error (look up to see its
   * traceback):" and the error on the next line), and the number of the first line after it.
   */
  private announcer: { candidate: Candidate; next?: number; terminate?: { type: string } } | undefined;
  /**
   * Per writer, the candidate a later chained exception (Python after a chain marker, Java
   * `Caused by:`) belongs to. Only candidates: the chain of any other line is never shown.
   */
  private readonly pythonHeads = new Map<string, Candidate>();
  private readonly javaHeads = new Map<string, Candidate>();
  /** The last exception line of the log (two fields: one is set per traceback, on the hot path). */
  private lastExceptionLine = 0;
  /** The log's first recognised CUDA error or GPU out-of-memory, evidence of an NCCL error chosen before it. */
  private firstCudaError: { classification: Classification; lineNumber: number } | undefined;
  /**
   * The log's first secondary error that names a kind (a launcher's exit code -9, a watchdog's
   * timeout), not a mere logged error: evidence when another line was chosen, also when a logged
   * error line came first (the launcher's ERROR line whose wrapped tail says `return code = -9`).
   */
  private firstCascade: { classification: Classification; lineNumber: number } | undefined;
  private lastException: Classification | undefined;
  private describedExitCode: { code: number; text: string; lineNumber: number } | undefined;
  /** The layers the error-looking lines name, the last resort when nothing is recognised. */
  private readonly layerVote = new LayerVote();
  /** The words of the log's last error-looking lines, for the learnt reading (learnt-words.ts) when the vote gives none. */
  private readonly wordBag = new WordBag();
  /** Open Python tracebacks per writer (rank, pod), with whether they follow a chain marker. */
  private readonly tracebacks = new Map<string, { start: number; chained: boolean; header?: Candidate; afterFrame?: boolean; rendezvous?: boolean }>();
  private readonly chained = new Set<string>();
  private keyRanges: Array<{ start: number; end: number }> = [];
  private openKey: { start: number; end: number } | undefined;
  /**
   * The last line classified and its answer: a line repeated (a flood, one message on every rank)
   * is classified once, since the answer depends on the text alone and is never changed in place.
   * Kept per scan, so the text (a slice of a chunk) is let go with the scanner.
   */
  private lastClassified: { text: string; result: Classification | null } | undefined;
  /** Where the line being examined sits, for reading the lines before it. */
  private currentText = '';
  private currentStart = 0;
  private currentLine = 0;

  constructor(source: LogSource = {}) {
    this.fixedSource = source;
  }

  push(chunk: string | Uint8Array): void {
    const text = this.toRaw(chunk);
    if (text.length === 0) return;
    if (this.probed < BINARY_PROBE_CHARS) {
      if (text.slice(0, BINARY_PROBE_CHARS - this.probed).includes('\0')) this.binary = true;
      this.probed += text.length;
    }
    let start = 0;
    if (this.carry.length > 0) {
      // Only the line the previous chunk left open is joined, not the whole chunk: copying
      // every chunk once more would double the garbage and with it the peak memory.
      const firstNewline = text.indexOf('\n');
      if (firstNewline === -1) {
        this.keepOpenLine(this.carry + text);
        return;
      }
      const joined = this.carry + text.slice(0, firstNewline + 1);
      this.carry = '';
      this.scanAndRemember(joined);
      start = firstNewline + 1;
    }
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline < start) {
      this.keepOpenLine(text.slice(start));
      return;
    }
    this.carry = text.slice(lastNewline + 1);
    this.scanAndRemember(start === 0 && lastNewline === text.length - 1 ? text : text.slice(start, lastNewline + 1));
  }

  /** Text that ends at a newline: scanned, then kept for context and the tail. */
  private scanAndRemember(body: string): void {
    const firstLine = this.lines + 1;
    this.scanBody(body);
    this.remember(body, firstLine);
  }

  /** A line with no newline yet: buffered, or examined in pieces once it is too long. */
  private keepOpenLine(open: string): void {
    if (open.length > MAX_CARRY_CHARS) {
      this.examinePiece(open);
      this.carry = '';
    } else {
      this.carry = open;
    }
  }

  finish(): ScanOutcome {
    if (this.textDecoder) this.carry += this.textDecoder.decode();
    if (this.carry.length > 0) {
      const last = this.carry;
      this.carry = '';
      this.lines++;
      this.setCurrent(last, 0, this.lines);
      this.examineLine(last, this.lines);
      this.remember(`${last}\n`, this.lines);
    }
    this.standInForCutException();
    let best: Candidate | null = null;
    for (let tier = this.best.length - 1; tier >= 0 && !best; tier--) best = this.best[tier] ?? null;
    best ??= this.header ?? null;
    const tail = this.tail();
    // With no candidate line at all, the words of the lines the prefilter hit may still say what failed.
    const guess = best ? undefined : this.learntGuess();
    const restingLine = guess && this.restingLineOf(guess.category, tail);
    const guessEvidence = guess && restingLine ? { ...guess, lineNumber: restingLine.line.lineNumber } : guess;
    return {
      best,
      evidence: best ? this.evidenceOf(best) : [guessEvidence].filter((e) => e !== undefined),
      ...(restingLine && { restingLine }),
      tail,
      lineCount: this.lines,
      bytes: this.bytes,
      binary: this.binary,
      byteMode: this.byteMode === true,
      words: this.wordBag.words,
      ...(this.describedExitCode !== undefined && {
        describedExitCode: this.describedExitCode.code,
        describedExitCodeLine: this.inContext(this.describedExitCode.text, this.describedExitCode.lineNumber, tail),
      }),
    };
  }

  private toRaw(chunk: string | Uint8Array): string {
    if (typeof chunk === 'string') {
      this.byteMode ??= false;
      this.bytes += chunk.length;
      return this.byteMode ? Buffer.from(chunk, 'utf8').toString('latin1') : chunk;
    }
    this.byteMode ??= true;
    this.bytes += chunk.byteLength;
    if (this.byteMode) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      return buf.toString('latin1');
    }
    this.textDecoder ??= new TextDecoder('utf-8');
    return this.textDecoder.decode(chunk, { stream: true });
  }

  private examiningEveryLine(): boolean {
    return this.tracebacks.size > 0 || this.openKey !== undefined || this.awaiting.length > 0;
  }

  private scanBody(body: string): void {
    let pos = 0;
    const n = body.length;
    while (pos < n) {
      const jumped = !this.examiningEveryLine();
      if (jumped) {
        const start = PREFILTER.nextLine(body, pos);
        if (start === -1) {
          this.lines += countNewlines(body, pos, n);
          return;
        }
        this.lines += countNewlines(body, pos, start);
        pos = start;
      }
      const end = body.indexOf('\n', pos);
      this.lines++;
      this.setCurrent(body, pos, this.lines);
      let line = body.slice(pos, end);
      if (this.continuation) {
        line = markLeadingWord(line);
        this.continuation = false;
      }
      this.examineLine(line, this.lines, jumped);
      pos = end + 1;
    }
  }

  /** A piece of a line too long to buffer: examined now, its line continues in the next chunk. */
  private examinePiece(piece: string): void {
    const lineNumber = this.lines + 1;
    this.setCurrent(piece, 0, lineNumber);
    const text = this.continuation ? markLeadingWord(piece) : piece;
    this.examineLine(dropTrailingWord(text), lineNumber);
    this.continuation = true;
  }

  private setCurrent(text: string, start: number, lineNumber: number): void {
    this.currentText = text;
    this.currentStart = start;
    this.currentLine = lineNumber;
  }

  /** `prefiltered`: the line was reached because the prefilter matched it. */
  private examineLine(line: string, lineNumber: number, prefiltered = false): void {
    this.expireOpenState(lineNumber);
    if (this.openKey) this.openKey.end = lineNumber;
    if (this.awaiting.length > 0) this.feedAfterContext(line, lineNumber);
    if (this.announcer && this.announcer.next === undefined && lineNumber > this.announcer.candidate.line.lineNumber && line.trim() !== '') this.announcer.next = lineNumber;
    if (!line.includes('\r')) {
      if (line.length > 0) this.examineSegment(cutSegment(line), lineNumber, prefiltered);
      return;
    }
    for (const piece of line.split('\r')) {
      if (piece.length > 0) this.examineSegment(cutSegment(piece), lineNumber, false);
    }
  }

  private expireOpenState(lineNumber: number): void {
    for (const [writer, tb] of this.tracebacks) {
      if (lineNumber - tb.start > TRACEBACK_MAX_LINES) this.tracebacks.delete(writer);
    }
    if (this.openKey && lineNumber - this.openKey.start > KEY_BLOCK_MAX_LINES) this.openKey = undefined;
  }

  private examineSegment(seg: string, lineNumber: number, prefiltered: boolean): void {
    if (this.openKey) {
      if (KEY_END.test(seg)) this.openKey = undefined;
      return;
    }
    if (KEY_BEGIN.test(seg)) {
      const range = { start: lineNumber, end: lineNumber };
      this.keyRanges.push(range);
      if (this.keyRanges.length > KEY_RANGES_KEPT) this.keyRanges.shift();
      if (!KEY_END.test(seg.slice(seg.search(KEY_BEGIN) + 10))) this.openKey = range;
      return;
    }
    const clean = stripAnsi(seg);
    const hit = prefiltered || PREFILTER.test(clean);
    if (this.tracebacks.size === 0 && !hit) return;
    const { writer, source, rest } = splitPrefix(clean);
    // Info-level chatter ("0 errors, 0 failures") is not where a log fails; warnings are kept:
    // programs log real failures at warning level, and leaving them out read worse in cross-validation.
    if (hit && !INFO_LEVEL.test(rest)) this.wordBag.add(rest, lineNumber);
    const traceback = this.tracebacks.get(writer);
    if (traceback) {
      if (rest.trim() === '' || /^\s/.test(rest)) {
        // Frames and source lines; a raise among them stands in for the exception if the paste ends first.
        if (!traceback.rendezvous && RENDEZVOUS_FRAME.test(rest)) traceback.rendezvous = true;
        this.rememberRaise(rest, seg, lineNumber, source, writer, true);
        return;
      }
      // A frame wrapped by the terminal leaves a bare name on its own line (`raise_if_low_memory`).
      if (/^[A-Za-z_]\w*\s*$/.test(rest) && !EXCEPTION_LINE.test(rest)) return;
      // Frames whose indentation the paste lost, and the source line each is followed by.
      if (UNINDENTED_FRAME.test(rest)) {
        traceback.afterFrame = true;
        if (!traceback.rendezvous && RENDEZVOUS_FRAME.test(rest)) traceback.rendezvous = true;
        return;
      }
      if (traceback.afterFrame) {
        traceback.afterFrame = false;
        if (!EXCEPTION_LINE.test(rest)) return;
      }
      if (isTracebackHeader(rest)) {
        traceback.start = lineNumber;
        return;
      }
      // The paste was cut inside the exception's dotted name: the traceback never ended.
      if (CUT_EXCEPTION_NAME.test(rest)) return;
      this.tracebacks.delete(writer);
      if (traceback.header === this.header) this.header = undefined;
      // Where it was raised says whose network failed (signatures.ts inRendezvous).
      const found = traceback.rendezvous ? inRendezvous(classifyExceptionLine(rest)) : classifyExceptionLine(rest);
      this.vote(rest, lineNumber, hit);
      this.lastException = found;
      this.lastExceptionLine = lineNumber;
      if (traceback.chained) {
        // A later exception of the same failure: evidence of its head; as a line, at most secondary.
        const head = this.pythonHeads.get(writer);
        if (head) this.addToChain(head, found, lineNumber);
        this.consider({ ...found, tier: Math.min(found.tier, TIER.secondary) }, seg, lineNumber, source, writer);
        return;
      }
      this.track(this.pythonHeads, writer, this.consider(found, seg, lineNumber, source, writer));
      return;
    }
    if (!hit) return;
    if (isTracebackHeader(rest)) {
      if (this.tracebacks.size >= WRITERS_TRACKED) this.tracebacks.clear();
      const chained = this.chained.delete(writer);
      // Only while nothing better exists: once any line is a candidate, no header is ever chosen.
      const header = this.header || this.best.some(Boolean) ? undefined : this.candidate(HEADER, seg, lineNumber, source, writer);
      if (header) {
        this.header = header;
        this.awaiting.push(header);
      }
      this.tracebacks.set(writer, { start: lineNumber, chained, header });
      return;
    }
    if (isChainMarker(rest)) {
      if (this.chained.size >= WRITERS_TRACKED) this.chained.clear();
      this.chained.add(writer);
      return;
    }
    const cause = rest.includes('Caused by:') ? CAUSED_BY.exec(rest) : null;
    if (cause) {
      this.vote(rest, lineNumber, hit);
      this.considerJavaCause(classifyExceptionLine(rest.slice(cause[0].length)), seg, lineNumber, source, writer);
      return;
    }
    const exitCode = rest.includes('xit') ? DESCRIBED_EXIT_CODE.exec(rest) : null;
    if (exitCode) this.describedExitCode = { code: Number(exitCode[1]), text: seg, lineNumber };
    this.rememberRaise(rest, seg, lineNumber, source, writer, false);
    const found = this.classify(rest);
    if (!found) {
      // A wrapper that relays a job's output at info level (a training GUI, a workflow engine's
      // pod log) hides the job's error behind its own level. While nothing else is a candidate,
      // such an error stands in, as a secondary line that any real error outranks.
      if (!this.relayedAtInfo && !this.best.some(Boolean) && INFO_LEVEL.test(rest)) {
        const relayed = droppedForItsLevel(rest);
        if (relayed) {
          this.relayedAtInfo = true;
          this.consider({ ...relayed, tier: TIER.secondary }, seg, lineNumber, source, writer);
        }
      }
      return;
    }
    // The source line under a frame of a traceback whose header the paste cut (`    return
    // TCPStore(` after its `File "…", line 174, in _create_c10d_store`): code, not the error.
    if (/^\s/.test(rest) && this.afterIndentedFrame(writer)) return;
    this.vote(rest, lineNumber, hit);
    const candidate = this.consider(found, seg, lineNumber, source, writer);
    if (isExceptionLine(rest)) {
      this.lastException = found;
      this.lastExceptionLine = lineNumber;
      this.track(this.javaHeads, writer, candidate);
    }
  }

  /**
   * Java prints the outermost exception first and its causes after it (`Caused by:`), the root
   * last: the deepest cause takes its wrapper's place as the line when it counts as much, and
   * every exception of the chain is evidence of the one chosen.
   */
  private considerJavaCause(found: Classification, seg: string, lineNumber: number, source: LogSource, writer: string): void {
    this.lastException = found;
    this.lastExceptionLine = lineNumber;
    const head = this.javaHeads.get(writer);
    const wrapper = head && lineNumber - head.line.lineNumber <= JAVA_TRACE_MAX_LINES ? head : undefined;
    let candidate: Candidate | undefined;
    if (wrapper && this.best[wrapper.classification.tier] === wrapper && found.tier === wrapper.classification.tier) {
      candidate = this.candidate(found, seg, lineNumber, source, writer);
      this.best[found.tier] = candidate;
      this.awaiting.push(candidate);
    } else {
      if (wrapper) this.addToChain(wrapper, found, lineNumber);
      candidate = this.consider(found, seg, lineNumber, source, writer);
    }
    if (candidate && wrapper) candidate.chain = [...wrapper.chain, this.chainItem(wrapper.classification, wrapper.line.lineNumber)].slice(-CHAIN_KEPT);
    this.track(this.javaHeads, writer, candidate ?? wrapper);
  }

  private track(heads: Map<string, Candidate>, writer: string, head: Candidate | undefined): void {
    if (!head) {
      if (heads.size > 0) heads.delete(writer);
      return;
    }
    if (heads.size >= WRITERS_TRACKED && !heads.has(writer)) heads.clear();
    heads.set(writer, head);
  }

  private chainItem(c: Classification, lineNumber: number): EvidenceItem {
    return evidenceItem('chain', c, lineNumber);
  }

  private addToChain(head: Candidate, found: Classification, lineNumber: number): void {
    if (head.chain.length < CHAIN_KEPT) head.chain.push(this.chainItem(found, lineNumber));
  }

  private candidate(classification: Classification, seg: string, lineNumber: number, source: LogSource, writer: string): Candidate {
    return {
      classification,
      line: { text: seg, lineNumber, secret: false },
      source: { ...this.fixedSource, ...source },
      writer,
      before: this.linesBefore(CONTEXT_BEFORE),
      after: [],
      chain: [],
    };
  }

  /**
   * Records the line as the candidate of its tier if it is the first there; returns it then. A
   * line that announces its cause with a final colon gives its place to that cause when the line
   * right after it, from the same writer, is a recognised error of the same tier: the wrapper is
   * kept as the cause's chained evidence. C++'s `terminate called after throwing an instance of
   * 'T'` gives its place the same way to the `what():` line after it, recognised or not: the
   * terminate only says that a process aborted, its what() says why.
   */
  private consider(classification: Classification, seg: string, lineNumber: number, source: LogSource, writer: string): Candidate | undefined {
    if (!this.firstCudaError && classification.tier >= TIER.recognised && (classification.category === 'cuda' || classification.category === 'gpu-oom')) this.firstCudaError = { classification, lineNumber };
    if (!this.firstCascade && classification.tier === TIER.secondary && classification.category !== 'other') this.firstCascade = { classification, lineNumber };
    const existing = this.best[classification.tier];
    const announced = existing !== undefined && this.announcer?.candidate === existing && this.announcer.next === lineNumber && existing.writer === writer
      && this.takesAnnouncedPlace(classification, seg, this.announcer.terminate);
    if (existing && !announced) return undefined;
    const candidate = this.candidate(classification, seg, lineNumber, source, writer);
    if (existing && announced) candidate.chain = [...existing.chain, this.chainItem(existing.classification, existing.line.lineNumber)].slice(-CHAIN_KEPT);
    this.best[classification.tier] = candidate;
    this.awaiting.push(candidate);
    // C++'s terminate handler names the exception's type on one line and its what() on the next
    // (TERMINATE_ANNOUNCES): the what() is the failure, whatever it is taken for, unless it only repeats that type.
    this.announcer = classification.tier >= TIER.exception && /:\s*$/.test(seg) ? { candidate } : TERMINATE_ANNOUNCES.test(seg) ? { candidate, terminate: { type: terminatedType(seg) } } : undefined;
    return candidate;
  }

  /**
   * Whether the line right after an announcer takes its place: a recognised error of the same tier
   * does; after a C++ terminate, its what() line does, recognised or not, unless it only repeats
   * the type the terminate named.
   */
  private takesAnnouncedPlace(classification: Classification, seg: string, terminate: { type: string } | undefined): boolean {
    if (terminate) {
      const { rest } = splitPrefix(stripAnsi(seg));
      if (WHAT_LINE.test(rest)) return whatSaysMore(rest, terminate.type);
    }
    return classification.tier >= TIER.recognised;
  }

  private feedAfterContext(line: string, lineNumber: number): void {
    const shown = displayOf(line);
    for (const candidate of this.awaiting) {
      candidate.after.push({ text: shown, lineNumber, secret: this.isKeyLine(lineNumber) });
      if (RETRY_NOTICE.test(shown)) this.demoteRetried(candidate);
    }
    this.awaiting = this.awaiting.filter(
      (c) => c.after.length < CONTEXT_AFTER && (this.best[c.classification.tier] === c || this.header === c || this.raise?.candidate === c),
    );
  }

  /**
   * The evidence of a candidate's failure. Lines after it count when they are recognised errors
   * of the same writer: NCCL says "unhandled cuda error" and names the CUDA failure on a detail
   * line after it (`Last error:` … `Cuda failure 'out of memory'`).
   */
  private evidenceOf(best: Candidate): EvidenceItem[] {
    const c = best.classification;
    const items: EvidenceItem[] = [evidenceItem('line', c, best.line.lineNumber)];
    for (const after of best.after) {
      if (after.secret) continue;
      const { writer, rest } = splitPrefix(stripAnsi(after.text));
      // A line with no writer of its own is often the head of a message whose next lines a
      // launcher prefixed (`DistBackendError …` then `[rank0]: Last error:`): those count too.
      const detail = writer === best.writer || best.writer === NO_PREFIX_WRITER ? classifyLine(rest) : null;
      // A report (a line that only says a failure of its kind happened) takes the line naming that
      // failure as its detail even when the line is a cascade: the watchdog's "Some NCCL operations
      // have failed" and, after it, its "Watchdog caught collective operation timeout: WorkNCCL(…)".
      const ownKindNamed = c.kind === 'report' && detail?.category === c.category && detail.tier >= TIER.secondary && detail.kind !== 'report';
      if (detail && (detail.tier >= TIER.recognised || ownKindNamed)) items.push(evidenceItem('detail', detail, after.lineNumber));
    }
    items.push(...best.chain);
    // NCCL's error names the CUDA failure it hit in its own lines, from any writer, at any distance.
    const cuda = this.firstCudaError;
    if (c.category === 'nccl' && cuda && cuda.lineNumber > best.line.lineNumber) items.push(evidenceItem('cuda-after-nccl', cuda.classification, cuda.lineNumber));
    if (this.lastException && this.lastExceptionLine !== best.line.lineNumber) items.push(evidenceItem('last-exception', this.lastException, this.lastExceptionLine));
    // A launcher's report of how a process died (torchrun's exitcode -9, mpirun's signal 9) is
    // evidence even where an exception of no known kind outranked it as the line.
    const cascade = this.firstCascade;
    if (cascade && cascade.lineNumber !== best.line.lineNumber) items.push(evidenceItem('cascade', cascade.classification, cascade.lineNumber));
    const words = this.layerVote.winner();
    if (words) items.push(words);
    else if (c.category === 'other') {
      // Only a line of category other can give way to the guess (precedence.ts, 'learnt words'): skip the work otherwise.
      const learnt = this.learntGuess();
      if (learnt) items.push(learnt);
    }
    return items;
  }

  /** Remembers a `raise Name(…)` source line as the stand-in for an exception line that may never come. */
  private rememberRaise(rest: string, seg: string, lineNumber: number, source: LogSource, writer: string, inTraceback: boolean): void {
    const exception = raisedException(rest);
    if (exception === undefined) return;
    const candidate = this.candidate(HEADER, seg, lineNumber, source, writer);
    this.raise = { candidate, exception, inTraceback };
    this.awaiting.push(candidate);
  }

  /**
   * A paste cut inside a traceback, after a frame's `raise Name(…)` and before the exception line
   * it printed: that raise is the best line the log has of its failure, classified as the exception
   * it names (a bare `Traceback` header or a frame says nothing). It stands in only when the log
   * ended in that traceback: its writer's traceback is still open, or, with no header pasted, no
   * exception line came after it and every line after it is a frame or source line (indented).
   */
  private standInForCutException(): void {
    const raise = this.raise;
    if (!raise) return;
    const { candidate } = raise;
    const at = candidate.line.lineNumber;
    const open = this.tracebacks.get(candidate.writer);
    if (raise.inTraceback ? open === undefined || open.start > at : !this.onlySourceAfter(at)) return;
    const found = classifyExceptionLine(raise.exception);
    const existing = this.best[found.tier];
    if (existing && existing.line.lineNumber < at) return;
    candidate.classification = found;
    this.best[found.tier] = candidate;
    this.layerVote.add(raise.exception, at);
  }

  /** No exception line after line `at`, which is within the tail, and only indented or blank lines after it. */
  private onlySourceAfter(at: number): boolean {
    if (this.lastExceptionLine >= at) return false;
    const tail = this.tail();
    if (tail.length === 0 || tail[0].lineNumber > at) return false;
    return tail.every((l) => {
      if (l.lineNumber <= at) return true;
      const { rest } = splitPrefix(stripAnsi(l.text));
      return rest.trim() === '' || /^\s/.test(rest);
    });
  }

  /** An error followed by "retrying" did not end the run: it may only stand in for nothing. */
  private demoteRetried(candidate: Candidate): void {
    const { tier } = candidate.classification;
    if (tier === TIER.mention || this.best[tier] !== candidate) return;
    this.best[tier] = undefined;
    const existing = this.best[TIER.mention];
    if (!existing || existing.line.lineNumber > candidate.line.lineNumber) {
      candidate.classification = { ...candidate.classification, tier: TIER.mention };
      this.best[TIER.mention] = candidate;
    }
  }

  /** The bag's line a guess of `category` rests on, with the tail's lines around it when the tail still holds it. */
  private restingLineOf(category: Category, tail: readonly RawLine[]): LineInContext | undefined {
    const lines = this.wordBag.lines();
    const at = strongestLine(learntScoringModel(), category, lines.map((l) => l.text));
    if (at === undefined) return undefined;
    const { text, lineNumber } = lines[at];
    return this.inContext(text, lineNumber, tail);
  }

  /** Line `lineNumber` (whose text the caller kept) with the tail's lines around it when the tail still holds it. */
  private inContext(text: string, lineNumber: number, tail: readonly RawLine[]): LineInContext {
    const inTail = tail.findIndex((l) => l.lineNumber === lineNumber);
    // The caller may keep a line without its prefix; the tail keeps it whole, with the pod or rank it names.
    if (inTail === -1) return { line: { text, lineNumber, secret: this.isKeyLine(lineNumber) }, before: [], after: [], source: { ...this.fixedSource } };
    const line = tail[inTail];
    return {
      line,
      before: tail.slice(Math.max(0, inTail - CONTEXT_BEFORE), inTail),
      after: tail.slice(inTail + 1, inTail + 1 + CONTEXT_AFTER),
      source: { ...this.fixedSource, ...splitPrefix(stripAnsi(line.text)).source },
    };
  }

  private classify(rest: string): Classification | null {
    if (this.lastClassified?.text !== rest) this.lastClassified = { text: rest, result: classifyLine(rest) };
    return this.lastClassified.result;
  }

  /** The learnt model's reading of the bag's words, when it is sure enough (learnt-words.ts). */
  private learntGuess(): EvidenceItem | undefined {
    return learntEvidence(learntScoringModel(), this.wordBag.words);
  }

  /** An error-looking line: its layers vote, and its words go in the bag for the learnt reading. */
  private vote(rest: string, lineNumber: number, hit: boolean): void {
    this.layerVote.add(rest, lineNumber);
    // A line the prefilter hit is in the bag already.
    if (!hit) this.wordBag.add(rest, lineNumber);
  }

  private isKeyLine(lineNumber: number): boolean {
    return this.keyRanges.some((r) => lineNumber >= r.start && lineNumber <= r.end);
  }

  /** Whether the line before the current one is a traceback's frame line, of the same writer. */
  private afterIndentedFrame(writer: string): boolean {
    const previous = this.linesBefore(1)[0];
    if (!previous) return false;
    const split = splitPrefix(stripAnsi(previous.text));
    return split.writer === writer && INDENTED_FRAME.test(split.rest);
  }

  /** Up to `count` lines before the current one, from the current text and then history. */
  private linesBefore(count: number): RawLine[] {
    const out: RawLine[] = [];
    let text = this.currentText;
    let end = this.currentStart - 1; // index of the newline ending the previous line
    let lineNumber = this.currentLine - 1;
    let h = this.history.length;
    while (out.length < count && lineNumber >= 1) {
      if (end < 0) {
        if (h === 0) break;
        text = this.history[--h].text;
        end = text.length - 1;
        continue;
      }
      const start = end > 0 ? text.lastIndexOf('\n', end - 1) + 1 : 0;
      out.push({ text: displayOf(text.slice(start, end)), lineNumber, secret: this.isKeyLine(lineNumber) });
      lineNumber--;
      end = start - 1;
    }
    return out.reverse();
  }

  private remember(body: string, firstLine: number): void {
    this.history.push({ text: body, firstLine });
    this.historyChars += body.length;
    // Drop the oldest text once the rest still holds the tail, or when it grows too big.
    while (this.history.length > 1) {
      const oldest = this.history[0];
      const newerLines = this.lines + 1 - this.history[1].firstLine;
      if (newerLines < TAIL_LINES + CONTEXT_BEFORE && this.historyChars <= HISTORY_CHARS) break;
      this.history.shift();
      this.historyChars -= oldest.text.length;
    }
  }

  private tail(): RawLine[] {
    const out: RawLine[] = [];
    let lineNumber = this.lines;
    for (let h = this.history.length - 1; h >= 0 && out.length < TAIL_LINES; h--) {
      const text = this.history[h].text;
      let end = text.length - 1;
      while (end >= 0 && out.length < TAIL_LINES) {
        const start = end > 0 ? text.lastIndexOf('\n', end - 1) + 1 : 0;
        out.push({ text: displayOf(text.slice(start, end)), lineNumber, secret: this.isKeyLine(lineNumber) });
        lineNumber--;
        end = start - 1;
      }
    }
    return out.reverse();
  }
}
