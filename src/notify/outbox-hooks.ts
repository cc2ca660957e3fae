/**
 * How the outbox follows Slack's connection: paused (queueing only) until Slack accepts the
 * bot token, since every send before would fail and use up one of a message's tries; and,
 * when Slack comes back after an outage, what failed meanwhile is due at once, not after its
 * backoff.
 */
import type { Logger } from 'pino';
import type { OutboxStore } from '../store/port.js';
import type { Outbox } from './outbox.js';

export interface OutboxHooksOptions {
  outbox: Pick<Outbox, 'kick'>;
  store: Pick<OutboxStore, 'expediteOutbox'>;
  now(): Date;
  log: Logger;
}

/**
 * What the outbox does each time the bot (re)connects to Slack (subscribed with
 * slackApp.connection.whenConnected). That Slack accepted the token is leadership's to act on
 * (src/ops/leadership.ts slackAuthenticated): the outbox starts if this replica leads.
 */
export function outboxHooks({ outbox, store, now, log }: OutboxHooksOptions): { onConnected(): void } {
  return {
    onConnected() {
      void store
        .expediteOutbox(now())
        .then((expedited) => {
          if (expedited) log.info({ expedited }, 'Slack is back: sending what was queued');
        })
        .catch((err: unknown) => log.warn({ err: (err as Error)?.message ?? String(err) }, 'cannot make the queued messages due now; they go at their own time'))
        .finally(() => outbox.kick());
    },
  };
}
