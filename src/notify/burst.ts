/**
 * Bursts: when a node dies or a project is stopped, one owner may see dozens of workloads
 * fail within seconds. The first alert goes out at once, as usual; every further alert for
 * the same destination (the owner's Slack user, or the channel an ownerless project's alerts
 * go to) inside the burst window is folded into that same message, which is then rewritten
 * (chat.update) into one grouped list. The owner gets one message per burst, and the first
 * failure is not delayed by waiting to see whether a burst follows.
 *
 * Across owners, a burst that reaches the threshold earns the operators' channel one summary
 * by node and category, posted when the window closes — one per burst however many replicas
 * run, since the burst is stored and the summary queued like any message.
 */

import type { BurstEntry } from '../model.js';
import { buildOpsBurstMessage } from '../messages/burst.js';
import type { NewOutboxItem, StoredOpsBurst } from '../store/port.js';

export type { BurstEntry };

export { admit, DEFAULT_DEBOUNCE_MS, type Admission, type OpenBurst } from '../delivery/burst-admission.js';

export interface OpsSummaryOptions {
  windowMs: number;
  /** How many alerts across the cluster within one window make an operators' summary. */
  threshold: number;
  /** Where the summary goes (slack.opsChannel); none: no summary. */
  channel?: string;
}

/**
 * The operators' summary of a cluster-wide burst as it stands (stored, counted once per alert
 * however many replicas saw it: store admitToOpsBurst): none below the threshold, else one
 * channel message under the burst's own key, sent when the burst closes like any outbox item.
 * Every alert in it also reaches its owner on its own path.
 */
export function opsSummary(burst: StoredOpsBurst, options: OpsSummaryOptions): NewOutboxItem | undefined {
  if (!options.channel || burst.entries.length < options.threshold) return undefined;
  return {
    key: burst.key,
    kind: 'ops-burst',
    target: { type: 'channel', channel: options.channel },
    payload: buildOpsBurstMessage(burst.entries as BurstEntry[], options.windowMs),
  };
}
