/**
 * What the demo page shows a person at this moment: their conversations and Home tab as HTML,
 * the people they can switch to, and one status line about the scenario, with a version that
 * moves only when something shown changed (so the server pushes only news).
 */
import { conversationHtml, conversationsOf, homeHtml, mrkdwnContextOf } from './conversations-html.js';
import type { Demo, DemoProgress } from './run.js';
import { ROLES } from './scenario.js';

export interface PageState {
  /** Changes whenever anything shown may have changed. */
  version: number;
  /** One line about the scenario's progress. */
  status: string;
  done: boolean;
  /** The scenario step that plays next: the page offers to play it now. */
  next?: { label: string; title: string };
  /** Whom this state shows the workspace to. */
  viewer: string;
  people: Array<{ id: string; name: string; role: string }>;
  /** The viewer's conversations, each as escaped HTML. */
  conversations: Array<{ id: string; title: string; kind: 'dm' | 'channel'; messages: number; html: string }>;
  /** The viewer's Home tab, as escaped HTML. */
  home: string;
}

export function statusLine(progress: DemoProgress, messages: number): string {
  if (progress.done) return `Scenario finished: ${messages} message${messages === 1 ? '' : 's'} posted. Keep trying /runai and the buttons; Ctrl+C in the terminal stops the demo.`;
  if (progress.current) return `Step ${progress.played + 1}/${progress.total}: ${progress.current}…`;
  if (progress.next) return `${progress.played}/${progress.total} events played. Next: ${progress.next.title}. Press ▶ to play it now.`;
  return `All ${progress.total} steps played; waiting for the bot to finish…`;
}

export interface PageStates {
  /** Cheap: tells whether anything changed since the last look. */
  version(): number;
  /** The page as `viewer` sees it (the first person when `viewer` is nobody of the demo). */
  state(viewer: string | undefined): PageState;
}

export function pageStateOf(demo: Pick<Demo, 'slack' | 'progress'> & Partial<Pick<Demo, 'now'>>): PageStates {
  let version = 0;
  let lastKey = '';
  const { workspace } = demo.slack;
  const people = [...workspace.users.values()].filter((u) => !u.is_bot);
  const messageCount = () => workspace.conversations().reduce((n, c) => n + workspace.conversation(c.id).length, 0);
  const versionNow = () => {
    const progress = demo.progress();
    // Every post, update, Home tab and response_url reply is a recorded call or response.
    const key = `${demo.slack.calls.length}|${demo.slack.responses.length}|${progress.played}|${progress.current ?? ''}|${progress.done}`;
    if (key !== lastKey) {
      lastKey = key;
      version++;
    }
    return version;
  };
  return {
    version: versionNow,
    state: (wanted) => {
      const viewer = people.some((p) => p.id === wanted) ? wanted! : people[0].id;
      const current = versionNow();
      const progress = demo.progress();
      const ctx = mrkdwnContextOf(workspace, demo.now?.());
      return {
        version: current,
        status: statusLine(progress, messageCount()),
        done: progress.done,
        next: progress.next,
        viewer,
        people: people.map((p) => ({ id: p.id, name: p.real_name ?? p.name, role: ROLES[p.id] ?? '' })),
        conversations: conversationsOf(workspace, viewer).map((view) => ({
          id: view.id,
          title: view.title,
          kind: view.kind,
          messages: view.messages.length,
          html: conversationHtml(view, ctx),
        })),
        home: homeHtml(workspace, viewer, ctx),
      };
    },
  };
}
