/**
 * What each person wants to be told, set with `/runai settings`, read from the store. What the
 * settings mean (defaults, quiet hours) is delivery/preferences.ts.
 */
import type { PreferenceStore } from '../store/port.js';
import type { UserSettings } from '../model.js';
import { DEFAULT_SETTINGS } from '../delivery/preferences.js';

export type { UserSettings };
export { DEFAULT_SETTINGS, isValidHhmm, quietUntil } from '../delivery/preferences.js';

export async function settingsOf(store: Pick<PreferenceStore, 'getSettings'>, userId: string): Promise<UserSettings> {
  return { ...DEFAULT_SETTINGS, ...((await store.getSettings<Partial<UserSettings>>(userId)) ?? {}) };
}
