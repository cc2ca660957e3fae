/**
 * What a visitor of the demo page does, delivered to the bot the way Slack would deliver it:
 * the page asks, the simulated Slack sends a slash command, a block_actions interaction or an
 * app_home_opened event over the bot's Socket Mode connection, and the bot answers through the
 * response_url or the Web API like it does in a real workspace. Nothing here calls the bot's
 * handlers.
 *
 * The page is untrusted input: a request names a person of the demo, a conversation that person
 * is in, and a button that is really on a message they can see (or on their Home tab), as the
 * Slack client only lets people click what is in front of them.
 */
import type { SlackSimulator } from '../sim/slack.js';
import type { PostedMessage } from '../sim/slack-workspace.js';
import { conversationsOf } from './conversations-html.js';

export type VisitorRequest =
  | { kind: 'command'; user: string; channel: string; text: string }
  | { kind: 'action'; user: string; channel?: string; ts?: string; actionId: string; value?: string }
  | { kind: 'home'; user: string }
  | { kind: 'next' };

export type VisitorResult = { ok: true } | { ok: false; status: number; error: string };

/** Slack's own cap on what follows a slash command is not documented; this is plenty for /runai. */
export const MAX_COMMAND_TEXT = 2000;
const COMMAND = '/runai';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

/** The request a POST to `/act/<kind>` with this JSON body stands for, or why it stands for none. Pure. */
export function parseVisitorRequest(kind: string, body: unknown): VisitorRequest | { error: string } {
  if (kind === 'next') return { kind: 'next' };
  if (!isObject(body) || typeof body.user !== 'string') return { error: 'a JSON object with "user" is expected' };
  const { user } = body;
  switch (kind) {
    case 'command': {
      if (typeof body.channel !== 'string' || typeof body.text !== 'string') return { error: '"channel" and "text" are expected' };
      return { kind, user, channel: body.channel, text: body.text };
    }
    case 'action': {
      if (typeof body.actionId !== 'string' || !optionalString(body.channel) || !optionalString(body.ts) || !optionalString(body.value)) {
        return { error: '"actionId" is expected; "channel", "ts" and "value" are strings when given' };
      }
      return { kind, user, actionId: body.actionId, channel: body.channel, ts: body.ts, value: body.value };
    }
    case 'home':
      return { kind, user };
    default:
      return { error: `unknown action "${kind}"` };
  }
}

/** Splits "/runai status x" into the command's text; anything else is not a command the bot has. */
export function slashCommandText(typed: string): string | undefined {
  const trimmed = typed.trim();
  if (trimmed !== COMMAND && !trimmed.startsWith(`${COMMAND} `)) return undefined;
  return trimmed.slice(COMMAND.length).trim();
}

interface FoundButton {
  blockId?: string;
  text?: string;
}

/** The button with this action_id (and value) among blocks, as Slack would report its click. */
export function findButton(blocks: unknown, actionId: string, value: string | undefined): FoundButton | undefined {
  if (!Array.isArray(blocks)) return undefined;
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const elements = [...(Array.isArray(block.elements) ? block.elements : []), block.accessory];
    for (const element of elements) {
      if (!isObject(element) || element.type !== 'button' || element.action_id !== actionId) continue;
      if ((typeof element.value === 'string' ? element.value : undefined) !== value) continue;
      const text = isObject(element.text) && typeof element.text.text === 'string' ? element.text.text : undefined;
      return { blockId: typeof block.block_id === 'string' ? block.block_id : undefined, text };
    }
  }
  return undefined;
}

/** The page's `act`: a POST's kind and body, checked, then delivered as Slack would. */
export function visitorActions(ctx: VisitorContext): (kind: string, body: unknown) => Promise<VisitorResult> {
  return async (kind, body) => {
    const request = parseVisitorRequest(kind, body);
    if ('error' in request) return { ok: false, status: 400, error: request.error };
    return act(ctx, request);
  };
}

export interface VisitorContext {
  slack: SlackSimulator;
  /** The demo's people: the page may act only as one of them. */
  people: ReadonlySet<string>;
  playNext(): void;
}

function refuse(status: number, error: string): VisitorResult {
  return { ok: false, status, error };
}

/** Delivers one visitor request through the simulated Slack; resolves once the bot acked it. */
export async function act(ctx: VisitorContext, request: VisitorRequest): Promise<VisitorResult> {
  if (request.kind === 'next') {
    ctx.playNext();
    return { ok: true };
  }
  const { slack } = ctx;
  if (!ctx.people.has(request.user)) return refuse(403, 'not a person of this demo');
  const visible = conversationsOf(slack.workspace, request.user);
  try {
    switch (request.kind) {
      case 'command': {
        const conversation = visible.find((c) => c.id === request.channel);
        if (!conversation) return refuse(403, 'not a conversation this person is in');
        const text = slashCommandText(request.text);
        if (text === undefined) return refuse(400, `only ${COMMAND} commands reach the bot; try "${COMMAND} help"`);
        if (text.length > MAX_COMMAND_TEXT) return refuse(400, 'that command is too long');
        const channel = slack.workspace.channels.get(conversation.id);
        await slack.sendSlashCommand({
          user_id: request.user,
          user_name: slack.workspace.users.get(request.user)?.name,
          channel_id: conversation.id,
          channel_name: channel?.user ? 'directmessage' : channel?.name,
          command: COMMAND,
          text,
        });
        return { ok: true };
      }
      case 'action': {
        let button: FoundButton | undefined;
        if (request.channel === undefined) {
          button = findButton(slack.workspace.homeViews.get(request.user)?.view.blocks, request.actionId, request.value);
        } else {
          const conversation = visible.find((c) => c.id === request.channel);
          const message: PostedMessage | undefined = conversation?.messages.find((m) => m.ts === request.ts);
          button = message && findButton(message.blocks, request.actionId, request.value);
        }
        if (!button) return refuse(404, 'no such button in front of this person');
        await slack.sendBlockAction({
          user_id: request.user,
          action_id: request.actionId,
          value: request.value,
          block_id: button.blockId,
          text: button.text,
          channel_id: request.channel,
          message_ts: request.ts,
        });
        return { ok: true };
      }
      case 'home':
        await slack.openHomeTab(request.user);
        return { ok: true };
    }
  } catch (err) {
    // Slack tells the person the app did not answer; so does the page.
    return refuse(502, `the bot did not answer: ${(err as Error).message}`);
  }
}
