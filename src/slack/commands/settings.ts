/**
 * `/runai settings`: what a person is told. Shown as is, or changed one setting at a time;
 * quiet hours default to the person's Slack time zone.
 */
import { settingsOf, type UserSettings } from '../../notify/settings.js';
import type { SlackMessage } from '../../messages/blocks.js';
import type { SettingsChange } from '../parse-command.js';
import { settingsMessage } from '../../messages/replies.js';
import type { Asker } from './context.js';

export async function settingsReply(asker: Asker, change: SettingsChange | undefined): Promise<SlackMessage> {
  const { store, now } = asker.deps;
  const current = await settingsOf(store, asker.userId);
  let changed: string | undefined;
  if (change) {
    const next = await applyChange(asker, current, change);
    await store.putSettings(asker.userId, next.settings);
    changed = next.said;
  }
  return settingsMessage(await settingsOf(store, asker.userId), await store.activeMutes(asker.userId, now()), now(), changed);
}

async function applyChange(asker: Asker, current: UserSettings, change: SettingsChange): Promise<{ settings: UserSettings; said: string }> {
  if (change.key === 'quiet off') {
    const { quietHours: _dropped, ...rest } = current;
    return { settings: rest, said: 'Quiet hours are off.' };
  }
  if (change.key === 'quiet') {
    const timezone = change.timezone ?? (await slackTimeZone(asker)) ?? 'UTC';
    return {
      settings: { ...current, quietHours: { from: change.from, to: change.to, timezone } },
      said: `Quiet hours set to ${change.from}–${change.to} ${timezone}; messages in that time wait until it ends.`,
    };
  }
  const said = change.key === 'completed'
    ? `I will ${change.on ? 'now also' : 'no longer'} tell you when a workload of yours completes.`
    : change.key === 'tips'
      ? `I will ${change.on ? 'now' : 'no longer'} send you tips about saving your workloads' logs.`
      : `I will ${change.on ? 'now' : 'no longer'} warn you about workloads stuck in Pending or Initializing.`;
  return { settings: { ...current, [change.key]: change.on }, said };
}

/** The time zone in the person's Slack profile, when Slack says and Intl knows it. */
async function slackTimeZone(asker: Asker): Promise<string | undefined> {
  try {
    const result = await asker.client.users.info({ user: asker.userId });
    const tz = result.user?.tz;
    if (!tz) return undefined;
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    return undefined;
  }
}
