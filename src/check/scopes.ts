/**
 * The bot token's OAuth scopes (auth.test's x-oauth-scopes) against what the app needs. Pure.
 */
import { fail, pass, type CheckRow } from './report.js';

/** One row per required scope, so each missing one comes with its own fix. */
export function scopeRows(granted: readonly string[] | undefined, required: readonly string[]): CheckRow[] {
  if (!granted) {
    return [fail('Slack scopes', "Slack did not report the token's scopes (no x-oauth-scopes header); is SLACK_API_URL pointing at Slack?")];
  }
  const have = new Set(granted.map((s) => s.trim()));
  return required.map((scope) =>
    have.has(scope)
      ? pass(`Slack scope ${scope}`, 'granted')
      : fail(`Slack scope ${scope}`, `missing: add ${scope} under OAuth & Permissions → Scopes (Bot Token Scopes), then reinstall the app (or paste manifest.yml again)`));
}
