/**
 * The simulated Slack for tests (src/sim/slack.ts), plus what most integration tests repeat:
 * a workspace with two people and the options that point a real Bolt app at the simulation.
 */
import { LogLevel, type AppOptions } from '@slack/bolt';
import { SlackSimulator, type SlackSimulatorOptions, type SlackUser } from '../../src/sim/slack.js';

export * from '../../src/sim/slack.js';
export { messageViolation, viewViolation, blockProblems, LIMITS } from '../../src/sim/slack-block-rules.js';
export { signedRequest, slackSignature, type SignedBody, type SignedResponse } from '../../src/sim/slack-signing.js';

export const ALICE: SlackUser = { id: 'U0ALICE', name: 'alice', email: 'alice@example.org', real_name: 'Alice Example' };
export const BOB: SlackUser = { id: 'U0BOB', name: 'bob', email: 'bob@other.org', real_name: 'Bob Other' };

/** A running simulation whose workspace has `users` (by default Alice and Bob). */
export async function startFakeSlack(options: SlackSimulatorOptions & { users?: SlackUser[] } = {}): Promise<SlackSimulator> {
  const slack = await SlackSimulator.start(options);
  for (const user of options.users ?? [ALICE, BOB]) slack.addUser(user);
  return slack;
}

/**
 * Bolt options for Socket Mode against the simulation. `retryConfig` is always explicit
 * (slack-reference.md §1.2: Socket Mode otherwise leaks a 100-retry policy into listeners).
 */
export function socketModeOptions(slack: SlackSimulator, retries = 0): AppOptions {
  return {
    token: slack.botToken,
    appToken: slack.appToken,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries } },
  };
}

/** Bolt options for HTTP mode: its Web API calls go to the simulation; Slack's requests come from `signedRequest`. */
export function httpModeOptions(slack: SlackSimulator, signingSecret: string, retries = 0): AppOptions {
  return {
    token: slack.botToken,
    signingSecret,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries } },
  };
}
