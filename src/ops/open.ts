/**
 * Opening what the bot needs at start, each failure turned into a start-up error that names
 * its fix (ops/startup.ts): the cluster credentials and the store.
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { ConfigError, storeUrl, type Config, type ResolvedCluster } from '../config.js';
import { openConfiguredStore } from '../store/open.js';
import type { Store, WorkloadStore } from '../store/port.js';
import { kubeconfigError, storeError } from './startup.js';

/** A kubeconfig file, or KUBECONFIG / in-cluster credentials by default. */
export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (path) kc.loadFromFile(path);
    else kc.loadFromDefault();
  } catch (err) {
    throw kubeconfigError(err, path);
  }
  return kc;
}

/**
 * One KubeConfig per configured cluster, in the order of `config.clusters`: its own kubeconfig
 * file, a context of $KUBECONFIG, or (neither) the bot's own credentials, `fallback` when given
 * (tests, the demo). Every entry is checked before any is used, and each problem names its key.
 */
export function loadClusterKubeConfigs(config: Pick<Config, 'clusters' | 'secrets'>, fallback?: KubeConfig): KubeConfig[] {
  const problems: string[] = [];
  const own = () => fallback ?? loadKubeConfig(config.secrets.kubeconfig);
  const loaded = config.clusters.map((cluster) => {
    try {
      return loadClusterKubeConfig(cluster, config.secrets.kubeconfig, own);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
      return undefined;
    }
  });
  if (problems.length) throw new ConfigError(problems);
  return loaded as KubeConfig[];
}

function loadClusterKubeConfig(cluster: ResolvedCluster, defaultPath: string | undefined, own: () => KubeConfig): KubeConfig {
  if (cluster.kubeconfig) {
    const kc = new KubeConfig();
    try {
      kc.loadFromFile(cluster.kubeconfig);
    } catch (err) {
      throw new ConfigError([`${cluster.key}.kubeconfig: cannot read ${cluster.kubeconfig} (${codeOf(err)}); mount the cluster's kubeconfig Secret there (deploy/multi-cluster.md)`]);
    }
    if (!kc.getCurrentCluster()) throw new ConfigError([`${cluster.key}.kubeconfig: ${cluster.kubeconfig} names no current context with a cluster`]);
    return kc;
  }
  if (cluster.context) {
    // A fresh copy per cluster: setCurrentContext changes the object.
    const kc = loadKubeConfig(defaultPath);
    const known = kc.getContexts().map((c) => c.name);
    if (!known.includes(cluster.context)) {
      const where = defaultPath ? `KUBECONFIG ${defaultPath}` : 'the default kubeconfig';
      throw new ConfigError([`${cluster.key}.context: "${cluster.context}" is not a context in ${where} (it has: ${known.join(', ') || 'none'})`]);
    }
    kc.setCurrentContext(cluster.context);
    return kc;
  }
  return own();
}

function codeOf(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return (e.code ?? e.message ?? String(err)).split('\n')[0];
}

/**
 * How long start-up waits for a store another process has locked (a replica being replaced, a
 * backup, sqlite3 in a shell). Without the wait, a restart that meets a lock exits, and
 * restarts into the same lock.
 */
const STORE_LOCK_WAIT_MS = 60_000;

/** A store that cannot be written stops the start, rather than every alert later. */
export async function openStore(config: Config, log: Logger): Promise<Store> {
  const url = storeUrl(config);
  const started = Date.now();
  for (;;) {
    let store: Store | undefined;
    try {
      store = await openConfiguredStore({ path: config.store.path, url });
      // Opening succeeds on a read-only file; the first write is where it would fail later.
      const problem = await store.probeWrite(new Date());
      if (problem) throw Object.assign(new Error(problem), { code: problem });
      return store;
    } catch (err) {
      await store?.close();
      const code = (err as { code?: string }).code;
      const locked = code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
      if (!locked || Date.now() - started > STORE_LOCK_WAIT_MS) throw storeError(err, url ? { url } : { path: config.store.path });
      log.warn({ store: config.store.path, code }, 'the store is locked by another process; waiting');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * With named clusters, the first one listed takes over what a single-cluster bot kept (its
 * workload rows, every key about them: told, queued or folded into a burst, and their follow-up
 * threads), so moving a running bot from `cluster:` to `clusters:` repeats or loses no alert,
 * forgets no state and keeps threading under the alerts told before. A no-op once done, and
 * without `clusters:`.
 */
export async function adoptSingleClusterStore(store: Pick<WorkloadStore, 'adoptUnnamedCluster'>, config: Config, log: Logger): Promise<void> {
  const first = config.clusters[0]?.name;
  if (!first) return;
  const moved = await store.adoptUnnamedCluster(first);
  if (moved) log.info({ cluster: first, workloads: moved }, 'what the single-cluster bot kept now belongs to the first cluster listed');
}
