/**
 * The payloads Slack sends an app, built the way real Slack shapes them: slash commands,
 * block_actions interactions, and Events API callbacks (always the full `event_callback`
 * wrapper: the JS client reads `payload.event.type`, slack-reference.md §1.3).
 * The same objects ride in Socket Mode envelopes and in HTTP-mode requests.
 */
import { randomUUID } from 'node:crypto';
import type { Json } from './slack-methods.js';

export interface Team {
  teamId: string;
  appId: string;
  botUserId: string;
}

export interface SlashCommandInput {
  user_id: string;
  text?: string;
  command?: string;
  channel_id?: string;
  channel_name?: string;
  user_name?: string;
}

export interface BlockActionInput {
  user_id: string;
  action_id: string;
  value?: string;
  block_id?: string;
  /** Where the button was: a message in this channel (with response_url), or the Home tab. */
  channel_id?: string;
  message_ts?: string;
  /** Text of the button; Slack echoes it in the action. */
  text?: string;
}

/** Slack's legacy verification token; Bolt ignores it, real payloads still carry it. */
const VERIFICATION_TOKEN = 'simulated-verification-token';

const triggerId = () => `${Date.now()}.${randomUUID().slice(0, 8)}`;

/** Every field is a string: HTTP mode posts them as a form. */
export function slashCommandPayload(team: Team, input: SlashCommandInput & { channel_id: string }, responseUrl: string): Record<string, string> {
  return {
    token: VERIFICATION_TOKEN,
    team_id: team.teamId,
    team_domain: 'simulated',
    channel_id: input.channel_id,
    channel_name: input.channel_name ?? (input.channel_id.startsWith('D') ? 'directmessage' : input.channel_id),
    user_id: input.user_id,
    user_name: input.user_name ?? input.user_id,
    command: input.command ?? '/runai',
    text: input.text ?? '',
    api_app_id: team.appId,
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: triggerId(),
  };
}

export function blockActionPayload(team: Team, input: BlockActionInput, responseUrl: string | undefined, now: Date): Json {
  const action = {
    type: 'button',
    action_id: input.action_id,
    block_id: input.block_id ?? 'actions',
    text: { type: 'plain_text', text: input.text ?? input.action_id, emoji: true },
    ...(input.value !== undefined ? { value: input.value } : {}),
    action_ts: (now.getTime() / 1000).toFixed(6),
  };
  const common = {
    type: 'block_actions',
    user: { id: input.user_id, username: input.user_id, name: input.user_id, team_id: team.teamId },
    api_app_id: team.appId,
    token: VERIFICATION_TOKEN,
    trigger_id: triggerId(),
    team: { id: team.teamId, domain: 'simulated' },
    enterprise: null,
    is_enterprise_install: false,
    state: { values: {} },
    actions: [action],
  };
  if (input.channel_id === undefined) {
    // A Home tab button: no channel, no message, and no response_url (§1.5).
    const viewId = `V${input.user_id.replace(/^[UW]/, '')}`;
    return { ...common, container: { type: 'view', view_id: viewId }, view: { id: viewId, type: 'home', team_id: team.teamId, app_id: team.appId } };
  }
  const messageTs = input.message_ts ?? action.action_ts;
  return {
    ...common,
    container: { type: 'message', message_ts: messageTs, channel_id: input.channel_id, is_ephemeral: false },
    channel: { id: input.channel_id, name: input.channel_id.startsWith('D') ? 'directmessage' : input.channel_id },
    message: { type: 'message', ts: messageTs, user: team.botUserId },
    response_url: responseUrl,
  };
}

export function eventCallbackPayload(team: Team, event: Json, now: Date): Json {
  const eventTs = (now.getTime() / 1000).toFixed(6);
  return {
    token: VERIFICATION_TOKEN,
    team_id: team.teamId,
    api_app_id: team.appId,
    event: { event_ts: eventTs, ...event },
    type: 'event_callback',
    event_id: `Ev${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`,
    event_time: Math.floor(now.getTime() / 1000),
    authorizations: [{ enterprise_id: null, team_id: team.teamId, user_id: team.botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}
