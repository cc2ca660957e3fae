/**
 * Requests as Slack sends them to an app in HTTP mode, signed with the signing secret
 * (slack-reference.md §1.4: `v0=` HMAC-SHA256 over `v0:{timestamp}:{raw body}`), or signed
 * badly on purpose, to show that the receiver refuses them.
 */
import { createHmac } from 'node:crypto';
import type { Json } from './slack-methods.js';

/** What to post: slash command fields (form), an interaction (`payload=` form), or an event (JSON). */
export type SignedBody = { command: Record<string, string> } | { interaction: Json } | { event: Json };

export interface SigningOptions {
  /** Unix seconds; defaults to now. Bolt refuses timestamps more than 5 minutes old. */
  timestamp?: number;
  /** Change the body after signing it, as a man in the middle would. */
  tamper?: boolean;
  /** Send no signature headers at all. */
  unsigned?: boolean;
}

export interface SignedResponse {
  status: number;
  body: string;
  headers: Headers;
}

/** The `X-Slack-Signature` value for a raw body. */
export function slackSignature(signingSecret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** The raw body and its exact content type (Bolt compares the type as a whole string). */
export function encodeBody(body: SignedBody): { raw: string; contentType: string } {
  if ('event' in body) return { raw: JSON.stringify(body.event), contentType: 'application/json' };
  const fields = 'command' in body ? body.command : { payload: JSON.stringify(body.interaction) };
  return { raw: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' };
}

export async function signedRequest(url: string, body: SignedBody, signingSecret: string, options: SigningOptions = {}): Promise<SignedResponse> {
  const { raw, contentType } = encodeBody(body);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (!options.unsigned) {
    headers['x-slack-request-timestamp'] = String(timestamp);
    headers['x-slack-signature'] = slackSignature(signingSecret, timestamp, raw);
  }
  const sent = options.tamper ? tamperWith(raw, contentType) : raw;
  const response = await fetch(url, { method: 'POST', headers, body: sent });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** The same request with one more field: still well-formed, no longer what was signed. */
function tamperWith(raw: string, contentType: string): string {
  if (contentType === 'application/json') return `${raw.slice(0, -1)},"tampered":true}`;
  return `${raw}&tampered=true`;
}
