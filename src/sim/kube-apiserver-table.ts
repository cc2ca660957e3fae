/**
 * Server-side printing: the `meta.k8s.io/v1` Table that `kubectl get` asks for, with the columns
 * the real API server prints for pods, namespaces, events and leases, and NAME/AGE for custom
 * resources.
 */
import type { TableShape } from './kube-apiserver-resources.js';
import type { KubeObject } from './kube-apiserver-store.js';

interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

type Cell = string | number;
type Row = (obj: KubeObject, now: Date) => Cell[];

function column(name: string, type = 'string', format = '', priority = 0): ColumnDefinition {
  return { name, type, format, description: name, priority };
}

const SECOND = 1000;

/** Kubernetes' `duration.HumanDuration`, which `kubectl get` prints in AGE columns. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${years}y`;
}

function age(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== 'string') return '<unknown>';
  return humanDuration(now.getTime() - Date.parse(timestamp));
}

interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  state?: {
    waiting?: { reason?: string };
    terminated?: { reason?: string; exitCode?: number; signal?: number };
    running?: unknown;
  };
  lastState?: { terminated?: { finishedAt?: string } };
}

interface PodShape {
  spec?: { containers?: unknown[]; initContainers?: unknown[]; nodeName?: string };
  status?: {
    phase?: string;
    reason?: string;
    podIP?: string;
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}

function terminatedReason(t: { reason?: string; exitCode?: number; signal?: number }): string {
  if (t.reason) return t.reason;
  return t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`;
}

/** The STATUS column, following kubectl's printPod: init containers, then containers. */
function podStatus(obj: KubeObject): string {
  const pod = obj as unknown as PodShape;
  let reason = pod.status?.reason || pod.status?.phase || 'Unknown';
  const inits = pod.status?.initContainerStatuses ?? [];
  const initTotal = pod.spec?.initContainers?.length ?? inits.length;
  let initializing = false;
  inits.forEach((c, i) => {
    if (initializing) return;
    const t = c.state?.terminated;
    if (t && t.exitCode === 0) return;
    if (t) reason = `Init:${terminatedReason(t)}`;
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') reason = `Init:${c.state.waiting.reason}`;
    else reason = `Init:${i}/${initTotal}`;
    initializing = true;
  });
  if (!initializing) {
    let hasRunning = false;
    for (const c of [...(pod.status?.containerStatuses ?? [])].reverse()) {
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated) reason = terminatedReason(c.state.terminated);
      else if (c.ready && c.state?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = 'Running';
  }
  if (obj.metadata.deletionTimestamp) reason = 'Terminating';
  return reason;
}

function podRow(obj: KubeObject, now: Date): Cell[] {
  const pod = obj as unknown as PodShape;
  const statuses = pod.status?.containerStatuses ?? [];
  const total = pod.spec?.containers?.length ?? statuses.length;
  const ready = statuses.filter((c) => c.ready).length;
  const restarts = statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0);
  const lastRestart = statuses
    .map((c) => c.lastState?.terminated?.finishedAt)
    .filter((t): t is string => typeof t === 'string')
    .sort()
    .pop();
  const restartCell = restarts > 0 && lastRestart ? `${restarts} (${age(lastRestart, now)} ago)` : String(restarts);
  return [
    obj.metadata.name, `${ready}/${total}`, podStatus(obj), restartCell, age(obj.metadata.creationTimestamp, now),
    pod.status?.podIP ?? '<none>', pod.spec?.nodeName ?? '<none>', '<none>', '<none>',
  ];
}

function eventRow(obj: KubeObject, now: Date): Cell[] {
  const e = obj as unknown as {
    type?: string; reason?: string; message?: string; count?: number;
    lastTimestamp?: string; firstTimestamp?: string; eventTime?: string;
    involvedObject?: { kind?: string; name?: string; fieldPath?: string };
    source?: { component?: string; host?: string };
  };
  const last = e.lastTimestamp ?? e.eventTime ?? obj.metadata.creationTimestamp;
  const involved = e.involvedObject ?? {};
  return [
    age(last, now), e.type ?? '', e.reason ?? '', `${(involved.kind ?? '').toLowerCase()}/${involved.name ?? ''}`,
    involved.fieldPath ?? '', [e.source?.component, e.source?.host].filter(Boolean).join(', '), e.message ?? '',
    age(e.firstTimestamp ?? last, now), e.count ?? 1, obj.metadata.name,
  ];
}

const TABLES: Record<TableShape, { columns: ColumnDefinition[]; row: Row }> = {
  pod: {
    columns: [
      column('Name', 'string', 'name'), column('Ready'), column('Status'), column('Restarts'), column('Age'),
      column('IP', 'string', '', 1), column('Node', 'string', '', 1), column('Nominated Node', 'string', '', 1),
      column('Readiness Gates', 'string', '', 1),
    ],
    row: podRow,
  },
  namespace: {
    columns: [column('Name', 'string', 'name'), column('Status'), column('Age')],
    row: (obj, now) => [
      obj.metadata.name,
      ((obj.status as { phase?: string } | undefined)?.phase) ?? 'Active',
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  event: {
    columns: [
      column('Last Seen'), column('Type'), column('Reason'), column('Object'), column('Subobject', 'string', '', 1),
      column('Source', 'string', '', 1), column('Message'), column('First Seen', 'string', '', 1),
      column('Count', 'integer', '', 1), column('Name', 'string', '', 1),
    ],
    row: eventRow,
  },
  // printLease in kubernetes/pkg/printers/internalversion: an unset holder is an empty cell.
  lease: {
    columns: [column('Name', 'string', 'name'), column('Holder'), column('Age')],
    row: (obj, now) => [
      obj.metadata.name,
      ((obj.spec as { holderIdentity?: string } | undefined)?.holderIdentity) ?? '',
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  default: {
    columns: [column('Name', 'string', 'name'), column('Age', 'date')],
    row: (obj, now) => [obj.metadata.name, age(obj.metadata.creationTimestamp, now)],
  },
};

function partialMetadata(obj: KubeObject): object {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

export interface TableOptions {
  shape: TableShape;
  now: Date;
  /** `includeObject=None` leaves the row objects out; kubectl asks for Object metadata. */
  includeObject: boolean;
  resourceVersion?: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export function renderTable(objects: KubeObject[], options: TableOptions): object {
  const table = TABLES[options.shape];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      ...(options.resourceVersion ? { resourceVersion: options.resourceVersion } : {}),
      ...(options.continueToken ? { continue: options.continueToken } : {}),
      ...(options.remainingItemCount !== undefined ? { remainingItemCount: options.remainingItemCount } : {}),
    },
    columnDefinitions: table.columns,
    rows: objects.map((obj) => ({
      cells: table.row(obj, options.now),
      ...(options.includeObject ? { object: partialMetadata(obj) } : {}),
    })),
  };
}

/** The Accept header of `kubectl get`: `application/json;as=Table;v=v1;g=meta.k8s.io,...`. */
export function acceptsTable(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io') && params.includes('v=v1');
  });
}
