/**
 * Where maintenance messages go: channel posts as they are, owner notices to the owner's
 * Slack user (a cluster identity mapped through the owner directory).
 */
import type { Logger } from 'pino';
import type { MaintenanceDeps } from '../maintenance/service.js';
import type { SlackPoster } from './outbox.js';
import type { OwnerDirectory } from './owners.js';

export interface MaintenanceDeliveryOptions {
  slack: SlackPoster;
  owners: Pick<OwnerDirectory, 'slackUserFor'>;
  log: Logger;
}

export function maintenanceDelivery({ slack, owners, log }: MaintenanceDeliveryOptions): Pick<MaintenanceDeps, 'post' | 'dm'> {
  return {
    post: async (channel, message) => void (await slack.post(channel, message)),
    dm: async (owner, message) => {
      const user = await owners.slackUserFor(owner);
      // Nobody to tell: done, rather than retried every minute until the window starts.
      if (!user) return void log.info({ owner }, 'no Slack user for this owner; maintenance notice not sent');
      await slack.post(await slack.openDm(user), message);
    },
  };
}
