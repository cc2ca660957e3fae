/**
 * Container logs as the kubelet serves them through `pods/log`: the current instance's log and
 * the previous instance's (`previous=true`), each line prefixed with the time it was written
 * when asked (`timestamps=true`), then cut by `tailLines` and then `limitBytes` (which counts
 * the prefixes: the kubelet writes them before it cuts).
 *
 * The prefix is the kubelet's: the line's CRI timestamp formatted as `types.RFC3339NanoFixed`
 * ("2006-01-02T15:04:05.000000000Z07:00"), then one space, before limitBytes cuts
 * (kubernetes/kubernetes pkg/kubelet/kuberuntime/logs/logs.go, `timeFormatOut`, logWriter.write):
 * RFC 3339 with a fixed nine-digit fraction, in UTC as the CRI log file stores it. The runtime
 * stamps a line when it reads the whole line, so a line written in pieces carries the time of
 * the piece that ended it.
 */
import type { KubeObject } from './kube-apiserver-store.js';
import { badRequest } from './kube-apiserver-status.js';

/** A log and, for each of its lines (a last unterminated one included), when it was written. */
interface StampedLog { text: string; stamps: number[] }
interface ContainerLogs { current: StampedLog; previous?: StampedLog }

export interface LogQuery {
  container?: string;
  previous: boolean;
  tailLines?: number;
  limitBytes?: number;
  timestamps?: boolean;
}

/** The kubelet's prefix for a line written at `ms`: nine fraction digits, UTC. */
export function kubeletTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** Appends `text` written at `at`: each line it begins or continues is stamped `at`. */
function appendStamped(log: StampedLog, text: string, at: number): void {
  if (!text) return;
  const open = log.text.length > 0 && !log.text.endsWith('\n');
  if (open) log.stamps[log.stamps.length - 1] = at;
  let lines = 0;
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lines++;
  // Lines begun by this text: one per newline, and one more when it ends inside a line; minus the one it continues.
  const begun = lines + (text.endsWith('\n') ? 0 : 1) - (open ? 1 : 0);
  for (let i = 0; i < begun; i++) log.stamps.push(at);
  log.text += text;
}

/** Each line with its prefix, as `timestamps=true` serves them. */
function withTimestamps(log: StampedLog): string {
  if (!log.text) return '';
  const lines = log.text.split('\n');
  const ended = log.text.endsWith('\n');
  if (ended) lines.pop();
  return lines.map((line, i) => `${kubeletTimestamp(log.stamps[i] ?? 0)} ${line}`).join('\n') + (ended ? '\n' : '');
}

function containerNames(pod: KubeObject): string[] {
  const spec = pod.spec as { containers?: Array<{ name: string }>; initContainers?: Array<{ name: string }> } | undefined;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])].map((c) => c.name);
}

/** The last `n` lines; a trailing newline does not count as an extra empty line. */
export function tailLines(text: string, n: number): string {
  if (n <= 0) return '';
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  let count = 0;
  for (let i = end - 1; i >= 0; i--) {
    if (text[i] === '\n' && ++count === n) return text.slice(i + 1);
  }
  return text;
}

/** The first `limit` bytes, cut on a byte boundary as the kubelet does. */
export function limitBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= limit ? text : bytes.subarray(0, limit).toString('utf8');
}

export class PodLogs {
  private readonly logs = new Map<string, Map<string, ContainerLogs>>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  private static key(namespace: string, pod: string): string {
    return `${namespace}/${pod}`;
  }

  /** `at`: when the text was written (default: the server's clock now). */
  append(namespace: string, pod: string, container: string, text: string, previous: boolean, at?: Date): void {
    const key = PodLogs.key(namespace, pod);
    let containers = this.logs.get(key);
    if (!containers) {
      containers = new Map();
      this.logs.set(key, containers);
    }
    const entry = containers.get(container) ?? { current: { text: '', stamps: [] } };
    const written = (at ?? this.now()).getTime();
    if (previous) appendStamped((entry.previous ??= { text: '', stamps: [] }), text, written);
    else appendStamped(entry.current, text, written);
    containers.set(container, entry);
  }

  /** The container restarted: its current log becomes the previous instance's, and a new one starts. */
  restart(namespace: string, pod: string, container: string): void {
    this.append(namespace, pod, container, '', false);
    const entry = this.logs.get(PodLogs.key(namespace, pod))!.get(container)!;
    entry.previous = entry.current;
    entry.current = { text: '', stamps: [] };
  }

  forget(namespace: string, pod: string): void {
    this.logs.delete(PodLogs.key(namespace, pod));
  }

  /** The log text a `GET pods/log` answers, or a 400 ApiError like the real server's. */
  read(pod: KubeObject, query: LogQuery): string {
    const name = pod.metadata.name;
    const names = containerNames(pod);
    let container = query.container;
    if (!container) {
      const regular = ((pod.spec as { containers?: Array<{ name: string }> } | undefined)?.containers ?? []).map((c) => c.name);
      if (regular.length !== 1) {
        throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${regular.join(' ')}]`);
      }
      container = regular[0];
    }
    if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
    const entry = this.logs.get(PodLogs.key(pod.metadata.namespace ?? '', name))?.get(container);
    let log: StampedLog;
    if (query.previous) {
      if (entry?.previous === undefined) {
        throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
      }
      log = entry.previous;
    } else {
      log = entry?.current ?? { text: '', stamps: [] };
    }
    let text = query.timestamps ? withTimestamps(log) : log.text;
    if (query.tailLines !== undefined) text = tailLines(text, query.tailLines);
    if (query.limitBytes !== undefined) text = limitBytes(text, query.limitBytes);
    return text;
  }
}
