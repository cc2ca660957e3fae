/**
 * A workload's command line through the sanitize pipeline (cut, strip, redact) before it is
 * kept: a Submission is stored for days and compared later, so no credential may be in it.
 *
 * One refinement on top of the pipeline: a bare variable reference (`$HF_TOKEN`,
 * `${WANDB_API_KEY}`) is not a credential, so it is shielded from redaction and kept as
 * written. Otherwise `--token $HF_TOKEN` would read `--token [REDACTED:token]`, a diff of it
 * would be unreadable, and the log advice would take the reference for a token typed on the
 * command line. Only the bare forms are shielded: `${X:-default}` and `$(…)` can hold a
 * literal secret and are redacted like any text.
 */
import { cleanLine, cutForScan } from '../triage/escape.js';
import { KeyBlockState, MAX_REDACT_LINE_CHARS, pieces } from '../triage/redact.js';
import { splitWords } from './shell.js';

/**
 * Longest command text kept (a workload's command and arguments together, or its whole argv):
 * a Submission is stored for every failed or stopped workload for days, and a Megatron-LM
 * launch line is under 10 KiB.
 */
export const MAX_COMMAND_CHARS = 16 * 1024;
/** Most argv elements kept. */
export const MAX_ARGS = 512;

/** `$NAME`, `${NAME}`, and either in double quotes alone (`--token "$HF_TOKEN"`), quotes and all. */
const BARE_REFERENCE = /"\$(?:[A-Za-z_][A-Za-z0-9_]{0,127}|\{[A-Za-z_][A-Za-z0-9_]{0,127}\})"|\$(?:[A-Za-z_][A-Za-z0-9_]{0,127}|\{[A-Za-z_][A-Za-z0-9_]{0,127}\})(?![A-Za-z0-9_])/g;
/**
 * Stands in for a reference while the rules run. It starts like a redaction marker because
 * every rule that takes a value after a key or flag skips values that start so.
 */
const shield = (i: number): string => `[REDACTED_REF_${i}]`;
const SHIELD = /\[REDACTED_REF_(\d{1,6})\]/g;

/** Text (one line or many) cut, cleaned and redacted, bare variable references kept. */
export function safeCommandText(text: string, max = MAX_COMMAND_CHARS): string {
  const refs: string[] = [];
  const shielded = cutForScan(text, max).replace(BARE_REFERENCE, (ref) => shield(refs.push(ref) - 1));
  const clean = cleanAndRedact(shielded);
  return refs.length ? clean.replace(SHIELD, (m, i: string) => refs[Number(i)] ?? m) : clean;
}

/**
 * The pipeline's strip and redact steps, line by line. A long line (a 10,000-character
 * `bash -c` one-liner) is redacted in separator-bounded pieces, as the log archive does,
 * rather than cut at the 4,096 characters a shown log line keeps: the whole command matters
 * to a diff, and no pattern still sees more than MAX_REDACT_LINE_CHARS at once.
 */
function cleanAndRedact(text: string): string {
  const state = new KeyBlockState();
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const parts = line.length <= MAX_REDACT_LINE_CHARS ? [line] : pieces(line);
    let shown = '';
    let kept = false;
    for (const part of parts) {
      const redacted = state.next(cleanLine(part));
      if (redacted !== null) {
        shown += redacted;
        kept = true;
      }
    }
    if (kept) out.push(shown);
  }
  return out.join('\n');
}

/** An argv element as a shell would need it written to read it back as one word. */
function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * An argv array through the pipeline. The elements are redacted together, as the command
 * line they make, so that a rule that reads several words (`--password VALUE`,
 * `docker login -u USER -p VALUE`, `mysql -pVALUE`) sees them all; then split again. Should
 * the split not give back as many elements (a rule swallowed a quote), each element is
 * redacted alone instead.
 */
export function safeArgv(argv: readonly string[], budget = MAX_COMMAND_CHARS): { argv: string[]; cut: boolean } {
  const kept: string[] = [];
  let used = 0;
  let cut = argv.length > MAX_ARGS;
  for (const raw of argv.slice(0, MAX_ARGS).map(String)) {
    if (used + raw.length > budget) {
      cut = true;
      if (budget - used > 0) kept.push(cutForScan(raw, budget - used));
      break;
    }
    used += raw.length;
    kept.push(raw);
  }
  const joined = kept.map(shellQuote).join(' ');
  const words = splitWords(safeCommandText(joined, joined.length)).words.map((w) => w.text);
  return { argv: words.length === kept.length ? words : kept.map((a) => safeCommandText(a)), cut };
}
