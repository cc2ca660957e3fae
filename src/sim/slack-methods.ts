/**
 * The Web API methods the simulated Slack answers: one table, method name → which token it
 * takes and what it answers. Shapes follow docs.slack.dev/reference/methods/<name>, trimmed to
 * the fields a client reads.
 */
import { messageViolation, viewViolation, type BlockKitViolation } from './slack-block-rules.js';
import type { SlackChannel, SlackUser, SlackWorkspace } from './slack-workspace.js';
import type { SlackFiles } from './slack-files.js';

export type Json = Record<string, unknown>;
export type TokenKind = 'bot' | 'app';

export interface MethodContext {
  /** Parsed arguments, with `blocks`/`view` already JSON-decoded. */
  args: Json;
  workspace: SlackWorkspace;
  now: Date;
  appId: string;
  botId: string;
  /** The bot token's scopes (the ones x-oauth-scopes reports). */
  scopes: readonly string[];
  /** Issues a one-use Socket Mode ticket and returns its ws:// URL. */
  openSocketUrl(): string;
  /** Files uploaded through the external upload flow (slack-files.ts). */
  files: SlackFiles;
  /** The upload URL for a token handed out by files.getUploadURLExternal. */
  uploadUrl(token: string): string;
}

export interface MethodSpec {
  token: TokenKind;
  /** The bot scope the method needs; without it Slack answers missing_scope (needed, provided). */
  scope?: string;
  answer(ctx: MethodContext): Json;
}

const fail = (error: string, extra: Json = {}): Json => ({ ok: false, error, ...extra });
const violation = (v: BlockKitViolation): Json =>
  fail(v.error, v.messages.length > 0 ? { response_metadata: { messages: v.messages } } : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** conversations.info's channel object, trimmed; DMs are outside what the app asks about. */
function channelObject(channel: SlackChannel, botUserId: string): Json {
  const isPrivate = channel.is_private ?? false;
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !isPrivate,
    is_group: false,
    is_im: false,
    is_private: isPrivate,
    is_archived: false,
    is_shared: channel.is_shared ?? (channel.is_ext_shared || channel.is_org_shared || false),
    is_ext_shared: channel.is_ext_shared ?? false,
    is_org_shared: channel.is_org_shared ?? false,
    is_pending_ext_shared: channel.is_pending_ext_shared ?? false,
    is_member: channel.members.includes(botUserId),
  };
}

function userObject(user: SlackUser, teamId: string): Json {
  return {
    id: user.id,
    team_id: user.team_id ?? teamId,
    name: user.name,
    real_name: user.real_name ?? user.name,
    deleted: user.deleted ?? false,
    is_bot: user.is_bot ?? false,
    is_restricted: user.is_restricted ?? false,
    is_ultra_restricted: user.is_ultra_restricted ?? false,
    // Slack sends is_stranger only for people from another organization.
    ...(user.is_stranger ? { is_stranger: true } : {}),
    tz: user.tz ?? 'Europe/Berlin',
    profile: {
      real_name: user.real_name ?? user.name,
      display_name: user.name,
      ...(user.email ? { email: user.email } : {}),
    },
  };
}

/** Cursor pagination as Slack does it: an opaque next_cursor, empty on the last page. */
function page<T>(items: T[], args: Json): { items: T[]; next_cursor: string } {
  const limit = Number(args.limit) > 0 ? Number(args.limit) : 100;
  const start = args.cursor ? Number(Buffer.from(str(args.cursor), 'base64').toString().replace('offset:', '')) : 0;
  const end = start + limit;
  return {
    items: items.slice(start, end),
    next_cursor: end < items.length ? Buffer.from(`offset:${end}`).toString('base64') : '',
  };
}

/**
 * Where a bot may post, as Slack answers chat.postMessage and chat.postEphemeral
 * (docs.slack.dev/reference/methods/chat.postMessage, chat.postEphemeral: errors
 * channel_not_found, not_in_channel): a user ID means the bot's DM with that person, always
 * allowed; a private channel the bot is not in does not exist for it; a public channel it is
 * not in refuses the post until someone invites it, unless the token has chat:write.public
 * (docs.slack.dev/reference/scopes/chat:write.public, which names chat.postMessage only).
 */
function membershipRefusal(ctx: MethodContext, channel: SlackChannel, publicWithoutJoining: boolean): Json | undefined {
  if (channel.user || channel.members.includes(ctx.workspace.botUserId)) return undefined;
  if (channel.is_private) return fail('channel_not_found');
  if (publicWithoutJoining && ctx.scopes.includes('chat:write.public')) return undefined;
  return fail('not_in_channel');
}

/**
 * Checks shared by the three chat methods that carry a message body. chat.update lists no
 * not_in_channel (docs.slack.dev/reference/methods/chat.update): it edits a message the bot
 * posted, so only a private channel the bot has left is hidden from it.
 */
function messageTarget(ctx: MethodContext, membership: 'post' | 'ephemeral' | 'update'): { channel?: SlackChannel; error?: Json } {
  const channel = ctx.workspace.resolveChannel(str(ctx.args.channel));
  if (!channel) return { error: fail('channel_not_found') };
  const refused = membership === 'update'
    ? (ctx.workspace.visibleChannel(channel.id) ? undefined : fail('channel_not_found'))
    : membershipRefusal(ctx, channel, membership === 'post');
  if (refused) return { error: refused };
  const v = messageViolation(ctx.args);
  if (v) return { error: violation(v) };
  return { channel };
}

/**
 * The thread a post replies in. `thread_ts` must name a message of that conversation: Slack
 * answers thread_not_found when it does not, e.g. when the parent was deleted (bolt-js #2307,
 * the maintainers' answer). A reply to a reply joins its parent's thread, as in Slack's clients.
 */
function threadOf(ctx: MethodContext, channel: SlackChannel): { ts?: string; error?: Json } {
  const wanted = str(ctx.args.thread_ts);
  if (!wanted) return {};
  const parent = ctx.workspace.find(channel.id, wanted);
  if (!parent || parent.visibleTo) return { error: fail('thread_not_found') };
  return { ts: parent.thread_ts ?? parent.ts };
}

function blocksOf(args: Json): unknown[] | undefined {
  return Array.isArray(args.blocks) ? args.blocks : undefined;
}

export const METHODS: Record<string, MethodSpec> = {
  'auth.test': {
    token: 'bot',
    answer: ({ workspace, botId }) => ({
      ok: true,
      url: 'https://simulated.slack.com/',
      team: 'Simulated workspace',
      user: 'runai-bot',
      team_id: workspace.teamId,
      user_id: workspace.botUserId,
      bot_id: botId,
      is_enterprise_install: false,
    }),
  },

  'apps.connections.open': {
    token: 'app',
    answer: ({ openSocketUrl }) => ({ ok: true, url: openSocketUrl() }),
  },

  'users.lookupByEmail': {
    token: 'bot',
    answer: ({ args, workspace }) => {
      const user = workspace.userByEmail(str(args.email));
      return user ? { ok: true, user: userObject(user, workspace.teamId) } : fail('users_not_found');
    },
  },

  'users.info': {
    token: 'bot',
    answer: ({ args, workspace }) => {
      const user = workspace.users.get(str(args.user));
      return user ? { ok: true, user: userObject(user, workspace.teamId) } : fail('user_not_found');
    },
  },

  'conversations.open': {
    token: 'bot',
    answer: ({ args, workspace }) => {
      const users = str(args.users).split(',').map((u) => u.trim()).filter(Boolean);
      if (users.length === 0) return fail('users_list_not_supplied');
      // The app only opens 1:1 DMs; group DMs (mpim) are outside what this simulation models.
      if (users.length > 1) return fail('not_supported_in_simulation');
      const user = workspace.users.get(users[0]);
      if (!user || user.deleted) return fail('user_not_found');
      return { ok: true, channel: { id: workspace.dmWith(user.id).id } };
    },
  },

  'conversations.info': {
    token: 'bot',
    answer: ({ args, workspace }) => {
      const channel = workspace.visibleChannel(str(args.channel));
      return channel && !channel.user ? { ok: true, channel: channelObject(channel, workspace.botUserId) } : fail('channel_not_found');
    },
  },

  'conversations.members': {
    token: 'bot',
    answer: ({ args, workspace }) => {
      const channel = workspace.visibleChannel(str(args.channel));
      if (!channel) return fail('channel_not_found');
      const { items, next_cursor } = page(channel.members, args);
      return { ok: true, members: items, response_metadata: { next_cursor } };
    },
  },

  'usergroups.users.list': {
    token: 'bot',
    answer: ({ args, workspace }) => {
      const members = workspace.userGroups.get(str(args.usergroup));
      return members ? { ok: true, users: [...members] } : fail('no_such_subteam');
    },
  },

  'chat.postMessage': {
    token: 'bot',
    answer: (ctx) => {
      const { channel, error } = messageTarget(ctx, 'post');
      if (error) return error;
      const thread = threadOf(ctx, channel!);
      if (thread.error) return thread.error;
      const broadcast = thread.ts !== undefined && (ctx.args.reply_broadcast === true || ctx.args.reply_broadcast === 'true');
      const message = ctx.workspace.post({
        channel: channel!.id,
        ts: ctx.workspace.nextTs(ctx.now),
        text: str(ctx.args.text),
        blocks: blocksOf(ctx.args),
        thread_ts: thread.ts,
        ...(broadcast ? { reply_broadcast: true } : {}),
        via: 'api',
      });
      return {
        ok: true,
        channel: message.channel,
        ts: message.ts,
        message: { type: 'message', user: ctx.workspace.botUserId, bot_id: ctx.botId, text: message.text, blocks: message.blocks, ts: message.ts, ...(thread.ts ? { thread_ts: thread.ts } : {}) },
      };
    },
  },

  'chat.postEphemeral': {
    token: 'bot',
    answer: (ctx) => {
      const { channel, error } = messageTarget(ctx, 'ephemeral');
      if (error) return error;
      const user = str(ctx.args.user);
      if (!ctx.workspace.users.has(user)) return fail('user_not_found');
      if (!channel!.members.includes(user)) return fail('user_not_in_channel');
      const message = ctx.workspace.post({
        channel: channel!.id,
        ts: ctx.workspace.nextTs(ctx.now),
        text: str(ctx.args.text),
        blocks: blocksOf(ctx.args),
        visibleTo: user,
        via: 'api',
      });
      return { ok: true, message_ts: message.ts };
    },
  },

  'chat.update': {
    token: 'bot',
    answer: (ctx) => {
      const { channel, error } = messageTarget(ctx, 'update');
      if (error) return error;
      const message = ctx.workspace.find(channel!.id, str(ctx.args.ts));
      if (!message) return fail('message_not_found');
      // An app edits only what it posted (docs.slack.dev/reference/methods/chat.update: cant_update_message).
      if (message.visibleTo || (message.author !== undefined && message.author !== ctx.workspace.botUserId)) return fail('cant_update_message');
      message.text = str(ctx.args.text);
      if (ctx.args.blocks !== undefined) message.blocks = blocksOf(ctx.args);
      message.edited = true;
      return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
    },
  },

  'files.getUploadURLExternal': {
    token: 'bot',
    scope: 'files:write',
    answer: ({ args, files, uploadUrl }) => {
      const filename = str(args.filename);
      const length = Number(args.length);
      // The docs: missing_argument "typically only occurs when the length provided is 0".
      if (!filename || !Number.isInteger(length) || length <= 0) return fail('missing_argument');
      const { file, token } = files.reserve(filename, length);
      return { ok: true, upload_url: uploadUrl(token), file_id: file.id };
    },
  },

  'files.completeUploadExternal': {
    token: 'bot',
    scope: 'files:write',
    answer: (ctx) => {
      const list = ctx.args.files;
      if (!Array.isArray(list) || !list.length || list.some((f) => typeof f !== 'object' || f === null || typeof (f as Json).id !== 'string')) {
        return fail('invalid_arguments');
      }
      const entries = list as Array<{ id: string; title?: unknown }>;
      const found = entries.map((f) => ctx.files.get(f.id));
      // Never handed out, already completed (it may be called once), or its bytes never arrived.
      if (found.some((f) => !f || f.completed || f.bytes === undefined)) return fail('file_not_found');
      let channel: SlackChannel | undefined;
      const channelId = str(ctx.args.channel_id);
      if (channelId) {
        channel = ctx.workspace.resolveChannel(channelId);
        if (!channel) return fail('channel_not_found');
        const refused = membershipRefusal(ctx, channel, false);
        if (refused) return refused;
      }
      const comment = str(ctx.args.initial_comment);
      const ts = channel ? ctx.workspace.nextTs(ctx.now) : undefined;
      for (const [i, file] of found.entries()) {
        Object.assign(file!, {
          completed: true,
          title: typeof entries[i].title === 'string' ? entries[i].title : file!.filename,
          ...(channel && { channel: channel.id, ts }),
          ...(comment && { initialComment: comment }),
        });
      }
      if (channel) ctx.workspace.post({ channel: channel.id, ts: ts!, text: comment, files: found.map((f) => f!.id), via: 'api' });
      return { ok: true, files: found.map((f) => ({ id: f!.id, title: f!.title })) };
    },
  },

  'views.publish': {
    token: 'bot',
    answer: ({ args, workspace, now, appId }) => {
      const user = str(args.user_id);
      if (!workspace.users.has(user)) return fail('user_not_found');
      const v = viewViolation(args.view);
      if (v) return violation(v);
      const view = args.view as Json;
      if (view.type !== 'home') return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] views.publish only takes type home [json-pointer:/view/type]'] } });
      workspace.homeViews.set(user, { user, view, publishedAt: now });
      return { ok: true, view: { id: `V${user.replace(/^[UW]/, '')}`, team_id: workspace.teamId, app_id: appId, ...view } };
    },
  },
};
