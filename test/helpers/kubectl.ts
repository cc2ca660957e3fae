/** The real kubectl, for tests that check manifests or the simulated API server with it. */
import { spawnSync } from 'node:child_process';

export const KUBECTL_AVAILABLE = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

/**
 * describe() when kubectl is on PATH, else describe.skip with one line saying what is skipped,
 * so the rest of the suite runs on a machine without it.
 */
export function describeWithKubectl(skipped: string): typeof describe {
  if (KUBECTL_AVAILABLE) return describe;
  console.warn(`kubectl is not on PATH: ${skipped} are skipped`);
  return describe.skip as unknown as typeof describe;
}
