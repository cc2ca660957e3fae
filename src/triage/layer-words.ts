import type { Category, EvidenceItem } from './types.js';

/**
 * The last resort before `other`: when no line of the log is recognised, the layer that the
 * words of its error-looking lines name. A log nobody has a vocabulary entry for still says
 * "cudnn", "NCCL", "registry" or "Permission denied" on the lines where it fails; those words
 * are the layers' own names for themselves (NCCL's log prefix, the CUDA runtime's error
 * names, the kubelet's reasons), so a clear majority of them is weak but real evidence.
 *
 * Weak on purpose: a word is not an error string. The vote decides only below every
 * recognised piece of evidence (precedence.ts, the row 'layer words'), its summary says that
 * it is read from the log's words, and the result stays `recognised: false`.
 *
 * Signals (SIGKILL, "Killed", the oom-killer, SIGSEGV, segfaults, SIGABRT) are not words here: precedence.ts weighs them in
 * 'a signal the log reports', which tells a launcher's report from a list of guesses (Ray's
 * "potential root causes"); voting on them again would undo that.
 *
 * Linear: each voting line is split into tokens once (a character loop, no regex), each token
 * is one Map lookup plus a few fixed prefix checks, and at most VOTING_LINES lines vote.
 */

export interface LayerWord {
  category: Category;
  /** Where the software names itself or its failure with this word. */
  source: string;
}

const CUDA_RUNTIME = 'CUDA Runtime API, cudaError_t names (cudaErrorMemoryAllocation, cudaErrorNoDevice…) and cudaGetErrorString: https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html';
const NCCL_DEBUG = 'NVIDIA/nccl src/include/debug.h and src/debug.cc (every line it logs is prefixed "NCCL INFO" / "NCCL WARN"; its API and result names are nccl…: ncclUnhandledCudaError, ncclSystemError)';
const KUBELET_IMAGES = 'kubernetes/kubernetes pkg/kubelet/images/types.go (ErrImagePull, ImagePullBackOff) and distribution/distribution registry/api/errcode (MANIFEST_UNKNOWN "manifest unknown")';
const PY_IMPORT = 'python/cpython Lib/importlib/_bootstrap.py (ModuleNotFoundError "No module named"; ImportError "cannot import name")';

/** Whole tokens (lower case) and the layer each names. */
export const LAYER_WORDS: ReadonlyMap<string, LayerWord> = new Map<string, LayerWord>([
  ['cuda', { category: 'cuda', source: CUDA_RUNTIME }],
  ['cudart', { category: 'cuda', source: CUDA_RUNTIME }],
  ['xid', { category: 'cuda', source: 'NVIDIA GPU driver Xid errors ("NVRM: Xid"): https://docs.nvidia.com/deploy/xid-errors/' }],
  ['nvml', { category: 'cuda', source: 'NVIDIA NVML API (nvmlReturn_t, "NVML_ERROR_…"): https://docs.nvidia.com/deploy/nvml-api/' }],
  ['nccl', { category: 'nccl', source: NCCL_DEBUG }],
  ['gloo', { category: 'nccl', source: 'pytorch/gloo gloo/common/error.h (gloo::IoException, EnforceNotMet "[enforce fail at …gloo/…]")' }],
  ['c10d', { category: 'nccl', source: 'pytorch/pytorch torch/csrc/distributed/c10d (ProcessGroupNCCL, ProcessGroupGloo: "[c10d]" in its messages)' }],
  ['rendezvous', { category: 'nccl', source: 'pytorch/pytorch torch/distributed/elastic/rendezvous/api.py (RendezvousError, RendezvousTimeoutError)' }],
  ['allreduce', { category: 'nccl', source: 'NVIDIA/nccl src/collectives.cc (ncclAllReduce) and pytorch/gloo gloo/allreduce.h' }],
  ['shm', { category: 'host-oom', source: 'pytorch/pytorch torch/utils/data/_utils/signal_handling.py ("insufficient shared memory (shm)") and NVIDIA/nccl src/transport/shm.cc' }],
  ['modulenotfounderror', { category: 'import', source: PY_IMPORT }],
  ['importerror', { category: 'import', source: PY_IMPORT }],
  ['eacces', { category: 'permission', source: 'errno(3) EACCES "Permission denied"' }],
  ['eperm', { category: 'permission', source: 'errno(3) EPERM "Operation not permitted"' }],
  ['permission', { category: 'permission', source: 'strerror(3) EACCES "Permission denied"; kubernetes RBAC "is forbidden: … cannot" (plugin/pkg/auth/authorizer/rbac)' }],
  ['forbidden', { category: 'permission', source: 'kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go ("is forbidden: User %q cannot %s")' }],
  ['registry', { category: 'image-pull', source: KUBELET_IMAGES }],
  ['manifest', { category: 'image-pull', source: KUBELET_IMAGES }],
  ['errimagepull', { category: 'image-pull', source: KUBELET_IMAGES }],
  ['imagepullbackoff', { category: 'image-pull', source: KUBELET_IMAGES }],
  ['mount', { category: 'volume-mount', source: 'kubernetes/kubernetes pkg/kubelet/volumemanager/reconciler ("MountVolume.SetUp failed", FailedMount) and mount(8)' }],
  ['pvc', { category: 'volume-mount', source: 'kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding ("unbound immediate PersistentVolumeClaims", "pod has unbound PVC")' }],
  ['persistentvolumeclaim', { category: 'volume-mount', source: 'kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding ("persistentvolumeclaim %q not found")' }],
  ['quota', { category: 'scheduling', source: 'kubernetes/kubernetes plugin/pkg/admission/resourcequota ("exceeded quota: %s"); Run:ai project quota' }],
  ['unschedulable', { category: 'scheduling', source: 'kubernetes/kubernetes pkg/scheduler (PodScheduled condition reason "Unschedulable")' }],
  ['insufficient', { category: 'scheduling', source: 'kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go ("Insufficient %v")' }],
  ['preempted', { category: 'eviction', source: 'kubernetes/kubernetes pkg/scheduler/framework/preemption ("Preempted by pod"); Run:ai reason Preempted' }],
  ['evicted', { category: 'eviction', source: 'kubernetes/kubernetes pkg/kubelet/eviction/helpers.go ("The node was low on resource"; pod reason "Evicted")' }],
]);

/** Token prefixes (lower case): the layers' API names, whatever follows (cudaErrorNoDevice, CUDNN_STATUS_NOT_SUPPORTED, ncclSystemError). */
export const LAYER_STEMS: ReadonlyArray<readonly [string, LayerWord]> = [
  ['cudaerror', { category: 'cuda', source: CUDA_RUNTIME }],
  // The runtime's memory calls by name (cudaMalloc, cudaMallocAsync, cudaMemcpy…): a line that
  // says one of them ran "out of memory" speaks of GPU memory.
  ['cudamalloc', { category: 'cuda', source: CUDA_RUNTIME }],
  ['cudamemcpy', { category: 'cuda', source: CUDA_RUNTIME }],
  ['cudnn', { category: 'cuda', source: 'NVIDIA cuDNN API, cudnnStatus_t (CUDNN_STATUS_NOT_SUPPORTED, CUDNN_STATUS_EXECUTION_FAILED…): https://docs.nvidia.com/deeplearning/cudnn/api/' }],
  ['cublas', { category: 'cuda', source: 'NVIDIA cuBLAS API, cublasStatus_t (CUBLAS_STATUS_EXECUTION_FAILED…): https://docs.nvidia.com/cuda/cublas/' }],
  ['nccl', { category: 'nccl', source: NCCL_DEBUG }],
  ['modulenotfound', { category: 'import', source: PY_IMPORT }],
];

/** Lines that vote: the first error-looking lines of a log say where it fails; a flood says no more. */
export const VOTING_LINES = 256;
/** A winner needs this many lines naming its layer… */
export const MIN_VOTES = 1;
/** …and at least this many times the runner-up's votes: a tie or a close second is no reading. */
export const CLEAR_MARGIN = 2;

const OTHER = 'other';

/** A letter, digit or underscore: the characters of a word here and in learnt-words.ts. */
export function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

function lookUp(token: string): LayerWord | undefined {
  const lower = token.toLowerCase();
  const whole = LAYER_WORDS.get(lower);
  if (whole) return whole;
  for (const [stem, word] of LAYER_STEMS) if (lower.startsWith(stem)) return word;
  return undefined;
}

/**
 * The layers one line names, each once; a line naming CUDA and NCCL names CUDA. "out of memory" names host memory unless the line
 * also names a GPU layer (the CUDA caching allocator's "CUDA out of memory"), then GPU memory.
 */
export function layersOfLine(line: string): Set<Category> {
  const found = new Set<Category>();
  let outOfMemory = false;
  let prev1 = '';
  let prev2 = '';
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && !isWordChar(line.charCodeAt(i))) i++;
    const start = i;
    while (i < n && isWordChar(line.charCodeAt(i))) i++;
    if (i === start) break;
    // Tokens longer than any word or stem's API name cannot name a layer the Map knows
    // beyond their first characters; cut them so that toLowerCase stays bounded per token.
    const token = line.slice(start, Math.min(i, start + 64));
    // `cuda:0` is a device's name (PyTorch c10/core/Device.cpp, "cuda:<index>"), not the CUDA
    // layer failing: a device mismatch names it in passing.
    const deviceName = i < n && line.charCodeAt(i) === 58 && token.length === 4 && token.toLowerCase() === 'cuda';
    const word = deviceName ? undefined : lookUp(token);
    if (word) found.add(word.category);
    const lower = token.length <= 6 ? token.toLowerCase() : '';
    if (lower === 'memory' && prev1 === 'of' && prev2 === 'out') outOfMemory = true;
    prev2 = prev1;
    prev1 = lower;
  }
  // NCCL reporting a CUDA error is that CUDA error (precedence.ts, 'CUDA error under NCCL').
  if (found.has('cuda')) found.delete('nccl');
  if (outOfMemory) {
    const gpu = found.has('cuda');
    found.delete('cuda');
    found.add(gpu ? 'gpu-oom' : 'host-oom');
  }
  return found;
}

/** Counts the layers named by the error-looking lines of one log (first-error.ts feeds it). */
export class LayerVote {
  private readonly votes = new Map<Category, number>();
  private lines = 0;
  private firstLine = new Map<Category, number>();

  add(line: string, lineNumber: number): void {
    if (this.lines >= VOTING_LINES) return;
    this.lines++;
    for (const category of layersOfLine(line)) {
      this.votes.set(category, (this.votes.get(category) ?? 0) + 1);
      if (!this.firstLine.has(category)) this.firstLine.set(category, lineNumber);
    }
  }

  /** The clear winner as evidence, or nothing for a tie, a weak vote or no vote. */
  winner(): EvidenceItem | undefined {
    let best: Category | undefined;
    let bestVotes = 0;
    let second = 0;
    for (const [category, n] of this.votes) {
      if (n > bestVotes) {
        second = bestVotes;
        best = category;
        bestVotes = n;
      } else if (n > second) {
        second = n;
      }
    }
    if (!best || best === OTHER || bestVotes < MIN_VOTES || bestVotes < CLEAR_MARGIN * second) return undefined;
    return {
      role: 'log-words',
      category: best,
      summary: `Inferred from the words of the log's error lines (${bestVotes} of them name this layer); no line was recognised`,
      recognised: false,
      lineNumber: this.firstLine.get(best),
    };
  }
}
