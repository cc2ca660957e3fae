/**
 * Discovery at start: the cluster may be briefly unreachable (the API server restarting, the
 * network not up yet), so the bot keeps asking, with capped exponential backoff, until it
 * answers or the bot is stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import pRetry from 'p-retry';
import type { Logger } from 'pino';
import { backoffDelay } from '../lib/backoff.js';
import { discoverWorkloadKinds, type WorkloadKindRef } from './kinds.js';

export interface DiscoveryRetry {
  /** First wait (default 1 s); each next one doubles, up to `maxWaitMs` (default 30 s), jittered (lib/backoff.ts). */
  firstWaitMs?: number;
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** Told each failed attempt (the readiness report shows the last). */
  onError?(message: string): void;
}

export async function discoverWithRetry(kubeConfig: KubeConfig, log: Logger, retry: DiscoveryRetry = {}): Promise<WorkloadKindRef[]> {
  const backoff = { initialMs: retry.firstWaitMs ?? 1000, maxMs: retry.maxWaitMs ?? 30_000 };
  return pRetry(() => discoverWorkloadKinds(kubeConfig), {
    retries: Number.POSITIVE_INFINITY,
    // p-retry only counts and stops; the wait is the bot's one backoff, slept here (abortable, not holding the process).
    minTimeout: 0,
    signal: retry.signal,
    onFailedAttempt: async ({ error, attemptNumber }) => {
      const retryInMs = backoffDelay(attemptNumber, Math.random(), backoff);
      log.error({ err: error.message, attempt: attemptNumber, retryInMs }, 'cannot discover Run:ai workload kinds');
      retry.onError?.(error.message);
      await sleep(retryInMs, undefined, { signal: retry.signal, ref: false });
    },
  });
}
