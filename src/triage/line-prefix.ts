import type { LogSource } from './types.js';

/**
 * The prefixes that launchers and `kubectl logs` put before a line: timestamps (`--timestamps`;
 * on the node's container log files, `<time> stderr F ` of the CRI logging format (and Docker
 * Desktop's `<time>\tstdout `), kubernetes
 * pkg/kubelet/kuberuntime/logs/logs.go parseCRILog), `[pod/NAME/CONTAINER]` (`--prefix`),
 * torchrun's `[rank3]:` and `[default3]:`, pdsh's `worker-1: `, mpirun's `--tag-output`
 * (`[1,3]<stderr>:`), the Kubernetes e2e framework's dump of a namespace's events
 * (test/e2e/framework: Logf("At %v - event for %v: %v %v: %v"), after its `May  4 15:49:12.578:
 * INFO: ` stamp; what is left is the event's reason and message), Ray's and vLLM's worker prefix
 * (`(RayWorkerVllm pid=7602) `, `(EngineCore_DP0 pid=253) `, `(raylet, ip=10.0.0.1) `: ray
 * python/ray/_private/worker.py print_logs, vllm's multiproc workers), vLLM's logger stamp on
 * error lines (`ERROR 04-30 10:20:36 [core.py:396] `, vllm/logger.py "%(levelname)s %(asctime)s
 * [%(filename)s:%(lineno)d]"; INFO and WARNING lines keep it, so the level filter still drops
 * them), the `> ` of a quoted paste, and the left-hand border of a box (k9s's panes, a table
 * pasted as text: `| `, `\u2502 `; its right-hand border goes too). Removing them lets a Python traceback be followed per
 * rank when ranks interleave, and tells which rank a line came from.
 */
const PREFIX_PART =
  /(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d[.,\d]*(?:Z|[+-]\d\d:?\d\d)?\s+(?:std(?:out|err)(?: [FP])?\s)?)|\[pod\/([^/\]\s]+)\/([^\]\s]+)\]\s+|\[(?:rank|default)(\d+)\]:\s?|([A-Za-z][\w-]*-\d+): |\[\d+,(\d+)\]<std(?:out|err)>:|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d\.\d{3}: INFO: At .{1,80}? - event for [^:\s]{1,253}: \{[^}]{0,300}\} |\((?:[A-Za-z_][\w.-]{0,80},? )?pid=\d{1,10}(?:, ip=[\d.]{7,15})?\) ?|\(raylet(?:, ip=[\d.]{7,15})?\) |(?:> ?){1,8}|(?:ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})? \[?[\w./-]{1,200}:\d{1,6}\] |([|\u2502\u2503]) /y;

/** A box drawn inside a box's line: rich's source listing (`\u2502   21 \u2502   \u2502 code`, `\u2771` on the failing line). */
const NESTED_BOX = /[\u2502\u2503\u2771]/;

/** The right-hand border of a box whose left-hand border was a prefix (k9s, a table pasted as text). */
const BOX_BORDER = new Set(['|', '\u2502', '\u2503']);

/** The line without a box's right-hand border and the spaces before it; scans from the end only. */
function withoutRightBorder(rest: string): string {
  let end = rest.length;
  while (end > 0 && (rest.charCodeAt(end - 1) === 32 || rest.charCodeAt(end - 1) === 9)) end--;
  if (end === 0 || !BOX_BORDER.has(rest[end - 1])) return rest;
  end--;
  while (end > 0 && (rest.charCodeAt(end - 1) === 32 || rest.charCodeAt(end - 1) === 9)) end--;
  return rest.slice(0, end);
}

export interface SplitLine {
  /** Identifies the writer (pod, container, rank) for per-writer state; '' when unknown. */
  writer: string;
  source: LogSource;
  /** The line without its prefixes. */
  rest: string;
}

/** Every prefix above holds one of these characters: a line without any has none (most lines). */
const PREFIX_CHARACTER = /[:\])>|\u2502\u2503]/;

/** The writer of a line with no rank, pod or container prefix. */
export const NO_PREFIX_WRITER = '//';

export function splitPrefix(line: string): SplitLine {
  if (!PREFIX_CHARACTER.test(line)) return { writer: NO_PREFIX_WRITER, source: {}, rest: line };
  let pos = 0;
  let pod: string | undefined;
  let container: string | undefined;
  let rank: string | undefined;
  let boxStart = -1;
  for (let parts = 0; parts < 5; parts++) {
    PREFIX_PART.lastIndex = pos;
    const m = PREFIX_PART.exec(line);
    if (!m) break;
    if (m[2] !== undefined) {
      pod = m[2];
      container = m[3];
    } else if (m[4] !== undefined) {
      rank = `rank ${m[4]}`;
    } else if (m[5] !== undefined) {
      rank = m[5];
    } else if (m[6] !== undefined) {
      rank = `rank ${m[6]}`;
    } else if (m[7] !== undefined && boxStart === -1) {
      boxStart = pos;
    }
    pos = PREFIX_PART.lastIndex;
  }
  const source: LogSource = {
    ...(pod !== undefined && { pod }),
    ...(container !== undefined && { container }),
    ...(rank !== undefined && { rank }),
  };
  // A worker's process id is not a writer of its own: the same process writes lines without the
  // prefix too (a C++ watchdog on stderr while Ray prefixes its stdout).
  let rest = pos === 0 ? line : line.slice(pos);
  if (boxStart !== -1) {
    // A box inside the box is rich's traceback (source lines with their numbers): it stays
    // whole, so the noise filter knows it for what it is.
    const inner = withoutRightBorder(rest);
    rest = NESTED_BOX.test(inner) ? line.slice(boxStart) : inner;
  }
  return { writer: `${pod ?? ''}/${container ?? ''}/${rank ?? ''}`, source, rest };
}
