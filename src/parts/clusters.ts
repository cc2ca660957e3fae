/**
 * Each configured cluster's reader and namespace labels (built first: every other part reads
 * the clusters), and later its watch, which feeds the one reconciler through a handler of its own.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { clusterNames, type Config, type ResolvedCluster } from '../config.js';
import { ClusterWatch } from '../cluster/cluster-watch.js';
import { NamespaceLabels } from '../cluster/namespaces.js';
import { createClusterReader, type ClusterReader } from '../cluster/reader.js';
import type { NormalizeOptions } from '../cluster/normalize.js';
import type { WatcherOverrides } from '../cluster/watcher.js';
import type { WorkloadReconciler } from '../notify/reconciler.js';

interface OneCluster {
  cluster: ResolvedCluster;
  kubeConfig: KubeConfig;
  reader: ClusterReader;
  namespaces: NamespaceLabels;
  log: Logger;
}

export interface ClusterReaders {
  /** The reader of a cluster by name (undefined: the first, i.e. the only one of an old config). */
  readerFor(cluster: string | undefined): ClusterReader;
  /** The reconciler's own handler normalises for the first cluster; each cluster's watcher passes its own rules (forCluster). */
  normalize(namespace: string): NormalizeOptions;
  /** Each cluster's watch, in config order, feeding the reconciler. */
  watches(reconciler: WorkloadReconciler, watcher?: WatcherOverrides): ClusterWatch[];
}

export function clusterReaders(config: Config, kubeConfigs: KubeConfig[], log: Logger): ClusterReaders {
  // Per cluster: its own reader and namespace labels (which stamp its name on every workload).
  const perCluster: OneCluster[] = config.clusters.map((cluster, index) => {
    const reader = createClusterReader(kubeConfigs[index]);
    const clusterLog = cluster.name ? log.child({ cluster: cluster.name }) : log;
    const namespaces = new NamespaceLabels({ reader, cluster: cluster.name, ownerKeys: config.owners.keys, refreshMs: cluster.resyncMinutes * 60_000, log: clusterLog });
    return { cluster, kubeConfig: kubeConfigs[index], reader, namespaces, log: clusterLog };
  });
  const byName = new Map(perCluster.map((c) => [c.cluster.name, c]));
  const clusterOf = (name: string | undefined) => {
    const found = name === undefined ? perCluster[0] : byName.get(name);
    if (!found) throw new Error(`no cluster named "${name}" is configured (clusters: ${clusterNames(config).join(', ')})`);
    return found;
  };
  return {
    readerFor: (name) => clusterOf(name).reader,
    normalize: (namespace) => clusterOf(undefined).namespaces.normalize(namespace),
    watches: (reconciler, watcher) =>
      perCluster.map(
        ({ cluster, kubeConfig, reader, namespaces, log: clusterLog }) =>
          new ClusterWatch({
            name: cluster.name,
            settings: cluster,
            kubeConfig,
            reader,
            namespaces,
            handler: reconciler.forCluster(cluster.name, { normalize: namespaces.normalize, lookbackMs: cluster.lookbackHours * 3_600_000 }),
            onSynced: () => reconciler.markSynced(cluster.name),
            log: clusterLog,
            watcher,
          }),
      ),
  };
}
