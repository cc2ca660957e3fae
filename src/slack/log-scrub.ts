/**
 * What Bolt and the Slack SDKs write to their logger is not ours to shape: at debug they log
 * whole envelopes (the legacy verification token, response_url, trigger_id), the Socket Mode
 * URL with its one-use ticket, and request options. Every line passes through here before it
 * reaches our logs. Pure.
 *
 * Hand-rolled: the generic redaction in triage/ is tuned for workload logs; these few shapes
 * are specific to Slack's wire format (JSON, form-encoded and URL forms of the same fields).
 */

const REDACTED = '[redacted]';

const RULES: ReadonlyArray<[RegExp, string]> = [
  // Slack tokens of every kind: bot, user, app-level, refresh, configuration, workflow.
  [/\bxox[a-z]-[A-Za-z0-9-]+/g, `xox…-${REDACTED}`],
  [/\bxapp-[A-Za-z0-9-]+/g, `xapp-${REDACTED}`],
  // Bearer credentials in logged request headers.
  [/(\bBearer\s+)[^\s"',}]+/gi, `$1${REDACTED}`],
  // Any URL with a query that carries a ticket (Socket Mode) or a token: drop the whole query.
  [/(\b(?:wss?|https?):\/\/[^\s"'?]+)\?[^\s"']*\b(?:ticket|token)=[^\s"']*/gi, `$1?${REDACTED}`],
  // response_url and its Slack host: a bearer capability to post as the app for 30 minutes.
  [/\bhttps?:\/\/hooks\.slack\.com\/[^\s"',}]*/gi, `https://hooks.slack.com/${REDACTED}`],
  [/(\\?"(?:response_url|token|trigger_id)\\?"\s*:\s*\\?")(?:[^"\\]|\\[^"])*/g, `$1${REDACTED}`],
  [/(\b(?:response_url|token|trigger_id)=)[^&\s"']*/g, `$1${REDACTED}`],
  [/(\b(?:response_url|token|trigger_id):\s*')[^']*/g, `$1${REDACTED}`],
];

export function scrubSlackLogText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

/** One log line from the SDK's arguments: objects as JSON (String() would say [object Object]). */
export function slackLogLine(args: readonly unknown[]): string {
  return scrubSlackLogText(args.map(asText).join(' '));
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.stack ?? value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
