/**
 * A kubeconfig file in a fresh temporary directory, for code and tools that read a path
 * (KUBECONFIG, `kubectl --kubeconfig`). `cleanup()` removes the directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';

export interface TempKubeconfig {
  dir: string;
  path: string;
  cleanup(): void;
}

export function writeTempKubeconfig(kube: FakeKube, namespace?: string): TempKubeconfig {
  const dir = mkdtempSync(join(tmpdir(), 'runai-sim-kube-'));
  return {
    dir,
    path: kube.writeKubeconfig(dir, namespace),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
