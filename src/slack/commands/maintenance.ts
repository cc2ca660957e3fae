/** `/runai maintenance`: the next windows from the calendar, with the guide's advice. */
import type { ListenerDeps } from '../listeners.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { maintenanceMessage } from '../../messages/replies.js';

export const MAINTENANCE_WINDOWS_SHOWN = 5;

export function maintenanceReply(deps: ListenerDeps): SlackMessage {
  const now = deps.now();
  return maintenanceMessage(deps.maintenance?.upcoming(now, MAINTENANCE_WINDOWS_SHOWN), now);
}
