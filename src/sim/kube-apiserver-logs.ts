/**
 * Container logs as the kubelet serves them through `pods/log`: the current instance's log and
 * the previous instance's (`previous=true`), cut by `tailLines` and then `limitBytes`.
 */
import type { KubeObject } from './kube-apiserver-store.js';
import { badRequest } from './kube-apiserver-status.js';

interface ContainerLogs { current: string; previous?: string }

export interface LogQuery {
  container?: string;
  previous: boolean;
  tailLines?: number;
  limitBytes?: number;
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

  private static key(namespace: string, pod: string): string {
    return `${namespace}/${pod}`;
  }

  append(namespace: string, pod: string, container: string, text: string, previous: boolean): void {
    const key = PodLogs.key(namespace, pod);
    let containers = this.logs.get(key);
    if (!containers) {
      containers = new Map();
      this.logs.set(key, containers);
    }
    const entry = containers.get(container) ?? { current: '' };
    if (previous) entry.previous = (entry.previous ?? '') + text;
    else entry.current += text;
    containers.set(container, entry);
  }

  /** The container restarted: its current log becomes the previous instance's, and a new one starts. */
  restart(namespace: string, pod: string, container: string): void {
    this.append(namespace, pod, container, '', false);
    const entry = this.logs.get(PodLogs.key(namespace, pod))!.get(container)!;
    entry.previous = entry.current;
    entry.current = '';
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
    let text: string;
    if (query.previous) {
      if (entry?.previous === undefined) {
        throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
      }
      text = entry.previous;
    } else {
      text = entry?.current ?? '';
    }
    if (query.tailLines !== undefined) text = tailLines(text, query.tailLines);
    if (query.limitBytes !== undefined) text = limitBytes(text, query.limitBytes);
    return text;
  }
}
