/** The wait between attempts to reach Slack, and what readiness and the logs say about a failure. */
import { backoffDelay, SLACK_BACKOFF } from '../../src/lib/backoff.js';
import { describeAuthError, describeSocketError } from '../../src/slack/connection.js';
import { scrubSecrets } from '../../src/ops/startup.js';

describe('reconnect backoff', () => {
  it('doubles from 1 s, is capped at a minute, and is jittered between half and all of it', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 1))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 0))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(7, 1)).toBe(SLACK_BACKOFF.maxMs);
    expect(backoffDelay(1_000, 1)).toBe(60_000);
    expect(backoffDelay(1_000, 0)).toBe(30_000);
    expect(backoffDelay(3, 0.5)).toBe(3000);
  });
});

describe('connection problems in words', () => {
  it('names the token and the fix when Slack refuses it, and only the status when Slack is down', () => {
    const refused = { code: 'slack_webapi_platform_error', data: { error: 'invalid_auth' } };
    expect(describeAuthError(refused)).toMatch(/^Slack refused the bot token \(SLACK_BOT_TOKEN\): invalid_auth\. Copy the Bot User OAuth Token/);
    expect(describeSocketError(refused)).toMatch(/^Slack refused the app-level token \(SLACK_APP_TOKEN\): invalid_auth\. .*connections:write/);
    expect(describeAuthError({ code: 'slack_webapi_http_error', statusCode: 503 })).toBe('cannot reach Slack to check the bot token: Slack answered HTTP 503; retrying');
    expect(describeSocketError({ code: 'slack_webapi_request_error', original: { code: 'ECONNREFUSED' } })).toBe('Socket Mode not connected: request failed (ECONNREFUSED); retrying');
    expect(describeSocketError(new Error('cannot open wss://wss-primary.slack.com/link/?ticket=abc-123&app_id=A1'))).toBe('Socket Mode not connected: cannot open <url>; retrying');
  });

  it('cuts tokens and Socket Mode tickets out of error text', () => {
    expect(scrubSecrets('auth with xoxb-123-456-abc failed; app xapp-1-A1-2-ff')).toBe('auth with xox?-[REDACTED] failed; app xapp-[REDACTED]');
    expect(scrubSecrets('Unexpected response from wss://wss.slack.com/link/?ticket=abc&app_id=A1 (503)')).toBe('Unexpected response from <url with ticket> (503)');
  });
});
