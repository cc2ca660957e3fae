/**
 * How the outbox follows Slack's connection: paused (queueing only) until Slack accepts the
 * bot token, since every send before would fail and use up one of a message's tries; and,
 * when Slack comes back after an outage, what failed meanwhile is due at once, not after its
 * backoff.
 */
import type { Logger } from 'pino';
import type { Late } from '../lib/late.js';
import type { OutboxStore } from '../store/port.js';
import type { Outbox } from './outbox.js';

export interface OutboxHooksOptions {
  /** The outbox is built after the Slack app whose client it sends with. */
  outbox: Late<Outbox>;
  store: Pick<OutboxStore, 'expediteOutbox'>;
  now(): Date;
  log: Logger;
  /**
   * Slack accepted the token: the outbox may start, if this replica leads and the bot is not
   * stopping (src/ops/leadership.ts decides).
   */
  authenticated(): void;
}

export function outboxHooks({ outbox, store, now, log, authenticated }: OutboxHooksOptions): { onConnected(): void; onAuthenticated(): void } {
  return {
    onConnected() {
      void store
        .expediteOutbox(now())
        .then((expedited) => {
          if (expedited) log.info({ expedited }, 'Slack is back: sending what was queued');
        })
        .catch((err: unknown) => log.warn({ err: (err as Error)?.message ?? String(err) }, 'cannot make the queued messages due now; they go at their own time'))
        .finally(() => outbox.get().kick());
    },
    onAuthenticated() {
      authenticated();
    },
  };
}
