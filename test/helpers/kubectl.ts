/** The real kubectl, for tests that check manifests or the simulated API server with it. */
import { spawnSync } from 'node:child_process';
import { describeNeeding } from './needs.js';

export const KUBECTL_AVAILABLE = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

/**
 * describe() when kubectl is on PATH, else describe.skip with one line saying what is skipped,
 * so the rest of the suite runs on a machine without it (CI too: it checks the simulator against
 * the real client, which client-node already judges in every other suite).
 */
export function describeWithKubectl(skipped: string): typeof describe {
  return describeNeeding(
    { what: 'kubectl', skipped, fix: 'Put kubectl on PATH to run them.', requiredInCi: false },
    KUBECTL_AVAILABLE ? undefined : 'not on PATH',
  );
}
