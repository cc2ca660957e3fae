/**
 * What the demo page shows at this moment: the rendered conversations and one status line,
 * with a version that moves only when one of them changed (so the server pushes only news).
 */
import { workspaceHtml } from './conversations-html.js';
import type { PageState } from './page-server.js';
import type { Demo } from './run.js';

export function statusLine(progress: ReturnType<Demo['progress']>, messages: number): string {
  if (progress.done) return `Scenario finished: ${messages} message${messages === 1 ? '' : 's'} posted. Press Ctrl+C in the terminal to stop.`;
  if (progress.current) return `Step ${progress.played + 1}/${progress.total}: ${progress.current}`;
  return `All ${progress.total} steps played; waiting for the bot to finish…`;
}

export function pageStateOf(demo: Pick<Demo, 'slack' | 'progress'>): () => PageState {
  let version = 0;
  let lastKey = '';
  return () => {
    const progress = demo.progress();
    const messages = demo.slack.workspace.conversations().reduce((n, c) => n + demo.slack.workspace.conversation(c.id).length, 0);
    const status = statusLine(progress, messages);
    // Every post, update and response_url reply is a recorded call or response.
    const key = `${demo.slack.calls.length}|${demo.slack.responses.length}|${status}`;
    if (key !== lastKey) {
      lastKey = key;
      version++;
    }
    return { version, html: workspaceHtml(demo.slack.workspace), status, done: progress.done };
  };
}
