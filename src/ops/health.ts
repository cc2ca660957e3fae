/**
 * What /readyz reports: the cluster watch is synced, Slack is connected, the store is writable.
 * With several clusters, the cluster check passes once any one has synced: an unreachable
 * cluster is named (ClusterStatus) but does not make the bot unready, nor stop the others.
 */

export interface Check {
  ok: boolean;
  detail?: string;
}

/** One configured cluster as /readyz lists it. */
export interface ClusterStatus {
  /** undefined: the one unnamed cluster of a config without `clusters:`. */
  name?: string;
  synced: boolean;
  /** Why it is not (or was last not) reachable: discovery or the watch's last failure. */
  lastError?: string;
}

export interface HealthSources {
  clusters(): ClusterStatus[];
  slack(): Check;
  /** Channels where Slack refuses the bot's posts, and the /invite that fixes it (undefined: none). Ready anyway: other messages go. */
  refusedChannels?(): string | undefined;
  /** The store's write probe: what failed, or undefined when a write works. */
  store: { probeWrite(now: Date): Promise<string | undefined> };
  now(): Date;
}

export function readinessChecks({ clusters, slack, refusedChannels, store, now }: HealthSources): () => Promise<Record<'cluster' | 'slack' | 'store', Check>> {
  return async () => {
    const statuses = clusters();
    const synced = statuses.some((c) => c.synced);
    const behind = statuses.filter((c) => !c.synced && c.name).map((c) => `${c.name} not synced${c.lastError ? ` (${c.lastError})` : ''}`);
    const slackStatus = slack();
    const refused = refusedChannels?.();
    // A tiny real write: a full disk or a read-only volume shows here, and clears once writes work again.
    const problem = await store.probeWrite(now());
    return {
      cluster: synced
        ? behind.length ? { ok: true, detail: behind.join('; ') } : { ok: true }
        : { ok: false, detail: behind.length ? `no cluster synced yet: ${behind.join('; ')}` : 'workload watch not synced yet' },
      slack: slackStatus.ok ? (refused ? { ok: true, detail: refused } : { ok: true }) : { ok: false, detail: [slackStatus.detail, refused].filter(Boolean).join('; ') },
      store: problem ? { ok: false, detail: `cannot write the store (${problem}); alerts cannot be queued until it can` } : { ok: true },
    };
  };
}
