/** What /readyz reports: the cluster watch is synced, Slack is connected, the store is writable. */

export interface Check {
  ok: boolean;
  detail?: string;
}

export interface HealthSources {
  watchSynced(): boolean;
  slack(): Check;
  /** The store's write probe: what failed, or undefined when a write works. */
  store: { probeWrite(now: Date): Promise<string | undefined> };
  now(): Date;
}

export function readinessChecks({ watchSynced, slack, store, now }: HealthSources): () => Promise<Record<'cluster' | 'slack' | 'store', Check>> {
  return async () => {
    const synced = watchSynced();
    const slackStatus = slack();
    // A tiny real write: a full disk or a read-only volume shows here, and clears once writes work again.
    const problem = await store.probeWrite(now());
    return {
      cluster: synced ? { ok: true } : { ok: false, detail: 'workload watch not synced yet' },
      slack: slackStatus.ok ? { ok: true } : { ok: false, detail: slackStatus.detail },
      store: problem ? { ok: false, detail: `cannot write the store (${problem}); alerts cannot be queued until it can` } : { ok: true },
    };
  };
}
