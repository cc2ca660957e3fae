import type { Category, EvidenceKind } from './types.js';

/**
 * What the software itself says when it fails, by the software that says it: the error strings
 * of PyTorch, NCCL, the CUDA runtime, XLA/JAX, vLLM, SGLang, TGI, RMM and Spark RAPIDS, Ray,
 * Hugging Face, the kubelet and container runtimes, registries, NumPy, pip, DeepSpeed, the NGC
 * containers and the shell. Each entry quotes the words from their source (repository and file,
 * or documentation), never from a log someone pasted, so that the triage recognises a failure
 * nobody here has seen yet. Only the error strings are quoted, never code.
 *
 * These entries come before the broad patterns of signatures.ts: the first entry that matches a
 * line decides (within a line the precedence of precedence.ts still applies), so entries are
 * kept in the order of CATEGORY_ORDER and, within a category, specific before general.
 * Every pattern is bounded: it runs on prefiltered lines of at most 4096 characters.
 */

export interface VocabularyEntry {
  category: Category;
  kind?: EvidenceKind;
  summary: string;
  /**
   * The software's words; a pattern only where its format string has a placeholder or variants.
   * No flags: the software prints its words in one case, and the entries stay exact (spell case variants out).
   */
  says: RegExp;
  /** Where the words come from: repository and file, or a documentation URL. */
  source: string;
  /** A line as the software prints it, placeholders filled in, for the row-by-row test. */
  example: string;
  /** Overrides the category's retry verdict. */
  transient?: boolean;
  /** States the cause on a line that also matches a cascade (an NCCL WARN line). */
  beforeCascades?: boolean;
  /** Counts only as a secondary error: a banner or a report that is not always fatal. */
  secondary?: boolean;
  /**
   * A line holding this literal is the failure even where the noise filter would drop it: the
   * program logs it at warning level, or its message ends in "no error" (signatures.ts
   * LOGGED_AS_WARNING).
   */
  evenInNoise?: string;
}

export interface Software {
  software: string;
  entries: readonly VocabularyEntry[];
}

/** The order in which categories are tried on a line (the first match decides). */
export const CATEGORY_ORDER: readonly Category[] = [
  'image-pull', 'scheduling', 'volume-mount', 'eviction', 'host-oom', 'gpu-oom', 'cuda', 'nccl',
  'import', 'config', 'permission', 'data-path', 'crash', 'other',
];

const CUDA_RUNTIME_DOC = 'CUDA Runtime API, cudaGetErrorString: https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (the same strings in ROCm/clr hipamd/src/hip_error.cpp)';
const ERRNO_DOC = 'strerror(3) messages, https://man7.org/linux/man-pages/man3/errno.3.html';

export const VOCABULARY: readonly Software[] = [
  {
    software: 'Container registries and runtimes',
    entries: [
      {
        // A layer downloaded whole but not matching its digest: corrupted on the way or in the
        // registry's cache, so the pull stops.
        category: 'image-pull',
        summary: "A pulled image layer did not match its digest (corrupted in transfer or in the registry's copy)",
        says: /filesystem layer verification failed for digest /,
        source: 'moby/moby distribution/pull_v2.go (v2LayerDescriptor.Download: "filesystem layer verification failed for digest %s")',
        example: 'filesystem layer verification failed for digest sha256:171a4dd1b354cfc199e996c784b37a2bd3d6bc202c708877b0c55dc3522ade82',
      },
      {
        // Amazon ECS and AWS Batch name a failed pull by its own error code; the registry's or
        // IAM's answer follows it on the line (an AccessDenied here is the pull's, not the job's).
        category: 'image-pull',
        summary: 'Amazon ECS or AWS Batch could not pull the image (the reason follows: the registry, its credentials, the network)',
        says: /\bCannotPull(?:ECR)?ContainerError\b/,
        source: 'Amazon ECS stopped task error codes https://docs.aws.amazon.com/AmazonECS/latest/developerguide/stopped-task-error-codes.html (CannotPullContainerError, CannotPullECRContainerError)',
        example: 'CannotPullContainerError: pull image manifest has been retried 1 time(s): failed to resolve ref 123456789012.dkr.ecr.us-east-1.amazonaws.com/train:latest: not found',
      },
      {
        category: 'image-pull',
        summary: "Artifact Registry refused to let the puller download the image (its account lacks the reader role on the repository)",
        says: /Permission "artifactregistry\.repositories\.downloadArtifacts" denied/,
        source: 'Google Cloud Artifact Registry access control https://cloud.google.com/artifact-registry/docs/access-control (artifactregistry.repositories.downloadArtifacts, granted by roles/artifactregistry.reader; the registry answers DENIED: Permission "…" denied on resource "…")',
        example: 'DENIED: Permission "artifactregistry.repositories.downloadArtifacts" denied on resource "projects/p/locations/us/repositories/gcr.io" (or it may not exist)',
      },
      {
        category: 'image-pull',
        summary: "The image has no build for the node's platform (an amd64-only image on an arm64 node, or the reverse)",
        says: /no matching manifest for [\w/.-]{1,60} in the manifest list entries/,
        source: 'moby/moby distribution/pull_v2.go (fmt.Errorf("no matching manifest for %s in the manifest list entries", platform))',
        example: 'docker: no matching manifest for linux/arm64/v8 in the manifest list entries.',
      },
      {
        category: 'image-pull',
        transient: true,
        summary: "The registry answered enroot's pull with 429 or 5xx (rate limit or outage): a retry later can succeed",
        says: /URL https?:\/\/\S{1,2048} returned error code: (?:5\d\d|429)\b/,
        source: 'NVIDIA/enroot src/docker.sh (the registry API through curl: "URL %s returned error code: %s")',
        example: '[ERROR] URL https://registry-1.docker.io/v2/library/ubuntu/manifests/22.04 returned error code: 429',
      },
      {
        category: 'image-pull',
        transient: true,
        // The registry's answer states the cause on the kubelet's ErrImagePull line, a cascade.
        beforeCascades: true,
        summary: 'The registry was temporarily unavailable while the image was pulled (HTTP 5xx or 429)',
        says: /unexpected status(?: code \S{1,2048}| from [A-Z]{3,7} request to \S{1,2048})?: (?:5\d\d|429)\b|received unexpected HTTP status: (?:5\d\d|429)\b/,
        source: 'containerd/containerd core/remotes/errors/errors.go ("unexpected status from %s request to %s: %s"; v1.6 remotes/errors/errors.go "unexpected status: %s", remotes/docker/fetcher.go "unexpected status code %v: %v"); distribution/distribution internal/client/errors.go ("received unexpected HTTP status: %s", the registry client of Docker and Podman)',
        example: 'Failed to pull image "nvcr.io/nvidia/pytorch:24.05-py3": failed to copy: httpReadSeeker: failed open: unexpected status code https://nvcr.io/v2/nvidia/pytorch/blobs/sha256:9f2a: 502 Bad Gateway',
      },
      {
        category: 'image-pull',
        transient: true,
        // The registry's answer states the cause on the kubelet's ErrImagePull line, a cascade.
        beforeCascades: true,
        summary: 'The registry refused the pull for now: too many requests',
        // The registry's error code, not HTTP's reason phrase "Too Many Requests": every HTTP
        // client prints that one (the Hugging Face Hub's 429 is not a pull).
        says: /toomanyrequests|TOOMANYREQUESTS|pull rate limit|Status 429 trying to pull/,
        source: 'distribution/distribution registry/api/errcode/register.go (TOOMANYREQUESTS "too many requests", an error reads "toomanyrequests: <message>"); moby/moby registry/session.go (v1 pulls, "Error: Status %d trying to pull repository %s: %q")',
        example: 'Error response from daemon: toomanyrequests: You have reached your pull rate limit.',
      },
      {
        category: 'image-pull',
        summary: 'The registry could not be reached while the image was pulled',
        says: /failed to do request: (?:Head|Get|GET|HEAD) /,
        source: 'containerd/containerd core/remotes/docker/resolver.go ("failed to do request: %w")',
        example: 'failed to resolve reference "docker.io/library/busybox:1.36.1": failed to do request: Head "https://registry-1.docker.io/v2/library/busybox/manifests/1.36.1": dial tcp 202.53.137.209:443: i/o timeout',
      },
      {
        category: 'image-pull',
        // The registry's answer states the cause on the kubelet's ErrImagePull line, a cascade.
        beforeCascades: true,
        summary: 'The registry refused the credentials for the image',
        says: /\bunauthorized: |denied: requested access to the resource is denied|pull access denied|failed to fetch (?:oauth|anonymous) token/,
        source: 'distribution/distribution registry/api/errcode/register.go (UNAUTHORIZED "authentication required", DENIED), registry/api/errcode/errors.go (an error reads "<code in lower case>: <message>"); containerd/containerd core/remotes/docker/resolver.go ("pull access denied, repository does not exist or may require authorization"), core/remotes/docker/authorizer.go ("failed to fetch oauth token")',
        example: 'Error response from daemon: Head "https://nvcr.io/v2/nvidia/nemo/manifests/24.07": unauthorized: authentication required',
      },
      {
        category: 'image-pull',
        // The registry's answer states the cause on the kubelet's ErrImagePull line, a cascade.
        beforeCascades: true,
        summary: 'The image or tag does not exist in the registry',
        says: /manifest unknown|blob unknown to registry|repository name not known to registry|\bname unknown: |failed to resolve reference/,
        source: 'distribution/distribution registry/api/errcode/register.go (MANIFEST_UNKNOWN, BLOB_UNKNOWN, NAME_UNKNOWN); containerd/containerd internal/cri/server/images/image_pull.go ("failed to resolve reference")',
        example: 'Error response from daemon: manifest for vllm/vllm-openai:v0.99 not found: manifest unknown: manifest unknown',
      },
      {
        category: 'image-pull',
        summary: "Docker could not unpack a pulled layer onto the node's storage (its own message says why: a full or read-only disk)",
        says: /failed to register layer: /,
        source: 'moby/moby distribution/pull_v2.go and layer/layer_store.go (pulling: fmt.Errorf("failed to register layer: %v", err))',
        example: 'docker: failed to register layer: Error processing tar file(exit status 1): symlink libnppim.so.11.3.3.95 /opt/conda/lib/libnppim.so: read-only file system.',
      },
      {
        category: 'image-pull',
        secondary: true,
        summary: "The container never started: its image cannot be pulled (the kubelet's events say why)",
        says: /is waiting to start: trying and failing to pull image/,
        source: 'kubernetes/kubernetes pkg/kubelet/kubelet_pods.go (validateContainerLogStatus: "container %q in pod %q is waiting to start: trying and failing to pull image", the answer of kubectl logs)',
        example: 'Error from server (BadRequest): container "upload" in pod "upload" is waiting to start: trying and failing to pull image',
      },
      {
        category: 'image-pull',
        // Says only that earlier pulls failed: the Failed event beside it says why (a 429, a
        // missing tag), so it counts as a secondary error and gives way to that one.
        secondary: true,
        summary: 'The kubelet backs off pulling the image (an earlier pull failed)',
        says: /Back-off pulling image/,
        source: 'kubernetes/kubernetes pkg/kubelet/images/image_manager.go ("Back-off pulling image %q")',
        example: '  Normal   BackOff    9s (x4 over 94s)    kubelet            Back-off pulling image "registry.example.com/team/train:1.2"',
      },
      {
        // A registry (or a proxy before it) answered an error status with a body that is not the
        // registry API's JSON (an HTML 403 page): the status is the registry's answer to the pull.
        category: 'image-pull',
        summary: 'The registry answered the pull with an error page instead of the registry API',
        says: /error parsing HTTP \d{3} response body/,
        source: 'distribution/distribution registry/client/errors.go (UnexpectedHTTPResponseError: "error parsing HTTP %d response body: %s: %q"), the registry client of Docker and Podman',
        example: 'Error response from daemon: error parsing HTTP 403 response body: invalid character \'<\' looking for beginning of value: "<html><title>403 Forbidden</title></html>"',
      },
    ],
  },
  {
    software: 'Queues and autoscalers',
    entries: [
      {
        // A cloud project's quota for the accelerators asked for is used up: the request waits
        // (or is refused) until quota frees or is raised, as a queue over quota does.
        category: 'scheduling',
        transient: true,
        summary: "The cloud project's quota for these accelerators is used up (it waits until quota frees or is raised)",
        says: /Quota (?:limit )?'[\w.,\/-]{1,200}' (?:has been )?(?:exceeded|exhausted)\b|The following quota metrics exceed quota limits/,
        source: 'Google Cloud quotas, error messages https://cloud.google.com/docs/quotas/troubleshoot ("Quota \'…\' exceeded. Limit: … in region …"; RESOURCE_EXHAUSTED "Quota limit \'…\' has been exceeded"); Cloud TPU quotas https://cloud.google.com/tpu/docs/quota (preemptible and on-demand TPU quota per region)',
        example: "Quota 'TPUV4sPreemptiblePodPerProjectPerRegionForTPUAPI' exhausted.",
      },
      {
        // Kueue's waitForPodsReady: a workload whose pods were not all ready in time is evicted
        // and requeued, to free its quota for others; it is admitted again later.
        category: 'eviction',
        summary: "Kueue evicted the workload because its pods were not ready within the PodsReady timeout (it is requeued)",
        says: /EvictedDueToPodsReadyTimeout|Exceeded the PodsReady timeout /,
        source: 'kubernetes-sigs/kueue pkg/controller/core/workload_controller.go (waitForPodsReady: the eviction reason "PodsReadyTimeout", event EvictedDueToPodsReadyTimeout "Exceeded the PodsReady timeout %s")',
        example: '  Normal  EvictedDueToPodsReadyTimeout  2m5s  kueue-workload-controller  Exceeded the PodsReady timeout team-a/job-67543',
      },
      {
        // The Run:ai scheduler, open-sourced as KAI: its fit errors are what a Run:ai workload's
        // pods and PodGroups show while they wait.
        category: 'scheduling',
        summary: 'The Run:ai (KAI) scheduler found no node with the resources the workload asks for, or its queue is over quota',
        says: /no nodes with enough resources were found|Resources were not found for pod |Unable to schedule podgroup|NonPreemptibleOverQuota/,
        source: 'NVIDIA/KAI-scheduler pkg/scheduler/api/common_info/*.go (ResourcesWereNotFoundMsg "no nodes with enough resources were found", DefaultPodgroupError "Unable to schedule podgroup", the PodGroup condition "PodSchedulingErrors. Resources were not found for pod %s due to: %s", the reason NonPreemptibleOverQuota)',
        example: "  Warning  Unschedulable  12s  kai-scheduler  no nodes with enough resources were found: 4 node(s) didn't have enough resources: GPUs.",
      },
      {
        category: 'scheduling',
        summary: 'The queue has no quota left for the workload (it waits for quota)',
        // couldn''t: how a YAML single-quoted string (kubectl get -o yaml) writes the apostrophe.
        says: /couldn''?t assign flavors to pod set|insufficient unused quota for \S{1,253} in flavor|is inadmissible/,
        source: 'kubernetes-sigs/kueue pkg/scheduler/flavorassigner/flavorassigner.go ("couldn\'t assign flavors to pod set %s", "insufficient unused quota for %s in flavor %s, %s more needed")',
        example: "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 8 more needed",
      },
      {
        category: 'scheduling',
        summary: 'Ray has no node type that can hold the requested resources',
        says: /No available node types can fulfill resource request|There are tasks with infeasible resource requests/,
        source: 'ray-project/ray python/ray/autoscaler/_private/autoscaler.py ("Error: No available node types can fulfill resource request %s. Add suitable node types to this cluster to resolve this issue."), the raylet\'s infeasible-task warning',
        example: "(autoscaler) Error: No available node types can fulfill resource request {'GPU': 8.0, 'CPU': 8.0}",
      },
      {
        category: 'scheduling',
        summary: 'Ray Serve cannot place a replica: the cluster has no free resources it asks for (it waits for them or for the autoscaler)',
        says: /replicas that have taken more than \d{1,5}s to be scheduled|could not find a node type to satisfy the request/,
        source: 'ray-project/ray python/ray/serve/_private/deployment_state.py (logger.warning "Deployment \'%s\' in application \'%s\' %d replicas that have taken more than %ss to be scheduled. This may be due to waiting for the cluster to auto-scale…"), python/ray/autoscaler/_private/resource_demand_scheduler.py ("The autoscaler could not find a node type to satisfy the request: %s")',
        example: "Deployment 'VLLMDeployment' in application 'ray-llm' 1 replicas that have taken more than 30s to be scheduled. This may be due to waiting for the cluster to auto-scale or for a runtime environment to be installed.",
        evenInNoise: 'to be scheduled',
      },
      {
        category: 'scheduling',
        summary: 'The cluster autoscaler will not add a node for the pod (a node group is at its limit, or no group fits the pod)',
        says: /pod didn't trigger scale-up\b/,
        source: 'kubernetes/autoscaler cluster-autoscaler/processors/status/eventing_scale_up_processor.go (event NotTriggerScaleUp "pod didn\'t trigger scale-up: %s", earlier "pod didn\'t trigger scale-up (it wouldn\'t fit if a new node is added)")',
        example: "  Normal   NotTriggerScaleUp  2m  cluster-autoscaler  pod didn't trigger scale-up: 1 max node group size reached, 3 node(s) didn't match Pod's node affinity/selector",
        evenInNoise: 'trigger scale-up',
      },
    ],
  },
  {
    software: 'Kubernetes admission',
    entries: [
      {
        // Scheduled, then refused by the node's kubelet: its own count of what runs there left
        // too little (a race with pods the scheduler had not seen). Placing it again is the fix.
        category: 'scheduling',
        summary: "The node's kubelet refused the pod after it was scheduled: too little of a resource was left on the node",
        says: /Node didn't have enough resource: [\w./-]{1,253}/,
        source: 'kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go (InsufficientResourceError: "Node didn\'t have enough resource: %s, requested: %d, used: %d, capacity: %d", reason "OutOf" + the resource; pkg/kubelet/kubelet.go rejectPod: "Pod was rejected: " + message)',
        example: "Message:          Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 8, capacity: 8",
      },
      {
        // The scheduler counted a free GPU the node's device manager does not have (one the
        // device plugin just marked unhealthy, or a race with another pod): placing the pod
        // again, elsewhere or a little later, is the fix.
        category: 'scheduling',
        summary: "The node's kubelet had fewer free devices (GPUs) than the pod asks for when it admitted the pod",
        says: /requested number of devices unavailable for [\w./-]{1,253}\. Requested: \d{1,6}, Available: \d{1,6}/,
        source: 'kubernetes/kubernetes pkg/kubelet/cm/devicemanager/manager.go (devicesToAllocate: "requested number of devices unavailable for %s. Requested: %d, Available: %d"; the pod fails with reason UnexpectedAdmissionError, "Pod Allocate failed due to %v, which is unexpected")',
        example: 'Message:        Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected',
      },
      {
        category: 'config',
        summary: 'The pod claims a device whose DRA driver does not run on the node (the driver is not deployed there, or not yet registered)',
        says: /DRA driver \S{1,253} is not registered/,
        source: 'kubernetes/kubernetes pkg/kubelet/cm/dra/plugin/registration.go and manager.go (NewDRAPluginClient: "DRA driver %s is not registered")',
        example: 'Warning  FailedPrepareDynamicResources  kubelet  Failed to prepare dynamic resources: DRA driver compute-domain.nvidia.com is not registered',
      },
      {
        category: 'config',
        summary: "The NVIDIA device plugin refused its own flags or config (MPS, time-slicing or MIG settings)",
        says: /unable to validate flags: /,
        source: 'NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go (loadConfig: "unable to validate flags: %v"; "using MPS requires --mps-root to be specified")',
        example: 'E0120 07:09:15.605081       1 main.go:132] error starting plugins: unable to load config: unable to validate flags: using MPS requires --mps-root to be specified',
      },
      {
        // Refused at admission, not waiting for room: the pod spec (or the namespace's policy)
        // must change before any pod is created, so it is not scheduling or quota.
        category: 'config',
        summary: "The pod spec breaks the namespace's Pod Security level (runAsNonRoot, privileges, seccomp…): the spec must change",
        says: /violates PodSecurity "[^"\n]{1,100}"/,
        source: 'kubernetes/pod-security-admission admission/admission.go (the denial "violates PodSecurity %q: %s", with the failed checks\' reasons)',
        example: 'Error creating: pods "train-7d9f" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "train" must set securityContext.runAsNonRoot=true)',
      },
      {
        category: 'config',
        summary: "The pod asks for more (or less) than the namespace's LimitRange allows per container or pod: the request must change",
        says: /(?:maximum|minimum) [\w./-]{1,60} usage per (?:Container|Pod|PersistentVolumeClaim) is \S{1,40}, but (?:limit|request) is \S{1,40}|[\w./-]{1,60} max limit to request ratio per (?:Container|Pod) is/,
        source: 'kubernetes/kubernetes plugin/pkg/admission/limitranger/admission.go (minConstraint/maxConstraint: "%s %s usage per %s is %s, but %s is %s", limitRequestRatioConstraint: "%s max limit to request ratio per %s is %s, but provided ratio is %f")',
        example: 'pods "demo-chat-6c8f" is forbidden: maximum memory usage per Container is 4Gi, but limit is 8Gi',
      },
    ],
  },
  {
    software: 'Volume mounts',
    entries: [
      {
        // Saving into a volume that is full: the storage layer, as labelled in the corpus; the
        // volume needs room (or a larger claim), not another try.
        category: 'volume-mount',
        summary: 'PyTorch could not write the checkpoint file (the disk or volume is usually full)',
        says: /PytorchStreamWriter failed writing file \S{1,300}: file write failed/,
        source: 'pytorch/pytorch caffe2/serialize/inline_container.cc (PyTorchStreamWriter::writeRecord and its writer: "PytorchStreamWriter failed writing file ", then "file write failed")',
        example: 'RuntimeError: [enforce fail at inline_container.cc:471] . PytorchStreamWriter failed writing file data/228: file write failed',
      },
      {
        category: 'volume-mount',
        summary: 'The mount helper could not mount the network volume',
        says: /\bmount\.(?:nfs4?|cifs|ceph|fuse)\b: /,
        source: 'mount.nfs(8), mount.cifs(8): https://man7.org/linux/man-pages/man8/mount.nfs.8.html (errors prefixed with the helper\'s name)',
        example: 'Feb  6 22:19:49 ceph-2 kubelet: mount.nfs: Connection refused',
      },
      {
        // Reported as a FailedScheduling event, but what has to change is the claim (no volume,
        // no storage class, a provisioner that has not answered): a volume's failure.
        category: 'volume-mount',
        summary: "The pod's volume claim is not bound to a volume, so no node can take the pod",
        says: /pod has unbound immediate PersistentVolumeClaims|didn't find available persistent volumes to bind|had volume node affinity conflict/,
        source: 'kubernetes/kubernetes pkg/scheduler/framework/plugins/volumebinding/volume_binding.go ("pod has unbound immediate PersistentVolumeClaims"), binder.go (ErrReasonBindConflict "node(s) didn\'t find available persistent volumes to bind", ErrReasonNodeConflict "node(s) had volume node affinity conflict")',
        example: '  Warning  FailedScheduling  16s (x13 over 6m)  default-scheduler  0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.',
      },
      {
        // The claim cannot get a volume: the volume it names does not fit it (class, size,
        // access mode), none is free and no class provisions one, or the provisioner failed.
        category: 'volume-mount',
        summary: "The pod's volume claim stays unbound: the volume it asks for does not match it, none is available, or provisioning one failed",
        says: /Cannot bind to requested volume "[^"\n]{1,253}": |no persistent volumes available for this claim|[Ff]ailed to provision volume with StorageClass "/,
        source: 'kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go (event VolumeMismatch "Cannot bind to requested volume %q: %s", FailedBinding "no persistent volumes available for this claim and no storage class is set", ProvisioningFailed "Failed to provision volume with StorageClass %q: %v"); kubernetes-sigs/sig-storage-lib-external-provisioner controller/controller.go ("failed to provision volume with StorageClass %q: %v")',
        example: '  Warning  VolumeMismatch  4s (x26 over 6m14s)  persistentvolume-controller  Cannot bind to requested volume "models": storageClassName does not match',
      },
    ],
  },
  {
    software: 'Image references and the registry API',
    entries: [
      {
        category: 'image-pull',
        summary: 'The image name is not a valid reference',
        says: /invalid reference format|repository name (?:\(\S{1,300}\) )?must be lowercase/,
        source: 'distribution/reference reference.go (ErrReferenceInvalidFormat "invalid reference format", ErrNameContainsUppercase "repository name must be lowercase"), normalize.go',
        example: 'docker: invalid reference format: repository name must be lowercase.',
      },
      {
        category: 'image-pull',
        summary: 'CRI-O refused a short image name that more than one registry could serve (short-name mode enforcing): the image needs its registry',
        says: /short name mode is enforcing, but image name \S{1,300} returns ambiguous list/,
        source: 'containers/image pkg/shortnames/shortnames.go ("short name mode is enforcing, but image name %s returns ambiguous list"), read by CRI-O and Podman',
        example: 'Failed to inspect image "": rpc error: code = Unknown desc = short name mode is enforcing, but image name synology/synology-csi:v1.2.0 returns ambiguous list',
      },
      {
        category: 'image-pull',
        summary: "A request to the registry's API failed while the image was pulled",
        // Ollama's model registry speaks the same API; its pull of a model is data (its own entry).
        says: /(?<!pull model manifest: Get ")https?:\/\/[^\s"/]{1,253}\/v2\/(?:"|:|\s|$|(?:[^\s"]{1,512}\/)?(?:manifests|blobs|tags)\/)/,
        source: 'OCI distribution spec https://github.com/opencontainers/distribution-spec/blob/main/spec.md (every registry endpoint is under /v2/: /v2/, /v2/<name>/manifests/<ref>, /v2/<name>/blobs/<digest>)',
        example: 'docker: Error response from daemon: Get "https://registry-1.docker.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers).',
      },
    ],
  },
  {
    software: 'Training operators and the kubelet restarting a container',
    entries: [
      {
        // Says only that a replica ended badly: its own log has the cause. Logged at info level.
        category: 'other',
        secondary: true,
        summary: "A replica of the training job exited with an error code (the replica's own log says why)",
        says: /Pod: \S{1,300} exited with code [1-9]\d{0,2}\b/,
        source: 'kubeflow/training-operator pkg/controller.v1/tensorflow/tfjob_controller.go and the other job controllers (logger.Infof("Pod: %v.%v exited with code %v"), also recorded as the ExitedWithCode event)',
        example: 'time="2024-02-21T09:32:29Z" level=info msg="Pod: kubeflow.pytorch-simple-worker-0 exited with code 1" job=kubeflow.pytorch-simple replica-type=worker',
        evenInNoise: 'exited with code',
      },
      {
        category: 'other',
        secondary: true,
        summary: "The container keeps exiting and the kubelet backs off restarting it (the container's log says why)",
        says: /\bCrashLoopBackOff\b|back-off \S{1,20} restarting failed container/,
        source: 'kubernetes/kubernetes pkg/kubelet/container/sync_result.go (ErrCrashLoopBackOff "CrashLoopBackOff"), pkg/kubelet/kuberuntime/kuberuntime_manager.go ("back-off %s restarting failed container=%s pod=%s")',
        example: 'pytorchjob-example-82cjcqdz-master-0         0/2     CrashLoopBackOff   8          2m32s',
        evenInNoise: 'restarting failed container',
      },
      {
        // Says only that the Job gave up: each failed pod's own log has the cause.
        category: 'other',
        summary: "The Job stopped retrying: its pods failed more times than its backoff limit allows, or it ran past its deadline (a failed pod's own log says why)",
        says: /Job has reached the specified backoff limit|Job was active longer than specified deadline/,
        source: 'kubernetes/kubernetes pkg/controller/job/job_controller.go (the Failed condition\'s messages for reason BackoffLimitExceeded "Job has reached the specified backoff limit" and DeadlineExceeded "Job was active longer than specified deadline")',
        example: '      message: Job has reached the specified backoff limit',
      },
      {
        // A 404 from the probe's own endpoint: the probe asks for a path the server does not
        // serve (a wrong httpGet path or port's server), so the kubelet restarts a healthy
        // container until the spec is fixed. Other codes say the server is unwell: its log says why.
        category: 'config',
        summary: "The container's HTTP probe asks for a path its server does not serve (404): the probe's path or port is wrong",
        says: /\b(?:Liveness|Readiness|Startup) probe failed: HTTP probe failed with statuscode: 404\b/,
        source: 'kubernetes/kubernetes pkg/probe/http/http.go (DoHTTPProbe: "HTTP probe failed with statuscode: %d"), pkg/kubelet/prober/prober.go ("%s probe failed: %s", recorded as the Unhealthy event)',
        example: '  Warning  Unhealthy  25m (x3 over 25m)  kubelet  Liveness probe failed: HTTP probe failed with statuscode: 404',
      },
      {
        // Any other probe failure says only that the server in the container did not answer in
        // time (refused, timed out, a 5xx): why it is down is in the container's own log. It
        // outranks the network words on its line, which are the probe's, not the job's.
        category: 'other',
        secondary: true,
        summary: "The kubelet's probe got no healthy answer from the container, so the kubelet restarts or withholds it (the container's own log says why the server is down)",
        says: /\b(?:Liveness|Readiness|Startup) probe failed: |\bfailed (?:liveness|startup) probe, will be restarted\b/,
        source: 'kubernetes/kubernetes pkg/kubelet/prober/prober.go ("%s probe failed: %s", recorded as the Unhealthy event), pkg/kubelet/kuberuntime/kuberuntime_manager.go ("Container %s failed %s probe, will be restarted")',
        example: '  Warning  Unhealthy  41s (x3 over 61s)  kubelet  Liveness probe failed: Get "http://10.0.0.7:8000/v2/health/live": dial tcp 10.0.0.7:8000: connect: connection refused',
      },
    ],
  },
  {
    software: 'Kubelet eviction manager',
    entries: [
      {
        category: 'eviction',
        summary: 'The node ran short of memory or disk and the kubelet evicted pods to reclaim it',
        says: /Attempting to reclaim (?:memory|ephemeral-storage|nodefs|imagefs|pids|inodes)|The node had condition: \[(?:MemoryPressure|DiskPressure|PIDPressure)\]/,
        source: 'kubernetes/kubernetes pkg/kubelet/eviction/eviction_manager.go (event EvictionThresholdMet "Attempting to reclaim %s"), pkg/kubelet/eviction/helpers.go (nodeConditionMessageFmt "The node had condition: %v. ")',
        example: '  Warning  EvictionThresholdMet  4m32s  kubelet, node-3  Attempting to reclaim ephemeral-storage',
        // Controllers (Argo's, the training operator) log the pod's rejection at info level.
        evenInNoise: 'The node had condition: [',
      },
      {
        // Not node pressure: the pod wrote more than its own containers' limits allow, so the same
        // pod is evicted again wherever it runs. The limit or what the job writes must change.
        category: 'eviction',
        transient: false,
        summary: 'The pod was evicted for writing more local storage than its own limits allow (a retry hits the same limit)',
        says: /Pod ephemeral local storage usage exceeds the total limit of containers|Container \S{1,253} exceeded its local ephemeral storage limit|Usage of EmptyDir volume \S{1,253} exceeds the limit/,
        source: 'kubernetes/kubernetes pkg/kubelet/eviction/eviction_manager.go (podEphemeralStorageMessageFmt "Pod ephemeral local storage usage exceeds the total limit of containers %s. ", containerEphemeralStorageMessageFmt "Container %s exceeded its local ephemeral storage limit %q. ", emptyDirMessageFmt "Usage of EmptyDir volume %q exceeds the limit %q. ")',
        example: '  Warning  Evicted  109s  kubelet  Pod ephemeral local storage usage exceeds the total limit of containers 5Gi.',
      },
      {
        // A cloud's notice that it takes a spot or preemptible machine back: the run did not fail
        // by itself, and the same job on another machine may well finish.
        category: 'eviction',
        summary: 'The cloud announced it was taking back the spot or preemptible machine',
        says: /(?:GCP|EC2) Metadata Service says termination is imminent/,
        source: 'taskcluster/taskcluster tools/worker-runner/provider/google/google.go and provider/aws/aws.go (checkTerminationTime: "GCP Metadata Service says termination is imminent", "EC2 Metadata Service says termination is imminent", from the metadata servers\' instance/preempted and spot/termination-time)',
        example: '2024/03/01 10:22:03 GCP Metadata Service says termination is imminent',
        transient: true,
      },
    ],
  },
  {
    software: 'Ray',
    entries: [
      {
        // Logged at warning level while the driver waits: the node's raylet never joined the
        // head (ray start not run there, or a network between them that does not connect).
        category: 'nccl',
        summary: "Ray's driver waits for processes that never registered with the head node's GCS (a node that did not join)",
        says: /Some processes that the driver needs to connect to have not registered with GCS/,
        source: 'ray-project/ray src/ray/gcs/gcs_client/global_state_accessor.cc (RAY_LOG(WARNING) "Some processes that the driver needs to connect to have not registered with GCS, so retrying. Have you run \'ray start\' on this node?")',
        example: "[2023-10-24 03:59:58,924 W 8 8] global_state_accessor.cc:401: Some processes that the driver needs to connect to have not registered with GCS, so retrying. Have you run 'ray start' on this node?",
        evenInNoise: 'have not registered with GCS',
      },
      {
        category: 'scheduling',
        summary: "vLLM's Ray placement group waits for GPUs the cluster cannot give it yet",
        says: /The number of required GPUs exceeds the total number of available GPUs in the placement group|Waiting for creating a placement group of specs for \d{1,6} seconds/,
        source: 'vllm-project/vllm vllm/executor/ray_utils.py (_verify_bundles / _wait_until_pg_ready: "The number of required GPUs exceeds the total number of available GPUs in the placement group.", "Waiting for creating a placement group of specs for %d seconds. specs=%s. Check `ray status` to see if you have enough resources")',
        example: 'WARNING 04-01 02:45:50 ray_utils.py:320] The number of required GPUs exceeds the total number of available GPUs in the placement group.',
        evenInNoise: 'placement group',
      },
      {
        // A connect failure between the job's nodes, by the labelling rule (Ray's GCS is like a
        // rendezvous): the network between them, or a node too busy to answer. Not an eviction.
        category: 'nccl',
        summary: 'Ray lost contact with a node (it missed heartbeats: the network between the nodes, or a node too busy to answer)',
        says: /has been marked dead because the detector has missed too many heartbeats/,
        source: 'ray-project/ray src/ray/gcs/gcs_server/gcs_node_manager.cc ("The node with node id: %s … has been marked dead because the detector has missed too many heartbeats from it")',
        example: '2023-03-03 05:15:30,774 WARNING worker.py:1866 -- The node with node id: 9426f445 and address: 10.130.0.113 and node name: 10.130.0.113 has been marked dead because the detector has missed too many heartbeats from it.',
        evenInNoise: 'marked dead',
      },
      {
        // Ray lists possible causes (the OOM killer, ray stop, a crash) without knowing which:
        // the report names no kind, and its list must not be read as one (SIGKILL, OOM).
        category: 'other',
        secondary: true,
        beforeCascades: true,
        summary: 'A Ray worker process died; Ray does not say why (its own log may)',
        says: /A worker died or was killed while executing a task by an unexpected system error|Worker unexpectedly exits with a connection error code \d+/,
        source: 'ray-project/ray src/ray/raylet/node_manager.cc ("A worker died or was killed while executing a task by an unexpected system error"; HandleClientConnectionError: "Worker unexpectedly exits with a connection error code %d. %s. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer …", a list of guesses, not a report of a signal)',
        example: '(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. Worker exit type: SYSTEM_ERROR Worker exit detail: The process is killed by SIGKILL by OOM killer due to high memory usage.',
        evenInNoise: 'A worker died',
      },
      {
        // A connect failure between the nodes of the job: the head's GCS stopped answering.
        category: 'nccl',
        beforeCascades: true,
        summary: "A Ray node lost its connection to the head node's GCS",
        says: /Failed to connect to GCS within \d+ seconds/,
        source: 'ray-project/ray src/ray/rpc/gcs_server/gcs_rpc_client.h (RAY_LOG(ERROR) "Failed to connect to GCS within " << gcs_rpc_server_reconnect_timeout_s << " seconds. GCS may have been killed…"; rpc_client.h in later releases)',
        example: '[2024-05-26 11:26:16,798 E 177479 178526] gcs_rpc_client.h:554: Failed to connect to GCS within 60 seconds. GCS may have been killed. It\'s either GCS is terminated by `ray stop` or is killed unexpectedly.',
      },
      {
        // Ray's memory monitor killed workers for the node's memory: the kill report.
        category: 'host-oom',
        summary: "Ray's memory monitor killed workers because the node ran low on host memory",
        says: /which exceeds the memory usage threshold of \d/,
        source: 'ray-project/ray src/ray/raylet/node_manager.cc (the OOM kill message: "Memory on the node (IP: %s, ID: %s) where the task … was running was %.2fGB / %.2fGB (%.2f), which exceeds the memory usage threshold of %.2f. Ray killed this worker …")',
        example: 'Memory on the node (IP: 10.0.0.7, ID: 708c7baf) where the task (actor ID: 0dab4ab4, name=RayWorkerVllm.__init__, pid=308, memory used=11.15GB) was running was 12.49GB / 13.15GB (0.950003), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: 79a553ea) because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.0.7`. Top 10 memory users:',
      },
      {
        // Its advice follows the kill report and the table of top memory users: a report of the
        // kill, which is the line to read when the paste has it, and stands in when it was cut.
        category: 'host-oom',
        kind: 'report',
        summary: "Ray's memory monitor killed workers because the node ran low on host memory (its advice; the kill report above says which)",
        says: /Refer to the documentation on how to address the out of memory issue: /,
        source: 'ray-project/ray src/ray/raylet/node_manager.cc (after the kill message and its table of top memory users: "Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. …")',
        example: '(raylet) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task.',
      },
      {
        // The job submitter (a RayJob's submitter pod, `ray job submit`) cannot reach the head's
        // dashboard: a connect failure inside the Ray cluster, as the GCS's are.
        category: 'nccl',
        summary: "Ray's job client could not reach the head node's dashboard (the head is not up yet, or its service or port does not answer)",
        says: /Failed to connect to Ray at address: /,
        source: 'ray-project/ray python/ray/dashboard/modules/dashboard_sdk.py (SubmissionClient._check_connection_and_version_with_url: ConnectionError(f"Failed to connect to Ray at address: {self._address}."))',
        example: 'ConnectionError: Failed to connect to Ray at address: http://raycluster-head-svc.default.svc.cluster.local:8265.',
      },
    ],
  },
  {
    software: 'Shared memory (/dev/shm)',
    entries: [
      {
        category: 'host-oom',
        kind: 'shared-memory',
        beforeCascades: true,
        summary: 'NCCL could not create its shared memory segment (/dev/shm is full or too small)',
        says: /Error while (?:creating|attaching to) shared memory segment|failed to create shared memory file|unable to allocate shared memory|Call to posix_fallocate failed/,
        source: 'NVIDIA/nccl src/misc/shmutils.cc, src/os/linux.cc ("Error while %s shared memory segment %s (size %ld)", "Error: failed to create shared memory file %s"), src/include/shm.h (v2.7, SYSCHECK(…, "posix_fallocate") on the /dev/shm file)',
        example: 'node-3:2211:2302 [1] include/shm.h:48 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-RqWUpz (size 9637888)',
      },
      {
        category: 'host-oom',
        kind: 'shared-memory',
        summary: 'A DataLoader worker ran out of shared memory (/dev/shm)',
        says: /insufficient shared memory \(shm\)|unable to (?:write to file|open shared memory object|mmap \d+ bytes from file) <\/torch_/,
        source: 'pytorch/pytorch torch/csrc/DataLoader.cpp ("This might be caused by insufficient shared memory (shm)"), aten/src/ATen/MapAllocator.cpp ("unable to write to file <%s>", "unable to open shared memory object <%s>")',
        example: 'RuntimeError: unable to write to file </torch_311_1030151126_0>: No space left on device (28)',
      },
    ],
  },
  {
    software: 'GPU memory allocators',
    entries: [
      {
        // Intel GPUs through SYCL (llama.cpp's SYCL backend, oneAPI programs): the Unified Runtime's
        // and Level Zero's result codes for an allocation the device cannot hold.
        category: 'gpu-oom',
        summary: 'The GPU ran out of memory (an Intel GPU through SYCL: Unified Runtime or Level Zero)',
        says: /\b(?:UR|ZE)_RESULT_ERROR_OUT_OF_DEVICE_MEMORY\b/,
        source: 'oneapi-src/unified-runtime include/ur_api.h (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY = 39, "Insufficient device memory to satisfy the request"); oneapi-src/level-zero include/ze_api.h (ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "[Core] insufficient device memory to satisfy call")',
        example: 'level_zero backend failed with error: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)',
      },
      {
        // Programs that print the runtime's error code and string around their own words (TensorRT's
        // builder: "CUDA error 2 allocating 2147747325-byte buffer: out of memory" while it tries
        // tactics): code 2 is cudaErrorMemoryAllocation, whose string is "out of memory".
        category: 'gpu-oom',
        summary: 'A CUDA allocation failed (error 2, cudaErrorMemoryAllocation): the GPU ran out of memory',
        says: /CUDA error 2 [^\n]{0,200}?: out of memory/,
        source: `${CUDA_RUNTIME_DOC} (cudaErrorMemoryAllocation = 2, "out of memory"); NVIDIA TensorRT developer guide, builder autotuning https://docs.nvidia.com/deeplearning/tensorrt/latest/performance/best-practices.html (tactics skipped for want of workspace memory)`,
        example: '[W] Skipping tactic 0x0000000000000000 due to exception autotuning: CUDA error 2 allocating 2147747325-byte buffer: out of memory',
        evenInNoise: 'out of memory',
      },
      {
        // MindSpore's device memory pool (GPU or Ascend NPU) refuses an allocation that would pass
        // the device's total: device memory, as an allocator's out-of-memory always is.
        category: 'gpu-oom',
        summary: "MindSpore's device memory pool could not allocate: the accelerator ran out of memory",
        says: /plus alloc size : \d{1,20} is more than total mem size|memory isn't enough and alloc failed/,
        source: 'mindspore-ai/mindspore mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc (AddMemBlockAndMemBufByEagerFree: "TotalUsedMemStatistics : %d plus TotalUsedByEventMemStatistics : %d and plus alloc size : %d is more than total mem size : %d."; "Device(id:%d) memory isn\'t enough and alloc failed")',
        example: '[ERROR] PRE_ACT(54175,fffdbcff91e0,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600.',
      },
      {
        // HAMi's vGPU shim enforces the pod's share of GPU memory inside the process: an
        // allocation past it fails as out of memory (res=2 is CUDA_ERROR_OUT_OF_MEMORY).
        category: 'gpu-oom',
        summary: "HAMi's vGPU limit refused an allocation: the pod used up its share of the GPU's memory",
        says: /\[HAMI-core ERROR [^\]\n]{0,200}\]: (?:Device \d{1,3} OOM \d{1,20} \/ \d{1,20}|cuMemoryAllocate failed res=2\b)/,
        source: 'Project-HAMi/HAMi-core src/allocator/allocator.c (LOG_ERROR("Device %d OOM %lu / %lu", …), LOG_ERROR("cuMemoryAllocate failed res=%d", res)); CUDA Driver API CUresult 2 is CUDA_ERROR_OUT_OF_MEMORY',
        example: '[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 0 OOM 3171158016 / 3145728000',
      },
      {
        category: 'gpu-oom',
        summary: 'A Vulkan allocation found no GPU memory left (headless rendering, simulators)',
        says: /\bVK_ERROR_OUT_OF_DEVICE_MEMORY\b|VkResult: ERROR_OUT_OF_DEVICE_MEMORY\b/,
        source: 'Khronos Vulkan VkResult VK_ERROR_OUT_OF_DEVICE_MEMORY https://registry.khronos.org/vulkan/specs/latest/man/html/VkResult.html (NVIDIA Omniverse\'s carb.graphics-vulkan plugin logs it as "VkResult: ERROR_…")',
        example: '2025-03-02T10:11:12Z [9,001ms] [Error] [carb.graphics-vulkan.plugin] VkResult: ERROR_OUT_OF_DEVICE_MEMORY',
      },
      {
        category: 'gpu-oom',
        summary: "TensorRT ran out of GPU memory while building or running an engine",
        says: /Error Code 1: Cuda Runtime \(out of memory\)|Requested amount of GPU memory \(\d{1,20} bytes\) could not be allocated/,
        source: 'NVIDIA TensorRT developer guide, error codes https://docs.nvidia.com/deeplearning/tensorrt/latest/reference/troubleshooting.html (ErrorCode kCUDA_RUNTIME, printed "Error Code 1: Cuda Runtime (%s)" with the CUDA runtime\'s string; the builder\'s "Requested amount of GPU memory (%d bytes) could not be allocated. There may not be enough free memory for allocation to succeed.")',
        example: '[11/22/2024-13:40:47] [E] Error[1]: [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)',
        evenInNoise: 'Requested amount of GPU memory',
      },
      {
        category: 'gpu-oom',
        summary: 'The Spark RAPIDS plugin ran out of GPU memory (its retry framework gave up)',
        says: /com\.nvidia\.spark\.rapids\.jni\.(?:GpuRetryOOM|GpuSplitAndRetryOOM|RetryOOM|SplitAndRetryOOM)\b/,
        source: 'NVIDIA/spark-rapids-jni src/main/java/com/nvidia/spark/rapids/jni/GpuRetryOOM.java, GpuSplitAndRetryOOM.java (earlier RetryOOM.java, SplitAndRetryOOM.java: "GPU OutOfMemory"), thrown by the plugin\'s RmmRapidsRetryIterator; Spark logs the lost task at WARN',
        example: 'WARN  o.a.spark.scheduler.TaskSetManager - Lost task 3.2 in stage 23.0 (TID 580) (10.0.0.12 executor 0): com.nvidia.spark.rapids.jni.RetryOOM: GPU OutOfMemory',
        evenInNoise: 'RetryOOM',
      },
      {
        category: 'gpu-oom',
        summary: "PyTorch's CUDA caching allocator ran out of GPU memory",
        // The asynchronous allocator streams the device index, an 8-bit integer, as a character:
        // device 0 writes a NUL that ends the message right after "Allocation on device ".
        says: /CUDA out of memory\. Tried to allocate|(?:torch|cuda)\.OutOfMemoryError|[Aa]llocation on device (?:\d{1,3} would exceed allowed memory|\s{0,8}$)/,
        source: 'pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp ("CUDA out of memory. Tried to allocate …"; "Allocation on device %d would exceed allowed memory. (out of memory)" when a memory fraction, torch.cuda.set_per_process_memory_fraction, caps the device), c10/cuda/CUDAMallocAsyncAllocator.cpp (the same words from PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync, "allocation on device %d would exceed allowed memory" before 2.1), torch/cuda/memory.py (torch.OutOfMemoryError)',
        example: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.06 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.21 GiB is free.',
      },
      {
        category: 'gpu-oom',
        beforeCascades: true,
        summary: 'A CUDA allocation failed: the GPU ran out of memory',
        // Programs print the runtime's string in their own frames ("CUDA error 2: …", "CUDA error
        // !!!!! <…> !!!!!"): only marks and numbers between the words and the string.
        says: /Cuda failure (?:\d+ )?'out of memory'|CUDA (?:runtime |driver )?error[^A-Za-z\n]{1,40}out of memory|CUDA runtime error in ::?\w{1,60}\([^\n]{0,300}?\): out of memory|cudaErrorMemoryAllocation|CUDA error \d{1,4} at \S{1,1024}: out of memory/,
        source: `NVIDIA/nccl src/include/checks.h, src/include/cudawrap.h ("Cuda failure %d '%s'"); ggml-org/llama.cpp ggml-cuda.cu before 2024 (CUDA_CHECK: "CUDA error %d at %s:%d: %s" with cudaGetErrorString); NVIDIA/warp warp/native/cuda_util.cpp (check_cuda_result: "Warp CUDA error %u: %s (in function %s, %s:%d)"); SPECFEM/specfem3d src/gpu/helper_functions.cu (print_CUDA_error_if_any: "CUDA error !!!!! <%s> !!!!!" with cudaGetErrorString); InternLM/lmdeploy src/turbomind/utils/cuda_utils.h (check: "[TM][ERROR] CUDA runtime error: %s %s:%d" with cudaGetErrorString); NVIDIA/TensorRT-LLM cpp/include/tensorrt_llm/common/cudaUtils.h (check: "[TensorRT-LLM][ERROR] CUDA runtime error in %s: %s", the call and cudaGetErrorString); ${CUDA_RUNTIME_DOC}`,
        example: "node-1:3131:3190 [2] enqueue.cc:1556 NCCL WARN Cuda failure 2 'out of memory'",
      },
      {
        category: 'gpu-oom',
        summary: "A CUDA driver call failed for want of GPU memory (the driver API's CUDA_ERROR_OUT_OF_MEMORY)",
        says: /CUDA_ERROR_OUT_OF_MEMORY/,
        source: 'CUDA Driver API, CUresult CUDA_ERROR_OUT_OF_MEMORY (cuGetErrorName): https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html; printed by name in XLA and TensorFlow (openxla/xla xla/stream_executor/cuda/cuda_driver.cc "failed call to cuDevicePrimaryCtxRetain: %s", "failed to allocate %s (%d bytes) from device: %s"), Numba and CuPy',
        example: '2022-05-25 16:37:26.029661: W external/org_tensorflow/tensorflow/compiler/xla/service/platform_util.cc:200] unable to create StreamExecutor for CUDA:0: failed initializing StreamExecutor for CUDA device ordinal 0: INTERNAL: failed call to cuDevicePrimaryCtxRetain: CUDA_ERROR_OUT_OF_MEMORY: out of memory; total memory reported: 11554717696',
        // XLA logs a device it cannot open at warning level and goes on without it; the out-of-memory is still why.
        evenInNoise: 'CUDA_ERROR_OUT_OF_MEMORY',
      },
      {
        category: 'gpu-oom',
        summary: "MXNet's GPU memory pool could not allocate: the GPU ran out of memory",
        says: /pooled_storage_manager\.h:\d{1,6}: (?:Memory allocation failed|cudaMalloc (?:retry )?failed: out of memory)/,
        source: 'apache/mxnet src/storage/pooled_storage_manager.h (GPUPooledStorageManager::Alloc: LOG(FATAL) << "Memory allocation failed" in 0.x, "cudaMalloc retry failed: " << cudaGetErrorString(e) later; the pooled manager is the GPU storage)',
        example: '[19:03:47] src/storage/./pooled_storage_manager.h:62: Memory allocation failed.',
      },
      {
        category: 'gpu-oom',
        summary: 'A CUDA device allocation failed: the GPU ran out of memory',
        says: /\bcuda(?:Malloc|MallocAsync|MallocManaged|MallocPitch|Malloc3D) failed: out of memory/,
        source: `the CUDA runtime's cudaMalloc returning cudaErrorMemoryAllocation, printed with cudaGetErrorString ("%s: allocating %.2f MiB on device %d: cudaMalloc failed: %s" in ggml-org/llama.cpp ggml/src/ggml-cuda/ggml-cuda.cu, and the same "cudaMalloc failed: %s" idiom in CUDA code at large); ${CUDA_RUNTIME_DOC}`,
        example: 'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144.00 MiB on device 4: cudaMalloc failed: out of memory',
      },
      {
        category: 'gpu-oom',
        summary: 'XLA ran out of device memory',
        says: /RESOURCE_EXHAUSTED: Out of memory while trying to allocate|ran out of memory trying to allocate/,
        source: 'openxla/xla xla/tsl/framework/bfc_allocator.cc ("Allocator (%s) ran out of memory trying to allocate %s"); XLA status RESOURCE_EXHAUSTED from the PJRT client',
        example: 'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.',
        evenInNoise: 'ran out of memory',
      },
      {
        category: 'gpu-oom',
        summary: 'The model server had no GPU memory left for its KV cache at start-up',
        says: /No available memory for the cache blocks|is larger than the maximum number of tokens that can be stored in KV cache|KV cache is needed, which is larger than the available KV cache memory|on startup is less than desired GPU memory utilization/,
        source: 'vllm-project/vllm vllm/v1/core/kv_cache_utils.py ("No available memory for the cache blocks", "… KV cache is needed, which is larger than the available KV cache memory"), vllm/v1/worker/gpu_worker.py ("Free memory on device … on startup is less than desired GPU memory utilization")',
        example: '(EngineCore_DP0 pid=253) ValueError: Free memory on device cuda:0 (85.92/121.69 GiB) on startup is less than desired GPU memory utilization (0.92, 111.95 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
      },
      {
        category: 'gpu-oom',
        // Secondary: an INFO line stating the cause; the ValueError after it is the failure when
        // the log holds it, and this line stands in when the paste ends before it.
        secondary: true,
        summary: 'The model server found no GPU memory for its KV cache: zero cache blocks',
        says: /# (?:GPU|cuda|CUDA) blocks: 0, # CPU blocks:/,
        source: 'vllm-project/vllm vllm/executor/gpu_executor.py and executor_base.py (logger.info("# GPU blocks: %d, # CPU blocks: %d"), later "# cuda blocks: %d", right before raise_if_cache_size_invalid raises "No available memory for the cache blocks")',
        example: 'INFO 04-27 10:13:05 gpu_executor.py:76] # GPU blocks: 0, # CPU blocks: 256',
        evenInNoise: ' blocks: 0, # CPU blocks:',
      },
      {
        category: 'gpu-oom',
        // Secondary: an INFO line stating the cause; the ValueError after it is the failure when
        // the log holds it, and this line stands in when the paste ends before it.
        secondary: true,
        summary: 'The model server found less than no GPU memory left for its KV cache after the weights',
        says: /the rest of the memory reserved for KV Cache is -\d/,
        source: 'vllm-project/vllm vllm/worker/worker.py determine_num_available_blocks (logger.info("… the rest of the memory reserved for KV Cache is %.2fGiB."): negative when the weights and activations already take more than gpu_memory_utilization allows)',
        example: 'INFO 08-12 22:32:11 [worker.py:295] model weights take 6.59GiB; non_torch_memory takes 8.29GiB; PyTorch activation peak memory takes 4.93GiB; the rest of the memory reserved for KV Cache is -7.83GiB.',
        evenInNoise: 'reserved for KV Cache is -',
      },
      {
        category: 'gpu-oom',
        summary: 'The model server had no GPU memory left for its token pool or prefill',
        says: /Not enough memory\. Please try to increase --mem-fraction-static|Not enough memory to handle/,
        source: 'sgl-project/sglang python/sglang/srt/model_executor/model_runner.py ("Not enough memory. Please try to increase --mem-fraction-static."); huggingface/text-generation-inference server/text_generation_server/models/flash_causal_lm.py ("Not enough memory to handle {num_tokens} prefill tokens")',
        example: 'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.',
      },
      {
        category: 'gpu-oom',
        summary: 'The RAPIDS memory manager ran out of GPU memory',
        says: /out_of_memory: |Maximum pool size exceeded|\bGpu(?:Split)?(?:And)?RetryOOM\b|GPU OutOfMemory:/,
        source: 'rapidsai/rmm cpp/include/rmm/error.hpp ("out_of_memory: "), cpp/include/rmm/mr/device/arena_memory_resource.hpp ("Maximum pool size exceeded"); NVIDIA/spark-rapids sql-plugin/src/main/scala/com/nvidia/spark/rapids/RmmRapidsRetryIterator.scala (GpuSplitAndRetryOOM "GPU OutOfMemory: …")',
        example: 'Caused by: com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory: could not split inputs and retry',
      },
    ],
  },
  {
    software: 'Host memory allocators',
    entries: [
      {
        // Logged at warning level by the nanny, which then kills and restarts the worker: the
        // worker passed the share of its host-memory limit that Dask terminates at.
        category: 'host-oom',
        summary: "Dask's nanny restarted a worker that passed its memory limit (host memory)",
        says: /exceeded \d{1,3}% memory budget\. Restarting/,
        source: 'dask/distributed distributed/worker_memory.py (NannyMemoryManager: "Worker %s (pid=%s) exceeded %d%% memory budget. Restarting..."; "Worker exceeded %d%% memory budget. Restarting" in distributed/nanny.py before 2022)',
        example: '2023-09-05 08:48:11,441 :: distributed.worker_memory - WARNING - Worker tcp://10.11.2.177:45419 (pid=332612) exceeded 95% memory budget. Restarting...',
        evenInNoise: 'memory budget. Restarting',
      },
      {
        category: 'host-oom',
        summary: "SGLang's hierarchical KV cache asked for more host memory than the machine has free",
        says: /Not enough host memory available\. Requesting /,
        source: 'sgl-project/sglang python/sglang/srt/mem_cache/memory_pool_host.py (HostKVCache: ValueError(f"Not enough host memory available. Requesting {…} GB but only have {…} GB free. Please reduce the size of the hierarchical cache."))',
        example: 'ValueError: Not enough host memory available. Requesting 40.00 GB but only have 44.87 GB free. Please reduce the size of the hierarchical cache.',
      },
      {
        category: 'host-oom',
        summary: 'The program could not get the host memory it needed (its own out-of-CPU-memory error)',
        says: /\bOut of CPU memory\b|\bVK_ERROR_OUT_OF_HOST_MEMORY\b|VkResult: ERROR_OUT_OF_HOST_MEMORY\b/,
        source: 'pyscf/gpu4pyscf gpu4pyscf/df/df.py (cholesky_eri_gpu: raise RuntimeError(\'Out of CPU memory\')); Khronos Vulkan VkResult VK_ERROR_OUT_OF_HOST_MEMORY https://registry.khronos.org/vulkan/specs/latest/man/html/VkResult.html, which Vulkan programs\' error-string helpers print as "Out of CPU memory"',
        example: 'RuntimeError: Out of CPU memory',
      },
      {
        category: 'host-oom',
        summary: 'CUDA could not allocate pinned host memory: the host ran out of memory it can lock',
        says: /failed to alloc \d{1,20} bytes on host: |could not allocate pinned host memory of size: /,
        source: 'openxla/xla xla/stream_executor/cuda/cuda_driver.cc (GpuDriver::HostAllocate: "failed to alloc " bytes " bytes on host: " status), tensorflow/tensorflow tensorflow/core/common_runtime/device/device_host_allocator.h ("could not allocate pinned host memory of size: ", at warning level)',
        example: '2022-08-17 11:26:20.226278: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_driver.cc:796] failed to alloc 12524123136 bytes on host: CUDA_ERROR_OPERATING_SYSTEM: OS call failed or operation not supported on this OS',
        evenInNoise: 'pinned host memory',
      },
      {
        category: 'host-oom',
        summary: 'Spark RAPIDS ran out of host memory',
        says: /\bCpu(?:Split)?(?:And)?RetryOOM\b|CPU OutOfMemory:/,
        source: 'NVIDIA/spark-rapids sql-plugin/src/main/scala/com/nvidia/spark/rapids/RmmRapidsRetryIterator.scala, HostAlloc.scala (CpuRetryOOM, "CPU OutOfMemory: …")',
        example: 'Caused by: com.nvidia.spark.rapids.jni.CpuSplitAndRetryOOM: CPU OutOfMemory: could not split inputs and retry',
      },
      {
        category: 'host-oom',
        summary: "YARN killed a Spark executor's container for using more memory than its limit",
        says: /Container killed by YARN for exceeding memory limits|is running (?:beyond|[\d.]+[KMGT]?B? beyond the) (?:physical|virtual) memory limits/,
        source: 'apache/spark resource-managers/yarn/src/main/scala/org/apache/spark/deploy/yarn/YarnAllocator.scala (memLimitExceededLogMessage "Container killed by YARN for exceeding memory limits. %s of %s physical memory used."); apache/hadoop ContainersMonitorImpl.java ("Container [pid=%d,containerID=%s] is running beyond physical memory limits")',
        example: '17/11/25 18:23:24 ERROR YarnClusterScheduler: Lost executor 9 on node-7: Container killed by YARN for exceeding memory limits. 7.2 GB of 4.2 GB virtual memory used.',
      },
      {
        category: 'host-oom',
        summary: "PyTorch's CPU allocator could not get host memory",
        says: /DefaultCPUAllocator: (?:can't allocate memory|not enough memory): you tried to allocate/,
        source: 'pytorch/pytorch c10/core/impl/alloc_cpu.cpp (alloc_cpu: "DefaultCPUAllocator: can\'t allocate memory: you tried to allocate %d bytes. Error code %d (%s)"; on Windows "DefaultCPUAllocator: not enough memory: you tried to allocate %d bytes.")',
        example: 'RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1073741824 bytes.',
      },
      {
        category: 'host-oom',
        summary: 'NumPy could not allocate an array in host memory',
        says: /Unable to allocate [\d.]+ [KMGTPE]?i?B for an array with shape/,
        source: 'numpy/numpy numpy/_core/_exceptions.py (_ArrayMemoryError: "Unable to allocate {size} for an array with shape …")',
        example: 'numpy.core._exceptions._ArrayMemoryError: Unable to allocate 12.0 GiB for an array with shape (40000, 40000) and data type float64',
      },
      {
        category: 'host-oom',
        summary: 'The shell reports the process killed (SIGKILL, most often the OOM killer), in a Chinese locale',
        says: /^\u5df2\u6740\u6b7b\s*$|\d+\s+\u5df2\u6740\u6b7b\s/,
        source: 'bminor/glibc po/zh_CN.po (sysdeps/generic/siglist.h: msgid "Killed" msgstr "\u5df2\u6740\u6b7b" (kept escaped: the bundle stays Latin-1), the strsignal text bash prints for a job killed by SIGKILL)',
        example: '\u5df2\u6740\u6b7b',
      },
      {
        category: 'host-oom',
        summary: 'The kernel killed the compiler (SIGKILL, most often the OOM killer): fewer parallel build jobs or more memory',
        says: /(?:Killed|\u5df2\u6740\u6b7b) signal terminated program /,
        source: 'gcc-mirror/gcc gcc/gcc.cc execute() (SIGKILL: fatal_error "%s signal terminated program %s" with strsignal, "Much more likely is the user or OOM killer nuked it"); the strsignal text localized as in bminor/glibc po/zh_CN.po',
        example: 'c++: fatal error: Killed signal terminated program cc1plus',
      },
    ],
  },
  {
    software: 'CUDA runtime and driver, cuDNN, NVIDIA containers',
    entries: [
      {
        // A TPU's device files are held by another process: a run before this one on the same VM
        // or container still has them. A fresh VM or node, or the old process gone, fixes it.
        category: 'cuda',
        transient: true,
        summary: 'The TPU is held by another process (a run before this one still has it): a fresh VM or node',
        says: /TPU initialization failed: open\(\/dev\/(?:accel|vfio\/)\d{1,3}\): Device or resource busy/,
        source: 'libtpu (closed source; quoted as it prints through JAX\'s PJRT client) and the Cloud TPU error glossary https://docs.cloud.google.com/tpu/docs/troubleshooting/error_glossary; EBUSY "Device or resource busy", strerror(3) https://man7.org/linux/man-pages/man3/errno.3.html',
        example: "RuntimeError: Unable to initialize backend 'tpu': UNKNOWN: TPU initialization failed: open(/dev/vfio/0): Device or resource busy: Device or resource busy; Couldn't open iommu group /dev/vfio/0",
      },
      {
        // libtpu's driver reports a fatal error of the chip itself (an error interrupt): the
        // accelerator failed, not the program.
        category: 'cuda',
        summary: 'A TPU chip reported a fatal device error (its driver\'s error interrupt)',
        says: /!!!! FATAL ERROR !!!! for \[\/dev\/accel\d{1,3}/,
        source: 'libtpu (closed source; its synchronous_driver.cc and error_handler.cc, quoted as they print: "!!!! FATAL ERROR !!!! for [/dev/accel%d …] , fatal_error: true", "Received Error Interrupt! fatal: true") and the Cloud TPU error glossary https://docs.cloud.google.com/tpu/docs/troubleshooting/error_glossary',
        example: 'E0827 23:43:41.200122   39475 synchronous_driver.cc:820] [/dev/accel0 tpu1013:pe1:0] !!!! FATAL ERROR !!!! for [/dev/accel0 tpu1013:pe1:0] , fatal_error: true, running_timer: 0xeacdbdd045e77',
      },
      {
        // cuBLAS's status for a kernel it could not launch, which XLA and others print by its
        // description: the GPU or its driver failed to run the kernel, not the program's settings.
        category: 'cuda',
        summary: 'A cuBLAS kernel failed to launch on the GPU (CUBLAS_STATUS_EXECUTION_FAILED)',
        says: /\bthe function failed to launch on the GPU\b/,
        source: 'NVIDIA cuBLAS documentation, cublasStatus_t https://docs.nvidia.com/cuda/cublas/index.html#cublasstatus-t (CUBLAS_STATUS_EXECUTION_FAILED: "The GPU program failed to execute"; cublasGetStatusString "the function failed to launch on the GPU", which XLA\'s GEMM custom call reports)',
        example: 'jaxlib.xla_extension.XlaRuntimeError: INTERNAL: the function failed to launch on the GPU',
      },
      {
        // Triton lowers a float conversion to the GPU's own instructions; an older GPU (V100,
        // sm_70, has no bf16 conversions) has none for it and the compiler stops.
        category: 'cuda',
        summary: "Triton cannot compile a float conversion for this GPU (an older GPU without the instruction, e.g. bf16 on a V100)",
        says: /Unsupported conversion from (?:bf16|f16|f32|f64|fp8\w{0,8}|f8\w{0,12}) to (?:bf16|f16|f32|f64|fp8\w{0,8}|f8\w{0,12})\b/,
        source: 'triton-lang/triton third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ElementwiseOpToLLVM.cpp (FpToFpOpConversion: "Unsupported conversion from " << srcTy << " to " << dstTy, then llvm::report_fatal_error("Unsupported rounding mode for conversion."))',
        example: 'Unsupported conversion from bf16 to f16',
      },
      {
        // GROMACS checks the -gpu_id it was given against the GPUs it detected: with none detected
        // the GPU is not visible to the program at all (no driver or device in the container).
        category: 'cuda',
        summary: 'GROMACS detected no GPU at all (the GPU id it was given matches none)',
        says: /did not correspond to any of the 0 detected device\(s\)/,
        source: 'gromacs/gromacs src/gromacs/hardware/device_management_common.cpp (deviceIdIsCompatible: "Device ID %d did not correspond to any of the %zu detected device(s)")',
        example: 'Device ID 0 did not correspond to any of the 0 detected device(s)',
      },
      {
        category: 'cuda',
        summary: "JAX found a CUDA library older than the one it was built against (cuDNN, cuBLAS, cuSOLVER…), or could not query its version",
        says: /Found (?:cuDNN|cuSOLVER|cuBLAS|cuFFT|cuSPARSE|CUDA|CUPTI|NCCL) version \d{1,9}, but JAX was built against version \d{1,9}|operation cu\w{2,20}GetVersion\([^)\n]{0,60}\) failed: /,
        source: 'jax-ml/jax jax_plugins/cuda/__init__.py and jax/_src/xla_bridge.py (_version_check: "Found {name} version {version}, but JAX was built against version {build_version}, which is newer. The copy of {name} that is installed must be at least as new…"), jaxlib/cuda/versions_helpers.cc ("operation %s failed: %s")',
        example: "Unable to initialize backend 'cuda': Found cuSOLVER version 11002, but JAX was built against version 11401, which is newer.",
      },
      {
        // XLA's PTX compiler CHECKs what it needs from ptxas and the driver; a failed CHECK there
        // is the CUDA toolkit or driver in the image not able to compile for this GPU.
        category: 'cuda',
        summary: "XLA's GPU compiler could not compile for this GPU with the CUDA toolkit or driver it found",
        says: /nvptx_compiler\.cc:\d{1,6}\] Check failed: |PTX version \d{1,2}\.\d{1,2} does not support target 'sm_\d{2,3}[af]?'/,
        source: 'openxla/xla xla/service/gpu/nvptx_compiler.cc (its CHECKs on the ptxas and driver it compiles with); llvm/llvm-project llvm/lib/Target/NVPTX/NVPTXSubtarget.cpp ("PTX version %s does not support target \'%s\'. Minimum required PTX version is %s.")',
        example: "2024-02-27 16:32:33.075782: F external/xla/xla/service/gpu/nvptx_compiler.cc:614] Check failed: options.is_autotuning_compilation",
      },
      {
        // TensorFlow's StreamExecutor has no DNN support when the cuDNN it was built against did
        // not load (an older one on the machine): the op that needs it fails with this.
        category: 'cuda',
        summary: 'TensorFlow found no usable cuDNN for the GPU op (the cuDNN on the machine is missing or older than the build)',
        says: /DNN library is not found\./,
        source: 'tensorflow/tensorflow tensorflow/compiler/xla/stream_executor/stream_executor_pimpl.cc (GetConvolveRunners: UnimplementedError("DNN library is not found."))',
        example: 'UnimplementedError: Graph execution error: DNN library is not found. [Op:Conv2D]',
      },
      {
        // TensorFlow's generated kernels report the driver's refusal at warning level
        // (tf_gpu_runtime_wrappers.cc LOG(WARNING)), and the op fails after it.
        category: 'cuda',
        summary: "The GPU driver is older than the CUDA toolkit that compiled the code's PTX",
        says: /CUDA_ERROR_UNSUPPORTED_PTX_VERSION|cudaErrorUnsupportedPtxVersion/,
        source: 'CUDA Driver API, CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION ("the PTX JIT compilation was disabled or the PTX was compiled with an unsupported toolchain"): https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html; tensorflow/tensorflow tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc ("\'%s\' failed with \'%s\'")',
        example: "W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_UNSUPPORTED_PTX_VERSION'",
        evenInNoise: 'UNSUPPORTED_PTX_VERSION',
      },
      {
        // Headless rendering (Open3D, Filament, EGL-based simulators) reaches the GPU through the
        // driver's EGL library, which the container only has when its driver capabilities include
        // graphics: without it the display cannot be initialised, and a crash usually follows.
        category: 'cuda',
        summary: "EGL could not initialise the GPU for headless rendering (the container has no usable NVIDIA EGL driver: NVIDIA_DRIVER_CAPABILITIES without graphics, or no GPU)",
        says: /\beglInitialize failed\b/,
        source: 'google/filament filament/backend/src/opengl/platforms/PlatformEGL.cpp (slog.e << "eglInitialize failed"), the renderer Open3D\'s OffscreenRenderer uses; NVIDIA container toolkit, driver capabilities https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (graphics: required for running OpenGL and Vulkan applications)',
        example: 'eglInitialize failed',
      },
      {
        // The NVIDIA kernel module is not there (not installed, not loaded yet, or the node's
        // driver container not ready): nvidia-smi cannot talk to it, and the device nodes the
        // driver creates are missing where the runtime looks for them.
        category: 'cuda',
        summary: "The node's NVIDIA driver is not loaded or not ready: nvidia-smi cannot reach it, or its device nodes are missing",
        says: /NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver|\/dev\/nvidia(?:ctl|-uvm(?:-tools)?|-modeset|\d{1,2}): [Nn]o such file or directory/,
        source: 'nvidia-smi, the NVIDIA driver\'s utility (closed source; quoted as it prints when NVML cannot reach the kernel module) https://docs.nvidia.com/deploy/nvidia-smi/index.html; the device nodes the driver creates (/dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidiaN), looked up by NVIDIA/nvidia-container-toolkit under the driver root when it generates a CDI spec ("failed to generate spec: lstat …/dev/nvidiactl: no such file or directory")',
        example: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
      },
      {
        // nvidia-smi says only that NVML could not get the GPU: the kernel's Xid line says why
        // (fallen off the bus, as a rule), so this reports the fault and gives it its place.
        category: 'cuda',
        kind: 'report',
        transient: true,
        summary: "nvidia-smi could not reach a GPU (NVML has no handle for it): a GPU fault, which the node's kernel log names",
        says: /Unable to determine the device handle for GPU ?[\dA-Fa-f:.]{1,20}: /,
        source: 'nvidia-smi, the NVIDIA driver\'s utility (closed source; quoted as it prints when nvmlDeviceGetHandleByIndex fails, NVML_ERROR_GPU_IS_LOST or UNKNOWN) https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceQueries.html',
        example: 'Unable to determine the device handle for GPU0000:A1:00.0: Unknown Error',
      },
      {
        // NVML's answer for a GPU it can no longer reach, through pynvml (torch.cuda's memory
        // queries use it): the fault is the GPU's, which the node's kernel log names.
        category: 'cuda',
        kind: 'report',
        transient: true,
        summary: "NVML could not reach a GPU (lost, or an unknown error getting its handle): a GPU fault",
        says: /pynvml\.NVMLError_(?:GpuIsLost|Unknown)\b/,
        source: 'NVIDIA NVML API reference https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html (NVML_ERROR_GPU_IS_LOST, NVML_ERROR_UNKNOWN); pynvml (nvidia-ml-py) pynvml.py (NVMLError subclasses named from the return code: NVMLError_GpuIsLost, NVMLError_Unknown)',
        example: 'pynvml.NVMLError_Unknown: Unknown Error',
      },
      {
        category: 'cuda',
        summary: "The node's fabric manager is of another version than its GPU driver (NVSwitch systems need both from one driver release)",
        says: /fabric manager NVIDIA GPU driver interface version \S{1,40} don't match with driver version/,
        source: 'NVIDIA Fabric Manager user guide https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html (the fabric manager and the driver must be the same version; nv-fabricmanager refuses to start otherwise, quoted as it prints)',
        example: "fabric manager NVIDIA GPU driver interface version 590.48.01 don't match with driver version 580.126.09.",
      },
      {
        // Changing MIG mode needs a GPU reset, which some platforms (passthrough VMs, GPUs in use)
        // do not allow: the node's GPU cannot take the configuration until it is rebooted.
        category: 'cuda',
        summary: "The GPU could not be reset to apply its MIG mode (the platform does not support a reset, or the GPU is in use)",
        says: /Resetting GPU [\dA-Fa-f:.]{1,20} is not supported|GPU [\dA-Fa-f:.]{1,20}: In use by another client/,
        source: 'nvidia-smi --gpu-reset (closed source; its refusals as printed), NVIDIA Multi-Instance GPU user guide https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (a MIG mode change takes effect after a GPU reset; on some platforms only a reboot)',
        example: 'Resetting GPU 00000000:00:04.0 is not supported.',
      },
      {
        // The device plugin's discovery found neither NVML nor a Tegra GPU in its own container:
        // the node's container runtime does not give it the NVIDIA libraries (no nvidia runtime
        // or RuntimeClass). The node's set-up, not any workload.
        category: 'other',
        summary: "The NVIDIA device plugin cannot see the node's GPUs: the node's container runtime does not give it the driver's libraries (the node's set-up)",
        says: /Incompatible strategy detected \w{1,20}|invalid device discovery strategy/,
        source: 'NVIDIA/k8s-device-plugin factory.go (its resource manager factory: klog.Errorf("Incompatible strategy detected %v", strategy), then its advice lines; main.go "error starting plugins: … invalid device discovery strategy")',
        example: 'E0506 17:45:45.421956       1 factory.go:112] Incompatible strategy detected auto',
      },
      {
        // NVIDIA's notice: with systemd managing the container's cgroups, a `systemctl
        // daemon-reload` on the node drops the container's access to the GPU devices. The node's
        // runtime set-up, not the image or the command; a new container gets the GPU back.
        category: 'other',
        summary: "The container lost its access to the GPU devices (NVML's Unknown Error: the node's systemd reloaded the container's cgroups); the node's runtime set-up needs fixing, not the workload",
        says: /Failed to initialize NVML: Unknown Error/,
        source: 'NVIDIA, "Containers losing access to GPUs with error: Failed to initialize NVML: Unknown Error" https://github.com/NVIDIA/nvidia-docker/issues/1730 (the toolkit maintainers\' notice: cgroups managed by systemd, a daemon-reload, runc without /dev/char symlinks)',
        example: 'Failed to initialize NVML: Unknown Error',
      },
      {
        // Vulkan reaches the GPU through the driver's ICD, mounted into a container only with the
        // graphics capability: without it the instance cannot be created. A lost device is the GPU
        // or its driver failing under the program.
        category: 'cuda',
        summary: 'Vulkan could not use the GPU: no compatible driver in the container, or the device was lost',
        says: /\bVK_ERROR_(?:INCOMPATIBLE_DRIVER|INITIALIZATION_FAILED|DEVICE_LOST)\b|VkResult: ERROR_(?:INCOMPATIBLE_DRIVER|INITIALIZATION_FAILED|DEVICE_LOST)\b/,
        source: 'Khronos Vulkan VkResult https://registry.khronos.org/vulkan/specs/latest/man/html/VkResult.html (VK_ERROR_INCOMPATIBLE_DRIVER, VK_ERROR_INITIALIZATION_FAILED, VK_ERROR_DEVICE_LOST), logged by NVIDIA Omniverse\'s carb.graphics-vulkan plugin as "VkResult: ERROR_…"; NVIDIA container toolkit, driver capabilities (graphics)',
        example: '2025-12-11T08:37:08Z [4,779ms] [Error] [carb.graphics-vulkan.plugin] VkResult: ERROR_INCOMPATIBLE_DRIVER',
      },
      {
        category: 'cuda',
        summary: "The CUDA toolkit's PTX assembler (ptxas) does not know this GPU or this PTX version: the toolkit is older than the GPU or the code",
        says: /Value 'sm_\d{2,3}[af]?' is not defined for option 'gpu-name'|Unsupported \.version \d{1,2}\.\d{1,2}; current version is/,
        source: 'NVIDIA PTX ISA and ptxas documentation https://docs.nvidia.com/cuda/parallel-thread-execution/ (each ptxas accepts the PTX ISA versions and sm_XY targets of its release; its fatal errors "Value \'sm_XY\' is not defined for option \'gpu-name\'" and "Unsupported .version X.Y; current version is \'A.B\'")',
        example: "ptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name'",
      },
      {
        // The driver names the hardware Xid that this application Xid follows: the fault is that
        // one's, and a sound GPU (another node) is what the job needs.
        category: 'cuda',
        transient: true,
        summary: "The GPU driver stopped a process's GPU work after a hardware fault it names (an earlier Xid)",
        says: /\bXid \([^)\n]{1,40}\): (?:13|31|43|45),[^\n]{0,300}?caused by previous Xid \d{1,3}/,
        source: 'NVIDIA Xid errors https://docs.nvidia.com/deploy/xid-errors/ (Xid 45 "preemptive cleanup, due to previous errors"; the driver appends "caused by previous Xid N")',
        example: 'kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149',
      },
      {
        // Xid 13, 31, 43 and 45 come from what a process did on the GPU (an illegal access, a
        // kernel stopped, the driver cleaning up its channels), or follow a fault reported under
        // another Xid: a hardware Xid beside them is the failure. Alone, the same program meets the
        // same fault again: not a reason to retry.
        category: 'cuda',
        secondary: true,
        summary: "The GPU driver stopped a process's GPU work (an application fault, or the cleanup after an earlier fault)",
        says: /\bXid \([^)\n]{1,40}\): (?:13|31|43|45),/,
        source: 'NVIDIA Xid errors https://docs.nvidia.com/deploy/xid-errors/ (Xid 13 graphics engine exception, 31 GPU memory page fault, 43 GPU stopped processing, 45 preemptive cleanup due to previous errors: user application faults or the consequence of another Xid)',
        example: 'NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch 00000008',
      },
      {
        category: 'cuda',
        transient: true,
        summary: 'The GPU driver could not initialise the GPU (a faulty GPU or its PCIe link, until the node is repaired or rebooted)',
        says: /RmInitAdapter failed!/,
        source: 'NVIDIA driver kernel log (NVRM "RmInitAdapter failed! (0x…)", the resource manager failing to bring up the adapter); NVIDIA GPU debug guidelines https://docs.nvidia.com/deploy/gpu-debug-guidelines/ (a GPU the driver cannot initialise is to be drained and inspected)',
        example: 'NVRM: GPU 0000:81:00.0: RmInitAdapter failed! (0x25:0x40:1470)',
      },
      {
        // The image asks, through NVIDIA_REQUIRE_*, for something the hook cannot parse: the
        // image's environment is wrong, not the driver.
        category: 'config',
        summary: "The image's NVIDIA_REQUIRE_* constraint cannot be parsed by the NVIDIA container hook",
        says: /requirement error: invalid expression/,
        source: 'NVIDIA/libnvidia-container src/cli/configure.c ("requirement error: %s") and src/dsl.c (a constraint of NVIDIA_REQUIRE_* it cannot parse: "invalid expression")',
        example: 'nvidia-container-cli.real: requirement error: invalid expression: unknown',
      },
      {
        // NVML answered that the caller may not use the device: the container's user or its device
        // nodes' modes, not the GPU.
        category: 'permission',
        summary: 'NVML refused the container access to the GPU (insufficient permissions on its device nodes)',
        says: /nvml error: insufficient permissions|NVML_ERROR_NO_PERMISSION|NVMLError_NoPermission\b|Failed to initialize NVML: Insufficient Permissions/,
        source: 'NVIDIA NVML API reference https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html (NVML_ERROR_NO_PERMISSION, nvmlErrorString "Insufficient Permissions"); NVIDIA/libnvidia-container src/nvc.c (errors as "nvml error: %s", lower-cased by nvidia-container-cli)',
        example: 'nvidia-container-cli.real: initialization error: nvml error: insufficient permissions: unknown',
      },
      {
        category: 'cuda',
        summary: "The CUDA toolkit in the image is older than the GPU: it cannot compile for the GPU's architecture",
        says: /nvcc fatal\s{0,8}: Unsupported gpu architecture 'compute_\d{2,3}a?'/,
        source: 'NVIDIA CUDA Compiler Driver NVCC documentation https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/ (--gpu-architecture: each toolkit knows the compute_XY it was released with; nvcc fatal "Unsupported gpu architecture \'compute_XY\'")',
        example: "nvcc fatal   : Unsupported gpu architecture 'compute_120'",
      },
      {
        // cudaErrorSystemNotReady: on NVSwitch systems the fabric manager has not started.
        category: 'cuda',
        summary: "The GPU system is not ready for CUDA work (on NVSwitch machines: the fabric manager is not running)",
        says: /system not yet initialized|cudaErrorSystemNotReady\b|CUDA_ERROR_SYSTEM_NOT_READY\b/,
        source: `${CUDA_RUNTIME_DOC} (cudaErrorSystemNotReady "system not yet initialized": "the system is not yet ready to start any CUDA work … make sure that the fabric manager is running")`,
        example: 'what():  Error (gpu_burn-drv.cpp:298): system not yet initialized',
      },
      {
        category: 'cuda',
        summary: 'The GPU is too old for the quantisation kernels the model needs (its compute capability is below their minimum)',
        says: /is not supported for (?:', ')?the current GPU\. Min(?:imum)? capability: \d{2,3}/,
        source: 'vllm-project/vllm vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py (_check_scheme_supported: "Quantization scheme is not supported for the current GPU. Min capability: {}. Current capability: {}."), vllm/model_executor/layers/quantization/*.py ("The quantization method {} is not supported for the current GPU. Minimum capability: {}. Current capability: {}.")',
        example: 'ValueError: The quantization method awq_marlin is not supported for the current GPU. Minimum capability: 80. Current capability: 70.',
      },
      {
        // The GPU is fine: the command asks for device N while the container sees fewer GPUs
        // (CUDA_VISIBLE_DEVICES, a hard-coded cuda:1, more ranks per node than GPUs).
        category: 'config',
        summary: 'The command asks for a GPU index the container does not have (its device setting or CUDA_VISIBLE_DEVICES)',
        says: /invalid device ordinal|cudaErrorInvalidDevice\b|CUDA_ERROR_INVALID_DEVICE\b/,
        source: `${CUDA_RUNTIME_DOC} (cudaErrorInvalidDevice "invalid device ordinal": "the device ordinal supplied by the user does not correspond to a valid CUDA device"); CUDA Driver API CUresult CUDA_ERROR_INVALID_DEVICE`,
        example: 'RuntimeError: CUDA error: invalid device ordinal',
      },
      {
        category: 'cuda',
        transient: true,
        summary: 'The GPU reported a hardware fault (ECC or NVLink)',
        says: /uncorrectable ECC error encountered|uncorrectable NVLink error was detected/,
        source: CUDA_RUNTIME_DOC,
        example: 'RuntimeError: CUDA error: uncorrectable ECC error encountered',
      },
      {
        category: 'cuda',
        summary: 'A CUDA kernel failed',
        says: /an illegal memory access was encountered|device-side assert triggered|unspecified launch failure|misaligned address|an illegal instruction was encountered|the launch timed out and was terminated|too many resources requested for launch|__global__ function call is not configured|unhandled cuda error/,
        source: `${CUDA_RUNTIME_DOC}; NVIDIA/nccl src/init.cc (ncclGetErrorString "unhandled cuda error")`,
        example: '[rank0]:[E1105 03:12:44.123 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 0] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered',
        // A kernel's failure is sticky: it leaves the CUDA context unusable, so no program logs it
        // and goes on, and a warning that quotes it as a CUDA error (vLLM's dump of a failed
        // execution) is the failure.
        evenInNoise: 'CUDA error: ',
      },
      {
        // The generated GEMM kernels of TensorRT-LLM (and FlashInfer's copy of its runner) are
        // cubins built per GPU architecture: run() returns non-zero when the kernel could not
        // be launched on this GPU, a kernel missing for its architecture as a rule.
        category: 'cuda',
        summary: "A GPU GEMM kernel of TensorRT-LLM or FlashInfer failed to run (a kernel missing for this GPU's architecture, as a rule)",
        says: /Error occurred when running GEMM!/,
        source: 'NVIDIA/TensorRT-LLM cpp/tensorrt_llm/kernels/trtllmGenKernels/batchedGemm/KernelRunner.cpp and gemmGatedAct/KernelRunner.cpp (TLLM_CHECK_WITH_INFO(err == 0, "Error occurred when running GEMM!") after the kernel\'s run()); flashinfer-ai/flashinfer csrc/trtllm_batched_gemm_runner.cu (FLASHINFER_CHECK(err == 0, "Error occurred when running GEMM!" …))',
        example: "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Error occurred when running GEMM! (/src/tensorrt_llm/cpp/tensorrt_llm/kernels/trtllmGenKernels/gemm/KernelRunner.cpp:120)",
      },
      {
        category: 'cuda',
        summary: "A CUDA kernel's device-side assertion failed (an index or label out of range, as a rule)",
        says: /block: \[\d{1,6},\d{1,6},\d{1,6}\], thread: \[\d{1,6},\d{1,6},\d{1,6}\] Assertion /,
        source: 'CUDA C++ Programming Guide, "Assertion" (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#assertion: a failed device assert() prints "<file>:<line>: <function>: block: [x,y,z], thread: [x,y,z] Assertion `<expression>` failed.")',
        example: '/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.',
      },
      {
        category: 'cuda',
        beforeCascades: true,
        summary: 'A CUDA call failed under NCCL',
        says: /Cuda failure (?:\d+ )?'/,
        source: 'NVIDIA/nccl src/include/checks.h, src/include/cudawrap.h ("Cuda failure %d \'%s\'")',
        example: "[3] enqueue.cc:215 NCCL WARN Cuda failure 'invalid device function'",
      },
      {
        // PyTorch warns and goes on without a GPU when the runtime cannot count the devices; the
        // runtime's error follows on the line (804 forward compatibility, 802 system not ready,
        // 999 unknown): why every later CUDA call fails.
        category: 'cuda',
        summary: 'The CUDA runtime could not count the GPUs at start (its error follows: the driver, the GPU or the container)',
        says: /CUDA initialization: Unexpected error from cudaGetDeviceCount\(\)/,
        source: `pytorch/pytorch c10/cuda/CUDAFunctions.cpp (device_count_impl: TORCH_WARN "CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error %d: %s"); ${CUDA_RUNTIME_DOC}`,
        example: "/usr/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)",
        evenInNoise: 'CUDA initialization: Unexpected error',
      },
      {
        category: 'cuda',
        summary: 'The CUDA build in the image does not match the GPU or its driver',
        says: /no kernel image is available for execution on the device|invalid device function|the provided PTX was compiled with an unsupported toolchain|CUDA driver version is insufficient for CUDA runtime version|forward compatibility was attempted on non supported HW|system has unsupported display driver \/ cuda driver combination|no CUDA-capable device is detected|all CUDA-capable devices are busy or unavailable/,
        source: CUDA_RUNTIME_DOC,
        example: 'RuntimeError: CUDA error: no kernel image is available for execution on the device',
      },
      {
        category: 'cuda',
        summary: 'No GPU is visible to the container, or the framework in the image was built without CUDA',
        says: /failed call to cuInit|Torch not compiled with CUDA enabled|torch\.cuda\.is_available\(\) is False|(?<!')Torch is not able to use GPU|CUDA call failed lazily at initialization|CUDA unknown error - this may be due to an incorrectly set up environment/,
        source: 'openxla/xla xla/stream_executor/cuda/cuda_driver.cc (earlier tensorflow/stream_executor/cuda/cuda_driver.cc: "failed call to cuInit: %s"); pytorch/pytorch torch/cuda/__init__.py ("Torch not compiled with CUDA enabled", DeferredCudaCallError "CUDA call failed lazily at initialization with error"), torch/serialization.py ("… but torch.cuda.is_available() is False"), c10/cuda/CUDAFunctions.cpp ("CUDA unknown error - this may be due to an incorrectly set up environment"); AUTOMATIC1111/stable-diffusion-webui modules/launch_utils.py (prepare_environment\'s check, kept by its forks: "Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check"; not where the command line quotes the assert\'s own source)',
        example: '2022-03-11 16:52:36.058206: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected',
      },
      {
        category: 'cuda',
        summary: 'The NVIDIA driver libraries were not mounted into the container (no GPU runtime)',
        says: /lib(?:cuda|nvidia-ml)\.so(?:\.1)?: cannot open shared object file/,
        source: 'NVIDIA/libnvidia-container src/nvc_info.c (the driver libraries the NVIDIA hook mounts from the host, libcuda.so and libnvidia-ml.so among them)',
        example: 'ImportError: libcuda.so.1: cannot open shared object file: No such file or directory',
      },
      {
        category: 'cuda',
        summary: 'The GPU is too old for what the image runs (its compute capability)',
        says: /Bfloat16 is only supported on GPUs with compute capability|FlashAttention only supports Ampere GPUs or newer|GET was unable to find an engine to execute this computation|ptxas exited with non-zero error code/,
        source: 'vllm-project/vllm vllm/v1/worker/gpu_worker.py ("Bfloat16 is only supported on GPUs with compute capability of at least 8.0"); Dao-AILab/flash-attention csrc/flash_attn/flash_api.cpp ("FlashAttention only supports Ampere GPUs or newer."); pytorch/pytorch aten/src/ATen/native/cudnn/Conv_v8.cpp ("GET was unable to find an engine to execute this computation"); openxla/xla xla/stream_executor/cuda/subprocess_compilation.cc ("ptxas exited with non-zero error code")',
        example: 'ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.',
      },
      {
        category: 'cuda',
        summary: 'PyTorch could not initialise CUDA on the node (no GPU given to the container, or its driver broken)',
        says: /CUDA driver initialization failed, you might not have a CUDA gpu|CUDA unknown error - this may be due to an incorrectly set up environment/,
        source: 'pytorch/pytorch c10/cuda/CUDAFunctions.cpp (device_count_impl: cudaErrorInitializationError "CUDA driver initialization failed, you might not have a CUDA gpu.", cudaErrorUnknown "CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start.")',
        example: 'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.',
      },
      {
        category: 'cuda',
        summary: "A Triton kernel needs more of the GPU (shared memory, registers) than it has",
        says: /out of resource: [\w ]{1,40}, Required: \d+, Hardware limit: \d+/,
        source: 'triton-lang/triton python/triton/runtime/errors.py (OutOfResources: "out of resource: {name}, Required: {required}, Hardware limit: {limit}. Reducing block sizes or `num_stages` may help.")',
        example: 'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 232448, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.',
      },
      {
        // An engine (plan) runs only on the TensorRT version and the GPU it was built for: the
        // model repository holds an engine the image's TensorRT cannot load. Rebuild it there.
        category: 'cuda',
        summary: 'A TensorRT engine was built by another TensorRT version or for another GPU',
        says: /Serialization assertion [^.]{1,200} failed\.\s?(?:Version|Magic) tag does not match|Engine deserialization failed|The engine plan file is generated on an incompatible device|Failed to deserialize cuda engine|Mismatch between allocated memory size and expected size of serialized engine/,
        source: 'the TensorRT runtime (closed source; its messages name stdArchiveReader.cpp and runtime.cpp::deserializeCudaEngine), with https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html "Version Compatibility" ("TensorRT engines are compatible only with the version of TensorRT used to build them"); NVIDIA/TensorRT-LLM cpp/tensorrt_llm/runtime/tllmRuntime.cpp (TLLM_CHECK_WITH_INFO(mEngine != nullptr, "Failed to deserialize cuda engine."))',
        example: '[08/01/2022-15:41:44] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: Serialization (Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. Note: Current Version: 0, Serialized Engine Version: 96)',
      },
      {
        category: 'cuda',
        secondary: true,
        summary: 'The GPU is newer than the CUDA build of PyTorch in the image supports',
        says: /with CUDA capability sm_\d{2,3} is not compatible with the current PyTorch installation/,
        source: 'pytorch/pytorch torch/cuda/__init__.py (_check_capability: "%s with CUDA capability sm_%d%d is not compatible with the current PyTorch installation.")',
        example: 'NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.',
      },
      {
        category: 'cuda',
        summary: "The container's CUDA needs a newer driver than the node has",
        // NVML's refusal is a permission and an unparsable constraint is the image's (their own
        // entries), not the driver.
        says: /nvidia-container-cli(?:\.real)?: (?:requirement|initialization|mount|detection) error(?!: nvml error: insufficient permissions|: invalid expression)/,
        source: 'NVIDIA/libnvidia-container src/cli/configure.c ("requirement error: %s", as the OCI prestart hook reports it: "unsatisfied condition: cuda>=%s, please update your driver to a newer version, or use an earlier cuda container")',
        example: 'Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as \'legacy\' nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.5, please update your driver to a newer version, or use an earlier cuda container: unknown',
      },
      {
        category: 'cuda',
        summary: 'The cuDNN library loaded at run time does not match the one the framework was built with',
        says: /Loaded runtime CuDNN library: \S+ but source was compiled with|DNN library initialization failed|cuDNN version incompatibility/,
        source: 'openxla/xla xla/stream_executor/cuda/cuda_dnn.cc ("Loaded runtime CuDNN library: %s but source was compiled with: %s", "DNN library initialization failed"); pytorch/pytorch torch/backends/cudnn/__init__.py ("cuDNN version incompatibility: PyTorch was compiled against %s but found runtime version %s")',
        example: 'E0430 22:32:43.417007 2493694 cuda_dnn.cc:454] Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0. CuDNN library needs to have matching major version and equal or higher minor version.',
      },
      {
        category: 'cuda',
        summary: 'JAX could not use the CUDA libraries it found',
        says: /Unable to use CUDA because of the following issues with CUDA components|Outdated (?:CUDA|cuDNN|cuFFT|cuPTI|cuBLAS|cuSPARSE) installation found|Unable to initialize backend 'cuda'/,
        source: 'jax-ml/jax jax_plugins/cuda/__init__.py ("Unable to use CUDA because of the following issues with CUDA components", "Outdated %s installation found"), jax/_src/xla_bridge.py ("Unable to initialize backend \'%s\'")',
        example: 'RuntimeError: Unable to use CUDA because of the following issues with CUDA components:',
      },
      {
        category: 'cuda',
        summary: 'DeepSpeed found a CUDA toolkit that does not match the one PyTorch was built with',
        says: /does not match the version torch was compiled with|op due to it not being compatible due to hardware\/software issue/,
        source: 'microsoft/DeepSpeed op_builder/builder.py (CUDAMismatchException "Installed CUDA version %s does not match the version torch was compiled with %s", "Unable to JIT load the %s op due to it not being compatible due to hardware/software issue")',
        example: 'deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version 11.8 does not match the version torch was compiled with 12.1, unable to compile cuda/cpp extensions without a matching cuda version.',
      },
      {
        // A header or library of the CUDA toolkit is missing where an extension is built: the
        // image lacks part of the CUDA toolkit (a runtime image where a -devel one is needed),
        // like CUDA_HOME below. A CUDA installation problem, as people who read these logs name
        // it (dev2's five DeepSpeed build failures), not a Python package; not a data path.
        category: 'cuda',
        summary: 'An extension could not be built: a CUDA header or library is missing from the image',
        says: /fatal error: (?:cuda|cublas|cudnn|cufft|curand|cusparse|cusolver|nvToolsExt|nccl)\w{0,40}\.h: No such file or directory|cannot find -l(?:cuda|cudart|cublas|cudnn|nccl|nvrtc)\b|\/bin\/nvcc: (?:not found|No such file or directory)/,
        source: 'GCC libcpp/files.cc (a missing #include: "fatal error: %s: No such file or directory"); binutils ld/ldfile.c ("cannot find -l%s"); a shell that cannot run the toolkit\'s compiler ("/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found", dash\'s "%s: not found"); the names are the CUDA toolkit\'s (https://docs.nvidia.com/cuda/cuda-runtime-api/, libcuda, libcudart)',
        example: 'csrc/includes/gemm_test.h:6:10: fatal error: cuda_profiler_api.h: No such file or directory',
      },
      {
        category: 'cuda',
        summary: 'DeepSpeed cannot build its CUDA ops: the CUDA toolkit is missing from the image',
        says: /CUDA_HOME does not exist, unable to compile CUDA op/,
        source: 'microsoft/DeepSpeed op_builder/builder.py (MissingCUDAException "CUDA_HOME does not exist, unable to compile CUDA op(s)")',
        example: 'deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA op(s)',
      },
      {
        category: 'cuda',
        secondary: true,
        summary: 'The NGC container does not support this GPU or driver',
        says: /No (?:NVIDIA )?supported GPU\(s\) detected to run this container|GPU, which is not supported by this container|This container was built for NVIDIA Driver Release|The NVIDIA Driver was not detected\./,
        source: 'the NGC containers\' entrypoint (/opt/nvidia/entrypoint.d; not published as source), printed verbatim in e.g. https://github.com/coqui-ai/stt/issues/1936',
        example: 'ERROR: No supported GPU(s) detected to run this container',
        // The banner says the driver is missing at warning level ("WARNING: The NVIDIA Driver was not detected."): still why.
        evenInNoise: 'NVIDIA Driver was not detected',
      },
      {
        category: 'cuda',
        summary: 'A CUDA math library (cuSOLVER, cuFFT, cuSPARSE) failed',
        says: /\bCUSOLVER_STATUS_(?!SUCCESS)[A-Z_]{2,40}|\bCUSPARSE_STATUS_(?!SUCCESS)[A-Z_]{2,40}|\bCUFFT_(?:INTERNAL_ERROR|EXEC_FAILED|SETUP_FAILED|ALLOC_FAILED|INVALID_PLAN)\b|cuFFT error: /,
        source: 'cuSOLVER, cuSPARSE and cuFFT API references (cusolverStatus_t, cusparseStatus_t, cufftResult): https://docs.nvidia.com/cuda/cusolver/index.html, https://docs.nvidia.com/cuda/cusparse/index.html, https://docs.nvidia.com/cuda/cufft/index.html; pytorch/pytorch aten/src/ATen/cuda/CUDASolver.h ("cusolver error: %s, when calling `%s`")',
        example: 'RuntimeError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when calling `cusolverDnCreate(handle)`',
      },
      {
        category: 'cuda',
        summary: 'A Triton kernel needs more of a GPU resource (shared memory, registers) than this GPU has',
        says: /out of resource: (?:shared memory|registers|threads)\b/,
        source: 'triton-lang/triton python/triton/runtime/errors.py (OutOfResources: "out of resource: {name}, Required: {required}, Hardware limit: {limit}")',
        example: 'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.',
      },
      {
        category: 'cuda',
        summary: "The compiler's LLVM does not know this GPU's architecture (a toolchain older than the GPU)",
        says: /'sm_\d{2,3}[af]?' is not a recognized processor for this target/,
        source: 'llvm/llvm-project llvm/lib/MC/MCSubtargetInfo.cpp ("\'%s\' is not a recognized processor for this target (ignoring processor)"), printed by Triton and other LLVM-based compilers for an NVPTX target they predate',
        example: "'sm_120' is not a recognized processor for this target (ignoring processor)",
        // LLVM prints it as a warning and goes on; the kernel it builds then fails.
        evenInNoise: 'is not a recognized processor',
      },
      {
        category: 'cuda',
        summary: 'cuBLAS could not run a matrix multiplication for TensorFlow (often the GPU memory cuBLAS needs is taken)',
        says: /\bBlas (?:GEMM|xGEMMBatched|GEMV|SGEMM|xGEMV) launch failed/,
        source: 'tensorflow/tensorflow tensorflow/core/kernels/matmul_op_impl.h and matmul_op.cc (errors::Internal("Blas GEMM launch failed : a.shape=", …), "Blas xGEMMBatched launch failed", "Blas GEMV launch failed")',
        example: '  (0) Internal: Blas GEMM launch failed : a.shape=(64, 50), b.shape=(50, 180), m=64, n=180, k=50',
      },
    ],
  },
  {
    software: 'NCCL, Horovod, Open MPI',
    entries: [
      {
        // PyTorch's watchdog says this when it has found a failed or timed-out collective, before
        // or after the line that names it ("Watchdog caught collective operation timeout: …"):
        // a report, whose detail of its own kind is the line to read.
        category: 'nccl',
        kind: 'report',
        secondary: true,
        beforeCascades: true,
        summary: "PyTorch's NCCL watchdog found a failed or timed-out collective (the line naming it says which)",
        says: /Some NCCL operations have failed or timed out\./,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (WorkNCCL::handleException: "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.")',
        example: '[rank6]:[E901 05:20:04.905604457 ProcessGroupNCCL.cpp:684] [Rank 6] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.',
      },
      {
        // JAX's multi-host runs meet through XLA's coordination service (gRPC): a task that does not
        // register, misses a barrier or comes back restarted is the job's processes not meeting.
        category: 'nccl',
        summary: "JAX's processes could not meet through XLA's coordination service (a task missing, late or restarted)",
        says: /unexpectedly tried to connect with a different incarnation|Barrier timed out\. (?:Barrier_id|Id): |Coordination service agent in error status: |cluster registration failed|WatchTasksAsync failed for task \d/,
        source: 'openxla/xla xla/tsl/distributed_runtime/coordination/coordination_service.cc ("%s unexpectedly tried to connect with a different incarnation. It has likely restarted.", "Barrier timed out. Id: %s", "Stopping coordination service as cluster registration failed"), coordination_service_agent.cc, xla/pjrt/distributed/client.cc ("Coordination service agent in error status: %s")',
        example: 'jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:',
      },
      {
        category: 'nccl',
        summary: "The NCCL watchdog found a collective hung and ended the rank (another rank stopped taking part)",
        says: /due to ProcessGroupNCCL watchdog hang/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (HeartbeatMonitor: "Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.")',
        example: '[rank2]:[F205 18:19:06.383067836 ProcessGroupNCCL.cpp:1614] [PG ID 17 Rank 2] Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.',
      },
      {
        // TORCH_DISTRIBUTED_DEBUG=DETAIL compares each collective across ranks: ranks that call
        // different ones run different code paths (a branch on rank-local data), a bug in the
        // training script rather than in the network or NCCL.
        category: 'other',
        summary: "The ranks called different collectives at the same step: the training code takes a different path on some ranks (a bug in the script)",
        says: /Detected mismatch between collectives on ranks/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupWrapper.cpp (checkCollectiveFingerprints: "Detected mismatch between collectives on ranks. Rank %d is running collective: %s, but Rank %d is running collective: %s.")',
        example: 'RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: CollectiveFingerPrint(SequenceNumber=485, OpType=ALLREDUCE, TensorShape=[25], TensorDtypes=Float), but Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=485, OpType=BROADCAST).',
      },
      {
        // UCX is the transport between ranks under Open MPI, NCCL's UCX plugin and Dask-CUDA: a
        // connect it cannot make is a connection between the job's parts, as NCCL's own is.
        category: 'nccl',
        summary: "UCX could not connect the job's ranks (a peer's address unreachable, refused or timing out)",
        says: /UCX {1,4}ERROR {1,8}connect\(fd=\d{1,9}, dest_addr=[^)\n]{1,300}\) failed|ucp_ep_create\(proc=\d{1,9}\) failed|Failed to resolve UCX endpoint for rank \d/,
        source: 'openucx/ucx src/ucs/sys/sock.c (ucs_socket_connect: ucs_error("connect(fd=%d, dest_addr=%s) failed: %m")); open-mpi/ompi ompi/mca/pml/ucx/pml_ucx.c (PML_UCX_ERROR("ucp_ep_create(proc=%d) failed: %s"), "Failed to resolve UCX endpoint for rank %d")',
        example: '[1700554343.440877] [node-1:7356 :0]            sock.c:323  UCX  ERROR   connect(fd=48, dest_addr=172.17.0.1:42887) failed: Connection refused',
      },
      {
        category: 'nccl',
        summary: "DeepEP's kernels timed out waiting for the other GPUs or nodes of the expert-parallel group (RDMA or NVLink)",
        says: /DeepEP (?:dispatch|combine) [\w ()]{1,60}timeout/,
        source: 'deepseek-ai/DeepEP csrc/kernels/internode.cu and intranode.cu (printf "DeepEP dispatch forwarder timeout (RDMA meta), channel: %d, …", "DeepEP dispatch NVL receiver timeout, …", "DeepEP combine … timeout")',
        example: 'DeepEP dispatch forwarder timeout (RDMA meta), channel: 4, RDMA: 1, nvl: 4, src RDMA lane: 0, dst NVL: 5, meta: 0, 0, 0, 0',
      },
      {
        // The training operator's init container waits for the master with nslookup: a name that
        // never resolves means the job's pods cannot find each other.
        category: 'nccl',
        summary: "A pod of the job could not find another by its name (the master's or a worker's service does not resolve)",
        says: /nslookup: can't resolve '[^'\n]{1,253}'/,
        source: 'mirror/busybox networking/nslookup.c (bb_error_msg_and_die "can\'t resolve \'%s\'"); kubeflow/training-operator pkg/controller.v1/pytorch/initcontainer.go (the init-pytorch container: "until nslookup {{.MasterAddr}}; do echo waiting for master; sleep 2; done;")',
        example: "nslookup: can't resolve 'pytorch-job-master-0': Name does not resolve",
      },
      {
        category: 'nccl',
        // A report: NCCL says the call was wrong, and its "Last error:" line after it says how (row 6 of precedence.ts).
        kind: 'report',
        summary: 'NCCL refused the call as invalid usage (its last error, below it, says what was wrong)',
        says: /invalid usage \(run with NCCL_DEBUG=|\bncclInvalidUsage\b/,
        source: 'NVIDIA/nccl src/init.cc (ncclGetErrorString: ncclInvalidUsage "invalid usage", "This usually reflects invalid usage of NCCL library."); pytorch/pytorch torch/csrc/distributed/c10d/NCCLUtils.hpp ("NCCL error in: %s:%d, %s (run with NCCL_DEBUG=WARN for details)")',
        example: 'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5',
      },
      {
        category: 'config',
        beforeCascades: true,
        summary: "Two ranks of the job were given the same GPU: the job's device mapping (processes per node, CUDA_VISIBLE_DEVICES) is wrong",
        says: /Duplicate GPU detected : rank \d{1,7} and rank \d{1,7} both on CUDA device/,
        source: 'NVIDIA/nccl src/init.cc (WARN("Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx"), returned as ncclInvalidUsage)',
        example: 'Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10',
      },
      {
        category: 'nccl',
        summary: "NCCL gave up connecting to another rank's socket",
        says: /socketPollConnect: connect to \S{1,300} returned [^\n]{1,200}, exceeded error retry count/,
        source: 'NVIDIA/nccl src/misc/socket.cc (socketPollConnect: "socketPollConnect: connect to %s returned %s, exceeded error retry count after %d attempts")',
        example: 'socketPollConnect: connect to 22.11.219.25<47479> returned Connection refused, exceeded error retry count after 35 attempts',
      },
      {
        // NCCL logs each failed attempt at INFO level with its count; the attempt that reaches the
        // limit is the last: after it NCCL gives up (the `exceeded error retry count` above), so a
        // paste cut there still says why the rank never connected.
        category: 'nccl',
        summary: "NCCL used up its retries connecting to another rank's socket",
        says: /socketPollConnect: connect returned [^\n]{1,200}, retrying \((\d{1,4})\/\1\)/,
        source: 'NVIDIA/nccl src/misc/socket.cc (socketPollConnect: INFO "%s: connect returned %s, retrying (%d/%d) after sleep for %u msec", then "exceeded error retry count after %d attempts")',
        example: 'host:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying (34/34) after sleep for 3400 msec',
        evenInNoise: 'socketPollConnect: connect returned',
      },
      {
        category: 'nccl',
        beforeCascades: true,
        summary: 'A rank could not connect to another over the network (NCCL)',
        says: /Call to connect failed|Connect to \S{1,300} failed|socket(?:Start|Poll)Connect: (?:exceeded (?:retries|timeouts)|Connect to)|ncclOsSocketPollConnect to \S{1,300} failed|Net : error encountered when getting address info/,
        source: 'NVIDIA/nccl src/include/checks.h ("Call to " name " failed", v2.4–2.7), src/misc/socket.cc ("socketStartConnect: Connect to %s failed : %s", "exceeded retries"), src/os/linux.cc ("ncclOsSocketPollConnect to %s failed")',
        example: 'worker-1:391:446 [0] include/socket.h:403 NCCL WARN Call to connect failed : Connection refused',
      },
      {
        category: 'nccl',
        beforeCascades: true,
        summary: 'A connection between ranks broke during a transfer (NCCL socket)',
        says: /Call to (?:recv|send|read|write) failed : /,
        source: 'NVIDIA/nccl src/include/socket.h (socketProgressOpt: WARN("Call to recv failed : %s", strerror(errno)), v2.3–2.8), src/include/checks.h (SYSCHECK: "Call to " name " failed : %s"); NCCL 2.1 printed the WARN level without the word NCCL',
        example: 'node1:54573:54696 [1] include/socket.h:194 WARN Call to recv failed : Connection reset by peer',
        evenInNoise: 'Call to ',
      },
      {
        category: 'nccl',
        beforeCascades: true,
        summary: 'NCCL found no usable network interface',
        // Bootstrap's "no socket interface found" is the job's interface setting (a config entry).
        says: /No usable listening interface found|NET\/Socket : no interface found|No interface found in the same subnet as remote address/,
        source: 'NVIDIA/nccl src/bootstrap.cc ("NET/Socket : No usable listening interface found"), src/transport/net_socket.cc ("NET/Socket : no interface found"), src/misc/socket.cc',
        example: 'node-0:51:51 [0] bootstrap.cc:41 NCCL WARN NET/Socket : No usable listening interface found',
      },
      {
        // NCCL's SYSCHECK names the system call and its strerror: a refused /dev/shm (another
        // user's segment, a read-only mount) is access, not memory.
        category: 'permission',
        beforeCascades: true,
        summary: 'NCCL was refused access to a system resource it opens (often /dev/shm or its segments)',
        says: /NCCL WARN Call to \w{1,40} failed : Permission denied/,
        source: 'NVIDIA/nccl src/include/checks.h (SYSCHECKVAL: WARN("Call to " name " failed : %s", strerror(errno))), src/include/shm.h and src/misc/shmutils.cc (shm_open, ftruncate, mmap of /dev/shm)',
        example: 'node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied',
        evenInNoise: 'Permission denied',
      },
      {
        // The queue pair's move to ready-to-receive needs the peer's address and a working RDMA
        // path: a failure is the network between the ranks.
        category: 'nccl',
        beforeCascades: true,
        summary: 'An RDMA connection between ranks could not be set up (the InfiniBand or RoCE path to the peer)',
        says: /Failed to modify QP to (?:INIT|RTR|RTS)\b/,
        source: 'linux-rdma/rdma-core libibverbs/man/ibv_modify_qp.3 (the queue pair\'s states RESET, INIT, RTR, RTS), libibverbs/examples/rc_pingpong.c ("Failed to modify QP to RTR"), the wording of RDMA transports built on it',
        example: 'Failed to modify QP to RTR: Connection timed out',
      },
      {
        category: 'nccl',
        summary: 'NCCL failed (a system call, the network or a remote rank)',
        says: /unhandled system error|remote process exited or there was a network error|internal error - please report this issue to the NCCL developers/,
        source: 'NVIDIA/nccl src/init.cc (ncclGetErrorString)',
        example: 'torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
      },
      {
        category: 'nccl',
        summary: 'An NCCL operation failed under Horovod',
        says: /\bnccl[A-Z]\w{1,40} failed: |NCCL async error: /,
        source: 'horovod/horovod horovod/common/ops/nccl_operations.cc (NCCLContext::ErrorCheck "%s failed: %s", "NCCL async error: ")',
        example: 'horovod.common.exceptions.HorovodInternalError: ncclCommInitRank failed: unhandled system error',
      },
      {
        // Secondary: the banner only frames the report; its `Signal: Segmentation fault (11)`
        // line says which signal, and an error before it says why.
        category: 'crash',
        secondary: true,
        summary: "A rank crashed on a signal; Open MPI's handler printed its stack",
        says: /\*\*\* Process received signal \*\*\*|\*\*\* End of error message \*\*\*/,
        source: 'open-mpi/ompi opal/util/stacktrace.c (opal_show_stackframe: "*** Process received signal ***", "*** End of error message ***")',
        example: '[node-2:10319] *** End of error message ***',
      },
      {
        category: 'crash',
        summary: "A process crashed on a signal; glog's failure signal handler printed its stack",
        // SIGTERM is in glog's list too, but it is a stop from outside (the generic SIGTERM row), not a crash.
        says: /\*\*\* SIG(?:SEGV|ILL|FPE|ABRT|BUS) \(@0x[0-9a-f]{1,16}\) received by PID \d{1,10}/,
        source: 'google/glog src/signalhandler.cc (DumpSignalInfo: "*** " signal name " (@0x" address ") received by PID " pid " (TID 0x" tid ") from PID " sender "; stack trace: ***"; docs/failures.md). Paddle, Caffe and XLA install it; a failure writer may route it through LOG(WARNING) or LOG(ERROR)',
        example: 'W1212 04:02:33.403934 24044 init.cc:205] *** SIGSEGV (@0x0) received by PID 24044 (TID 0x7f6406bd7740) from PID 0; stack trace: ***',
        evenInNoise: ') received by PID ',
      },
      {
        category: 'crash',
        summary: "A process crashed on a signal; UCX's error handler printed its stack",
        says: /==== backtrace \(tid: {0,7}\d{1,10}\) ====|\] Caught signal (?:11|6|4|8) \((?:Segmentation fault|Aborted|Illegal instruction|Floating point exception)/,
        source: 'openucx/ucx src/ucs/debug/debug.c (ucs_debug_show_innermost_source_file / ucs_debug_backtrace_log: "==== backtrace (tid:%7d) ====", ucs_error_signal_handler: "Caught signal %d (%s)"); HPC-X, Open MPI and NCCL\'s UCX plugin install it',
        example: '[gpu-node-3:4182:0:4182] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x49)',
      },
      {
        category: 'crash',
        summary: 'A C++ assertion failed (a glog/Ray/abseil CHECK) and aborted the process',
        says: /\bCheck failed: /,
        source: 'google/glog src/glog/logging.h (CHECK(condition): "Check failed: " #condition " "), ray-project/ray src/ray/util/logging.h (RAY_CHECK: " Check failed: "), abseil/abseil-cpp absl/log/check.h ("Check failed: "); a failed CHECK logs at FATAL and aborts',
        example: '(pid=raylet, ip=172.31.21.113) F0803 17:57:59.534689 31315 31315 service_based_accessor.cc:488]  Check failed: !local_node_id_.IsNil() This node is disconnected.',
      },
      {
        category: 'nccl',
        summary: "A rank waited in vain for another over the distributed store's socket (c10d)",
        says: /\[c10d\] (?:waitForInput: socket [^\n]{1,300}? timed out after|While waitForInput, poolFD failed with)/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/socket.cpp (C10D_WARNING("waitForInput: socket {} timed out after {}ms"), C10D_WARNING("While waitForInput, poolFD failed with (errno: {} - {}).")), at warning level',
        example: '[rank3]:[W208 00:55:32.444220068 socket.cpp:487] [c10d] waitForInput: socket SocketImpl(fd=103, addr=[::ffff:11.130.1.53]:52362, remote=[::ffff:11.130.1.53]:5000) timed out after 1800000ms',
        evenInNoise: 'waitForInput',
      },
      {
        category: 'nccl',
        summary: 'mpirun could not start its daemons on the other nodes',
        says: /ORTE was unable to reliably start one or more daemons/,
        source: 'open-mpi/ompi orte/tools/orterun/help-orterun.txt (v4.1)',
        example: 'ORTE was unable to reliably start one or more daemons.',
      },
      {
        category: 'nccl',
        summary: 'The launcher could not reach another node of the job',
        // The launchers (mpirun, the MPI Operator's launcher, DeepSpeed's pdsh, Horovod) reach the
        // other workers over ssh: a name it cannot resolve is a node of the job, not a data source.
        says: /Launching horovodrun task function was not successful|ssh: connect to host \S{1,300} port \S{1,20}: |ssh: Could not resolve hostname \S{1,300}: |was not reachable via ssh/,
        source: 'horovod/horovod horovod/run/run.py (0.16–0.19, "Launching horovodrun task function was not successful"); openssh/openssh-portable sshconnect.c ("ssh: connect to host %s port %s: %s"), ssh.c ("ssh: Could not resolve hostname %s: %s"; ssh exits 255 when it cannot connect or log in); microsoft/DeepSpeed deepspeed/launcher/runner.py ("Using hostfile at %s but host=%s was not reachable via ssh.")',
        example: 'ssh: connect to host 192.168.0.119 port 12345: Connection refused',
      },
      {
        // DeepSpeed's launcher first runs `ssh <first host> hostname`; a paste cut before its
        // "was not reachable via ssh" shows the check's CalledProcessError, which names the
        // command (a subprocess's failure is otherwise a mere mention, hence before cascades).
        category: 'nccl',
        beforeCascades: true,
        summary: "DeepSpeed's launcher could not reach the first host of its hostfile over ssh",
        says: /Command 'ssh -o PasswordAuthentication=no \S{1,300} hostname' returned non-zero exit status 255/,
        source: 'microsoft/DeepSpeed deepspeed/launcher/runner.py (ssh_check_cmd "ssh -o PasswordAuthentication=no " + first_host + " hostname", run with subprocess.check_call); openssh/openssh-portable ssh.c (ssh exits 255 when it cannot connect or log in)',
        example: "subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no 192.168.3.100 hostname' returned non-zero exit status 255.",
      },
      {
        category: 'nccl',
        beforeCascades: true,
        summary: 'The InfiniBand network between ranks failed (a work completion with an error status)',
        says: /NET\/IB ?: Got completion from peer \S{1,300} with status=/,
        source: 'NVIDIA/nccl src/transport/net_ib/p2p.cc ("NET/IB: Got completion from peer %s with status=%s(%d) …")',
        example: 'node-1:123:456 [0] transport/net_ib.cc:1235 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<41234> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=2 len=0 vendor err 129 (Send)',
      },
      {
        category: 'nccl',
        beforeCascades: true,
        summary: "The ranks could not meet through torch.distributed's store or sockets",
        says: /\bDistStoreError\b|waiting for clients\. \d+\/\d+ clients joined|The client socket has timed out after|The server socket has failed to (?:listen|bind(?! to \S{1,300} \(errno: 98 - Address already in use))|store based barrier|retrieving ncclUniqueId from \[\d+\] via c10d key-value store/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/socket.cpp ("The client socket has timed out after %s while trying to connect to %s", "The server socket has failed to listen on any local network address"), torch/csrc/distributed/c10d/TCPStore.cpp ("Timed out after %d seconds waiting for clients. %d/%d clients joined."), torch/distributed/distributed_c10d.py ("Timed out initializing process group in store based barrier"), torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp ("… is setting up NCCL communicator and retrieving ncclUniqueId from [%d] via c10d key-value store")',
        example: 'torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.',
      },
      {
        category: 'nccl',
        summary: "A rank could not reach the rendezvous store: torch.distributed's connect timed out",
        says: /connect\(\) timed out\. Original timeout was \d+ ms/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/Utils.cpp, later socket.cpp (kConnectTimeoutMsg "connect() timed out." followed by " Original timeout was %d ms.")',
        example: 'RuntimeError: connect() timed out. Original timeout was 60000 ms.',
      },
      {
        category: 'nccl',
        summary: 'Gloo could not connect the ranks, or a peer stopped answering',
        says: /Gloo connectFullMesh failed|Timed out waiting \d+ms for (?:send|recv) operation to complete/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupGloo.cpp ("Gloo connectFullMesh failed with %s", where the cause may read "no error"); facebookincubator/gloo gloo/transport/tcp/unbound_buffer.cc, gloo/transport/ibverbs/unbound_buffer.cc ("Timed out waiting %dms for recv operation to complete")',
        example: 'RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error',
        evenInNoise: 'connectFullMesh failed',
      },
      {
        // Every error of gloo's transport starts with the file and line that raised it
        // (GLOO_ERROR_MSG); a pair is the connection between two ranks, so whatever it says
        // (refused, reset, closed, timed out) is a connect failure between ranks, not a fetch.
        category: 'nccl',
        beforeCascades: true,
        summary: "Gloo's connection between two ranks failed",
        says: /gloo\/transport\/(?:tcp|uv|ibverbs)\/\w{1,40}\.cc:\d{1,6}\] /,
        source: 'facebookincubator/gloo gloo/transport/tcp/pair.cc (signalException(GLOO_ERROR_MSG("connect: ", strerror(errno))), "Read error ", "Write timeout ", "Socket unexpectedly closed "; GLOO_ERROR_MSG prefixes "[<file>:<line>] ")',
        example: 'RuntimeError: [/opt/conda/conda-bld/pytorch_1682343967769/work/third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [172.31.71.170]:13195: Connection refused',
      },
      {
        category: 'nccl',
        summary: 'mpirun could not connect its processes over TCP',
        says: /A process or daemon was unable to complete a TCP connection/,
        source: 'open-mpi/ompi orte/mca/oob/tcp/oob_tcp_connection.c (v4.1)',
        example: 'A process or daemon was unable to complete a TCP connection to another process:',
      },
      {
        category: 'nccl',
        summary: "mpirun lost its connection to the daemon on another node (the network between them, or that node's daemon died)",
        says: /\b(?:ORTE|PRTE) has lost communication with a remote daemon/,
        source: 'open-mpi/ompi orte/mca/errmgr/base/help-errmgr-base.txt ("ORTE has lost communication with a remote daemon. … This is usually due to either a failure of the TCP network connection to the node, or possibly an internal failure of the daemon itself."); openpmix/prrte src/mca/errmgr/help-errmgr-base.txt (the same with PRTE, Open MPI 5)',
        example: 'ORTE has lost communication with a remote daemon.',
      },
      {
        category: 'nccl',
        summary: 'The elastic rendezvous between the nodes failed',
        says: /due to an error of type Rendezvous\w{0,40}Error/,
        source: 'pytorch/pytorch torch/distributed/elastic/rendezvous/dynamic_rendezvous.py ("The node %s has failed to shutdown the rendezvous %s due to an error of type %s.", logged at warning level)',
        example: "WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'worker-1_17_0' has failed to shutdown the rendezvous 'none' due to an error of type RendezvousConnectionError.",
        evenInNoise: 'due to an error of type',
      },
    ],
  },
  {
    software: 'Python packages and ABI',
    entries: [
      {
        // cuDNN 9 loads its sub-libraries (ops, cnn, adv, engines) at run time; one not on the
        // library path is a package missing from the environment.
        category: 'import',
        summary: 'cuDNN could not load one of its own libraries (not installed, or not on the library path)',
        says: /Could not (?:locate|load library) (?:lib)?cudnn\w{0,40}(?:64_\d{1,2}\.dll|\.so(?:\.\d{1,3}){0,3})|Unable to load any of \{libcudnn/,
        source: 'NVIDIA cuDNN 9 (closed source; its loader, quoted as it prints) https://docs.nvidia.com/deeplearning/cudnn/latest/api/overview.html (cuDNN 9 is split into sub-libraries, cudnn_ops, cudnn_cnn, cudnn_adv, loaded at run time); "Could not load library libcudnn_cnn_infer.so.8" in cuDNN 8',
        example: 'Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!',
      },
      {
        // JAX's CUDA plugin checks each CUDA library it needs by loading it; one that does not
        // load (the pip wheel missing, another CUDA on the path) fails the check and JAX falls
        // back to the CPU.
        category: 'import',
        summary: "JAX's CUDA plugin could not load a CUDA library it needs (the library's package is missing or broken)",
        says: /Unable to load (?:CUDA|cu[A-Z][A-Za-z]{2,12}|NCCL|nvJitLink|NVRTC|CUPTI|PTXAS)\w{0,12}\. Is it installed\?/,
        source: 'jax-ml/jax jax_plugins/cuda/__init__.py (_version_check: RuntimeError(f"Unable to load {name}. Is it installed?"))',
        example: 'RuntimeError: Unable to load cuSPARSE. Is it installed?',
      },
      {
        category: 'import',
        summary: 'Paddle cannot load a library it depends on (cuDNN, cuBLAS, NCCL…): it is missing from the image or the loader\'s path',
        says: /The third-party dynamic library \(\S{1,200}\) that Paddle depends on is not configured correctly/,
        source: 'PaddlePaddle/Paddle paddle/phi/backends/dynload/dynamic_loader.cc ("The third-party dynamic library (%s) that Paddle depends on is not configured correctly. (error code is %s)")',
        example: 'OSError: (External) The third-party dynamic library (libcudnn.so) that Paddle depends on is not configured correctly. (error code is libcudnn.so: cannot open shared object file: No such file or directory)',
        // The loader logs it at warning level (glog W) and the op that needed the library fails later.
        evenInNoise: 'that Paddle depends on is not configured correctly',
      },
      {
        category: 'import',
        summary: 'FastAPI needs python-multipart for form data, and the image does not have it',
        says: /Form data requires "python-multipart" to be installed/,
        source: 'fastapi/fastapi fastapi/dependencies/utils.py (ensure_multipart_is_installed: \'Form data requires "python-multipart" to be installed.\')',
        example: 'RuntimeError: Form data requires "python-multipart" to be installed.',
      },
      {
        category: 'import',
        summary: "pip cannot install a package into this Python: the package needs another Python version",
        says: /requires a different Python: \S{1,40} not in /,
        source: 'pypa/pip src/pip/_internal/resolution/legacy/resolver.py and resolvelib reporter (_check_dist_requires_python: "Package {!r} requires a different Python: {} not in {!r}")',
        example: "ERROR: Package 'dockq-2.1' requires a different Python: 3.8.10 not in '>=3.9'",
      },
      {
        category: 'import',
        summary: 'conda cannot find the packages the environment asks for in its channels',
        says: /ResolvePackageNotFound:|PackagesNotFoundError: The following packages are (?:not available|missing)/,
        source: 'conda/conda conda/exceptions.py (ResolvePackageNotFound, PackagesNotFoundError: "The following packages are not available from current channels:")',
        example: 'PackagesNotFoundError: The following packages are not available from current channels:',
      },
      {
        // The op library (torchvision, torchaudio, an extension) did not register its native
        // operators: its binary was built for another PyTorch, or did not load at all.
        category: 'import',
        summary: "A package's native operators are not registered with PyTorch (the package was built for another PyTorch version)",
        says: /operator \w{1,100}::\w{1,200} does not exist/,
        source: 'pytorch/pytorch torch/csrc/utils/python_dispatch.cpp (_dispatch_has_kernel_for_dispatch_key: TORCH_CHECK(op, "operator ", name, " does not exist")), reached through torch.library when torchvision registers its meta kernels',
        example: 'RuntimeError: operator torchvision::nms does not exist',
      },
      {
        // The JVM's undefined symbol: a native method the jar calls is not in the library it
        // loaded (jars of different versions), or the library or one it needs is missing.
        category: 'import',
        summary: "A native library a Java program loads is missing or does not match its jar (Spark RAPIDS, cuDF's JNI)",
        says: /java\.lang\.UnsatisfiedLinkError\b/,
        source: 'openjdk/jdk src/java.base/share/classes/java/lang/UnsatisfiedLinkError.java ("Thrown if the Java Virtual Machine cannot find an appropriate native-language definition of a method declared native"), thrown by System.load and ClassLoader.loadLibrary',
        example: 'java.lang.UnsatisfiedLinkError: com.nvidia.spark.rapids.jni.ParquetFooter.readAndFilter(JJJJ[Ljava/lang/String;[I[IIZ)J',
        evenInNoise: 'UnsatisfiedLinkError',
      },
      {
        category: 'import',
        summary: 'A package the code needs is not installed in the image (or is too old)',
        says: /requires the \S{1,60}(?: \S{1,60})? library but it was not found in your environment|The model you want to train is loaded in 8-bit precision|please make sure that you have installed `[\w.-]{1,60}/,
        source: 'huggingface/transformers src/transformers/utils/import_utils.py (the *_IMPORT_ERROR messages "{0} requires the {library} library but it was not found in your environment"), src/transformers/trainer.py ("The model you want to train is loaded in 8-bit precision.  if you want to fine-tune an 8-bit model, please make sure that you have installed `bitsandbytes>=0.37.0`.", a line a terminal may wrap)',
        example: 'ImportError: LlamaTokenizer requires the SentencePiece library but it was not found in your environment.',
      },
      {
        // serde's message for a tokenizer.json whose model section the installed tokenizers
        // cannot read: files written by a newer tokenizers add variants an older one lacks.
        category: 'import',
        summary: 'The tokenizer file was written by a newer tokenizers than the one installed',
        says: /data did not match any variant of untagged enum (?:ModelWrapper|PreTokenizerWrapper|NormalizerWrapper|DecoderWrapper|PostProcessorWrapper)/,
        source: 'huggingface/tokenizers tokenizers/src/models/mod.rs and the pre_tokenizers, normalizers, decoders and processors modules (#[serde(untagged)] enum ModelWrapper and its siblings); serde-rs/serde serde_derive/src/de.rs ("data did not match any variant of untagged enum {}")',
        example: 'Exception: data did not match any variant of untagged enum ModelWrapper at line 1251012 column 3',
      },
      {
        category: 'import',
        summary: 'A module was built against NumPy 1.x and cannot run with NumPy 2',
        says: /A module that was compiled using NumPy 1\.x cannot be run in|_ARRAY_API not found|numpy\.dtype size changed, may indicate binary incompatibility|module compiled against (?:API version|NumPy)|numpy\.(?:_?core\.)?multiarray failed to import/,
        source: 'numpy/numpy numpy/core/_multiarray_umath.py ("A module that was compiled using NumPy 1.x cannot be run in NumPy %s"), numpy/_core/code_generators/generate_numpy_api.py ("module compiled against …", "numpy._core.multiarray failed to import"), doc/source/user/troubleshooting-importerror.rst',
        example: 'A module that was compiled using NumPy 1.x cannot be run in',
      },
      {
        category: 'import',
        // Secondary: pip reports the conflict after installing; the import that fails on it, when the log has it, is the failure.
        secondary: true,
        summary: 'pip left installed packages whose requirements conflict',
        says: /\S{1,200} \S{1,100} requires \S{1,200}, but you have \S{1,200} \S{1,100} which is incompatible\./,
        source: 'pypa/pip src/pip/_internal/commands/install.py (_warn_about_conflicts: "%s %s requires %s, but you have %s %s which is incompatible.")',
        example: 'torchvision 0.18.0 requires torch==2.3.0, but you have torch 2.2.1 which is incompatible.',
      },
      {
        category: 'import',
        summary: 'bitsandbytes found no native library for this CUDA: the installed build does not match the CUDA runtime',
        says: /CUDA Setup failed despite GPU being available|Could not find the bitsandbytes CUDA binary at /,
        source: 'bitsandbytes-foundation/bitsandbytes bitsandbytes/cextension.py ("CUDA Setup failed despite GPU being available. Please run the following command to get more information: python -m bitsandbytes", "Could not find the bitsandbytes CUDA binary at %r")',
        example: "Could not find the bitsandbytes CUDA binary at PosixPath('/opt/conda/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cuda124.so')",
      },
      {
        category: 'import',
        summary: 'xFormers has no kernel for these inputs: usually a build of xformers that does not match the installed PyTorch or CUDA (its reasons follow)',
        says: /No operator found for `\w{1,100}` with inputs/,
        source: 'facebookresearch/xformers xformers/ops/fmha/dispatch.py (_run_priority_list: NotImplementedError("No operator found for `{name}` with inputs: …"), each operator\'s reason after it, such as "xFormers wasn\'t build with CUDA support")',
        example: 'NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:',
      },
      {
        category: 'import',
        summary: 'Code in the image uses a NumPy alias that the installed NumPy removed',
        says: /module 'numpy' has no attribute '/,
        source: 'numpy/numpy numpy/__init__.py (__getattr__: "module \'numpy\' has no attribute \'{n}\'", for the aliases removed in NumPy 1.24 and 2.0)',
        example: "AttributeError: module 'numpy' has no attribute 'object'.",
      },
      {
        category: 'import',
        summary: 'A transformers module failed to import (its own traceback says which package)',
        says: /Failed to import transformers\.\S{1,200} because of the following error/,
        source: 'huggingface/transformers src/transformers/utils/import_utils.py (_LazyModule: "Failed to import %s because of the following error (look up to see its traceback)")',
        example: 'RuntimeError: Failed to import transformers.models.llama.modeling_llama because of the following error (look up to see its traceback):',
      },
      {
        category: 'import',
        summary: 'pip could not install a package the image needs',
        says: /Could not find a (?:version|\w+) that satisfies the requirement|No matching distribution found for|ResolutionImpossible|because these package versions have conflicting dependencies|The conflict is caused by:/,
        source: 'pypa/pip src/pip/_internal/index/package_finder.py ("Could not find a %s that satisfies the requirement %s", "No matching distribution found for %s"), src/pip/_internal/resolution/resolvelib/factory.py ("… because these package versions have conflicting dependencies", "The conflict is caused by:", "ResolutionImpossible")',
        example: 'ERROR: Could not find a version that satisfies the requirement flash-attn==9.9 (from versions: none)',
      },
      {
        category: 'import',
        summary: "pip's resolver gave up: the requirements need too much backtracking to resolve",
        says: /\bResolutionTooDeep\b/,
        source: 'sarugaku/resolvelib src/resolvelib/resolvers.py (class ResolutionTooDeep(ResolutionError), raised after max_rounds), vendored by pypa/pip as src/pip/_vendor/resolvelib',
        example: 'pip._vendor.resolvelib.resolvers.ResolutionTooDeep: 200000',
      },
      {
        category: 'import',
        summary: 'uv found no set of package versions that satisfies the requirements',
        says: /No solution found when resolving (?:[\w`-]{1,40} )?dependencies/,
        source: 'astral-sh/uv crates/uv-resolver/src/error.rs (ResolveError::NoSolution: "No solution found when resolving dependencies:", "… for split (%s):" in a forked resolution; "script dependencies" and "`--with` dependencies" as uv run names them), as uv\'s own tests snapshot it',
        example: '  × No solution found when resolving dependencies:',
      },
      {
        category: 'import',
        summary: 'pipenv could not lock the dependencies: no versions satisfy the Pipfile',
        says: /pipenv\.exceptions\.ResolutionFailure|\bLocking Failed!/,
        source: 'pypa/pipenv pipenv/exceptions.py (class ResolutionFailure(PipenvException)), pipenv/utils/resolver.py (environments.PIPENV_SPINNER_FAIL_TEXT.format("Locking Failed!"), the spinner\'s "\u2718 Locking Failed!")',
        example: '\u280b Locking...\u2718 Locking Failed!',
      },
      {
        category: 'import',
        summary: 'The installed jax and jaxlib do not go together',
        says: /jaxlib is version \S+, but this version of jax requires|is newer than and incompatible with jax version/,
        source: 'jax-ml/jax jax/_src/lib/__init__.py (check_jaxlib_version)',
        example: 'RuntimeError: jaxlib is version 0.4.7, but this version of jax requires version >= 0.4.14.',
      },
      {
        category: 'import',
        summary: 'DeepSpeed cannot build its ops: the ninja build tool is missing from the image',
        says: /op due to ninja not being installed/,
        source: 'microsoft/DeepSpeed op_builder/builder.py ("Unable to JIT load the %s op due to ninja not being installed")',
        example: 'RuntimeError: Unable to JIT load the fused_adam op due to ninja not being installed.',
      },
    ],
  },
  {
    software: 'Shells and container start',
    entries: [
      {
        category: 'config',
        summary: "The container's command is not in the image (or not on its PATH)",
        says: /executable file [`'"][^`'"\n]{1,200}[`'"] not found in \$PATH/,
        source: 'containers/crun src/libcrun/linux.c (libcrun_error: "executable file `%s` not found in $PATH"), the runtime CRI-O runs on many clusters; runc\'s own form is Go os/exec\'s "exec: %q: executable file not found in $PATH"',
        example: 'container create failed: executable file `lmcache_experimental_server` not found in $PATH: No such file or directory',
      },
      {
        // Apptainer's --nvccli runs nvidia-container-cli, which it refuses from its setuid starter
        // (too risky as root): the command asks for a GPU set-up this installation does not allow.
        category: 'config',
        summary: "Apptainer refuses --nvccli under its setuid starter: use --nv, or an installation without setuid",
        says: /nvidia-container-cli not allowed in setuid mode/,
        source: 'apptainer/apptainer internal/pkg/runtime/engine/apptainer/prepare_linux.go (EngineOperations.prepareContainerConfig: fmt.Errorf("nvidia-container-cli not allowed in setuid mode"))',
        example: 'FATAL:   nvidia-container-cli not allowed in setuid mode',
      },
      {
        // What the job runs is not in the image: a launcher (slurmstepd, a shell) cannot execute
        // it. A path under bin/ or sbin/ is a program, not data the command reads.
        category: 'config',
        summary: "The program the command runs is not in the image (or not on its PATH)",
        says: /execve\(\): \S{1,300}: No such file or directory|enroot-switchroot: failed to execute: \S{1,300}: No such file or directory|^(?:\/\S{0,40}\/)?(?:ba)?sh: (?:line )?\d{1,6}: \/(?:\S{1,200}\/)?s?bin\/[^\s/:]{1,200}: No such file or directory/,
        source: 'SchedMD/slurm src/slurmd/slurmstepd/exec_wait.c and task.c (error("execve(): %s: %m")); NVIDIA/enroot bin/enroot-switchroot.c ("failed to execute: %s"); bash execute_cmd.c (shell_execve: file_error, "%s: No such file or directory" for a command path that does not exist)',
        example: 'slurmstepd: error: execve(): torchrun: No such file or directory',
      },
      {
        category: 'config',
        summary: 'The command or its interpreter does not exist in the image',
        says: /: command not found|: cannot execute: required file not found|: bad interpreter|cannot execute binary file|executable file not found in \$PATH/,
        source: 'bminor/bash execute_cmd.c ("command not found", "cannot execute: required file not found", "bad interpreter", "cannot execute binary file"); Go os/exec ErrNotFound ("executable file not found in $PATH") as runc reports it',
        example: '/entrypoint.sh: line 12: torchrun: command not found',
      },
      {
        // A script's `#!/usr/bin/env bash` names an interpreter env cannot find: saved with CRLF
        // line ends (`bash\r`), a trailing space, or an interpreter the image lacks.
        category: 'config',
        summary: "The script's #! line names an interpreter that env cannot find (often a Windows line end: bash\\r)",
        says: /\benv: ['\u2018"][^'\u2019"\n]{1,100}['\u2019"]: No such file or directory/,
        source: 'coreutils/coreutils src/env.c (execvp failure: error (0, errno, "%s", quote (argv[optind])), printed as "env: \u2018bash\\r\u2019: No such file or directory", in curly quotes under a UTF-8 locale); busybox coreutils/env.c (bb_perror_msg("can\'t execute \'%s\'"))',
        example: "/usr/bin/env: 'bash\r': No such file or directory",
      },
      {
        // bash quotes a command word holding a carriage return as $'\r' (a script saved with
        // Windows line ends); the rest of its message is in the locale's language.
        category: 'config',
        summary: "A shell script has Windows line ends: bash reads each carriage return as a command ($'\\r': command not found)",
        // The colon after it comes in the locale's width (a full-width one in Chinese): a lookahead,
        // so the literal the prefilter looks for is the quoted carriage return alone.
        says: /\$'\\r'(?=[:\uff1a])/,
        source: 'bminor/bash execute_cmd.c (internal_error(_("%s: command not found"), …) with the word quoted by ansic_quote, so a lone carriage return prints as $\'\\r\'; the message is translated, e.g. zh_CN "未找到命令")',
        example: "./train.sh: line 2: $'\\r': command not found",
      },
      {
        category: 'config',
        summary: "The container's command could not be executed (missing, another architecture, no interpreter)",
        says: /exec user process caused|^exec \S{1,300}: (?:no such file or directory|exec format error)/,
        source: 'opencontainers/runc libcontainer/standard_init_linux.go (v1.0: newSystemErrorWithCause(err, "exec user process"), read "exec user process caused …"; v1.1: system.Exec returns os.PathError{Op: "exec"}, read "exec /entrypoint.sh: no such file or directory")',
        example: 'standard_init_linux.go:228: exec user process caused: exec format error',
      },
      {
        // An exec into a running container (an exec probe, `kubectl exec`) is not its start: runc
        // joins the container's namespaces (setns) and fails once the container is stopping or
        // gone, so the line follows the container's end rather than causing it. Only secondary:
        // the container's own end (its exit code, its reason) says more.
        category: 'config',
        secondary: true,
        summary: 'An exec into the container (an exec probe or kubectl exec) failed',
        says: /OCI runtime exec failed|ExecSync cmd from runtime service failed|ExecSync for \S{1,300} failed/,
        source: 'kubernetes/kubernetes pkg/kubelet/cri/remote/remote_runtime.go (klog "ExecSync cmd from runtime service failed"); containerd/containerd internal/cri/server/container_execsync.go ("ExecSync for %q failed"); opencontainers/runc exec.go ("exec failed: %w"), read by the shim as "OCI runtime exec failed"',
        example: 'E1113 03:50:55.199033 22614 remote_runtime.go:479] "ExecSync cmd from runtime service failed" err="rpc error: code = Unknown desc = failed to exec in container: OCI runtime exec failed: exec failed: unable to start container process: error executing setns process: exit status 1: unknown"',
      },
      {
        // The device the kubelet gave the pod has no CDI spec on the node: the GPU Operator's or
        // the DRA driver's generated specs are missing or stale. Nothing in the pod's image or
        // command causes it, and no category's advice fixes it: the node's set-up does.
        category: 'other',
        summary: "The node's container runtime has no CDI spec for the GPU it was to inject (the node's generated CDI specs are missing or stale)",
        says: /unresolvable CDI devices /,
        source: 'cncf-tags/container-device-interface pkg/cdi/cache.go (Cache.InjectDevices: fmt.Errorf("unresolvable CDI devices %s", strings.Join(unresolved, ", "))), wrapped by containerd ("failed to inject CDI devices: …", "CDI device injection failed: …")',
        example: '  Warning  Failed     10s (x2 over 10s)  kubelet            Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices management.nvidia.com/gpu=0: unknown',
      },
      {
        category: 'config',
        kind: 'report',
        summary: 'The container runtime could not start the container',
        says: /OCI runtime (?:create|start|exec) failed|unable to start container process|error during container init|failed to create shim task|starting container process caused/,
        source: 'containerd/containerd cmd/containerd-shim-runc-v2/process/init.go ("OCI runtime create failed"), core/runtime/v2/task_manager.go (TaskManager.Create: "failed to create shim task: %w"); opencontainers/runc libcontainer/container_linux.go ("unable to start container process"; before 1.1 "starting container process caused"), libcontainer/process_linux.go ("error during container init")',
        example: 'Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "/data" to rootfs at "/mnt/data": flags: 0x5000: not a directory: unknown',
      },
      {
        category: 'config',
        summary: 'The project quota admits no pod without resource limits: the spec must set them',
        says: /failed quota: \S{1,253}: must specify/,
        source: 'kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go ("failed quota: %s: must specify %s")',
        example: 'create Pod jenkins-0 in StatefulSet jenkins failed error: pods "jenkins-0" is forbidden: failed quota: compute-resources: must specify limits.cpu for: config-reload',
      },
      {
        category: 'config',
        summary: 'The distributed launch variables are missing (started without a launcher)',
        says: /environment variable \S{1,40} expected, but not set/,
        source: 'pytorch/pytorch torch/distributed/rendezvous.py ("Error initializing torch.distributed using env:// rendezvous: environment variable %s expected, but not set")',
        example: 'ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set',
      },
      {
        category: 'config',
        summary: "The pod's security context does not fit the image",
        says: /container has runAsNonRoot and image will run as root|container has runAsNonRoot and image has non-numeric user/,
        source: 'kubernetes/kubernetes pkg/kubelet/kuberuntime/security_context_others.go (verifyRunAsNonRoot)',
        example: 'Error: container has runAsNonRoot and image will run as root (pod: "train-0_team(1234)", container: main)',
      },
      {
        category: 'config',
        summary: 'The model storage URI names no storage the initializer knows',
        says: /Cannot recognize storage type for/,
        source: 'kserve/kserve python/storage/kserve_storage/kserve_storage.py ("Cannot recognize storage type for %s")',
        example: "Exception: Cannot recognize storage type for s4://models/llama",
      },
      {
        category: 'config',
        summary: 'The trainer was asked for GPUs the container does not have (devices or CUDA_VISIBLE_DEVICES)',
        says: /You requested (?:gpu|GPUs): \S/,
        source: 'Lightning-AI/pytorch-lightning src/lightning/fabric/utilities/device_parser.py (_sanitize_gpu_ids: MisconfigurationException "You requested gpu: {gpus}\\n But your machine only has: {all_available_gpus}"; "You requested GPUs:" in pytorch_lightning/utilities/device_parser.py before 1.8)',
        example: 'lightning.fabric.utilities.exceptions.MisconfigurationException: You requested gpu: [0, 1, 2, 3]',
      },
      {
        category: 'config',
        summary: 'Mixed precision was asked for where the process sees no GPU (devices or CUDA_VISIBLE_DEVICES)',
        says: /\b(?:fp16|bf16) mixed precision requires a GPU/,
        source: 'huggingface/accelerate src/accelerate/accelerator.py (Accelerator.__init__: ValueError "fp16 mixed precision requires a GPU" when the device is not CUDA)',
        example: 'ValueError: fp16 mixed precision requires a GPU',
      },
      {
        // The API answers Forbidden, but no role is missing: a policy found the spec wrong.
        category: 'config',
        summary: 'An admission webhook (a cluster policy) rejected the workload\'s spec',
        says: /admission webhook "[^"]{1,253}" denied the request/,
        source: 'kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go (ToStatusErr: "admission webhook %q denied the request: %s")',
        example: 'Error from server (Forbidden): error when creating "job.yaml": admission webhook "validation.gatekeeper.sh" denied the request: [userpodlimits] container <train> has no memory limit',
      },
      {
        category: 'config',
        summary: 'The pod names a service account that does not exist in its namespace',
        says: /error looking up service account \S{1,300}: serviceaccounts? "[^"]{1,253}" not found/,
        source: 'kubernetes/kubernetes plugin/pkg/admission/serviceaccount/admission.go (admission.NewForbidden: "error looking up service account %s/%s: %v")',
        example: 'Error from server (Forbidden): pods "train-0" is forbidden: error looking up service account team/trainer: serviceaccount "trainer" not found',
      },
    ],
  },
  {
    software: 'Processes and threads',
    entries: [
      {
        // MPICH's launcher (Hydra, and Cray PALS on HPE systems) names each rank a signal ended;
        // the first one listed that crashed is the failure, the SIGTERMs after it are the launcher's cleanup.
        category: 'crash',
        beforeCascades: true,
        summary: 'An MPI rank crashed on a signal (segmentation fault, abort, bus error, illegal instruction)',
        says: /\brank \d{1,7} died from signal (?:11|6|7|4|8)\b/,
        source: 'pmodels/mpich src/pm/hydra/lib/pmiserv (HYD_pmcd_pmip_control_cmd_cb: "%s: rank %d died from signal %d"); signal(7) https://man7.org/linux/man-pages/man7/signal.7.html (11 SIGSEGV, 6 SIGABRT, 7 SIGBUS, 4 SIGILL, 8 SIGFPE)',
        example: 'x4006c0s6b0n0.hsn.cm.aurora.alcf.anl.gov: rank 256 died from signal 11',
      },
      {
        // glibc's assert(): a C or C++ program checked a condition that did not hold and aborted
        // (SIGABRT). A CUDA kernel's assert prints "block: [..], thread: [..] Assertion `…` failed."
        // instead (vocabulary above), which is the GPU's.
        category: 'crash',
        summary: 'A native program aborted on a failed assertion (glibc assert, SIGABRT)',
        // The expression runs to the last quote before " failed." without a backtick, which a
        // CUDA kernel's `…` form has: one bounded pass per "Assertion `" on the line.
        says: /Assertion `[^`\n]{1,2000}' failed\./,
        source: "bminor/glibc assert/assert.c (__assert_fail_base: \"%s%s%s:%u: %s%sAssertion `%s' failed.\\n\")",
        example: "kit: /build/simulation_interfaces/srv/_set_simulation_state_s.c:154: simulation_interfaces__srv__convert_from_py: Assertion `strncmp(\"simulation_interfaces\", full_classname_dest, 75) == 0' failed.",
      },
      {
        category: 'crash',
        summary: 'A process crashed on a signal (systemd-coredump\'s report of the dump)',
        says: /^\s{0,16}Signal: (?:11 \(SEGV\)|6 \(ABRT\)|7 \(BUS\)|4 \(ILL\)|8 \(FPE\))/,
        source: 'systemd/systemd src/coredump/coredumpctl.c (print_info: "Signal: %s (%s)", the number and its name)',
        example: '        Signal: 11 (SEGV)',
      },
      {
        // bash's arithmetic `[[ … ]]` on a value that is not a number: the start script read a
        // command's output it did not expect, a bug in the script.
        category: 'other',
        summary: "A shell script's test got a word where it expected a number (the script misread a command's output): a bug in the script",
        says: /: syntax error: operand expected \(error token is /,
        source: 'bminor/bash expr.c (evalerror(_("syntax error: operand expected")), with "(error token is \"%s\")")',
        example: '/opt/start.sh: line 79: [[: [Insufficient: syntax error: operand expected (error token is "[Insufficient")',
      },
      {
        // pthread_create(3) fails with EAGAIN when the process or thread limit is reached (the
        // container's pids limit, RLIMIT_NPROC): the job asks for more threads than its limits
        // allow (data-loader workers, OpenBLAS/OpenMP threads per rank), not a lack of memory.
        category: 'config',
        summary: "A thread could not be started: the container's process or thread limit (pids limit, ulimit -u) was reached",
        says: /can't start new thread|pthread_create failed for thread \d{1,6} of \d{1,6}: Resource temporarily unavailable|\bthread: Resource temporarily unavailable|Resource temporarily unavailable \[system:11\]|pthread_create\(\) failed[^\n]{0,80}Resource temporarily unavailable/,
        source: 'python/cpython Modules/_threadmodule.c (RuntimeError "can\'t start new thread"); OpenMathLib/OpenBLAS driver/others/blas_server.c ("OpenBLAS blas_thread_init: pthread_create failed for thread %d of %d: %s"); boostorg/asio include/boost/asio/detail/impl/posix_thread.ipp (throw_error(ec, "thread")), printed by Boost.System as "thread: Resource temporarily unavailable [system:11]"; pthread_create(3) (EAGAIN: "A system-imposed limit on the number of threads was encountered")',
        example: 'OpenBLAS blas_thread_init: pthread_create failed for thread 12 of 64: Resource temporarily unavailable',
      },
      {
        // DeepSpeed's launcher logs, at info level, each worker it kills once one has exited:
        // the exiting worker's own error says why, and this stands in when the paste has none.
        category: 'other',
        secondary: true,
        summary: "DeepSpeed's launcher killed its workers after one of them exited (that worker's own log says why)",
        says: /sigkill_handler\] Killing subprocess \d{1,10}/,
        source: 'deepspeedai/DeepSpeed deepspeed/launcher/launch.py (sigkill_handler: logger.info(f"Killing subprocess {process.pid}"), then "… exits with return code = {code}")',
        example: '[2024-01-22 16:50:49,553] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 1080504',
        evenInNoise: 'Killing subprocess',
      },
      {
        // The agent logs the signal it got at warning level before it passes it to its workers:
        // something outside the job (a closed terminal, a deleted pod, the scheduler) ended it,
        // and only the sender knows why. Stands in when the paste ends before the exception, and
        // is where a signal the termination reason explains (an eviction's SIGTERM) was first said.
        category: 'other',
        secondary: true,
        summary: "torchrun's agent received a signal from outside and shut its workers down (whatever sent it says why)",
        says: /Received (?:\d{1,2}|Signals\.SIG[A-Z]{2,6}) death signal, shutting down workers/,
        source: 'pytorch/pytorch torch/distributed/elastic/agent/server/api.py (SimpleElasticAgent.run: logger.warning("Received %s death signal, shutting down workers", e.sigval), then the SignalException is raised)',
        example: 'W0815 15:34:28.708000 3280712 site-packages/torch/distributed/elastic/agent/server/api.py:719] Received 1 death signal, shutting down workers',
        evenInNoise: 'death signal, shutting down workers',
      },
    ],
  },
  {
    software: 'Files and permissions',
    entries: [
      {
        // NIM checks at start that it can write its cache directory (a volume mounted read-only,
        // or owned by another user than the container's).
        category: 'permission',
        summary: 'NVIDIA NIM cannot write its cache directory (NIM_CACHE_PATH): a read-only mount or another owner',
        says: /Unable to write to NIM_CACHE_PATH/,
        source: 'NVIDIA NIM for LLMs, configuration (the cache directory mapped into the container must be writable by its user) https://docs.nvidia.com/nim/large-language-models/latest/get-started/configuration.html; the container\'s vllm_nvext/utils/caches.py check_cache_dir raises RuntimeError(f"Unable to write to NIM_CACHE_PATH ({cache_path})")',
        example: 'RuntimeError: Unable to write to NIM_CACHE_PATH (/mnt/models/cache)',
      },
      {
        // Secondary: transformers warns and goes on (it falls back to a temporary folder); a
        // later error says what failed, and this stands in when nothing else does.
        category: 'permission',
        secondary: true,
        summary: 'The Hugging Face cache folder is not writable by the user the container runs as',
        says: /There was a problem when trying to write in your cache folder/,
        source: 'huggingface/transformers src/transformers/utils/hub.py (logger.warning("There was a problem when trying to write in your cache folder ({…}). You should set the environment variable TRANSFORMERS_CACHE to a writable directory."))',
        example: 'There was a problem when trying to write in your cache folder (/workspace/.cache/huggingface/transformers/). You should set the environment variable TRANSFORMERS_CACHE to a writable directory.',
        evenInNoise: 'trying to write in your cache folder',
      },
      {
        // ssh ignores a private key others may read (a mounted secret keeps its default mode),
        // so the launcher cannot log in to the workers: the key file's mode, not the network.
        category: 'permission',
        summary: 'ssh ignored the private key because its file mode lets others read it (a mounted key needs mode 0600 or 0400)',
        says: /Permissions 0[0-7]{3} for '[^'\n]{1,1024}' are too open\.|Load key "[^"\n]{1,1024}": bad permissions/,
        source: 'openssh/openssh-portable authfile.c (sshkey_perm_ok: "Permissions 0%3.3o for \'%s\' are too open.", "It is required that your private key files are NOT accessible by others."), sshconnect2.c (load_identity_file: "Load key \\"%s\\": %s" with "bad permissions")',
        example: "Permissions 0640 for '/root/.ssh/id_rsa' are too open.",
      },
      {
        // EMFILE: the process holds as many descriptors as its limit allows (DataLoader workers
        // passing tensors through file descriptors, many shards open): the limit (ulimit -n) or
        // the sharing strategy is the setting to change.
        category: 'config',
        summary: 'The process ran out of file descriptors (its open-files limit, ulimit -n, is too low for what it opens)',
        says: /Too many open files|\bEMFILE\b/,
        source: `${ERRNO_DOC} (EMFILE "Too many open files"); PyTorch multiprocessing notes, file descriptor sharing https://docs.pytorch.org/docs/stable/multiprocessing.html (raise the open files limit or use the file_system strategy)`,
        example: 'OSError: [Errno 24] Too many open files',
      },
      {
        category: 'permission',
        summary: 'The file system is mounted read-only',
        says: /Read-only file system|\bEROFS\b/,
        source: ERRNO_DOC,
        example: "chmod: changing permissions of '/workspace/run.sh': Read-only file system",
      },
      {
        category: 'permission',
        summary: 'The credentials for Google Cloud are missing (no application default credentials in the pod)',
        says: /DefaultCredentialsError|Could not automatically determine credentials/,
        source: 'googleapis/google-auth-library-python google/auth/_default.py (DefaultCredentialsError, _CLOUD_SDK_MISSING_CREDENTIALS "Could not automatically determine credentials. Please set GOOGLE_APPLICATION_CREDENTIALS or explicitly create credentials and re-run the application.")',
        example: 'google.auth.exceptions.DefaultCredentialsError: Could not automatically determine credentials. Please set GOOGLE_APPLICATION_CREDENTIALS or explicitly create credentials and re-run the application.',
      },
      {
        category: 'permission',
        summary: 'Azure refused the credentials (a wrong or expired key, token or signature)',
        says: /ClientAuthenticationError|Server failed to authenticate the request|ErrorCode:AuthenticationFailed/,
        source: 'Azure/azure-sdk-for-python sdk/core/azure-core/azure/core/exceptions.py (ClientAuthenticationError, raised for 401 and 403); Azure Storage REST API error codes https://learn.microsoft.com/rest/api/storageservices/common-rest-api-error-codes (AuthenticationFailed: "Server failed to authenticate the request. Make sure the value of the Authorization header is formed correctly including the signature.")',
        example: 'ClientAuthenticationError: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.',
      },
      {
        category: 'permission',
        summary: 'The MLflow tracking server refused the request (401/403: missing or wrong credentials)',
        says: /API request to endpoint \S{1,300} failed with error code 40[13]\b/,
        source: 'mlflow/mlflow mlflow/utils/rest_utils.py (verify_rest_response: "API request to endpoint %s failed with error code %s != 200")',
        example: 'mlflow.exceptions.MlflowException: API request to endpoint /api/2.0/mlflow/experiments/get-by-name failed with error code 401 != 200.',
      },
      {
        category: 'permission',
        summary: 'The Hugging Face repository is gated and the token may not read it',
        says: /GatedRepoError|Cannot access gated repo|Access to model \S{1,200} is restricted/,
        source: 'huggingface/huggingface_hub src/huggingface_hub/errors.py (GatedRepoError), src/huggingface_hub/utils/_http.py ("Cannot access gated repo for url %s")',
        example: 'huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-66f4b037) Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.',
      },
    ],
  },
  {
    software: 'Data and model sources',
    entries: [
      {
        // NIM downloads its model from NGC (or the Hub) at start-up; a file list it cannot fetch
        // or validate is the model source not answering as it should.
        category: 'data-path',
        summary: "NVIDIA NIM could not fetch its model's files from NGC or the Hub (the file list, or a request to it)",
        says: /the repo file list has not been validated|Errors fetching files: |nim_sdk::hub::repo [^\n]{0,120}error sending request for url/,
        source: 'NVIDIA NIM for LLMs, its nim_sdk hub client (closed source; quoted as it prints: "Errors fetching files", "the repo file list has not been validated", "error sending request for url (…)") https://docs.nvidia.com/nim/large-language-models/latest/troubleshooting.html',
        example: 'Exception: "Errors fetching files: \\nissue a download request for file: \\"config.json\\"; the repo file list has not been validated."',
      },
      {
        // The download came back as something else (a quota page from Google Drive, a cut file):
        // the dataset's source did not serve the data.
        category: 'data-path',
        summary: 'A TensorFlow Datasets download is not the file it should be (its checksum and size differ: a quota or error page, a cut download)',
        says: /NonMatchingChecksumError: /,
        source: 'tensorflow/datasets tensorflow_datasets/core/download/download_manager.py (NonMatchingChecksumError: "Artifact %s, downloaded to %s, has wrong checksum")',
        example: 'NonMatchingChecksumError: Artifact https://drive.google.com/uc?export=download&id=1vRY, downloaded to /root/tensorflow_datasets/downloads/ucexport_download, has wrong checksum.',
      },
      {
        // S3 (and services speaking its API) asks the client to slow down with 503 SlowDown once
        // botocore's retries are spent: the same request later succeeds.
        category: 'data-path',
        transient: true,
        summary: 'The object store asked the job to slow down (S3 SlowDown or throttling, 503): a retry later can succeed',
        says: /An error occurred \((?:SlowDown|ServiceUnavailable|503|Throttling|ThrottlingException|RequestLimitExceeded)\) when calling the \w{1,80} operation|AWS Error (?:SLOW_DOWN|SERVICE_UNAVAILABLE|THROTTLING|[A-Z_]{1,60} \(HTTP status 503\))\b/,
        source: 'boto/botocore botocore/exceptions.py (ClientError "An error occurred ({error_code}) when calling the {operation_name} operation"); S3 error responses https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html (SlowDown: "Please reduce your request rate.", 503); apache/arrow cpp/src/arrow/filesystem/s3_internal.h (ErrorToStatus: "AWS Error " code " (HTTP status " n ") during " operation " operation: ")',
        example: 'botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject operation (reached max retries: 4): Please reduce your request rate.',
      },
      {
        // Arrow's S3 filesystem (pyarrow, Ray Data, Dask) names the service's refusal by its
        // status: anything but a 403 (a permission) or a 503 (above) is the request or the
        // object being wrong for the store.
        category: 'data-path',
        summary: 'The object store refused a request of the job (Arrow\'s S3 filesystem: the bucket, the key or the upload is not as the request expects)',
        says: /AWS Error [A-Z_]{1,60} \(HTTP status (?:4(?!03)\d\d|5(?!03)\d\d)\) during \w{1,80} operation/,
        source: 'apache/arrow cpp/src/arrow/filesystem/s3_internal.h (ErrorToStatus: "AWS Error " code " (HTTP status " n ") during " operation " operation: " message), raised as OSError by pyarrow.fs.S3FileSystem',
        example: "OSError: When completing multiple part upload for key 'out/part-0.parquet' in bucket 'data': AWS Error UNKNOWN (HTTP status 400) during CompleteMultipartUpload operation: Unable to parse ExceptionName: InvalidPart",
      },
      {
        // The Hub's Xet storage client reports its network failures under its CAS client's name;
        // a full disk under it stays the disk's (the generic row for a full volume).
        category: 'data-path',
        summary: "The Hugging Face Hub's Xet storage could not be reached or answered with an error while files were downloaded",
        says: /CAS service error : (?!IO Error: (?:No space left on device|Disk quota exceeded))/,
        source: 'huggingface/xet-core data/src/errors.rs (DataProcessingError::CasClientError, #[error("CAS service error : {0}")], raised by hf_xet as "Data processing error: …")',
        example: 'RuntimeError: Data processing error: CAS service error : IO Error: Timer expired (os error 62)',
      },
      {
        // urllib3 is the HTTP client under requests, botocore and huggingface_hub: a connect that
        // timed out is a data or model source the job could not reach.
        category: 'data-path',
        summary: 'An HTTP connection to a data or model source timed out',
        says: /Connection to \S{1,300} timed out\. \(connect timeout=/,
        source: 'urllib3/urllib3 src/urllib3/connection.py (HTTPConnection._new_conn: ConnectTimeoutError(self, f"Connection to {self.host} timed out. (connect timeout={self.timeout})"))',
        example: "requests.exceptions.ConnectTimeout: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /bert-base/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f>, 'Connection to huggingface.co timed out. (connect timeout=10)'))\"))",
      },
      {
        category: 'data-path',
        summary: 'DALI\'s file reader found no files where the pipeline points (file_root or file_list)',
        says: /Assert on "Size\(\) > 0" failed: No files found/,
        source: 'NVIDIA/DALI dali/operators/reader/loader/file_loader.h (DALI_ENFORCE(Size() > 0, "No files found."), printed as "Assert on \"Size() > 0\" failed: No files found.")',
        example: 'RuntimeError: [/opt/dali/dali/operators/reader/loader/file_loader.h:108] Assert on "Size() > 0" failed: No files found.',
      },
      {
        // WebDataset and torchvision read shards with tarfile: a shard it cannot read is a cut
        // download or a corrupt file, data the job cannot use as it is.
        category: 'data-path',
        summary: 'A tar archive of the data (a dataset shard) is truncated or corrupt',
        says: /tarfile\.ReadError\b/,
        source: 'python/cpython Lib/tarfile.py (class ReadError: "unexpected end of data", "file could not be opened successfully", "bad checksum", "empty file")',
        example: 'tarfile.ReadError: unexpected end of data',
      },
      {
        // The object store cannot be reached without them: data-path, as the corpus labels S3.
        category: 'data-path',
        summary: 'The credentials for the object store are missing',
        says: /Unable to locate credentials|Partial credentials found in/,
        source: 'boto/botocore botocore/exceptions.py (NoCredentialsError "Unable to locate credentials", PartialCredentialsError)',
        example: 'botocore.exceptions.NoCredentialsError: Unable to locate credentials',
      },
      {
        // The file arrived but is not the one expected: cut short, replaced or moved at its source.
        category: 'data-path',
        summary: 'A downloaded model or data file is not the file expected (its checksum or size does not match)',
        says: /SHA256 checksum does not(?: not)? match|invalid hash value \(expected "|Consistency check failed: file should be of size/,
        source: 'm-bain/whisperX whisperx/vad.py ("Model has been downloaded but the SHA256 checksum does not not match. Please retry loading the model."); pytorch/pytorch torch/hub.py (download_url_to_file: \'invalid hash value (expected "{}", got "{}")\'); huggingface/huggingface_hub src/huggingface_hub/file_download.py ("Consistency check failed: file should be of size {} but has size {}")',
        example: 'RuntimeError: invalid hash value (expected "b0353104", got "7d2b7c0e")',
      },
      {
        category: 'data-path',
        transient: true,
        summary: 'The data or model source answered "not now" (HTTP 429 or 5xx)',
        says: /\b(?:429 Client Error|50[234] Server Error): [^:]{0,80}for url: /,
        source: 'psf/requests src/requests/models.py (Response.raise_for_status: "%s Client Error: %s for url: %s", "%s Server Error: %s for url: %s"), the message huggingface_hub\'s HfHubHTTPError carries',
        example: 'huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/org/model/revision/main',
      },
      {
        category: 'data-path',
        summary: "A dataset's loading script or file could not be fetched",
        says: /Couldn['\u2019]t reach https?:\/\//,
        source: 'huggingface/datasets src/datasets/utils/file_utils.py (get_from_cache, 1.x: raise ConnectionError("Couldn\'t reach {}".format(url)))',
        example: "ConnectionError: Couldn't reach https://raw.githubusercontent.com/huggingface/datasets/1.1.3/datasets/glue/glue.py",
      },
      {
        category: 'data-path',
        summary: 'The data or model source could not be reached (network or DNS)',
        says: /Could not connect to the endpoint URL|(?:Read|Connect) timeout on endpoint URL|Couldn't reach '[^']{1,300}' on the Hub|Couldn't reach the Hugging Face Hub|Server Disconnected|We couldn't connect to '[^']{1,300}' to load this file/,
        source: 'boto/botocore botocore/exceptions.py (EndpointConnectionError, ReadTimeoutError, ConnectTimeoutError); huggingface/datasets src/datasets/load.py ("Couldn\'t reach \'%s\' on the Hub"); huggingface/transformers src/transformers/utils/hub.py ("We couldn\'t connect to \'%s\' to load this file")',
        example: 'botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: "https://s3.us-east-1.amazonaws.com/models/llama/config.json"',
      },
      {
        category: 'data-path',
        summary: 'The Hugging Face repository, revision or file does not exist (or is not visible to the token)',
        says: /RepositoryNotFoundError|RevisionNotFoundError|(?:Remote|Local)?EntryNotFoundError|Repository Not Found for url|Revision Not Found for url|Entry Not Found for url|Cannot find the requested files in the disk cache|cannot find the requested files in the local cache|OfflineModeIsEnabled/,
        source: 'huggingface/huggingface_hub src/huggingface_hub/errors.py (RepositoryNotFoundError, RevisionNotFoundError, EntryNotFoundError, LocalEntryNotFoundError, OfflineModeIsEnabled), src/huggingface_hub/utils/_http.py ("Repository Not Found for url: %s"), src/huggingface_hub/file_download.py',
        example: 'huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-6602c3a7) Repository Not Found for url: https://huggingface.co/org/missing-model/resolve/main/config.json.',
      },
      {
        // The Hub answers 401 for a missing repository and for a private or gated one asked for
        // without a token, and its client reads it as a missing repository: data-path, unless the
        // client's own exception chained with it (GatedRepoError) says otherwise.
        category: 'data-path',
        kind: 'status',
        summary: 'The Hugging Face Hub answered 401 for a repository: it does not exist, or is private or gated and no token was sent',
        says: /401 Client Error: Unauthorized for url: https:\/\/huggingface\.co\/(?!api\/whoami)/,
        source: 'huggingface/huggingface_hub src/huggingface_hub/utils/_http.py hf_raise_for_status ("401 is misleading as it is returned for: private and gated repos if user is not authenticated; missing repos => for now, we process them as `RepoNotFound` anyway"); the same 401 through requests\' raise_for_status ("%s Client Error: %s for url: %s") where transformers asked the Hub directly',
        example: 'requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/org/missing-model/resolve/main/config.json',
      },
      {
        category: 'data-path',
        summary: 'The object does not exist in the bucket',
        says: /An error occurred \((?:404|NoSuchKey|NoSuchBucket|NotFound)\) when calling the \w{1,80} operation|google\.api_core\.exceptions\.NotFound/,
        source: 'boto/botocore botocore/exceptions.py (ClientError "An error occurred ({error_code}) when calling the {operation_name} operation: {error_message}"; S3 codes NoSuchKey, NoSuchBucket: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html); googleapis/python-api-core google/api_core/exceptions.py (NotFound, HTTP 404)',
        example: 'botocore.exceptions.ClientError: An error occurred (404) when calling the HeadObject operation: Not Found',
      },
      {
        category: 'data-path',
        summary: 'The model is neither a local directory nor a model on the Hub, or its weights are missing',
        says: /is not a local folder and is not a valid model identifier|Error no file named .{1,600}? found in directory|\bHfHubHTTPError\b/,
        source: 'huggingface/transformers src/transformers/utils/hub.py ("%s is not a local folder and is not a valid model identifier listed on \'https://huggingface.co/models\'"), src/transformers/modeling_utils.py ("Error no file named %s found in directory %s"); huggingface/huggingface_hub src/huggingface_hub/errors.py (HfHubHTTPError)',
        example: "OSError: bert-base-uncasedd is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'",
      },
      {
        category: 'data-path',
        summary: 'The dataset or its data files do not exist',
        says: /DatasetNotFoundError|DataFilesNotFoundError|doesn't exist on the Hub or cannot be accessed|Couldn't find any data file at|No \(supported\) data files found in/,
        source: 'huggingface/datasets src/datasets/exceptions.py (DatasetNotFoundError, DataFilesNotFoundError), src/datasets/load.py ("Dataset \'%s\' doesn\'t exist on the Hub or cannot be accessed", "Couldn\'t find any data file at %s")',
        example: "datasets.exceptions.DatasetNotFoundError: Dataset 'org/missing-set' doesn't exist on the Hub or cannot be accessed.",
      },
      {
        category: 'data-path',
        summary: 'The model or data was not found where the storage initializer looked',
        says: /Failed to fetch model\. No model found in|Cannot locate source uri|Failed to download \d+ files/,
        source: 'kserve/kserve python/storage/kserve_storage/kserve_storage.py ("Failed to fetch model. No model found in %s.", "Cannot locate source uri %s for PVC")',
        example: 'RuntimeError: Failed to fetch model. No model found in gs://models/llama-3/.',
      },
      {
        category: 'data-path',
        summary: 'The model repository or directory has no such file (config, weights, tokenizer)',
        says: /does not appear to have a file named/,
        source: 'huggingface/transformers src/transformers/utils/hub.py (cached_file: "%s does not appear to have a file named %s. Checkout \'https://huggingface.co/%s/tree/%s\' for available files.")',
        example: "OSError: org/model does not appear to have a file named config.json. Checkout 'https://huggingface.co/org/model/tree/main' for available files.",
      },
      {
        category: 'data-path',
        summary: 'The model server found no model file where the storage initializer put the model',
        says: /fail to locate model file for model \S{0,200} ?under/,
        source: 'kserve/kserve python/sklearnserver/sklearnserver/__main__.py (and xgbserver, lgbserver, pmmlserver, huggingfaceserver: logging.error("fail to locate model file for model %s under dir %s, trying loading from model repository."))',
        example: 'ERROR:root:fail to locate model file for model sklearn-iris under dir /mnt/models,trying loading from model repository.',
      },
      {
        category: 'data-path',
        summary: 'The model URI did not serve an archive the storage initializer can unpack',
        says: /did not respond with any of following '/,
        source: 'kserve/kserve python/kserve/kserve/storage.py (_download_from_uri: RuntimeError("URI: %s did not respond with any of following \'Content-Type\': …"))',
        example: "RuntimeError: URI: https://example.com/model.tar.gz did not respond with any of following 'Content-Type': application/x-tar, application/x-gtar, application/x-gzip, application/gzip",
      },
      {
        category: 'data-path',
        summary: 'The weights file is not a complete safetensors file (a cut download, a Git LFS pointer or a web page saved in its place)',
        says: /Error while deserializing header: |SafetensorError: (?:HeaderTooLarge|InvalidHeader|MetadataIncompleteBuffer)/,
        source: 'huggingface/safetensors bindings/python/src/lib.rs (SafetensorError "Error while deserializing header: {e:?}"), safetensors/src/tensor.rs (SafeTensorError::HeaderTooLarge, InvalidHeader, InvalidHeaderStart, InvalidHeaderDeserialization, MetadataIncompleteBuffer)',
        example: 'safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge',
      },
      {
        category: 'data-path',
        summary: 'A data file could not be parsed as the format it was read as (Arrow\'s JSON or CSV reader)',
        says: /\b(?:JSON|CSV) parse error: /,
        source: 'apache/arrow cpp/src/arrow/json/parser.cc ("JSON parse error: "), cpp/src/arrow/csv/parser.cc ("CSV parse error: "), raised in Python as pyarrow.lib.ArrowInvalid (Hugging Face datasets reads JSON and CSV files with them)',
        example: 'pyarrow.lib.ArrowInvalid: JSON parse error: Invalid value. in row 0',
      },
    ],
  },
  {
    software: 'TensorRT and ONNX Runtime',
    entries: [
      {
        // ONNX Runtime checks the inputs it is fed against the model's declared shapes and types.
        category: 'config',
        summary: "ONNX Runtime was fed an input whose shape or type the model does not accept",
        says: /Got invalid dimensions for input: |Invalid rank for input: |Unexpected input data type\. Actual: /,
        source: 'microsoft/onnxruntime onnxruntime/core/session/inference_session.cc (ValidateInputsOutputs: "Got invalid dimensions for input: %s for the following indices", "Invalid rank for input: %s Got: %d Expected: %d Please fix either the inputs/outputs or the model.", "Unexpected input data type. Actual: (%s) , expected: (%s)")',
        example: 'onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input: input for the following indices',
      },
      {
        category: 'gpu-oom',
        summary: "ONNX Runtime's memory arena could not allocate a buffer on the GPU",
        says: /Failed to allocate memory for requested buffer of size \d{1,25}/,
        source: 'microsoft/onnxruntime onnxruntime/core/framework/bfc_arena.cc (BFCArena::AllocateRawInternal: "Failed to allocate memory for requested buffer of size ")',
        example: '2025-01-10 10:00:00.000 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned while running Conv node. Status Message: bfc_arena.cc:376 AllocateRawInternal Failed to allocate memory for requested buffer of size 1073741824',
      },
      {
        // The engine was built for tp × pp ranks and the runner was started with another count.
        category: 'config',
        summary: 'TensorRT-LLM was started with another number of MPI ranks than its engine was built for (tensor × pipeline parallel)',
        says: /Assertion failed: mpiSize == tp \* pp\b/,
        source: 'NVIDIA/TensorRT-LLM cpp/tensorrt_llm/runtime/worldConfig.cpp (WorldConfig::mpi: TLLM_CHECK(mpiSize == tp * pp), printed "[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp")',
        example: 'RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:99)',
      },
      {
        // The builder reports a device allocation it could not make (its workspace, a tactic's
        // scratch) under its OutOfMemory error code; the CUDA runtime's "out of memory" through
        // TensorRT's allocator is the same want of GPU memory.
        category: 'gpu-oom',
        summary: 'TensorRT could not allocate the GPU memory the engine (or its build) needs',
        says: /Error Code \d{1,3}: OutOfMemory\b|Cuda Error in \S{1,300}: 2 \(out of memory\)/,
        source: 'NVIDIA/TensorRT include/NvInferRuntimeBase.h (nvinfer1::ErrorCode, the code the builder\'s error reporter prints as "Error Code %d: %s (%s)"; virtualMemoryBuffer.cpp::resizePhysical is not published as source), printed verbatim in NVIDIA/TensorRT#840, #948 and pytorch/TensorRT#2675; rtSafe/safeRuntime.cpp "Cuda Error in allocate: %d (%s)" with cudaGetErrorString',
        example: '[11/10/2023-06:30:40] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)',
      },
      {
        category: 'config',
        summary: 'The input shapes given to TensorRT name a tensor the network does not have',
        says: /Cannot find input tensor with name "[^"\n]{0,300}" in the network inputs/,
        source: 'NVIDIA/TensorRT samples/common/sampleEngines.cpp (setupNetworkAndConfig: "Cannot find input tensor with name \"…\" in the network inputs! Please make sure the input tensor names are correct.")',
        example: '[07/18/2024-07:49:33] [E] Cannot find input tensor with name "encoder_hidden_states" in the network inputs! Please make sure the input tensor names are correct.',
      },
      {
        category: 'data-path',
        summary: 'ONNX Runtime could not find the model file it was asked to load',
        says: /\[ONNXRuntimeError\] : 3 : NO_SUCHFILE|onnxruntime_pybind11_state\.NoSuchFile\b/,
        source: 'microsoft/onnxruntime include/onnxruntime/core/common/status.h (StatusCode NO_SUCHFILE = 3, printed "[ONNXRuntimeError] : %d : %s : %s"), onnxruntime/python/onnxruntime_pybind_exceptions.cc (NoSuchFile)',
        example: "onnxruntime.capi.onnxruntime_pybind11_state.NoSuchFile: [ONNXRuntimeError] : 3 : NO_SUCHFILE : Load model from model.onnx failed:Load model model.onnx failed. File doesn't exist",
      },
      {
        // Windows' ERROR_MOD_NOT_FOUND (126): the provider library or one it depends on (cuDNN,
        // cuBLAS) is not installed where the loader looks, as a missing .so is on Linux.
        category: 'import',
        summary: 'A library ONNX Runtime loads, or one it depends on, is not installed (LoadLibrary error 126)',
        says: /LoadLibrary failed with error 126\b/,
        source: 'microsoft/onnxruntime onnxruntime/core/platform/windows/env.cc (LoadDynamicLibrary: "LoadLibrary failed with error " << error_code << " \"" << message << "\" when trying to load \"" << path << "\""); Windows system error 126 ERROR_MOD_NOT_FOUND',
        example: '[E:onnxruntime:Default, provider_bridge_ort.cc:1426 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "onnxruntime_providers_cuda.dll"',
      },
    ],
  },
  {
    software: 'Model servers (Text Generation Inference, Triton)',
    entries: [
      {
        // llama.cpp (and ollama, built on it) reads the model file's architecture name and knows
        // only the ones its version implements: a newer build, or a model it supports.
        category: 'config',
        summary: "This llama.cpp (or ollama) build does not know the model file's architecture",
        says: /unknown model architecture: '[\w.-]{1,80}'/,
        source: "ggml-org/llama.cpp src/llama-model-loader.cpp (llama_model_loader: throw std::runtime_error(format(\"unknown model architecture: '%s'\", …)))",
        example: "llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'pangu-embedded'",
      },
      {
        // Says only that the engine's own process failed to start: its error is above (a memory
        // check, a kernel, a model) and, recognised, comes first; this stands in when the paste
        // has no more, before the asyncio cancellations that follow it.
        category: 'other',
        summary: "vLLM's engine process failed to start (its own error, above it, says why)",
        says: /Engine core initialization failed\. See root cause above/,
        source: 'vllm-project/vllm vllm/v1/engine/core_client.py and utils.py (RuntimeError("Engine core initialization failed. See root cause above. Failed core proc(s): {}"))',
        example: 'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      },
      {
        category: 'data-path',
        summary: 'llama.cpp could not open the GGUF model file where the command points',
        says: /gguf_init_from_file(?:_impl)?: failed to open GGUF file /,
        source: 'ggml-org/llama.cpp ggml/src/gguf.cpp (gguf_init_from_file: GGML_LOG_ERROR("%s: failed to open GGUF file \'%s\'\n", __func__, fname))',
        example: "gguf_init_from_file: failed to open GGUF file '/models/gemma-3-12b-it-q4_0.gguf'",
      },
      {
        // Ollama's models come from its own registry, not a container registry: a pull that fails
        // is the model (data) the server could not fetch.
        category: 'data-path',
        summary: "Ollama could not fetch the model's manifest from its registry",
        says: /pull model manifest: /,
        source: 'ollama/ollama server/images.go (PullModel: fmt.Errorf("pull model manifest: %s", err))',
        example: 'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/llama3/manifests/8b": dial tcp: lookup registry.ollama.ai: i/o timeout',
      },
      {
        // The paged KV cache got fewer tokens than one sequence needs: the GPU memory left for it
        // after the weights (kv_cache_free_gpu_mem_fraction) is too small.
        category: 'gpu-oom',
        summary: "TensorRT-LLM's KV cache is too small for even one sequence: too little GPU memory is left for it",
        says: /maxTokensInPagedKvCache \(\d{1,12}\) must be large enough to process at least 1 sequence to completion/,
        source: 'NVIDIA/TensorRT-LLM cpp/tensorrt_llm/batch_manager/trtGptModelInflightBatching.cpp (TLLM_CHECK_WITH_INFO(… "maxTokensInPagedKvCache (%d) must be large enough to process at least 1 sequence to completion (i.e. must be larger than beam_width (%d) * tokensPerBlock (%d) * maxBlocksPerSeq (%d))"))',
        example: 'RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: maxTokensInPagedKvCache (1856) must be large enough to process at least 1 sequence to completion (i.e. must be larger than beam_width (1) * tokensPerBlock (64) * maxBlocksPerSeq (30))',
      },
      {
        category: 'data-path',
        summary: 'vLLM found no LoRA adapter where the command points (no adapter_config.json in that directory)',
        says: /failed: No adapter found for \S/,
        source: 'vllm-project/vllm vllm/lora/worker_manager.py (_load_adapter: ValueError(f"Loading lora {lora_request.lora_name} failed: No adapter found for {lora_path}"))',
        example: 'ValueError: Loading lora sql-lora failed: No adapter found for /models/adapters/sql-lora',
      },
      {
        category: 'config',
        summary: "The LoRA adapter's rank is above the engine's max_lora_rank: start the engine with a larger one",
        says: /LoRA rank \d{1,6} is greater than max_lora_rank \d{1,6}/,
        source: 'vllm-project/vllm vllm/lora/worker_manager.py (_load_adapter: ValueError(f"LoRA rank {lora.rank} is greater than max_lora_rank {self.max_lora_rank}."))',
        example: "RuntimeError: Worker failed with error 'LoRA rank 64 is greater than max_lora_rank 16.', please check the stack trace above for the root cause",
      },
      {
        // Dynamo's workers and frontend coordinate through etcd and NATS: when either cannot be
        // reached, the parts of one serving job cannot find each other (as Ray's GCS).
        category: 'nccl',
        summary: "A part of the Dynamo serving graph could not reach the etcd or NATS server its parts coordinate through",
        says: /Failed to connect to (?:etcd server|NATS)\b/,
        source: 'ai-dynamo/dynamo lib/runtime/src/distributed.rs (DistributedRuntime::new: "Failed to connect to etcd server with config {:?}", "Failed to connect to NATS server with config {:?}")',
        example: 'Exception: Failed to connect to NATS: IO error: Connection refused (os error 111)',
      },
      {
        category: 'cuda',
        summary: "TensorRT-LLM's attention needs a fused (FMHA) kernel this GPU or build does not have",
        says: /FP8 FMHA cannot be enabled because Context FMHA is not supported|\w{1,40} should be supported by fmha in context and generation part/,
        source: 'NVIDIA/TensorRT-LLM cpp/tensorrt_llm/common/attentionOp.cpp (TLLM_CHECK_WITH_INFO(…, "FP8 FMHA cannot be enabled because Context FMHA is not supported.")), cpp/tensorrt_llm/plugins/gptAttentionCommon/gptAttentionCommon.cpp ("Deepseek should be supported by fmha in context and generation part.": the GPU has no fused attention kernel for the model\'s head sizes)',
        example: 'what():  [TensorRT-LLM][ERROR] Assertion failed: FP8 FMHA cannot be enabled because Context FMHA is not supported. (../tensorrt_llm/common/attentionOp.cpp:2408)',
      },
      {
        category: 'import',
        summary: "vLLM's NIXL connector (disaggregated serving's KV transfer) is not installed in the image",
        says: /NIXL is not available/,
        source: 'vllm-project/vllm vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py (raise RuntimeError("NIXL is not available") when `import nixl` failed)',
        example: 'RuntimeError: NIXL is not available',
      },
      {
        category: 'config',
        summary: "vLLM was asked for a longer context than the model supports (max_model_len above the model's maximum)",
        says: /User-specified max_model_len \(\d{1,9}\) is greater than the derived max_model_len/,
        source: 'vllm-project/vllm vllm/config.py (_get_and_verify_max_len: "User-specified max_model_len ({}) is greater than the derived max_model_len ({}={} or model_max_length={} in model\'s config.json).")',
        example: 'Value error, User-specified max_model_len (131072) is greater than the derived max_model_len (max_position_embeddings=32768.0 or model_max_length=None in model\'s config.json).',
      },
      {
        category: 'config',
        summary: 'The model has no chat template and none was given (--chat-template)',
        says: /ChatTemplateResolutionError|default chat template is no longer allowed/,
        source: 'vllm-project/vllm vllm/entrypoints/chat_utils.py (ChatTemplateResolutionError); huggingface/transformers src/transformers/tokenization_utils_base.py ("As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.")',
        example: 'vllm.entrypoints.chat_utils.ChatTemplateResolutionError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.',
      },
      {
        category: 'gpu-oom',
        summary: "The model server ran out of GPU memory for a batch or for its KV cache (SGLang's prefill or decode, TensorRT-LLM's executor)",
        says: /\b(?:Prefill|Decode) out of memory\b|Executor creation failed due to insufficient GPU memory/,
        source: 'sgl-project/sglang python/sglang/srt/managers/scheduler.py ("Prefill out of memory. Try to lower your batch size.", "Decode out of memory happened"); NVIDIA/TensorRT-LLM tensorrt_llm/_torch/pyexecutor/py_executor_creator.py ("Executor creation failed due to insufficient GPU memory.")',
        example: 'RuntimeError: Prefill out of memory. Try to lower your batch size.',
      },
      {
        // Says only that the stub is restarted: its own log (a crash, memory, a slow model) says why.
        category: 'other',
        summary: "Triton's Python backend stub stopped answering and is restarted (the stub's own log says why)",
        says: /Stub process is unhealthy and it will be restarted/,
        source: 'triton-inference-server/python_backend src/python_be.cc (LOG_MESSAGE(TRITONSERVER_LOG_ERROR, "Stub process is unhealthy and it will be restarted."))',
        example: 'E1025 09:40:38.075506 9121 python_be.cc:2066] Stub process is unhealthy and it will be restarted.',
      },
      {
        category: 'cuda',
        summary: "TGI could not load its flash-attention kernels, which this model needs (a GPU older than Ampere, or an image built without them)",
        says: /requires Flash Attention enabled models/,
        source: 'huggingface/text-generation-inference server/text_generation_server/models/__init__.py (FLASH_ATT_ERROR_MESSAGE "{} requires Flash Attention enabled models.", raised when the flash-attention models failed to import)',
        example: 'NotImplementedError: Sharded Llama requires Flash Attention enabled models.',
      },
      {
        // TGI's launcher reports how a shard process ended, by its signal (signal(7)).
        category: 'crash',
        summary: 'A TGI shard crashed on a signal (SIGSEGV, SIGABRT, SIGILL: an instruction this CPU lacks, or SIGFPE)',
        says: /Shard process was signaled to shutdown with signal (?:11|6|4|8)\b/,
        source: 'huggingface/text-generation-inference launcher/src/main.rs (shard_manager: "Shard process was signaled to shutdown with signal {signal}")',
        example: '2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 4 rank=0',
      },
      {
        category: 'host-oom',
        // States how the shard ended, where the generic `signal 9` cascade would only echo it.
        beforeCascades: true,
        summary: 'A TGI shard was killed (SIGKILL), usually for using more memory than the container may',
        says: /Shard process was signaled to shutdown with signal 9\b/,
        source: 'huggingface/text-generation-inference launcher/src/main.rs (shard_manager: "Shard process was signaled to shutdown with signal {signal}")',
        example: '2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 9 rank=0',
      },
    ],
  },
  {
    software: 'PyTorch training code and checkpoints',
    entries: [
      {
        // The script moves one operand to the GPU and not another (a model on cuda:0 fed a CPU
        // tensor): a bug in the script itself, which no category's change fixes.
        category: 'other',
        summary: "One operation got tensors on different devices (the script moved one to the GPU and not the other): a bug in the script",
        says: /Expected all tensors to be on the same device, but found at least two devices/,
        source: 'pytorch/pytorch aten/src/ATen/native/TensorCompare.cpp and aten/src/ATen/core/op_registration/adaption.cpp (common_device_check_failure: "Expected all tensors to be on the same device, but found at least two devices, %s and %s! (when checking argument for argument %s in method %s)"), aten/src/ATen/TensorIterator.cpp',
        example: 'RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)',
      },
      {
        // The loss sees one batch size for the model's output and another for the labels: the
        // batch or the label layout the command sets up does not fit the model's output.
        category: 'config',
        summary: "The loss got a different batch size for the model's output than for the targets (the batch or label layout does not fit the model)",
        says: /Expected input batch_size \(\d{1,12}\) to match target batch_size \(\d{1,12}\)/,
        source: 'pytorch/pytorch aten/src/ATen/native/LossNLL.cpp (nll_loss\'s check: "Expected input batch_size (", input.size(0), ") to match target batch_size (", target.size(0), ").")',
        example: 'ValueError: Expected input batch_size (32) to match target batch_size (16).',
      },
      {
        category: 'config',
        summary: 'Orbax needs an absolute checkpoint directory, and the command gave a relative one',
        says: /Checkpoint path should be absolute\. Got /,
        source: 'google/orbax checkpoint/orbax/checkpoint/type_handlers.py (get_tensorstore_spec: ValueError(f"Checkpoint path should be absolute. Got {directory}"))',
        example: 'ValueError: Checkpoint path should be absolute. Got runs/exp1/checkpoints/100',
      },
      {
        category: 'config',
        summary: 'The checkpoint does not fit the model the code builds (other shapes or parameter names)',
        says: /Error\(s\) in loading state_dict for \w{1,200}|size mismatch for \S{1,300}: copying a param with shape|(?:Missing|Unexpected) key\(s\) in state_dict: /,
        source: 'pytorch/pytorch torch/nn/modules/module.py (load_state_dict: "Error(s) in loading state_dict for {}:", "size mismatch for {}: copying a param with shape {} from checkpoint, the shape in current model is {}.", "Missing key(s) in state_dict: {}. ", "Unexpected key(s) in state_dict: {}. ")',
        example: 'RuntimeError: Error(s) in loading state_dict for VisionTransformer:',
      },
      {
        // PyTorch 2.6 made weights_only=True the default of torch.load: a checkpoint that pickles
        // a class needs weights_only=False or the class allowlisted, a change to the load call.
        category: 'config',
        summary: "torch.load refused the checkpoint: it pickles objects the weights-only loader does not allow (PyTorch 2.6's default)",
        says: /Weights only load failed|WeightsUnpickler error: Unsupported global/,
        source: 'pytorch/pytorch torch/serialization.py (_get_wo_message: "Weights only load failed. …"), torch/_weights_only_unpickler.py ("Unsupported global: GLOBAL %s was not an allowed global by default")',
        example: '_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options',
      },
      {
        category: 'config',
        summary: 'An option was given a value it does not have (the message lists the values it takes)',
        says: /is not a valid \w{1,80}, please select one of /,
        source: 'huggingface/transformers src/transformers/utils/generic.py (ExplicitEnum._missing_: "{value} is not a valid {cls.__name__}, please select one of {…}"), behind TrainingArguments\' fsdp, lr_scheduler_type, save_strategy and other options',
        example: "ValueError: fsdp2 is not a valid FSDPOption, please select one of ['full_shard', 'shard_grad_op', 'no_shard', 'hybrid_shard', 'offload', 'auto_wrap']",
      },
      {
        category: 'config',
        summary: 'The distributed checkpoint does not hold a parameter the model asks for (another model or another layout than it was saved with)',
        says: /Missing key in checkpoint state_dict: /,
        source: 'pytorch/pytorch torch/distributed/checkpoint/default_planner.py (create_default_local_load_plan: "Missing key in checkpoint state_dict: {fqn}.")',
        example: 'RuntimeError: Missing key in checkpoint state_dict: model.layers.0.attention.wq.weight.',
      },
      {
        category: 'config',
        summary: 'The code uses torch.distributed without starting it (init_process_group was not called, or the launcher did not set its variables)',
        says: /Default process group has not been initialized, please make sure to call init_process_group/,
        source: 'pytorch/pytorch torch/distributed/distributed_c10d.py (_get_default_group: "Default process group has not been initialized, please make sure to call init_process_group.")',
        example: 'ValueError: Default process group has not been initialized, please make sure to call init_process_group.',
      },
      {
        category: 'config',
        summary: 'DistributedDataParallel found parameters that got no gradient (the model needs find_unused_parameters=True, or every output in the loss)',
        says: /Expected to have finished reduction in the prior iteration before starting a new one/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/reducer.cpp (Reducer::ensure_prior_reduction_finished: "Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss.")',
        example: 'RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss.',
      },
      {
        category: 'config',
        summary: "The adapter's target modules are not in the model (PEFT/LoRA target_modules names layers the model does not have)",
        says: /Target modules \S[^\n]{0,300}? not found in the base model/,
        source: 'huggingface/peft src/peft/tuners/tuners_utils.py (inject_adapter: "Target modules {} not found in the base model. Please check the target modules and try again.")',
        example: "ValueError: Target modules {'q_proj', 'v_proj'} not found in the base model. Please check the target modules and try again.",
      },
      {
        // A path the code reads from a setting or an environment variable that is not set: the
        // setting is None when os.path.join or open gets it.
        category: 'config',
        summary: 'A path the code needs is not set (None where a file name was expected: an unset setting or environment variable)',
        says: /expected str, bytes or os\.PathLike object, not NoneType/,
        source: 'python/cpython Modules/posixmodule.c (path_converter / PyOS_FSPath: "expected str, bytes or os.PathLike object, not %.200s")',
        example: 'TypeError: expected str, bytes or os.PathLike object, not NoneType',
      },
      {
        category: 'config',
        secondary: true,
        summary: "nnU-Net's path environment variables are not set (nnUNet_raw, nnUNet_preprocessed, nnUNet_results)",
        says: /(?:nnUNet_raw(?:_data_base)?|nnUNet_preprocessed|nnUNet_results|RESULTS_FOLDER) is not defined and nnU-Net/,
        source: 'MIC-DKFZ/nnUNet nnunetv2/paths.py and v1 nnunet/paths.py ("nnUNet_raw is not defined and nnU-Net can only be used on data for which preprocessed files are already present on your system. …", "RESULTS_FOLDER is not defined and nnU-Net cannot be used for training or inference.")',
        example: 'nnUNet_preprocessed is not defined and nnU-Net can not be used for preprocessing or training. If this is not intended, please read documentation/setting_up_paths.md for information on how to set this up.',
      },
    ],
  },
  {
    software: 'Slurm',
    entries: [
      {
        category: 'eviction',
        transient: true,
        summary: 'Slurm stopped the job: it was preempted or its node failed',
        says: /CANCELLED AT \S{1,40} DUE TO (?:PREEMPTION|NODE FAILURE|JOB REQUEUE)|\berror: Node failure on \S/,
        source: 'SchedMD/slurm src/slurmd/slurmstepd/req.c ("*** %s ON %s CANCELLED AT %s DUE TO PREEMPTION ***", "… DUE TO NODE FAILURE …", "… DUE TO JOB REQUEUE …"), src/srun and src/salloc ("Node failure on %s")',
        example: 'slurmstepd: error: *** JOB 4191702 ON c5-2 CANCELLED AT 2024-08-17T15:09:00 DUE TO PREEMPTION ***',
      },
      {
        category: 'config',
        summary: "Slurm stopped the job at its time limit: the job asked for less time than it needs (or did not checkpoint)",
        says: /CANCELLED AT \S{1,40} DUE TO TIME LIMIT/,
        source: 'SchedMD/slurm src/slurmd/slurmstepd/req.c ("*** %s ON %s CANCELLED AT %s DUE TO TIME LIMIT ***")',
        example: 'slurmstepd: error: *** JOB 4191701 ON c5-1 CANCELLED AT 2021-08-17T15:09:00 DUE TO TIME LIMIT ***',
      },
    ],
  },
  {
    software: 'Configuration libraries',
    entries: [
      {
        // XLA reads its flags from the environment and stops at a name it does not know (a flag
        // of another XLA version or backend): the environment's setting, not the program.
        category: 'config',
        summary: 'XLA was given a flag it does not know in XLA_FLAGS (a flag of another version or backend)',
        says: /Unknown flags? in (?:TF_)?XLA_FLAGS: /,
        source: 'openxla/xla xla/parse_flags_from_env.cc (ParseFlagsFromEnvAndDieIfUnknown: "Unknown flag(s) in %s: %s", then "Perhaps you meant to specify these on the TF_XLA_FLAGS envvar?")',
        example: '2024-03-01 10:00:00.000000: F external/xla/xla/parse_flags_from_env.cc:226] Unknown flags in XLA_FLAGS: --xla_gpu_enable_triton_gemm=false',
        evenInNoise: 'XLA_FLAGS',
      },
      {
        category: 'config',
        summary: "DeepSpeed ZeRO-3 was combined with low_cpu_mem_usage or a device_map (ZeRO-3 places the weights itself)",
        says: /DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`/,
        source: 'huggingface/transformers src/transformers/modeling_utils.py (from_pretrained: ValueError("DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`."))',
        example: 'ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`.',
      },
      {
        category: 'config',
        summary: "The DeepSpeed config and the Trainer's arguments disagree (bf16, batch sizes, the optimiser)",
        says: /Please correct the following DeepSpeed config values that mismatch TrainingArguments values/,
        source: 'huggingface/transformers src/transformers/integrations/deepspeed.py (HfTrainerDeepSpeedConfig.trainer_config_finalize: ValueError("Please correct the following DeepSpeed config values that mismatch TrainingArguments values:\\n…"))',
        example: 'ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:',
      },
      {
        category: 'config',
        summary: "The job runs Unsloth on several GPUs, which its open-source build does not support",
        says: /Unsloth currently does not work on multi GPU setups/,
        source: 'unslothai/unsloth unsloth/models/llama.py and _utils.py (RuntimeError("Unsloth currently does not work on multi GPU setups - sadly we are a 2 brother team …"))',
        example: 'RuntimeError: Unsloth currently does not work on multi GPU setups - sadly we are a 2 brother team so enabling it will require much more work, so we have to prioritize. Please understand!',
      },
      {
        // The parallel layout the job asks for does not cover the processes launched (more
        // ranks than tensor x pipeline, as when torchrun starts one per GPU for a vLLM engine).
        category: 'config',
        summary: "The job's parallel layout does not match its number of processes (world size is not tensor x pipeline parallel size)",
        says: /world_size \(\d{1,7}\) is not equal to tensor_model_parallel_size \(\d{1,7}\) x pipeline_model_parallel_size/,
        source: 'vllm-project/vllm vllm/distributed/parallel_state.py and sgl-project/sglang python/sglang/srt/distributed/parallel_state.py (initialize_model_parallel: RuntimeError(f"world_size ({world_size}) is not equal to tensor_model_parallel_size ({tensor_model_parallel_size}) x pipeline_model_parallel_size ({pipeline_model_parallel_size})"))',
        example: 'RuntimeError: world_size (8) is not equal to tensor_model_parallel_size (4) x pipeline_model_parallel_size (1)',
      },
      {
        category: 'config',
        summary: "DeepSpeed refused ZeRO-Offload with an optimizer the script passed in (it needs DeepSpeed's CPU optimizer or one named in the config)",
        says: /You are using ZeRO-Offload with a client provided optimizer/,
        source: 'microsoft/DeepSpeed deepspeed/runtime/engine.py (_configure_optimizer: ZeRORuntimeException("You are using ZeRO-Offload with a client provided optimizer ({type}) which in most cases will yield poor performance. …"))',
        example: "deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided optimizer (<class 'apex.optimizers.fused_adam.FusedAdam'>) which in most cases will yield poor performance.",
      },
      {
        // rclone (Seldon's and KServe's model initialisers) names a remote its configuration does
        // not define: the storage secret's settings did not reach the container.
        category: 'config',
        summary: "rclone has no configuration for the remote it was asked to copy from (the storage secret's settings are missing)",
        says: /[Dd]idn't find section in config file/,
        source: 'rclone/rclone fs/config.go (ErrorNotFoundInConfigFile: "didn\'t find section in config file"), cmd/cmd.go ("Failed to create file system for %q: %v")',
        example: '2022/06/28 10:17:19 Failed to create file system for "s3://models/repo/": didn\'t find section in config file',
      },
      {
        // A collective on a CPU tensor in a process group made for the GPUs (NCCL only): the
        // job's choice of backend does not fit what it sends.
        category: 'config',
        summary: "A collective was called on a tensor whose device the process group has no backend for (a CPU tensor under NCCL)",
        says: /No backend type associated with device type \w{1,20}/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroup.hpp (getBackend: TORCH_CHECK(false, "No backend type associated with device type ", deviceType))',
        example: 'RuntimeError: No backend type associated with device type cpu',
      },
      {
        // Two ranks allocating symmetric memory on one GPU: the job maps several ranks to the same
        // device (as NCCL's duplicate-GPU refusal), a setting of the job.
        category: 'config',
        summary: "Two ranks of the job use the same GPU (symmetric memory found overlapping devices)",
        says: /detected allocations from overlapping devices from different ranks/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/symm_mem/CUDASymmetricMemory.cu (CUDASymmetricMemoryAllocator::rendezvous: "detected allocations from overlapping devices from different ranks.")',
        example: 'RuntimeError: CUDASymmetricMemoryAllocator::rendezvous: detected allocations from overlapping devices from different ranks.',
      },
      {
        category: 'config',
        summary: "NeMo RL's cluster asks for more GPUs than the Ray cluster has (the job's size does not fit its allocation)",
        says: /Not enough GPUs available\. Requested \d{1,6} GPUs, but only \d{1,6} are available in the cluster/,
        source: 'NVIDIA-NeMo/RL nemo_rl/distributed/virtual_cluster.py (RayVirtualCluster._init_placement_groups: ValueError(f"Not enough GPUs available. Requested {…} GPUs, but only {…} are available in the cluster."))',
        example: 'ValueError: Not enough GPUs available. Requested 16 GPUs, but only 8 are available in the cluster.',
      },
      {
        category: 'config',
        summary: "transformers was given both load_in_4bit/8bit and a quantization_config (one or the other)",
        says: /You can't pass `load_in_4bit`or `load_in_8bit` as a kwarg when passing `quantization_config`/,
        source: 'huggingface/transformers src/transformers/modeling_utils.py (from_pretrained: ValueError("You can\'t pass `load_in_4bit`or `load_in_8bit` as a kwarg when passing `quantization_config` argument at the same time."))',
        example: "ValueError: You can't pass `load_in_4bit`or `load_in_8bit` as a kwarg when passing `quantization_config` argument at the same time.",
      },
      {
        // The repository's own code must run to load it, and the command did not allow it.
        category: 'config',
        summary: "The model or dataset needs its own code to load, and the command did not pass trust_remote_code=True",
        says: /contains custom code which must be executed to correctly load|requires you to execute the (?:configuration|modeling|dataset) file in that repo on your local machine/,
        source: 'huggingface/datasets src/datasets/load.py (resolve_trust_remote_code: "The repository for %s contains custom code which must be executed to correctly load the dataset."); huggingface/transformers src/transformers/dynamic_module_utils.py (resolve_trust_remote_code: "… requires you to execute the configuration file in that repo on your local machine.")',
        example: 'ValueError: The repository for mteb/amazon_counterfactual contains custom code which must be executed to correctly load the dataset. You can inspect the repository content at https://hf.co/datasets/mteb/amazon_counterfactual.',
      },
      {
        category: 'config',
        summary: "Hydra found no primary config file of that name in its search path (the command's config name or path)",
        says: /MissingConfigException: Cannot find primary config /,
        source: 'facebookresearch/hydra hydra/_internal/config_loader_impl.py (MissingConfigException(f"Cannot find primary config \'{config_name}\'. Check that it\'s in your config search path."))',
        example: "hydra.errors.MissingConfigException: Cannot find primary config 'configs/train/custom.yaml'. Check that it's in your config search path.",
      },
      {
        category: 'config',
        summary: "The Trainer's --deepspeed names a config file that does not exist (or is not a dict or base64 string)",
        says: /Expected a string path to an existing deepspeed config, or a dictionary/,
        source: 'huggingface/transformers src/transformers/integrations/deepspeed.py (HfDeepSpeedConfig, from accelerate\'s DeepSpeedConfig: ValueError("Expected a string path to an existing deepspeed config, or a dictionary, or a base64 encoded string. Received: …"))',
        example: 'ValueError: Expected a string path to an existing deepspeed config, or a dictionary, or a base64 encoded string. Received: ds_config_zero2.json',
      },
      {
        category: 'config',
        summary: "DeepSpeed's config check refused a value of the job's DeepSpeed config",
        says: /validation errors? for DeepSpeed\w{0,40}Config\b/,
        source: 'deepspeedai/DeepSpeed deepspeed/runtime/config_utils.py (DeepSpeedConfigModel, a pydantic model: pydantic raises "N validation error(s) for DeepSpeedZeroConfig" with the field and the reason)',
        example: 'pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig',
      },
      {
        // What sbatch prints at submission is the controller's (or the site's job_submit
        // plugin's) refusal of the request: a partition, account, GPU or time the job asks for.
        category: 'config',
        summary: "Slurm refused to accept the job as submitted (its partition, account, GPUs or limits)",
        says: /\b(?:sbatch|salloc): error: (?!Slurm temporarily unable|Socket timed out|slurm_receive_msg|Batch job submission failed: Socket)/,
        source: 'SchedMD/slurm src/sbatch/sbatch.c (error("Batch job submission failed: %s", slurm_strerror(errno))), src/plugins/job_submit (a site plugin\'s message to the user, printed by sbatch as "sbatch: error: …")',
        example: "sbatch: error: Batch job submission failed: Requested node configuration is not available",
      },
      {
        // kubectl and the API server refuse a manifest they cannot read: the workload's YAML.
        category: 'config',
        summary: 'The workload\'s manifest is not valid Kubernetes (an unknown field, a value of the wrong type)',
        says: /error validating data: \[?ValidationError\(|error: unable to decode "[^"\n]{1,300}": |cannot be handled as a \w{1,60}: (?:json|strict decoding error): /,
        source: 'kubernetes/kubectl pkg/cmd/util/helpers.go and k8s.io/kubectl pkg/validation ("error validating data: %v", ValidationError(…): unknown field), k8s.io/cli-runtime pkg/resource/visitor.go ("unable to decode %q: %v"); kubernetes/apiserver pkg/endpoints/handlers/rest.go ("%s in version %q cannot be handled as a %s: %v")',
        example: 'error: error validating "job.yml": error validating data: [ValidationError(Job.spec.template.spec): unknown field "computeResources" in io.k8s.api.core.v1.PodSpec]',
      },
      {
        // NCCL_SOCKET_IFNAME (or the pod's network) leaves NCCL no interface to bootstrap on: the
        // job's network setting names an interface the container does not have.
        category: 'config',
        summary: "NCCL found no network interface to start on (NCCL_SOCKET_IFNAME names none the container has)",
        says: /Bootstrap : no socket interface found/,
        source: 'NVIDIA/nccl src/bootstrap.cc (bootstrapNetInit: WARN("Bootstrap : no socket interface found")), NCCL environment variables https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html (NCCL_SOCKET_IFNAME)',
        example: "invalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'",
      },
      {
        // `ray start --address=$HEAD:6379` with $HEAD empty: the command never named the head.
        category: 'config',
        summary: "Ray was started with no head address (only a port): the command's head-node variable is empty",
        says: /Failed to connect to GCS at address :\d{2,5} /,
        source: 'ray-project/ray src/ray/gcs/gcs_client/gcs_client.cc and src/ray/rpc/gcs_server/gcs_rpc_client.h ("Failed to connect to GCS at address %s within %d seconds."; the address is host:port)',
        example: '[2025-07-23 10:05:49,679 W 51000 51000] gcs_rpc_client.h:151: Failed to connect to GCS at address :6379 within 5 seconds.',
        evenInNoise: 'Failed to connect to GCS at address :',
      },
      {
        category: 'config',
        summary: "DeepSpeed's ZeRO stage 3 cannot skip gradient synchronisation (no_sync), which the trainer's gradient accumulation asked for",
        says: /no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage/,
        source: 'deepspeedai/DeepSpeed deepspeed/runtime/engine.py (DeepSpeedEngine.no_sync: assert not self.zero_optimization_partition_gradients(), f"no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage {self.zero_optimization_stage()}")',
        example: 'AssertionError: no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage 3',
      },
      {
        category: 'config',
        summary: "Megatron was given no tokenizer path (its tokenizer settings are incomplete)",
        // Not where a frame quotes the assert's own source.
        says: /(?<!")Tokenizer path must be specified\./,
        source: 'NVIDIA/Megatron-LM megatron/core/tokenizers/megatron_tokenizer.py (MegatronTokenizer.from_pretrained: assert tokenizer_path, "Tokenizer path must be specified.")',
        example: 'AssertionError: Tokenizer path must be specified.',
      },
      {
        // The rendezvous store binds the port the command names (--master_port, MASTER_PORT):
        // another process on the node holds it, so the command needs another port.
        category: 'config',
        summary: "The rendezvous port the command names is already in use on the node (choose another --master_port)",
        says: /The server socket has failed to bind to \S{1,300} \(errno: 98 - Address already in use\)/,
        source: 'pytorch/pytorch torch/csrc/distributed/c10d/socket.cpp (SocketListenOp: "The server socket has failed to bind to {} (errno: {} - {})."; errno 98 is EADDRINUSE, errno(3))',
        example: '[W socket.cpp:464] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).',
        // Logged at warning level per address tried; the error after them ("failed to listen on
        // any local network address") only says that every address failed.
        evenInNoise: 'Address already in use',
      },
      {
        category: 'config',
        summary: "Mosaic's StreamingDataset was given a local cache directory another stream already uses",
        says: /Reused local directory: /,
        source: 'mosaicml/streaming streaming/base/shared/prefix.py (_check_self: ValueError(f"Reused local directory: {dirname}. Provide a different one."))',
        example: "ValueError: Reused local directory: ['/data/c4/train'] vs ['/data/c4/train']. Provide a different one.",
      },
      {
        category: 'config',
        summary: 'The configuration has no such key (OmegaConf, under Hydra too)',
        says: /Key '[^'\n]{1,200}' (?:not in '[^'\n]{1,200}'|is not in struct)/,
        source: 'omry/omegaconf omegaconf/dictconfig.py (_validate_get: ConfigKeyError / ConfigAttributeError "Key \'$KEY\' not in \'$OBJECT_TYPE\'", "Key \'$KEY\' is not in struct")',
        example: "omegaconf.errors.ConfigKeyError: Key 'period' not in 'ModelCheckpointConf'",
      },
    ],
  },
];

/** Every entry, in the order they are tried: by CATEGORY_ORDER, then as listed. */
export const VOCABULARY_ENTRIES: readonly VocabularyEntry[] = CATEGORY_ORDER.flatMap((category) =>
  VOCABULARY.flatMap((s) => s.entries.filter((e) => e.category === category)),
);

/**
 * Libraries whose exceptions are all of one kind of failure, by the module that defines them: an
 * exception of such a module whose message names nothing known still says which layer failed
 * (`hydra.errors.…` is the configuration, `huggingface_hub.errors.…` the Hub). Weak evidence:
 * it counts as an exception of no known kind would (precedence.ts, kind `class`), so any
 * recognised error, a chained one included, and an exit code that names a signal outrank it.
 */
export interface ExceptionModule {
  /** The module, as it prefixes the exception's class in a traceback (`hydra.errors`). */
  module: string;
  category: Category;
  /** Where the module defines its exceptions. */
  source: string;
}

export const EXCEPTION_MODULES: readonly ExceptionModule[] = [
  { module: 'hydra.errors', category: 'config', source: 'facebookresearch/hydra hydra/errors.py (HydraException, ConfigCompositionException, MissingConfigException, InstantiationException)' },
  { module: 'omegaconf.errors', category: 'config', source: 'omry/omegaconf omegaconf/errors.py (OmegaConfBaseException and its ConfigKeyError, ValidationError, InterpolationResolutionError…)' },
  { module: 'yaml', category: 'config', source: 'yaml/pyyaml lib/yaml/error.py (YAMLError, MarkedYAMLError; raised as yaml.scanner.ScannerError, yaml.parser.ParserError, yaml.constructor.ConstructorError)' },
  { module: 'lightning.fabric.utilities.exceptions', category: 'config', source: 'Lightning-AI/pytorch-lightning src/lightning/fabric/utilities/exceptions.py (MisconfigurationException, the one exception it defines)' },
  { module: 'lightning_fabric.utilities.exceptions', category: 'config', source: 'Lightning-AI/pytorch-lightning src/lightning_fabric/utilities/exceptions.py (the standalone package\'s copy: MisconfigurationException)' },
  { module: 'pytorch_lightning.utilities.exceptions', category: 'config', source: 'Lightning-AI/pytorch-lightning src/pytorch_lightning/utilities/exceptions.py (MisconfigurationException)' },
  { module: 'lightning.pytorch.utilities.exceptions', category: 'config', source: 'Lightning-AI/pytorch-lightning src/lightning/pytorch/utilities/exceptions.py (MisconfigurationException)' },
  { module: 'huggingface_hub.errors', category: 'data-path', source: 'huggingface/huggingface_hub src/huggingface_hub/errors.py (HfHubHTTPError, RepositoryNotFoundError, EntryNotFoundError, LocalEntryNotFoundError, OfflineModeIsEnabled…)' },
  { module: 'huggingface_hub.utils._errors', category: 'data-path', source: 'huggingface/huggingface_hub src/huggingface_hub/utils/_errors.py (the same errors before 0.23 moved them to errors.py)' },
  { module: 'datasets.exceptions', category: 'data-path', source: 'huggingface/datasets src/datasets/exceptions.py (DatasetNotFoundError, DataFilesNotFoundError, DatasetGenerationError…)' },
  { module: 'botocore.exceptions', category: 'data-path', source: 'boto/botocore botocore/exceptions.py (ClientError, EndpointConnectionError, NoCredentialsError…: the object store)' },
  { module: 'botocore.errorfactory', category: 'data-path', source: 'boto/botocore botocore/errorfactory.py (the per-service error classes such as NoSuchKey, NoSuchBucket)' },
  { module: 'google.api_core.exceptions', category: 'data-path', source: 'googleapis/python-api-core google/api_core/exceptions.py (GoogleAPICallError and its HTTP and gRPC codes)' },
  { module: 'requests.exceptions', category: 'data-path', source: 'psf/requests src/requests/exceptions.py (ConnectionError, HTTPError, Timeout…: a download)' },
  { module: 'urllib3.exceptions', category: 'data-path', source: 'urllib3/urllib3 src/urllib3/exceptions.py (MaxRetryError, NewConnectionError, ProtocolError…)' },
  { module: 'fsspec.exceptions', category: 'data-path', source: 'fsspec/filesystem_spec fsspec/exceptions.py (the remote file systems\' errors)' },
  { module: 'pip._internal.exceptions', category: 'import', source: 'pypa/pip src/pip/_internal/exceptions.py (InstallationError, DistributionNotFound, MetadataGenerationFailed…)' },
  { module: 'pipenv.exceptions', category: 'import', source: 'pypa/pipenv pipenv/exceptions.py (ResolutionFailure, InstallError, PipenvException)' },
  { module: 'importlib.metadata', category: 'import', source: 'python/cpython Lib/importlib/metadata/__init__.py (PackageNotFoundError)' },
];
