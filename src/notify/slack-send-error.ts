/** How a Slack call failed, as the outbox decides on it (slack/client.ts classifies Slack's answers). */
export class SlackSendError extends Error {
  constructor(
    message: string,
    /** permanent: retrying cannot help (channel_not_found, invalid_blocks, …). */
    readonly permanent: boolean,
    readonly retryAfterMs?: number,
    readonly slackError?: string,
  ) {
    super(message);
    this.name = 'SlackSendError';
  }
}
