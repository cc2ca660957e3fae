/**
 * The response_urls the simulated Slack hands out with slash commands and message buttons
 * (slack-reference.md §1.5), and what happens when the app posts to one (Bolt's `respond()`):
 * the post is recorded, checked like a message, and shown in the conversation it came from.
 */
import { messageViolation } from './slack-block-rules.js';
import type { Json } from './slack-methods.js';
import type { SlackWorkspace } from './slack-workspace.js';

/** Where an interaction happened, so that a reply lands there. */
export interface ResponseOrigin {
  channel: string;
  user: string;
  /** The message whose button was clicked; `replace_original` and `delete_original` act on it. */
  messageTs?: string;
}

/** One post to a response_url. */
export interface ResponsePost {
  id: string;
  body: Json;
  at: Date;
  status: number;
}

/** Slack lets a response_url be used 5 times (within 30 minutes). */
const USES = 5;

export class ResponseUrls {
  readonly posts: ResponsePost[] = [];
  private readonly origins = new Map<string, ResponseOrigin & { uses: number }>();

  constructor(private readonly workspace: SlackWorkspace, private readonly now: () => Date) {}

  create(origin: ResponseOrigin, baseUrl: string): { id: string; url: string } {
    const id = `r${this.origins.size + 1}`;
    this.origins.set(id, { ...origin, uses: 0 });
    return { id, url: `${baseUrl}/respond/${id}` };
  }

  postsTo(id: string): ResponsePost[] {
    return this.posts.filter((p) => p.id === id);
  }

  /** Takes a post to response_url `id` and returns the HTTP answer. */
  receive(id: string, raw: string): { status: number; text: string } {
    let body: Json = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw) as Json) : {};
    } catch {
      return this.record(id, body, 400, 'invalid_payload');
    }
    const origin = this.origins.get(id);
    // Slack's exact answer to a spent or unknown response_url is undocumented; any non-2xx makes Bolt throw RespondError.
    if (!origin || origin.uses >= USES) return this.record(id, body, 404, 'expired_url');
    origin.uses += 1;
    const original = origin.messageTs ? this.workspace.find(origin.channel, origin.messageTs) : undefined;
    if (body.delete_original === true) {
      if (original) this.workspace.remove(original);
      return this.record(id, body, 200, 'ok');
    }
    const violation = messageViolation(body);
    if (violation) return this.record(id, body, 400, violation.error);
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    if (body.replace_original === true && original) {
      Object.assign(original, { text, blocks, edited: true });
    } else {
      this.workspace.post({
        channel: origin.channel,
        ts: this.workspace.nextTs(this.now()),
        text,
        blocks,
        visibleTo: body.response_type === 'in_channel' ? undefined : origin.user,
        via: 'response_url',
      });
    }
    return this.record(id, body, 200, 'ok');
  }

  private record(id: string, body: Json, status: number, text: string): { status: number; text: string } {
    this.posts.push({ id, body, at: this.now(), status });
    return { status, text };
  }
}
