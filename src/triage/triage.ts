import { SAFE_RECOVERY } from '../lifecycle/states.js';
import { adviceFor, categoryLabel } from './categories.js';
import { decideCategory, type Decision } from './classify.js';
import { cutLine, stripAnsi } from './escape.js';
import { CONTEXT_AFTER, CONTEXT_BEFORE, FirstErrorScanner, type Candidate, type LineInContext, type RawLine, type ScanOutcome } from './first-error.js';
import { splitPrefix } from './line-prefix.js';
import { givesPlaceToDetail, TIER } from './precedence.js';
import { marker } from './redact.js';
import { forCodeBlock, safeLine } from './sanitize.js';
import { announcesDetail, classifyLine, droppedForItsLevel, isExceptionLine } from './signatures.js';
import type { FirstError, LogSource, TriageHints, TriageResult } from './types.js';

/** Room for the snippet inside a 3000-character section, with its fences and a heading. */
export const SNIPPET_MAX_CHARS = 2500;
const ERROR_LINE_MAX_CHARS = 1000;
const CONTEXT_LINE_MAX_CHARS = 500;

/** A kept line as it may be shown: decoded, cleaned, redacted, cut. */
function showLine(line: RawLine, byteMode: boolean, maxChars: number): string {
  if (line.secret) return marker('private-key');
  const text = byteMode ? Buffer.from(line.text, 'latin1').toString('utf8') : line.text;
  return cutLine(safeLine(text), maxChars);
}

function nonEmptySource(source: LogSource): LogSource | undefined {
  return Object.keys(source).length > 0 ? source : undefined;
}

/** The line shown as the error, with up to CONTEXT_BEFORE/AFTER of the lines `around` it (which hold it). */
function shownError(shown: RawLine, around: readonly RawLine[], source: LogSource, byteMode: boolean): FirstError {
  const at = around.indexOf(shown);
  const context = around.slice(Math.max(0, at - CONTEXT_BEFORE), at + CONTEXT_AFTER + 1);
  const named = nonEmptySource(source);
  return {
    line: showLine(shown, byteMode, ERROR_LINE_MAX_CHARS),
    lineNumber: shown.lineNumber,
    ...(named && { source: named }),
    context: context.map((l) => showLine(l, byteMode, CONTEXT_LINE_MAX_CHARS)),
    contextStartLine: context[0].lineNumber,
  };
}

/** A kept line without its rank or pod prefix and colours, as the scanner classified it. */
const restOf = (line: RawLine): string => splitPrefix(stripAnsi(line.text)).rest;

/** The kept line after the chosen one with this number. */
const lineAfter = (best: Candidate, lineNumber: number | undefined): RawLine | undefined => best.after.find((l) => l.lineNumber === lineNumber);

/**
 * When Kubernetes' record of how the container ended decided (a termination reason) over a
 * lesser line of another kind, the line just after it that states that record in words: a
 * pasted description's `State: Waiting / Reason: CrashLoopBackOff` comes before its
 * `Last State: Terminated / Reason: OOMKilled`, and the second says what happened.
 */
function statedFact(best: Candidate, decision: Decision): RawLine | undefined {
  if (decision.decidedBy !== 'termination-reason' || best.classification.tier > TIER.secondary || best.classification.category === decision.category) return undefined;
  return best.after.find((l) => !l.secret && classifyLine(restOf(l))?.category === decision.category);
}

/** PyTorch's `Last error:` header under an NCCL error (NCCLUtils.hpp getNcclErrorDetailStr). */
const LAST_ERROR = /^\s*Last error:\s*$/;

/**
 * Under an NCCL error, the line after its `Last error:` header when that line decided the
 * category or names the same kind: NCCL's error code (`internal error`, `unhandled system
 * error`) says which kind of call failed, its last error says what (`Connection closed by
 * remote peer`, the /dev/shm segment it could not create).
 */
function ncclLastError(best: Candidate, decision: Decision): RawLine | undefined {
  if (best.classification.category !== 'nccl') return undefined;
  const header = best.after.find((l) => LAST_ERROR.test(restOf(l)));
  if (!header) return undefined;
  const detail = decision.evidence.find((e) => e.role === 'detail' && e.lineNumber !== undefined && e.lineNumber > header.lineNumber && (e === decision.evidence[0] || e.category === 'nccl'));
  return detail && lineAfter(best, detail.lineNumber);
}

/**
 * The line where the chosen error was first said: a recognised error is often logged first at
 * warning or info level (a client's retry warning, a logger's stdout copy, the device plugin's
 * info line before its fatal one) and repeated as an error a few lines later. The first of the
 * lines before it that the level filter dropped and the same signature recognises; else the line.
 */
function firstSaid(best: Candidate): RawLine {
  const chosen = best.classification;
  if (chosen.tier < TIER.recognised) return best.line;
  const same = (l: RawLine): boolean => {
    const c = l.secret ? null : droppedForItsLevel(restOf(l));
    return c?.category === chosen.category && c.summary === chosen.summary;
  };
  return best.before.find(same) ?? best.line;
}

/** pydantic's ValidationError header: `1 validation error for ParallelConfig`. */
const VALIDATION_HEADER = /\bvalidation errors? for [A-Za-z_]/;
/**
 * A validator's own exception as pydantic-core prints it under the field it checked (its
 * ValueError as `Value error, …`, its AssertionError as `Assertion failed, …`; pydantic-core
 * src/errors/types.rs): the application's sentence, which the header only counts.
 */
const VALIDATOR_RAISED = /^\s+(?:Value error|Assertion failed), \S/;
const VALIDATION_DETAIL_LINES = 3;

/**
 * Under pydantic's header, the line where one of its validators says what is wrong (vLLM's
 * configs are pydantic models: `Value error, Tensor parallel size (2) cannot be larger than the
 * number of available GPUs (1).`). pydantic's own type checks (`Input should be a valid
 * integer`) say less than the header that names the model, and leave it its place.
 */
function validatorsError(best: Candidate): RawLine | undefined {
  if (!VALIDATION_HEADER.test(restOf(best.line))) return undefined;
  return best.after.slice(0, VALIDATION_DETAIL_LINES).find((l) => !l.secret && VALIDATOR_RAISED.test(restOf(l)));
}

/**
 * An error serialised as a record prints its type and its message as two fields: a notebook's
 * copied error output (`"name": "TracerBoolConversionError",` then `"message": "Attempted…`, as
 * VS Code gives it; Jupyter's nbformat says `ename` and `evalue`). The message says what failed.
 */
const ERROR_NAME_FIELD = /^\s*"(?:name|ename)":\s*"[\w.]{1,200}",?\s*$/;
const ERROR_MESSAGE_FIELD = /^\s*"(?:message|evalue)":\s*"\S/;

function recordsMessage(best: Candidate): RawLine | undefined {
  if (!ERROR_NAME_FIELD.test(restOf(best.line))) return undefined;
  const next = best.after[0];
  return next && !next.secret && next.lineNumber === best.line.lineNumber + 1 && ERROR_MESSAGE_FIELD.test(restOf(next)) ? next : undefined;
}

/**
 * A failed mount's report as Kubernetes' mounter writes it (kubernetes/mount-utils
 * mount_linux.go: "mount failed: %v\nMounting command: %s\nMounting arguments: %s\nOutput: %s"):
 * when the failure itself states only mount's exit status, its `Output:` is the mount program's
 * own error (`mount.nfs: access denied by server`), which says why. systemd-run's scope notice
 * comes first in that output (the error is on the line after it), and a containerised mounter
 * nests a second report in the first's output: the first output that is not itself a wrapper,
 * within the lines kept after the failure.
 */
const ONLY_EXIT_STATUS = /mount failed: exit status \d{1,3}\s*$/;
const MOUNT_REPORT_LINE = /^\s*(?:Mounting (?:command|arguments):|Output:|[Mm]ount failed:)/;
const MOUNTING_COMMAND = /^\s*Mounting command:/;
const MOUNT_OUTPUT = /^\s*Output:\s*(.*)$/;
const SCOPE_NOTICE = /^Running scope as unit\b/;
const NESTED_REPORT = /^[Mm]ount failed: /;

function mountersOutput(best: Candidate): RawLine | undefined {
  if (best.classification.category !== 'volume-mount' || !ONLY_EXIT_STATUS.test(restOf(best.line))) return undefined;
  let previous = best.line.lineNumber;
  let commandSeen = false;
  let afterScopeNotice = false;
  for (const line of best.after) {
    const rest = restOf(line);
    if (line.secret || line.lineNumber !== previous + 1) return undefined;
    previous = line.lineNumber;
    if (!MOUNT_REPORT_LINE.test(rest)) return afterScopeNotice && rest.trim() !== '' ? line : undefined;
    if (MOUNTING_COMMAND.test(rest)) commandSeen = true;
    const output = commandSeen ? MOUNT_OUTPUT.exec(rest) : null;
    if (!output) continue;
    const said = output[1].trim();
    afterScopeNotice = SCOPE_NOTICE.test(said);
    if (said !== '' && !afterScopeNotice && !NESTED_REPORT.test(said)) return line;
  }
  return undefined;
}

/** A line that breaks off after a comma: the sentence goes on in the next line. */
const BROKEN_OFF = /,\s*$/;

/**
 * The exception line whose message the chosen line continues: an exception printed with its
 * message wrapped after a comma (vLLM's `ValueError: To serve at least one request with the
 * model's max seq len (1048576),` and the amounts on the next line). People look at the
 * exception's own line; the words that were recognised are the rest of its sentence.
 */
function wrappedException(best: Candidate): RawLine | undefined {
  const previous = best.before[best.before.length - 1];
  if (!previous || previous.secret || previous.lineNumber !== best.line.lineNumber - 1) return undefined;
  const { writer, rest } = splitPrefix(stripAnsi(previous.text));
  return writer === best.writer && BROKEN_OFF.test(rest) && isExceptionLine(rest) ? previous : undefined;
}

/** Ends a sentence (or a label before its value): a line after it starts one of its own. */
const SENTENCE_END = /[.!?:;)\]]\s*$/;
/** A line that goes on with the sentence of the line before: a lowercase word first (not a `label:`). */
const CONTINUES = /^\s*\(?[a-z][a-z'-]*(?:[ ,]|$)/;

/**
 * Where the sentence of a line that only mentions a failure begins: wrapped prose (Open MPI's
 * help banners, a wrapped paragraph of a tool's report) names the failure in its first line and
 * explains it in the next; the explanation's words ("a failure in the peer process") are what
 * made its line a candidate. Consecutive lines of the same writer, back while each continues
 * the last.
 */
function sentenceStart(best: Candidate): RawLine {
  let start = best.line;
  for (let i = best.before.length - 1; i >= 0; i--) {
    const previous = best.before[i];
    if (previous.secret || previous.lineNumber !== start.lineNumber - 1 || !CONTINUES.test(restOf(start))) break;
    // As the scanner split it (colours removed first), so the writer compares with best.writer.
    const { writer, rest } = splitPrefix(stripAnsi(previous.text));
    if (rest.trim() === '' || SENTENCE_END.test(rest) || writer !== best.writer) break;
    start = previous;
  }
  return start;
}

/**
 * The line to show as the error, in order: the pasted description's exit-code field when that
 * exit code decided over a lesser line of another kind; the chosen line, or the detail after it
 * that states why, where it was first said, or where its sentence starts; the line a guess
 * rests on; none.
 */
function lineToRead(scan: ScanOutcome, decision: Decision, exitCodeFromPaste: boolean): FirstError | null {
  const { best, byteMode } = scan;
  const decider = decision.evidence[0];
  const inContext = (at: LineInContext, shown = at.line): FirstError => shownError(shown, [...at.before, at.line, ...at.after], at.source, byteMode);
  const described = scan.describedExitCodeLine;
  if (described && exitCodeFromPaste && decider?.role === 'exit-code' && (!best || (best.classification.tier <= TIER.secondary && best.classification.category !== decision.category))) {
    // The pasted pod description's exit code decided over a secondary error that names another
    // kind (or no line at all): the field that states it is the line to read. A line that names
    // the decided kind (`Reason: OOMKilled` beside `Exit Code: 137`) says it in words and stays.
    return inContext(described);
  }
  if (best) {
    // The detail that decided the category states why; the line it came after only reports it.
    // A line that only announces what follows, or only reports a failure of its own kind (nvidia-smi
    // that cannot reach a GPU, before the kernel's Xid), gives its place to a detail of that kind.
    // A detail that is itself only a report (the next wrapped piece of the runtime's message)
    // says no more than the line.
    const detail = decider?.role === 'detail' && decider.kind !== 'report' && givesPlaceToDetail(best.classification, decider)
      ? decider
      : best.classification.kind === 'report' || announcesDetail(splitPrefix(best.line.text).rest)
        ? decision.evidence.find((e) => e.role === 'detail' && e.category === best.classification.category && e.kind !== 'report')
        : undefined;
    const shown = (detail && lineAfter(best, detail.lineNumber)) || statedFact(best, decision) || ncclLastError(best, decision) || validatorsError(best) || recordsMessage(best) || mountersOutput(best)
      || (best.classification.tier === TIER.mention ? sentenceStart(best) : wrappedException(best) ?? firstSaid(best));
    return inContext(best, shown);
  }
  // No line was recognised and the guess decided: the line it rests on is the one to read.
  if (scan.restingLine && decider?.role === 'learnt-words') return { ...inContext(scan.restingLine), guessed: true };
  return null;
}

function buildResult(scan: ScanOutcome, hints: TriageHints | undefined): TriageResult {
  const { best, byteMode } = scan;
  // An exit code the pasted pod description states counts as the container's, when the cluster gave none.
  const stated = scan.describedExitCode !== undefined && hints?.exitCode === undefined && hints?.signal === undefined
    ? { ...hints, exitCode: scan.describedExitCode }
    : hints;
  const decision = decideCategory(best?.classification ?? null, scan.evidence, stated);
  const tail = scan.tail.map((l) => showLine(l, byteMode, CONTEXT_LINE_MAX_CHARS));
  const firstError = lineToRead(scan, decision, stated !== hints);
  return {
    firstError,
    category: decision.category,
    categoryLabel: categoryLabel(decision.category),
    transient: decision.transient,
    // With no error found there is nothing to fix yet: only the guide's general rule applies.
    advice: decision.decidedBy === 'none' ? SAFE_RECOVERY.oneChange : adviceFor(decision.category, decision.transient),
    snippet: forCodeBlock(tail.join('\n'), SNIPPET_MAX_CHARS),
    summary: decision.summary,
    decidedBy: decision.decidedBy,
    evidence: decision.evidence,
    recognised: decision.recognised,
    strength: decision.strength,
    tail,
    lineCount: scan.lineCount,
    bytes: scan.bytes,
    binary: scan.binary,
  };
}

/** Triage a whole log held in memory (a short log, a test). */
export function triageText(text: string, hints?: TriageHints, source?: LogSource): TriageResult {
  const scanner = new FirstErrorScanner(source);
  scanner.push(text);
  return buildResult(scanner.finish(), hints);
}

/**
 * Triage a log of any size as it streams (a file, `kubectl logs`, an HTTP body). Each chunk
 * is converted before the next is read, so a reader may reuse its buffer.
 */
export async function triageStream(
  chunks: AsyncIterable<string | Buffer | Uint8Array>,
  hints?: TriageHints,
  source?: LogSource,
): Promise<TriageResult> {
  const scanner = new FirstErrorScanner(source);
  for await (const chunk of chunks) scanner.push(chunk);
  return buildResult(scanner.finish(), hints);
}
