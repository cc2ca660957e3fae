/**
 * Opening what the bot needs at start, each failure turned into a start-up error that names
 * its fix (ops/startup.ts): the cluster credentials and the store.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Store } from '../store/sqlite.js';
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

/** A store that cannot be written stops the start, rather than every alert later. */
export function openStore(path: string): Store {
  let store: Store | undefined;
  try {
    store = new Store(path);
    // Opening succeeds on a read-only file; the first write is where it would fail later.
    const problem = store.probeWrite(new Date());
    if (problem) throw Object.assign(new Error(problem), { code: problem });
    return store;
  } catch (err) {
    store?.close();
    throw storeError(err, path);
  }
}
