/**
 * The questions `check` asks the outside world: Slack (auth.test for the bot token's scopes,
 * apps.connections.open for the app-level token), the Kubernetes API server (discovery and
 * SelfSubjectAccessReviews) and the maintenance feed. Each answers in plain values; the
 * wording of the table is elsewhere.
 */
import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { LogLevel, WebClient } from '@slack/web-api';
import { describeKubeError } from '../cluster/kinds.js';
import { FeedFetcher, MemoryFeedCache } from '../maintenance/feed.js';
import { channelFacts } from '../slack/membership.js';
import type { ChannelAnswer } from './channels.js';
import type { FetchedFeed } from './maintenance.js';
import type { AccessAnswer, Permission } from './permissions.js';

export type SlackAnswer = { ok: true; scopes?: string[]; team?: string; user?: string } | { ok: false; error: string };

function slackError(err: unknown): string {
  const data = (err as { data?: { error?: string } }).data;
  return data?.error ?? (err instanceof Error ? err.message : String(err));
}

/** How check reaches Slack and the feed: the Slack API URL (SLACK_API_URL) and, behind a proxy, its fetch (lib/proxy.ts). */
export interface Reach {
  apiUrl?: string;
  fetch?: typeof fetch;
}

function slackClient(token: string, reach: Reach): WebClient {
  // No retries: a wrong token or URL should fail now, not after minutes of backoff.
  return new WebClient(token, { slackApiUrl: reach.apiUrl, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 }, timeout: 10_000, ...(reach.fetch ? { fetch: reach.fetch } : {}) });
}

export async function slackAuthTest(botToken: string, reach: Reach): Promise<SlackAnswer> {
  try {
    const result = await slackClient(botToken, reach).auth.test();
    return { ok: true, scopes: result.response_metadata?.scopes, team: result.team, user: result.user };
  } catch (err) {
    return { ok: false, error: slackError(err) };
  }
}

/** Socket Mode's first step: asking for a WebSocket URL proves the app-level token works. */
export async function slackSocketModeOpen(appToken: string, reach: Reach): Promise<SlackAnswer> {
  try {
    await slackClient(appToken, reach).apps.connections.open();
    return { ok: true };
  } catch (err) {
    return { ok: false, error: slackError(err) };
  }
}

/** conversations.info for each channel: what access decisions use, its name and whether the bot is in it. */
export async function slackChannelFacts(botToken: string, reach: Reach, channels: readonly string[]): Promise<Map<string, ChannelAnswer>> {
  const client = slackClient(botToken, reach);
  const answers = new Map<string, ChannelAnswer>();
  for (const channel of new Set(channels)) {
    try {
      const result = await client.conversations.info({ channel });
      const found = result.channel;
      answers.set(channel, found ? { facts: channelFacts(found), name: found.name, isMember: found.is_member === true } : { error: 'no channel in the answer' });
    } catch (err) {
      answers.set(channel, { error: slackError(err) });
    }
  }
  return answers;
}

export class AccessReviewError extends Error {}

export function accessReviewer(kubeConfig: KubeConfig): (p: Permission) => Promise<AccessAnswer> {
  const api = kubeConfig.makeApiClient(AuthorizationV1Api);
  return async (p) => {
    try {
      const review = await api.createSelfSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { verb: p.verb, group: p.group, resource: p.resource, subresource: p.subresource, namespace: p.namespace, name: p.name } },
        },
      });
      return { allowed: review.status?.allowed === true, reason: review.status?.reason || undefined };
    } catch (err) {
      throw new AccessReviewError(describeKubeError(err));
    }
  };
}

export async function fetchFeed(feed: string, now: () => Date, reach: Reach): Promise<FetchedFeed> {
  const result = await new FeedFetcher({ feed, cache: new MemoryFeedCache(), now, timeoutMs: 15_000, ...(reach.fetch ? { fetch: reach.fetch } : {}) }).refresh();
  if (result.error || result.body === undefined) return { error: result.error?.message ?? 'nothing fetched' };
  return { body: result.body };
}
