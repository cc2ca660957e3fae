/**
 * The buttons on alert DMs. A button's value carries identifiers only; who may see the
 * workload is decided again on every click, from the clicker's verified user ID. Answers are
 * ephemeral and never replace the alert.
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { App } from './app.js';
import type { SlackMessage } from '../messages/blocks.js';
import { describeKubeError } from '../cluster/kinds.js';
import { ACTION } from '../messages/ids.js';
import type { ListenerDeps } from './listeners.js';
import { failureMessage } from '../messages/replies.js';
import { askerFor, findByRef, parseRef, type Asker } from './commands/context.js';
import { logsOf } from './commands/logs.js';
import { muteProject, muteWorkload } from './commands/mute.js';
import { saveLogAnswer } from './save-log.js';

/** "Show more of the log": more than the alert quotes, as much as a reply can hold. */
export const SHOW_LOG_LINES = 200;
export const PROJECT_MUTE_MS = 86_400_000;

type ButtonAnswer = (asker: Asker, value: ReturnType<typeof parseRef>) => Promise<SlackMessage>;

const BUTTONS: Record<string, ButtonAnswer> = {
  [ACTION.showLog]: async (asker, ref) => {
    const lookup = await findByRef(asker, ref);
    return 'reply' in lookup ? lookup.reply : logsOf(asker.deps, lookup.found, SHOW_LOG_LINES, false);
  },
  [ACTION.saveLog]: (asker, ref) => saveLogAnswer(asker, ref),
  [ACTION.muteWorkload]: async (asker, ref) => {
    const lookup = await findByRef(asker, ref);
    if ('reply' in lookup) return lookup.reply;
    const w = lookup.found.workload;
    return muteWorkload(asker, w, undefined);
  },
  [ACTION.muteProject]: async (asker, ref) => {
    // The project is taken from the workload itself, not from the button, when it is still known.
    const lookup = await findByRef(asker, ref);
    if ('reply' in lookup) return lookup.reply;
    return muteProject(asker, lookup.found.workload.project, new Date(asker.deps.now().getTime() + PROJECT_MUTE_MS));
  },
};

export function register(app: App, deps: ListenerDeps): void {
  for (const [actionId, answer] of Object.entries(BUTTONS)) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, respond, client }) => {
      await ack();
      const asker = askerFor(deps, client, body.user.id);
      let reply: SlackMessage;
      try {
        reply = await answer(asker, parseRef(action.value));
      } catch (err) {
        deps.log.warn({ user: body.user.id, action: actionId, err: describeKubeError(err) }, 'button failed');
        reply = failureMessage(describeKubeError(err));
      }
      await replyPrivately(body, respond, client, reply);
    });
  }
  // A link button: Slack opens the URL; the click still arrives and must be acked.
  app.action(ACTION.openInRunai, async ({ ack }) => {
    await ack();
  });
}

/** Ephemeral in the conversation of the click; a DM when the click had no conversation. */
async function replyPrivately(body: BlockAction, respond: RespondFn | undefined, client: WebClient, message: SlackMessage): Promise<void> {
  const payload = { text: message.text, blocks: message.blocks };
  if (body.response_url && respond) {
    await respond({ response_type: 'ephemeral', replace_original: false, ...payload });
  } else if (body.channel?.id) {
    await client.chat.postEphemeral({ channel: body.channel.id, user: body.user.id, ...payload });
  } else {
    await client.chat.postMessage({ channel: body.user.id, ...payload });
  }
}
