/**
 * Maintenance messages go out through the outbox, like every other message: in order, retried
 * with backoff, honouring Retry-After, and kept on disk across a restart. Channel posts go to
 * the channel as they are (mutes are a person's, and a channel has none); owner notices go to
 * the owner's Slack user. A message is queued under its maintenance ledger key (`mw:` + the
 * reminder's key), so the outbox records it in that ledger once Slack accepts it, and queuing
 * the same key again (a retry after a crash) sends nothing twice.
 */
import type { Logger } from 'pino';
import { maintenanceKey } from '../keys.js';
import type { MaintenanceDeps } from '../maintenance/service.js';
import type { OutboxStore } from '../store/port.js';
import type { OwnerDirectory } from './owners.js';

export interface MaintenanceDeliveryOptions {
  store: Pick<OutboxStore, 'enqueue'>;
  /** Told that something was queued, so it goes now rather than on the outbox's next poll. */
  queued(): void;
  owners: Pick<OwnerDirectory, 'slackUserFor'>;
  now(): Date;
  log: Logger;
}

export function maintenanceDelivery({ store, queued, owners, now, log }: MaintenanceDeliveryOptions): Pick<MaintenanceDeps, 'post' | 'dm'> {
  // Resolves once the message is in the outbox (on disk): only then may the reminder be marked sent.
  const enqueue = async (key: string, target: { type: 'channel'; channel: string } | { type: 'user'; user: string }, payload: Parameters<MaintenanceDeps['post']>[1]) => {
    await store.enqueue({ key: maintenanceKey(key), kind: 'maintenance', target, payload }, now());
    queued();
  };
  return {
    post: (channel, message, key) => enqueue(key, { type: 'channel', channel }, message),
    dm: async (owner, message, key) => {
      const user = await owners.slackUserFor(owner);
      // Nobody to tell: done, rather than retried every minute until the window starts.
      if (!user) return void log.info({ owner }, 'no Slack user for this owner; maintenance notice not sent');
      await enqueue(key, { type: 'user', user }, message);
    },
  };
}
