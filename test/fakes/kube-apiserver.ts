/**
 * The simulated Kubernetes API server (src/sim/kube-apiserver.ts) for tests, plus what most
 * tests need next to it: a client-node KubeConfig pointing at it, the example objects of
 * spec/runai-examples/, and a jest-friendly start/stop pair.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startFakeKube, type FakeKube, type FakeKubeOptions } from '../../src/sim/kube-apiserver.js';

export * from '../../src/sim/kube-apiserver.js';

/** The Run:ai example objects, copied from the project's spec into test/fixtures/spec/. */
export const RUNAI_EXAMPLES_DIR = fileURLToPath(new URL('../fixtures/spec/runai-examples/', import.meta.url));

/** Path of one example file, e.g. `runaiExample('01-trainingworkload-failed.yaml')`. */
export function runaiExample(file: string): string {
  return join(RUNAI_EXAMPLES_DIR, file);
}

/** A client-node KubeConfig for the simulated server (token user, http, skip TLS verify). */
export function kubeConfigFor(kube: FakeKube): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kube.kubeconfigYaml());
  return kc;
}

/**
 * Starts a server before the tests of the enclosing `describe` and closes it after them:
 * `const sim = useFakeKube(); … sim.kube.apply(…)`.
 */
export function useFakeKube(options: FakeKubeOptions = {}): { readonly kube: FakeKube } {
  let kube: FakeKube | undefined;
  beforeAll(async () => {
    kube = await startFakeKube(options);
  });
  afterAll(async () => {
    await kube?.close();
  });
  return {
    get kube(): FakeKube {
      if (!kube) throw new Error('useFakeKube: the server starts in beforeAll; use it inside a test');
      return kube;
    },
  };
}
