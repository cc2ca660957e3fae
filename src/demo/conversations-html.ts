/**
 * The simulated workspace as the demo page shows it: one pane per conversation, each message
 * with the bot's name, its time and its blocks; and a person's Home tab as the bot last
 * published it. A person sees their own DM with the bot, the channels they are in, and only
 * the ephemeral replies meant for them. A thread's replies are shown under their root, as
 * Slack's thread view would list them (the page has no side panel). Reads the workspace,
 * returns HTML.
 */
import type { PostedMessage, SlackChannel, SlackWorkspace } from '../sim/slack-workspace.js';
import { blockHtml, messageBodyHtml } from './blocks-html.js';
import { escapeHtml, type MrkdwnContext } from './mrkdwn-html.js';

export const BOT_DISPLAY_NAME = 'Run:ai Bot';

export interface ConversationView {
  id: string;
  /** "Run:ai Bot" for the DM with the bot, "#maintenance" for a channel. */
  title: string;
  kind: 'dm' | 'channel';
  messages: PostedMessage[];
}

/**
 * What `viewer` has in their sidebar: the bot's DM first (even before the bot wrote: it is
 * where they type), then the channels they are in. Replies only someone else may see are left out.
 */
export function conversationsOf(workspace: SlackWorkspace, viewer: string): ConversationView[] {
  const channels = [...workspace.channels.values()].filter((c) => !c.user && c.members.includes(viewer));
  // dmWith creates the DM on first use, as Slack has one for every person who can open the app.
  return [workspace.dmWith(viewer), ...channels].map((channel: SlackChannel): ConversationView => ({
    id: channel.id,
    title: channel.user ? BOT_DISPLAY_NAME : `#${channel.name}`,
    kind: channel.user ? 'dm' : 'channel',
    messages: workspace.conversation(channel.id).filter((m) => m.visibleTo === undefined || m.visibleTo === viewer),
  }));
}

/** The viewer's Home tab as last published, or a note that the bot has not published one yet. */
export function homeHtml(workspace: SlackWorkspace, viewer: string, ctx: MrkdwnContext = mrkdwnContextOf(workspace)): string {
  const published = workspace.homeViews.get(viewer);
  const blocks = published?.view.blocks;
  if (!Array.isArray(blocks)) return '<p class="empty">The bot has not published a Home tab for you yet.</p>';
  return `<section class="home" data-home="${escapeHtml(viewer)}">${blocks.map((b) => blockHtml(b, ctx)).join('')}</section>`;
}

export function mrkdwnContextOf(workspace: SlackWorkspace, now?: Date): MrkdwnContext {
  return {
    now,
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
    `<article class="message${message.visibleTo ? ' ephemeral' : ''}" data-ts="${escapeHtml(message.ts)}">`,
    '<div class="avatar" aria-hidden="true">R</div>',
    '<div class="message-main">',
    `<div class="message-meta"><span class="author">${escapeHtml(BOT_DISPLAY_NAME)}</span><span class="app-badge">APP</span><time>${escapeHtml(timeOfTs(message.ts))}</time>${notes}</div>`,
    `<div class="message-body">${messageBodyHtml(message, ctx)}</div>`,
    '</div>',
    '</article>',
  ].join('');
}

export interface Thread {
  root: PostedMessage;
  /** Its replies in the order posted (Slack lists them oldest first). */
  replies: PostedMessage[];
}

/**
 * The conversation's top-level messages in order, each with the replies posted under it
 * (`thread_ts` naming it). A reply whose root is not shown here (someone else's ephemeral
 * message, or one outside the conversation) is kept at the top level, where it was posted,
 * rather than dropped. One pass over the messages, whatever their number.
 */
export function threadsOf(messages: readonly PostedMessage[]): Thread[] {
  const byTs = new Map<string, Thread>();
  const threads: Thread[] = [];
  for (const message of messages) {
    const root = message.thread_ts !== undefined && message.thread_ts !== message.ts ? byTs.get(message.thread_ts) : undefined;
    if (root) {
      root.replies.push(message);
      continue;
    }
    const thread = { root: message, replies: [] };
    threads.push(thread);
    byTs.set(message.ts, thread);
  }
  return threads;
}

function threadHtml(thread: Thread, ctx: MrkdwnContext): string {
  if (!thread.replies.length) return messageHtml(thread.root, ctx);
  const count = `${thread.replies.length} ${thread.replies.length === 1 ? 'reply' : 'replies'}`;
  return [
    messageHtml(thread.root, ctx),
    `<div class="thread" data-thread-ts="${escapeHtml(thread.root.ts)}">`,
    `<div class="thread-count">${count}</div>`,
    thread.replies.map((m) => messageHtml(m, ctx)).join(''),
    '</div>',
  ].join('');
}

export function conversationHtml(view: ConversationView, ctx: MrkdwnContext): string {
  const label = view.kind === 'dm' ? `Direct message · ${escapeHtml(view.title)}` : escapeHtml(view.title);
  const empty = view.messages.length ? '' : `<p class="empty">No messages here yet. Type <code>/runai help</code> below.</p>`;
  return [
    `<section class="conversation ${view.kind}" data-conversation="${escapeHtml(view.id)}">`,
    `<h2 class="conversation-title">${label}</h2>`,
    empty,
    threadsOf(view.messages).map((t) => threadHtml(t, ctx)).join(''),
    '</section>',
  ].join('');
}
