import { LiteralGate, necessaryLiterals } from './literal-gate.js';
import { Prefilter } from './prefilter.js';
import { TIER, WITHIN_LINE_ROWS, rowOverrules, rowTakes } from './precedence.js';
import type { Category, EvidenceKind } from './types.js';
import { EXCEPTION_MODULES, VOCABULARY_ENTRIES } from './vocabulary.js';

export { TIER } from './precedence.js';

/**
 * Log signatures: how a line of a GPU training log is told apart as noise, a secondary error
 * (a cascade that follows the real one) or a recognised error. Order matters inside each
 * table: the first row that matches decides, so specific rows come before broad ones.
 */

export interface Signature {
  summary: string;
  category: Category;
  pattern: RegExp;
  /** Overrides the category's transient flag (a network flake is transient, a disk full is not). */
  transient?: boolean;
  /** Decides even on a line that also matches a cascade (NCCL WARN … NET/IB completion error). */
  beforeCascades?: boolean;
  /** Counts less than its table's tier: the launcher's generic echo of a failure. */
  tier?: number;
  /** A finer kind than the category, where the precedence (precedence.ts) needs one. */
  kind?: EvidenceKind;
}

/**
 * Words errors are written in, for the first pass over the raw text (PREFILTER, below): with
 * the signatures' own strings, a line that holds none of them is never classified. Most error
 * lines say "Error", "failed" or "Exception"; the rest of the list is what a generic line (an
 * exception of no known kind, a logger's error, a mention) may say instead.
 */
const PREFILTER_ANCHORS = [
  'err', 'fail', 'xcept', 'traceback', 'kill', 'fatal', 'critical', 'denied', 'forbidden',
  'not found', 'no such', 'not exist', 'cannot', "can't", "couldn't", 'could not', 'unable',
  'abort', 'panic', 'memory', 'sig(?:nal|term|kill|segv|abrt|bus|ill)', 'segmentation', 'dumped',
  'illegal', 'terminate called', 'what\\(\\)', 'evict', 'preempt', 'nodelost', 'not ready',
  'shutdown', 'watchdog', 'nccl warn', 'time(?:d )?out', 'xid', 'permitted', 'refused',
  'imagepull', 'toomanyrequests', 'private key', 'exitcode', '\\[E(?:\\s|\\d{4}\\s)',
  // Errors that name none of the words above: TF/XLA allocator summaries, vLLM's KV-cache
  // check, C++ aborts, diverged training, Triton's model table, gated Hugging Face repos.
  'exhausted', 'kv cache', 'pure virtual', 'unexpected result', 'unavailable:', 'gated repo', 'divisible by',
  'too old', 'low on resource', 'non-zero', 'unauthorized', 'does not have',
  // Failures in the vocabulary (vocabulary.ts) whose words are none of the above: the kubelet's
  // pull back-off, Ray's lost node, XLA's cuDNN check (a glog E-line), a read-only mount, a
  // gated Hugging Face model.
  'back-off pulling', 'marked dead', 'loaded runtime cudnn', 'read-only file', 'is restricted', 'conflict is caused', 'invalid reference', 'not compatible with the current', 'unable to complete a tcp',
  // A registry's 5xx through Docker's client, pip's resolver giving up, the kubelet reclaiming
  // resources, Open MPI's signal report, runc failing to exec the command.
  'unexpected http status', 'resolutiontoodeep', 'attempting to reclaim', 'had condition', 'received signal', 'exec user process',
  // `python -m` naming no module (CPython's runpy: "%s: No module named %s", no Error in it);
  // the exit code in a pasted pod description.
  'no module named', 'exit code:',
  // The shell's "Killed" in a zh_CN locale (glibc's translation of strsignal(SIGKILL)).
  '\u5df2\u6740\u6b7b',
  // The CUDA runtime's cudaErrorInsufficientDriver as deviceQuery prints it, on a line of its
  // own; a process killed by SIGKILL as docker reports it (`exited with code 137`); TensorRT
  // refusing an engine planned on another GPU.
  'version is insufficient', 'code 137', 'incompatible device',
  // uv's resolver giving up, transformers' missing file, a training operator's replica exit,
  // the kubelet's restart back-off (vocabulary.ts).
  'no solution found', 'does not appear to have', 'exited with code', 'crashloopbackoff',
  // The dynamic linker's "undefined symbol: %s" (glibc elf/dl-lookup.c), the import signature's
  // words: a mangled C++ name after it rarely holds any word above.
  'undefined symbol',
];

/**
 * A log level word near the start of a line (INFO, WARNING…), not inside a message such as
 * "run with NCCL_DEBUG=INFO". Found with a plain search and checked by position: a regex
 * anchored at the start with a lookbehind costs far more per line.
 */
function levelNear(start: number, word: RegExp): { test(text: string): boolean } {
  return {
    test(text: string): boolean {
      word.lastIndex = 0;
      const m = word.exec(text);
      return m !== null && m.index <= start && !/[=\w]/.test(text.charAt(m.index - 1));
    },
  };
}

/**
 * Well-known harmless messages that name a failure but are not one: each is printed on
 * healthy runs too, or is the launcher's echo of a failure reported elsewhere in the log.
 * Bounded patterns only (no open-ended lazy scans): they run on every prefiltered line.
 */
export const RED_HERRINGS: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /Failed to open libibverbs\.so/, why: 'NCCL prints it on hosts without InfiniBand and falls back to sockets' },
  { pattern: /libnccl-net\.so: cannot open shared object file|NET\/Plugin ?: (?:No plugin found|Plugin load)/, why: 'NCCL looks for an optional network plugin and uses its internal one' },
  { pattern: /libibverbs: Warning: couldn't load driver/, why: 'libibverbs probes every provider; a missing one is harmless' },
  { pattern: /Sending process \d+ closing signal SIGTERM/, why: 'torchrun stopping the other workers after one failed' },
  // Anchored at both ends: a paste that runs the banner into the sentence naming the failed rank is that rank's report.
  { pattern: /^\s*Primary job\s+terminated normally, but \d+ process(?:es)? returned\s*$|^a non-zero exit code\. Per user-direction, the job has been aborted\.?\s*$/, why: "mpirun's banner after a rank failed; the rank's own error comes before it" },
  { pattern: /destroy_process_group\(\) was not called before program exit/, why: 'a shutdown warning printed by every rank' },
  { pattern: /Exception ignored in: <function [^>]{0,200}__del__/, why: 'interpreter shutdown noise' },
  { pattern: /To avoid data inconsistency, we are taking the entire process down/, why: "ProcessGroupNCCL's notice that it aborts after a collective failed; the failure is on the line next to it (pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp)" },
  { pattern: /Stack trace of the failed collective not found, potentially because FlightRecorder is disabled/, why: "ProcessGroupNCCL's note, after a watchdog timeout, that it has no trace to dump; the timeout is the line before it (pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp)" },
  { pattern: /If this is a GPU node, did you configure the NVIDIA Container Toolkit\?|You can (?:check the prerequisites|learn how to set the runtime) at: |If this is not a GPU node, you should set up a toleration or nodeSelector/, why: "the NVIDIA device plugin's advice, logged at error level after the failure it follows (NVIDIA/k8s-device-plugin factory.go)" },
  { pattern: /^Unable to find image '[^'\s]{1,512}' locally$/, why: "docker run announcing that it pulls an image it does not have yet; a failed pull says so after it (docker/cli cli/command/container/create.go)" },
  { pattern: /Config file "[^"\n]{1,1024}" not found - using defaults|Configuration directory could not be created and will not be used: /, why: "rclone's notices that it runs without a configuration file or directory, printed on healthy runs too (rclone/rclone fs/config/config.go); a missing remote fails later with its own error" },
];

/**
 * Python source shown in a traceback (`raise ValueError(…)`, a format string continued from
 * the line above): code that raises, not the exception it raised. Inside a traceback with its
 * header these are indented and skipped; this catches them when the header was cut, a rich
 * box or a launcher prefix hid it, or a notebook printed `--> 12     raise …`. The lookahead
 * and back-reference take the raised name atomically: a failed match never retries shorter
 * names, so a line costs one pass per `raise` in it. Box characters as escapes (\u2502 │, \u2771 ❱):
 * one character past Latin-1 in a regex literal makes V8 keep the production bundle's whole
 * source two bytes a character (scripts/bundle.mjs).
 */
export const SOURCE_LINE = /(?:^|[\s>|\u2502\u2771])raise\s+(?=([\w.]+))\1(?:\(|\s+from\s|\s+#|\s*$)|^\s*["'][^"']*["']\s*(?:%\s*[\w.(]|\.format\()/;

/** The `raise` of SOURCE_LINE alone, with the raised name (bounded) as group 1. */
const RAISE = /(?:^|[\s>|\u2502\u2771])raise\s+(?=([\w.]{1,200}))\1(?:\(|\s+from\s|\s+#|\s*$)/;
/** Characters of a string literal's delimiters and the call's end, dropped from a raised message. */
const LITERAL_DELIMITERS = new Set(['"', "'", ')', ' ', '\t']);

/**
 * The exception line a `raise Name(…)` source line would print, for a paste cut inside its
 * traceback before that line came: CPython prints an uncaught exception as `Name: message`
 * (Lib/traceback.py, TracebackException.format_exception_only, "{etype}: {value}"), and the
 * raise's first argument is most often that message as a literal. Undefined for a line that
 * raises no class (a re-raise `raise`, `raise err` of a variable: a lower-case name).
 * Linear: one bounded regex, then a character loop.
 */
export function raisedException(text: string): string | undefined {
  if (!text.includes('raise')) return undefined;
  const m = RAISE.exec(text);
  if (!m) return undefined;
  const name = m[1];
  const last = name.slice(name.lastIndexOf('.') + 1);
  if (!/^[A-Z]/.test(last)) return undefined;
  if (!m[0].endsWith('(')) return name;
  let message = text.slice(m.index + m[0].length).replace(/^[rRbBuUfF]{0,2}["']/, '');
  let end = message.length;
  while (end > 0 && LITERAL_DELIMITERS.has(message.charAt(end - 1))) end--;
  message = message.slice(0, end).replace(/["']/g, '');
  return `${name}: ${message}`;
}

/** The start of an exception's dotted name cut by the paste (`torch.distributed.elastic.`): never a whole exception line. */
export const CUT_EXCEPTION_NAME = /^(?:[A-Za-z_]\w{0,100}\.){1,20}\s*$/;

/**
 * A status the cluster reports without saying why: a `kubectl get pods` row, a describe
 * field (`Reason: Evicted`, `State: Waiting`), a bare status word, or the HTTP status line the
 * Kubernetes Python client prints first for an ApiException (`(403)`, then `Reason:` and the
 * body: kubernetes-client/python kubernetes/client/exceptions.py, "({0})\nReason: {1}\n"). It names the kind of
 * failure, but the `Message:` line or the Warning event near it explains it, so it counts only
 * as a secondary error, and not at all when it names no known kind.
 */
export const STATUS_ROW = /^\(\d{3}\)\s*$|^\S+\s+\d+\/\d+\s+\S+\s+\d+|^\s*(?:Reason|Status|State|Last State|phase|reason):\s+[\w:-]+\s*$|^\s*(?:Init:)?(?:Evicted|OOMKilled|Error|CrashLoopBackOff|ContainerStatusUnknown|CreateContainerConfigError|CreateContainerError|RunContainerError|ImagePullBackOff|ErrImagePull|ContainerCannotRun)\s*$/;

/**
 * A command echoed by a shell or pasted with its prompt: what was run, not what failed. A line
 * behind a prompt (`user@host:path$ `, bash's default PS1 '\u@\h:\w\$ ', after a conda or
 * virtualenv name) is typed input whatever it says: `grep 'Job failed' /var/log/syslog` is not
 * the failure it searches for.
 */
const SHELL_COMMAND = /^(?:[$#>]\s*|\w+@[\w.-]+:\S*[$#]\s*)?(?:kubectl|k|oc|helm|docker)\s+(?:get|describe|logs|apply|run|pull|events)\b|^(?:\([\w.-]{1,64}\)\s{1,8})?[\w.-]{1,64}@[\w.-]{1,253}:[^\s$#]{0,1024}[$#]\s/;

/** A line logged at a level below warning: chatter, never an error (also kept out of learnt-words.ts's bag). */
export const INFO_LEVEL = levelNear(60, /\b(?:INFO|DEBUG|TRACE|NOTICE)\b/g);

/** The level filter proper: lines a program logged at info or warning level. */
const LEVEL_NOISE: ReadonlyArray<{ test(text: string): boolean }> = [
  /\bNCCL INFO\b/,
  INFO_LEVEL,
  levelNear(60, /(?<!NCCL )\bWARN(?:ING)?\b/g),
  /^\[[IW]\d{0,4}[\s\d]|^[IW]\d{4} \d\d:\d\d/, // glog / c10 info and warning lines
  /^[\d:. -]{8,40}: [IW] [\w./-]{1,200}:\d{1,6}\]/, // TensorFlow and XLA's own: `2023-01-01 10:00:00.000: W tensorflow/…/dso_loader.cc:64]`
  /level=(?:info|debug|warn)|"level"\s*:\s*"(?:info|debug|warn)/i,
  // A program's own warning, `Warning: …` or `prog: Warning: …` (libibverbs, kubectl's API
  // warnings, many CLIs): at the start only, where the program puts its level.
  /^(?:[\w.-]{1,60}: )?Warning: /,
];

/** Lines that look like errors but are not: warnings, INFO chatter, retries, metrics. */
export const NOISE: ReadonlyArray<{ test(text: string): boolean }> = [
  ...LEVEL_NOISE,
  /\b[A-Z]\w*Warning\b:|^\s*warnings\.warn\(/,
  /\bretrying\b|\bwill (?:be )?retr(?:y|ied)\b|\bretry(?:ing)? in \d|\battempt \d+\s*(?:\/|of)\s*\d+|resum(?:e|ing) (?:the )?download/i,
  /\b\w*(?:err|fail)\w*\s*=\s*-?\.?\d|["']\w*(?:err|fail)\w*["']\s*:\s*-?\.?\d/i, // metrics
  /(?<!-)\b(?:0|no|zero|without) (?:errors?|failures?)\b/i, // not "non-zero error code"
  /^Exception raised from |^frame #\d+:/,
  // rich's traceback box (│ … │): frames and source; the exception is printed below the box.
  // Also as UTF-8 bytes read as latin1, how a byte stream is scanned. (│ ╭ ╰ escaped: see SOURCE_LINE.)
  /^\s*(?:[\u2502\u256d\u2570]|\u00e2[\u0094\u0095][\u0082\u00ad\u00b0])/,
  // PyTorch's hints after a CUDA error, on lines of their own (c10/cuda/CUDAException.cpp): at the
  // start only, since a paste that joins them to the error line still holds the error.
  /^[\s|>]*(?:CUDA kernel errors might be asynchronously reported|For debugging consider passing CUDA_LAUNCH_BLOCKING|Compile with `?TORCH_USE_CUDA_DSA)/,
  // torchelastic's failure summary: its per-rank fields say where the errors are, not what they
  // are (torch/distributed/elastic/multiprocessing/errors/__init__.py, "error_file:", "traceback :").
  // Its title (`train.py FAILED`) and its section headers (`Failures:`, `Root Cause (first observed failure):`) only announce the rows below them.
  /To enable traceback see|^\s*error_file\s*:\s*(?:<N\/A>|\/\S*)\s*$|^\S{1,1024} FAILED\s*$|^Root Cause \(first observed failure\):\s*$|^(?:Failures:|\s*<NO_OTHER_FAILURES>)\s*$/,
  /pip's dependency resolver does not currently take into account/,
  // A tool's advice printed after its error, naming the failure it advises on: uv's `help:` and
  // `hint:` lines under a resolution error (astral-sh/uv, as its tests snapshot them), pip's `note: This error
  // originates from a subprocess` (pypa/pip src/pip/_internal/exceptions.py DiagnosticPipError),
  // TensorFlow's `Hint: If you want to see a list of allocated tensors when OOM happens`
  // (tensorflow/core/common_runtime/executor.cc). The error is the line the advice follows.
  /^\s*(?:help|hint|note):\s/i,
];

/**
 * Real failures that their programs log at warning level: TensorFlow's allocator summary and
 * failed ops, Horovod's shutdown, PyTorch finding the driver too old for its CUDA. The level
 * filter would hide them, so lines like these skip it (the red herrings still apply).
 */
const WARNED = VOCABULARY_ENTRIES.filter((e) => e.evenInNoise !== undefined);
const LOGGED_AS_WARNING = new RegExp(['OP_REQUIRES failed at|Horovod has been shut down|NVIDIA driver on your system is too old', ...WARNED.map((e) => e.says.source)].join('|'));
const WARNING_WORDS = ['OP_REQUIRES', 'Horovod', 'too old', ...WARNED.map((e) => e.evenInNoise as string)];

function loggedAsWarning(text: string): boolean {
  return WARNING_WORDS.some((w) => text.includes(w)) && LOGGED_AS_WARNING.test(text);
}

/** Secondary errors: true, but caused by a failure elsewhere (another rank, the launcher). */
export const CASCADES: readonly Signature[] = [
  // A shell, docker or a CI runner reports a process killed by signal N as exit code 128+N
  // (bash(1) EXIT STATUS; signal(7): SIGKILL is 9): 137 in a sentence (`Job failed: exit code
  // 137`, `exited with code 137`). A pasted `Exit Code: 137` field is read as the exit code instead.
  // DeepSpeed's launcher: "{cmd} exits with return code = {code}" (deepspeed/launcher/launch.py sigkill_handler).
  { category: 'host-oom', summary: 'A process was killed (SIGKILL, usually out of memory)', pattern: /exitcode\s*:\s*-9\b|exit(?:ed with)? code -9\b|\bSIGKILL\b|signal 9\b|\bexit(?:ed with)? code 137\b|return code = -9\b/i },
  // Open MPI reports a rank that died on a signal as "exited on signal %d (%s)" (orte/mca/errmgr/base/help-errmgr-base.txt).
  // A negative exit code is the signal (subprocess.Popen.returncode): 11 SIGSEGV, 6 SIGABRT, 4 SIGILL, 8 SIGFPE.
  { category: 'crash', summary: 'A process crashed in native code', pattern: /exitcode\s*:\s*-(?:11|6|4|8)\b|exit status -(?:11|6|4|8)\b|return code = -(?:11|6|4|8)\b|killed by signal: Segmentation fault|terminate called after throwing|Signal (?:11|6) \(SIG(?:SEGV|ABRT)\)|signal (?:11|6) \((?:Segmentation fault|Aborted)\)/i },
  // SIGBUS (7) in a container is nearly always a write past the end of a /dev/shm file that the
  // size limit left short (signal(7): "Bus error (bad memory access)"); shared memory is host memory.
  { category: 'host-oom', kind: 'shared-memory', summary: 'A process was killed by SIGBUS, usually shared memory (/dev/shm) exhausted', pattern: /exitcode\s*:\s*-7\b|exit status -7\b|signal 7\b/i },
  { category: 'image-pull', summary: 'The image could not be pulled (the kubelet\'s message says why)', pattern: /ErrImagePull|ImagePullBackOff|ErrImageNeverPull/ },
  // A mere mention: any specific cascade (a -9 exit code, a watchdog timeout) says more.
  // torchelastic's summary: its root cause's `exitcode  : 1 (pid: 252744)` row says how that process ended.
  { category: 'other', summary: 'A launched subprocess failed (see its own error above)', tier: 0, pattern: /ChildFailedError|^\s*exitcode\s*:\s*-?\d{1,3} \(pid: \d{1,10}\)|Worker group FAILED|failed \(exitcode: -?\d+\)|Sending process \d+ closing signal|CalledProcessError|returned non-zero exit status|process \d+ terminated with exit code/i },
  { category: 'nccl', summary: 'NCCL watchdog timeout or abort after another rank failed', pattern: /Watchdog caught collective operation timeout|ran for \d+ milliseconds before timing out|Timeout at NCCL work|NCCL communicator was aborted|Some NCCL operations have failed or timed out|detected by watchdog|remote process exited|ncclRemoteError|Connection closed by (?:remote )?peer|Heartbeat monitor timed out|watchdog (?:got stuck|thread terminated)|\bNCCL WARN\b/i },
  { category: 'nccl', summary: 'Horovod or MPI stopped the job after a rank failed (see that rank\'s error)', pattern: /Horovod has been shut down|Horovod detected that one or more processes exited|mpirun detected that one or more processes exited|MPI_ABORT was invoked|An error occurred in MPI_\w+/ },
  { category: 'nccl', summary: 'Distributed store connection lost', pattern: /DistNetworkError|Connection reset by peer|Broken pipe|TCPStore|RendezvousClosedError|recvValue failed|Socket Timeout/i },
  { category: 'eviction', summary: 'The process was told to stop (SIGTERM) from outside', pattern: /\bSIGTERM\b|signal 15\b|got signal: 15|SignalException/i },
];

/** A service that answered "not now" (HTTP 502/503/504/429): a retry is sensible. */
const SERVICE_UNAVAILABLE = /\b50[234] (?:Server Error|Service Unavailable|Bad Gateway|Gateway Time-?out)|Service Unavailable|\b429 (?:Client Error|Too Many Requests)/i;
/**
 * A connection that failed: a wrong host, a refused port, a timeout. A retry changes nothing by
 * itself. That includes a name server's "try again" (EAI_AGAIN, getaddrinfo(3): "Temporary
 * failure in name resolution"): inside a pod it nearly always means the pod has no working DNS
 * or no way out of the cluster, which the same pod meets again. wget says it its own way
 * (GNU wget src/host.c: "Resolving %s... " then "failed: %s."; BusyBox: "unable to resolve host address").
 */
const NETWORK_FAILURE = /Temporary failure in name resolution|unable to resolve host address|\.\.\. failed: (?:Try again|Name or service not known|No address associated with hostname)\b|Name or service not known|nodename nor servname|Could not resolve host|Max retries exceeded|Connection (?:refused|timed out|aborted)|ConnectionResetError|ReadTimeout(?:Error)?\b|ConnectTimeout|RemoteDisconnected|TLS handshake timeout|i\/o timeout|Network is unreachable|No route to host|IncompleteRead|ChunkedEncodingError/i;

const NETWORK_FAILURE_SUMMARY = 'The data or model source could not be reached over the network';

/**
 * Frames of torch.distributed's rendezvous and its store (init_process_group, the env:// and
 * tcp:// handlers, torchelastic's rendezvous, a TCPStore being built): a traceback through
 * them failed while the job's processes were meeting (pytorch/pytorch torch/distributed/
 * rendezvous.py, distributed_c10d.py, elastic/rendezvous/).
 */
export const RENDEZVOUS_FRAME = /torch[\\/]distributed[\\/](?:rendezvous\.py|distributed_c10d\.py|elastic[\\/]rendezvous[\\/])|\bTCPStore\(/;

/**
 * Where a network failure happened says whose network it was. A workload's network failure is
 * nearly always a fetch of its data (NETWORK_FAILURE); raised through the rendezvous's frames
 * it is the ranks failing to reach the master (its address, its DNS name, its port): a
 * connect failure between the job's processes, as the labelling precedence has it.
 */
export function inRendezvous(c: Classification): Classification {
  if (c.category !== 'data-path' || c.summary !== NETWORK_FAILURE_SUMMARY) return c;
  return { tier: c.tier, category: 'nccl', summary: "The job's processes could not reach the rendezvous master (its address, DNS name or port) while they met" };
}

/** The vocabulary (vocabulary.ts) as signatures: the software's own words, tried first. */
const FROM_VOCABULARY: readonly Signature[] = VOCABULARY_ENTRIES.map((e) => ({
  category: e.category,
  summary: e.summary,
  pattern: e.says,
  ...(e.kind !== undefined && { kind: e.kind }),
  ...(e.transient !== undefined && { transient: e.transient }),
  ...(e.beforeCascades && { beforeCascades: true }),
  ...(e.secondary && { tier: TIER.secondary }),
}));

/**
 * Recognised errors: the line an engineer would point at. The vocabulary first, then broad
 * patterns for what it does not name (generic words of POSIX, Python, Kubernetes and CUDA).
 */
const GENERIC: readonly Signature[] = [
  { category: 'image-pull', summary: 'Registry rate limit while pulling the image', transient: true, pattern: /toomanyrequests|pull rate limit/i },
  { category: 'image-pull', summary: 'The image could not be pulled', pattern: /InvalidImageName|Failed to pull image|manifest unknown|pull access denied|repository does not exist or may require|failed to resolve reference|not found: manifest|Error pulling (?:image|dependent layers)|error from registry|pulling from host \S+ failed|failed to fetch oauth token/i },
  { category: 'scheduling', summary: 'No node has the requested resources, or the project is over quota', pattern: /FailedScheduling|\d+\/\d+ nodes are available|Insufficient (?:nvidia\.com\/gpu|cpu|memory|ephemeral-storage|pods)|exceeded quota|over quota|\bUnschedulable\b|untolerated taint|didn't match Pod's node (?:affinity|selector)|NonPreemptibleOverQuota|not enough (?:GPUs?|resources)/i },
  { category: 'volume-mount', summary: 'A volume could not be mounted', pattern: /FailedMount|FailedAttachVolume|MountVolume\.\w+ failed|Unable to (?:attach or )?mount volumes|Multi-Attach error|persistentvolumeclaim "[^"]*" not found|unbound (?:immediate )?PersistentVolumeClaims|mount(?:ing)? failed|wrong fs type|nfs: server \S+ not responding|Stale (?:NFS )?file handle|Transport endpoint is not connected/i },
  { category: 'eviction', summary: 'The pod was evicted, preempted, or its node was lost', pattern: /\bEvicted\b|The node was low on resource|\bpreempt(?:ed|ing|ion)\b|\bNodeLost\b|\bNodeShutdown\b|node (?:\S+ )?(?:was lost|is not ready|shutdown)|imminent node shutdown|DisruptionTarget|TerminationByKubelet|spot (?:instance )?interruption|DeletionByTaintManager/i },
  { category: 'host-oom', kind: 'shared-memory', summary: 'The container ran out of shared memory (/dev/shm)', pattern: /insufficient shared memory|shared memory \(shm\)|unable to allocate shared memory|No space left on device.*\/dev\/shm/i },
  { category: 'host-oom', kind: 'shared-memory', summary: 'A bus error (SIGBUS): in a container, usually shared memory (/dev/shm) exhausted', pattern: /^Bus error|Fatal Python error: Bus error|killed by signal: Bus error|\bSIGBUS\b/ },
  { category: 'gpu-oom', summary: 'The model does not fit the KV cache left in GPU memory', pattern: /larger than the maximum number of tokens that can be stored in KV cache|No available memory for the cache blocks/i },
  { category: 'gpu-oom', summary: 'The GPU ran out of memory', pattern: /ResourceExhaustedError|Resource exhausted: (?:OOM|Out\b)|Ran out of memory trying to allocate|Allocator \([^)\s]+\) ran out of memory|CUDA out of memory|(?:torch|cuda)\.OutOfMemoryError|CUDA error: out of memory|cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY|CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|\bRESOURCE_EXHAUSTED\b(?!: Quota\b)|OOM when allocating|HIP out of memory|out of memory on device|Cuda failure 'out of memory'|GPU out of memory/i },
  { category: 'host-oom', summary: 'The container ran out of CPU or shared memory', pattern: /^Killed\s*$|\/(?:s|it)\]Killed\s*$|\b\d+\s+Killed\s|\bKilled\s+(?:python|torchrun|accelerate|deepspeed)|killed by signal: Killed|Out of memory: Killed? process|oom[-_]kill|\bOOMKilled\b|\bMemoryError\b|std::bad_alloc|Cannot allocate memory|running low on memory|killed due to memory pressure|RayOutOfMemoryError|java\.lang\.OutOfMemoryError|exceeded (?:its )?memory limit|Memory cgroup out of memory/i },
  { category: 'cuda', summary: 'The CUDA build in the image does not match the GPU or its driver', beforeCascades: true, pattern: /Cuda failure '(?:invalid device function|no kernel image is available for execution on the device|CUDA driver version is insufficient for CUDA runtime version)'/ },
  // Not a plain retry: the guide retries scheduling and service failures, and a failing link
  // needs the network fixed (or the job moved off the node) first.
  { category: 'nccl', summary: 'The InfiniBand or socket network between ranks failed', beforeCascades: true, pattern: /NET\/IB : Got completion (?:from peer \S+ )?with error|ibv_\w+ failed|\blink (?:is )?down\b/i },
  { category: 'nccl', summary: 'NCCL or torch.distributed failed', pattern: /NCCL error|nccl\w*Error\b|\bDistBackendError\b|ProcessGroupNCCL.*(?:error|failed)|\bRendezvous\w*Error\b|\bGloo\b.*(?:error|failed)|NET\/(?:IB|Socket)\b.*(?:error|failed)|Bootstrap : no socket interface|c10d.*(?:error|failed)/i },
  { category: 'cuda', summary: 'The GPU or its node reported a hardware fault', transient: true, pattern: /\bXid\b|uncorrectable ECC|ECC error|fallen off the bus|GPU is lost/i },
  { category: 'cuda', summary: 'The CUDA libraries in the image do not match the GPU or its driver', pattern: /provided PTX was compiled with an unsupported toolchain|no kernel image is available/i },
  // NVML's Unknown Error is the container's lost device access, the node's (its vocabulary entry).
  { category: 'cuda', summary: 'CUDA failed', pattern: /CUDA error|CUDA_ERROR_\w+|cudaError\w+|CUBLAS_STATUS_\w+|CUDNN_STATUS_\w+|cuDNN error|device-side assert|illegal memory access|no CUDA-capable device|No CUDA GPUs are available|Found no NVIDIA driver|NVIDIA driver on your system is too old|CUDA driver version is insufficient|CUDA initialization|misaligned address|unspecified launch failure|cuda runtime error|Failed to initialize NVML(?!: Unknown Error)|NVML: Driver\/library version mismatch|CUDA kernel failed|nvrtc: error/i },
  // A shared library that is not where it is looked for is a package missing or built for
  // another version, not data: `FileNotFoundError: Cannot find DGL C++ graphbolt library at …/libgraphbolt_pytorch_2.3.0.so`,
  // `Could not load cudf jni library`.
  { category: 'import', summary: 'A shared library the code loads is missing (its package is not installed, or was built for another version)', pattern: /(?:[Cc]annot|[Cc]ould not|[Uu]nable to) (?:find|load|open) (?:the )?[\w.+-]{1,60}(?: [\w.+-]{1,60}){0,2} librar(?:y|ies)\b|(?:[Cc]annot find|[Cc]ould not find|[Uu]nable to (?:find|load))\b[^\n():]{0,120}? ['"]?[^\s'"():]{0,300}\.so(?:\.\d{1,6}){0,4}\b|No such file or directory: ['"][^'"\n]{1,300}\.so(?:\.\d{1,6}){0,4}['"]/ },
  { category: 'import', summary: 'A module or library is missing or mismatched in the image', pattern: /ModuleNotFoundError|\bImportError\b|No module named|cannot import name|undefined symbol|cannot open shared object file|GLIBC\w*_[\d.]+'? not found|DistributionNotFound|VersionConflict|Could not find a version that satisfies|No matching distribution found|compiled with different CUDA (?:major )?versions|was compiled against/i },
  // Settings that cannot go together: CPython's argparse for a mutually exclusive group (Lib/argparse.py,
  // "argument %s: not allowed with argument %s"), and the words frameworks refuse such a pair in.
  { category: 'config', summary: 'The command, its arguments or a referenced secret or config is wrong', pattern: /CreateContainerConfigError|CreateContainerError|RunContainerError|ContainerCannotRun|couldn't find key \S+ in (?:Secret|ConfigMap)|(?:secrets?|configmaps?) "[^"]*" not found|Non-existent config key|Check batch related parameters|Could not parse rfc1738 URL|(?:must|should) be divisible by|executable file not found|command not found|exec format error|exec: "[^"]*": stat|: not found\s*$|error: unrecognized arguments|error: the following arguments are required|error: argument|invalid choice:|ConfigAttributeError|ConfigKeyError|ConfigCompositionException|MissingMandatoryValue|Could not override '|InterpolationResolutionError|yaml\.(?:scanner|parser|constructor)\.\w+Error|JSONDecodeError|unknown (?:flag|option|argument)\b|not allowed with argument|\bmutually exclusive\b|(?:cannot|can't|can ?not|must not) be (?:used|set|specified|enabled|combined|passed) (?:together|at the same time|simultaneously)|at the same time is not allowed/i },
  { category: 'permission', summary: 'Access was denied', pattern: /\bForbidden\b|does not have [\w.]+ access|Permission '[\w.]+' denied|gated repo|AuthorizationPermissionMismatch|AuthorizationFailure|\(403\)|PermissionError|Permission denied|\bEACCES\b|Errno 13\b|Operation not permitted|\bEPERM\b|Read-only file system|\bEROFS\b|403 Forbidden|\b403 Client Error|AccessDenied|Access Denied|is forbidden:|\b401 (?:Client Error|Unauthorized)|\bUnauthorized\b|GatedRepoError|Invalid (?:user )?token|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken/i },
  { category: 'volume-mount', summary: 'A disk or volume is full', pattern: /No space left on device|Disk quota exceeded|\bENOSPC\b/i },
  { category: 'data-path', summary: 'A file or directory the command needs does not exist', pattern: /FileNotFoundError|No such file or directory|IsADirectoryError|NotADirectoryError|\bENOENT\b|Errno 2\b|DatasetNotFoundError|RepositoryNotFoundError|EntryNotFoundError|\b404 Client Error|does not exist|(?:can't|cannot|couldn't|could not|unable to) (?:find|locate|open|load)\b|not a directory|(?:file|path|directory|dataset|checkpoint|model) (?:\S+ )?not found|couldn't find it in the cached files/i },
  { category: 'crash', summary: 'The program crashed (segfault or abort)', pattern: /Segmentation fault|\bSIGSEGV\b|segfault|core dumped|Fatal Python error|^Aborted\b|\bSIGABRT\b|Illegal instruction|\bSIGILL\b|double free|free\(\): invalid|corrupted (?:size|double-linked)|stack smashing detected|pure virtual method called|\*\*\* Error in|Floating point exception|^panic:|fatal error: unexpected signal/i },
  // A network failure in a workload's log is almost always a fetch of its data, model or
  // checkpoint (torch.distributed's own failures are cascades, tried before): the source could
  // not be reached. Sources: getaddrinfo(3) gai_strerror, urllib3 and requests' exception names.
  { category: 'data-path', summary: 'The data or model source was temporarily unavailable', transient: true, pattern: SERVICE_UNAVAILABLE },
  { category: 'data-path', summary: NETWORK_FAILURE_SUMMARY, pattern: NETWORK_FAILURE },
  { category: 'other', summary: 'Training diverged: a loss or gradient became NaN or Inf', pattern: /Unexpected result (?:nan|inf)\b|found (?:NaN|Inf) in|Loss is (?:NaN|inf)\b/i },
  { category: 'other', summary: 'The inference server could not load a model', pattern: /\bUNAVAILABLE: (?:Internal|Not found|Invalid argument)\b|failed to load all models/ },
];

export const ERRORS: readonly Signature[] = [...FROM_VOCABULARY, ...GENERIC];

/**
 * The first pass (prefilter.ts): a line is examined when it holds an anchor or a string some
 * signature cannot match without, so every signature is reachable whatever else its line says.
 */
export const PREFILTER = new Prefilter(
  PREFILTER_ANCHORS.map((a) => new RegExp(a, 'i')),
  [...ERRORS, ...CASCADES].flatMap((s) => necessaryLiterals(s.pattern) ?? []),
);

/** A Python exception line: `ValueError: …`, `torch._dynamo.exc.BackendCompilerFailed: …`. */
export const EXCEPTION_LINE = /^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault|Failed)\b(?::|$)/;
/**
 * C++'s verbose terminate handler, the default of GCC's libstdc++ (gcc libstdc++-v3/libsupc++/
 * vterminate.cc, __gnu_cxx::__verbose_terminate_handler): for an uncaught exception it prints
 * "terminate called after throwing an instance of '<type>'" and then, for a std::exception,
 * "  what():  <exc.what()>" on the next line, and aborts. The first line only names the type
 * (c10::DistBackendError, thrust::system::system_error); the what() is the failure itself.
 */
export const TERMINATE_ANNOUNCES = /terminate called after throwing an instance of /;
/** The what() line that the terminate handler prints after it. */
export const WHAT_LINE = /^\s*what\(\):/;
/** A line that starts by saying it is an error (CLI tools, glog E-lines, C++ what()). */
export const LEADING_ERROR = /^(?:error|fatal(?: error)?|panic|critical)\s*[:!\]]|^\s*what\(\):/i;
/** LEADING_ERROR's word with nothing after it: a heading over what follows. */
const BARE_ERROR_HEADING = /^\s*(?:error|fatal(?: error)?|panic|critical)\s*[:!\]]?\s*$/i;
/** A logger line at error level, glog and c10 E-lines included. */
export const LOGGER_ERROR = /\b(?:ERROR|FATAL|CRITICAL)\b|^E\d{4} \d\d:\d\d|^(?:[\d:. -]{8,40}: )?[EF] [\w./-]{1,200}:\d{1,6}\] |^\[E(?:\s|\d{4}\s)|\[(?:error|fatal|critical)\]|level=(?:error|fatal|crit)|"level"\s*:\s*"(?:error|fatal|critical)"/;
/** Any mention of failure: the last resort when nothing better is in the log. */
export const MENTION = /error|fail|fatal|exception|abort|panic|killed|denied/i;

/** Python's header, or IPython's (`ValueError      Traceback (most recent call last)`). */
export const TRACEBACK_HEADER = /^(?:[A-Za-z_][\w.]{0,200}\s+)?Traceback \(most recent call last\):?/;
/**
 * A frame of a traceback whose indentation a paste lost: Python's `File "…", line N, in f`
 * (with the quotes a forum may turn typographic), and IPython's frame lines (`Cell In[2],
 * line 1`, `File /x.py:12, in f()`, `----> 1 code`, `~/x.py in f(a)`).
 */
export const UNINDENTED_FRAME = /^(?:File ["\u201c][^"\u201d]{1,2000}["\u201d], line \d+|Cell In\[\d+\], line \d+|File \S{1,2000}:\d+, in |-*> ?\d+ |~?\/\S{1,2000} in \S|<ipython-input-[^>]{1,200}> in )/;
/** Python's chain markers: the exception printed before them is the root cause. */
export const CHAIN_MARKER = /^(?:During handling of the above exception|The above exception was the direct cause)/;
/** Java's cause of the exception printed above it; the root cause is the last. */
export const CAUSED_BY = /^\s*Caused by:\s*/;
/** A Java exception line: a dotted class name, optionally after `Exception in thread "main"`. */
export const JAVA_EXCEPTION = /^(?:Exception in thread "[^"]{0,200}" )?(?:[a-z_$][\w$]*\.){1,20}[A-Z][\w$]*(?:Exception|Error|OOM|Throwable)\b/;

/** Whether a line (its prefix removed) is an exception's own line, Python's or Java's. */
export function isExceptionLine(rest: string): boolean {
  return JAVA_EXCEPTION.test(rest) || EXCEPTION_LINE.test(rest);
}

/** A logfmt field naming a state and nothing else: `reason=Evicted`, `status=Failed`. */
const STATE_FIELD = /^\s{0,40}(?:reason|status)=[\w-]{1,60}\s*$/i;

/**
 * A line that names only the layer that failed, after where it was raised: ggml's abort
 * (`ggml-cuda.cu:97: CUDA error`, ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_error, printed with the
 * runtime's own string on a line of its own), a bare `NCCL error`. The line with the string says which.
 */
const BARE_LAYER_ERROR = /(?:^|:\s)(?:CUDA|CUDA driver|cuDNN|cuBLAS|NCCL) error\s*$/;

/**
 * Whether a line (its prefix removed) only announces what the lines after it say: it ends with
 * a colon ("error when retrieving current configuration of:"), is a bare field naming a state
 * (`reason=Evicted`, a status row such as `Reason: Evicted`) or names only the failing layer
 * (BARE_LAYER_ERROR). Such a line gives its place to a detail after it of the same kind, which
 * states why. An exception's own line keeps its place
 * whatever it ends with (the labelling rule, and where people look); so does a colon inside a
 * bracket still open (`(Request ID:`), a line a terminal wrapped mid-sentence.
 */
export function announcesDetail(rest: string): boolean {
  const t = rest.trimEnd();
  if (t.endsWith(':')) return !bracketOpenAtEnd(t) && !isExceptionLine(t);
  return STATE_FIELD.test(t) || STATUS_ROW.test(t) || BARE_LAYER_ERROR.test(t);
}

/** Whether a parenthesis or square bracket opened in the text is still open at its end. */
function bracketOpenAtEnd(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(' || c === '[') depth += 1;
    else if ((c === ')' || c === ']') && depth > 0) depth -= 1;
  }
  return depth > 0;
}
/** Said right after a caught error when the program tries again: that error did not end the run. */
export const RETRY_NOTICE = /\bretrying\b|\bwill (?:be )?retr(?:y|ied)\b|\bretry(?:ing)? in \d|\battempt \d+\s*(?:\/|of)|trying again|resum(?:e|ing) (?:the )?download/i;

export interface Classification {
  tier: number;
  category: Category;
  summary: string;
  transient?: boolean;
  kind?: EvidenceKind;
}

const UNRECOGNISED_EXCEPTION = 'An application error that is not one of the known kinds';

/** The dotted class of an exception line (`hydra.errors.ConfigCompositionException`), bounded. */
const EXCEPTION_CLASS = /^(?:[A-Za-z_]\w{0,100}\.){0,20}[A-Za-z_]\w{0,100}/;

/**
 * An exception of no known kind: the layer its class belongs to when its module raises one kind
 * of failure (vocabulary.ts EXCEPTION_MODULES, kind `class`), otherwise an application error.
 */
export function unrecognisedException(text: string): Classification {
  const name = EXCEPTION_CLASS.exec(text)?.[0] ?? '';
  const library = name.includes('.') ? EXCEPTION_MODULES.find((m) => name.startsWith(`${m.module}.`)) : undefined;
  if (!library) return { tier: TIER.exception, category: 'other', summary: UNRECOGNISED_EXCEPTION };
  return { tier: TIER.exception, category: library.category, kind: 'class', summary: `An exception of ${library.module}, which raises ${library.category} failures; its message names no known error` };
}

function fromSignature(sig: Signature, tier: number): Classification {
  return {
    tier: sig.tier ?? tier,
    category: sig.category,
    summary: sig.summary,
    ...(sig.transient !== undefined && { transient: sig.transient }),
    ...(sig.kind !== undefined && { kind: sig.kind }),
  };
}

/** A signature with its place in the literal gate's list. */
interface Gated {
  sig: Signature;
  at: number;
}

const ERRORS_BEFORE_CASCADES = ERRORS.filter((s) => s.beforeCascades);
const ERRORS_AFTER_CASCADES = ERRORS.filter((s) => !s.beforeCascades);
/**
 * The signatures in the order a line tries them (matchSignature): the errors that decide even
 * over a cascade, then the cascades, then the other errors. A gate index says which step it is.
 */
const SIGNATURES: readonly Signature[] = [...ERRORS_BEFORE_CASCADES, ...CASCADES, ...ERRORS_AFTER_CASCADES];
const FIRST_AFTER_CASCADES = ERRORS_BEFORE_CASCADES.length + CASCADES.length;

/**
 * Every regular expression classifyLine may run on a line, for the literal gate
 * (literal-gate.ts): one pass over the line tells which of them cannot match it, and those are
 * not run. The signatures come first, at their SIGNATURES index. A test that is no regular
 * expression (levelNear) is always run.
 */
interface GatedTest {
  at: number;
  pattern: { test(text: string): boolean };
}
const LINE_TESTS: RegExp[] = SIGNATURES.map((s) => s.pattern);
/** The gate's patterns, for its test: on every fixture line, none that matches may be left out. */
export const GATED_LINE_TESTS: readonly RegExp[] = LINE_TESTS;
const ALWAYS_RUN = /(?:)/;
function gatedTest(pattern: { test(text: string): boolean }): GatedTest {
  LINE_TESTS.push(pattern instanceof RegExp ? pattern : ALWAYS_RUN);
  return { at: LINE_TESTS.length - 1, pattern };
}
const GATED_HERRINGS = RED_HERRINGS.map((h) => gatedTest(h.pattern));
const GATED_NOISE = NOISE.map(gatedTest);
const GATED_LEVEL_NOISE = GATED_NOISE.slice(0, LEVEL_NOISE.length);
const GATED_OTHER_NOISE = GATED_NOISE.slice(LEVEL_NOISE.length);
const GATED_SHELL_COMMAND = gatedTest(SHELL_COMMAND);
const GATED_STATUS_ROW = gatedTest(STATUS_ROW);
const GATED_EXCEPTION_LINE = gatedTest(EXCEPTION_LINE);
const GATED_LEADING_ERROR = gatedTest(LEADING_ERROR);
const GATED_LOGGER_ERROR = gatedTest(LOGGER_ERROR);
const GATED_MENTION = gatedTest(MENTION);
const LINE_GATE = new LiteralGate(LINE_TESTS);

const GATE_INDEX: ReadonlyMap<Signature, number> = new Map(SIGNATURES.map((s, i) => [s, i]));
const gated = (sigs: readonly Signature[]): readonly Gated[] => sigs.map((sig) => ({ sig, at: GATE_INDEX.get(sig)! }));

/**
 * Per category a line may first be taken for, the recognised errors that outrank it within
 * the same line (precedence.ts), in the precedence's order: a watchdog's timeout that quotes a
 * CUDA error is that CUDA error, NCCL's warning about /dev/shm is shared memory.
 */
function outranking(reported: Category, kind?: EvidenceKind): readonly Gated[] {
  const rows = WITHIN_LINE_ROWS.filter((row) => rowOverrules(row, reported, kind));
  const sigs = rows.flatMap((row) => ERRORS.filter((sig) => sig.category !== reported && rowTakes(row, { category: sig.category, kind: sig.kind, recognised: true })));
  return gated([...new Set(sigs)]);
}
const CATEGORIES_SEEN = [...new Set([...CASCADES, ...ERRORS].map((s) => s.category))];
const OUTRANKING: ReadonlyMap<Category, readonly Gated[]> = new Map(CATEGORIES_SEEN.map((c) => [c, outranking(c)]));
/** For a line that only reports another layer's failure, whatever its category. */
const OUTRANKING_REPORT: ReadonlyMap<Category, readonly Gated[]> = new Map(CATEGORIES_SEEN.map((c) => [c, outranking(c, 'report')]));

/** Per test, whether it may match the line being classified: LINE_GATE's reading of it. */
type Possible = Uint8Array;

function runs(test: GatedTest, text: string, possible: Possible): boolean {
  return possible[test.at] === 1 && test.pattern.test(text);
}

function runsAny(tests: readonly GatedTest[], text: string, possible: Possible): boolean {
  for (const test of tests) if (runs(test, text, possible)) return true;
  return false;
}

/** The first match of a line, or what outranks it on the same line. */
function withinLine(first: Signature, tier: number, text: string, possible: Possible): Classification {
  for (const { sig, at } of (first.kind === 'report' ? OUTRANKING_REPORT : OUTRANKING).get(first.category) ?? []) {
    if (sig !== first && possible[at] === 1 && sig.pattern.test(text)) return fromSignature(sig, TIER.recognised);
  }
  return fromSignature(first, tier);
}

/**
 * Recognised or secondary signature of a line, before any generic rule: SIGNATURES in their
 * order, only those the gate left possible.
 */
function matchSignature(text: string, possible: Possible): Classification | null {
  const count = LINE_GATE.sortPossible();
  const order = LINE_GATE.possibleOrder;
  for (let i = 0; i < count; i++) {
    const at = order[i];
    if (at >= SIGNATURES.length) break;
    const sig = SIGNATURES[at];
    if (!sig.pattern.test(text)) continue;
    const cascade = at >= ERRORS_BEFORE_CASCADES.length && at < FIRST_AFTER_CASCADES;
    return withinLine(sig, cascade ? TIER.secondary : TIER.recognised, text, possible);
  }
  return null;
}

/** A red herring, a shell command or a line of source code: whatever words it holds, never the error. */
function neverAnError(text: string, possible: Possible): boolean {
  if (runsAny(GATED_HERRINGS, text, possible) || runs(GATED_SHELL_COMMAND, text, possible)) return true;
  return (text.includes('raise') || /^\s*["']/.test(text)) && SOURCE_LINE.test(text);
}

/** A line that only mentions a failure, or a bare heading over one. */
const MENTIONED: Classification = Object.freeze({ tier: TIER.mention, category: 'other', summary: 'A failure was mentioned' });

/**
 * Classifies one log line (its rank or timestamp prefix removed). Null for noise and for
 * lines that say nothing about an error.
 */
export function classifyLine(text: string): Classification | null {
  const possible = LINE_GATE.scan(text);
  if (neverAnError(text, possible)) return null;
  // The level filter first: most prefiltered lines are noise, and only those need a rescue.
  if (runsAny(GATED_NOISE, text, possible) && !loggedAsWarning(text)) return null;
  const sig = matchSignature(text, possible);
  const statusRow = runs(GATED_STATUS_ROW, text, possible);
  if (sig) return statusRow ? { ...sig, tier: Math.min(sig.tier, TIER.secondary) } : sig;
  // A status that names no known kind (`Status: Failed`, `Reason: UnexpectedAdmissionError`, a
  // `0/1 Error` row) says nothing at all: the `Message:` field or the event near it is the line.
  if (statusRow) return null;
  if (runs(GATED_EXCEPTION_LINE, text, possible)) return unrecognisedException(text);
  if (runs(GATED_LEADING_ERROR, text, possible)) {
    // A bare `Error:` heading says only that something follows: any error after it says more.
    if (BARE_ERROR_HEADING.test(text)) return MENTIONED;
    return { tier: TIER.exception, category: 'other', summary: UNRECOGNISED_EXCEPTION };
  }
  if (runs(GATED_LOGGER_ERROR, text, possible)) return { tier: TIER.secondary, category: 'other', summary: 'An error was logged' };
  if (runs(GATED_MENTION, text, possible)) return MENTIONED;
  return null;
}

/**
 * For a line dropped for its level alone (logged at info or warning level), the recognised error
 * it would have been at any other level; null for every other line. Such a line may have said
 * first what a later error line repeats.
 */
export function droppedForItsLevel(text: string): Classification | null {
  const possible = LINE_GATE.scan(text);
  if (neverAnError(text, possible)) return null;
  if (!runsAny(GATED_LEVEL_NOISE, text, possible) || loggedAsWarning(text) || runsAny(GATED_OTHER_NOISE, text, possible)) return null;
  const sig = matchSignature(text, possible);
  return sig && sig.tier >= TIER.recognised ? sig : null;
}

/**
 * Classifies the line that ends a Python traceback: whatever it says, it is the exception
 * that ended it, so it counts at least as an unrecognised exception and is never noise.
 */
export function classifyExceptionLine(text: string): Classification {
  const sig = matchSignature(text, LINE_GATE.scan(text));
  if (sig) return sig;
  return unrecognisedException(text);
}
