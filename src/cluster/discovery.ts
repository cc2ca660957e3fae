/**
 * Discovery at start: the cluster may be briefly unreachable (the API server restarting, the
 * network not up yet), so the bot keeps asking, with capped exponential backoff, until it
 * answers or the bot is stopped.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import pRetry from 'p-retry';
import type { Logger } from 'pino';
import { discoverWorkloadKinds, type WorkloadKindRef } from './kinds.js';

export interface DiscoveryRetry {
  /** First wait (default 1 s); each next one doubles, up to `maxWaitMs` (default 30 s). */
  firstWaitMs?: number;
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** Told each failed attempt (the readiness report shows the last). */
  onError?(message: string): void;
}

export async function discoverWithRetry(kubeConfig: KubeConfig, log: Logger, retry: DiscoveryRetry = {}): Promise<WorkloadKindRef[]> {
  const first = retry.firstWaitMs ?? 1000;
  const max = retry.maxWaitMs ?? 30_000;
  return pRetry(() => discoverWorkloadKinds(kubeConfig), {
    retries: Number.POSITIVE_INFINITY,
    factor: 2,
    minTimeout: first,
    maxTimeout: max,
    unref: true,
    signal: retry.signal,
    onFailedAttempt: ({ error, attemptNumber }) => {
      const retryInMs = Math.min(max, first * 2 ** (attemptNumber - 1));
      log.error({ err: error.message, attempt: attemptNumber, retryInMs }, 'cannot discover Run:ai workload kinds');
      retry.onError?.(error.message);
    },
  });
}
