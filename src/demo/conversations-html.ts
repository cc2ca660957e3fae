/**
 * The simulated workspace as the demo page shows it: one pane per conversation the bot posted
 * into (DMs first, then channels), each message with the bot's name, its time and its blocks.
 * Pure: reads the workspace, returns HTML.
 */
import type { PostedMessage, SlackWorkspace } from '../sim/slack-workspace.js';
import { messageBodyHtml } from './blocks-html.js';
import { escapeHtml, type MrkdwnContext } from './mrkdwn-html.js';

export const BOT_DISPLAY_NAME = 'Run:ai Bot';

export interface ConversationView {
  id: string;
  /** "alice" for a DM, "#maintenance" for a channel. */
  title: string;
  kind: 'dm' | 'channel';
  messages: PostedMessage[];
}

export function conversationViews(workspace: SlackWorkspace): ConversationView[] {
  const views = workspace.conversations().map((channel): ConversationView => {
    const user = channel.user ? workspace.users.get(channel.user) : undefined;
    return {
      id: channel.id,
      title: channel.user ? (user?.real_name ?? user?.name ?? channel.user) : `#${channel.name}`,
      kind: channel.user ? 'dm' : 'channel',
      messages: workspace.conversation(channel.id),
    };
  });
  return views.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'dm' ? -1 : 1));
}

export function mrkdwnContextOf(workspace: SlackWorkspace): MrkdwnContext {
  return {
    userName: (id) => workspace.users.get(id)?.name,
    channelName: (id) => workspace.channels.get(id)?.name,
  };
}

/** "seconds.micros" → "09:41 UTC" (the page shows UTC so every viewer sees the same times). */
function timeOfTs(ts: string): string {
  const date = new Date(Number(ts.split('.')[0]) * 1000);
  return `${date.toISOString().slice(11, 16)} UTC`;
}

function messageHtml(message: PostedMessage, ctx: MrkdwnContext): string {
  const notes = [
    message.visibleTo ? '<span class="note">Only visible to you</span>' : '',
    message.edited ? '<span class="note">(edited)</span>' : '',
  ].join('');
  return [
    `<article class="message" data-ts="${escapeHtml(message.ts)}">`,
    '<div class="avatar" aria-hidden="true">R</div>',
    '<div class="message-main">',
    `<div class="message-meta"><span class="author">${escapeHtml(BOT_DISPLAY_NAME)}</span><span class="app-badge">APP</span><time>${escapeHtml(timeOfTs(message.ts))}</time>${notes}</div>`,
    `<div class="message-body">${messageBodyHtml(message, ctx)}</div>`,
    '</div>',
    '</article>',
  ].join('');
}

export function conversationHtml(view: ConversationView, ctx: MrkdwnContext): string {
  const label = view.kind === 'dm' ? `Direct message · ${escapeHtml(view.title)}` : escapeHtml(view.title);
  return [
    `<section class="conversation ${view.kind}" data-conversation="${escapeHtml(view.id)}">`,
    `<h2 class="conversation-title">${label}</h2>`,
    view.messages.map((m) => messageHtml(m, ctx)).join(''),
    '</section>',
  ].join('');
}

export function workspaceHtml(workspace: SlackWorkspace): string {
  const ctx = mrkdwnContextOf(workspace);
  const views = conversationViews(workspace);
  if (!views.length) return '<p class="empty">Waiting for the bot to post…</p>';
  return views.map((v) => conversationHtml(v, ctx)).join('');
}
