/**
 * `/runai`: acked at once (a slow cluster must never make Slack say "operation timed out"),
 * answered ephemerally through the response_url once the work is done. Each subcommand is in
 * commands/<name>.ts; this file only maps the parsed command to it.
 */
import type { App } from './app.js';
import type { SlackMessage } from '../messages/blocks.js';
import { describeKubeError } from '../cluster/kinds.js';
import { SLASH_COMMAND } from '../messages/ids.js';
import type { ListenerDeps } from './listeners.js';
import { parseCommand, type ParsedCommand } from './parse-command.js';
import { failureMessage, unknownClusterMessage, usageMessage } from '../messages/replies.js';
import { askerFor, type Asker } from './commands/context.js';
import { listReply } from './commands/list.js';
import { logsReply } from './commands/logs.js';
import { maintenanceReply } from './commands/maintenance.js';
import { muteReply, unmuteReply } from './commands/mute.js';
import { settingsReply } from './commands/settings.js';
import { statusReply } from './commands/status.js';
import { whyReply } from './commands/why.js';

type Kind = ParsedCommand['kind'];
type CommandOf = { [K in Kind]: Extract<ParsedCommand, { kind: K }> };
type Answer<K extends Kind> = (asker: Asker, command: CommandOf[K]) => Promise<SlackMessage> | SlackMessage;

const ANSWERS: { [K in Kind]: Answer<K> } = {
  help: (asker) => usageMessage(undefined, asker.deps.clusterNames),
  invalid: (asker, c) => usageMessage(c.problem, asker.deps.clusterNames),
  unknownCluster: (asker, c) => unknownClusterMessage(c.cluster, asker.deps.clusterNames),
  list: (asker, c) => listReply(asker, c.filter),
  status: (asker, c) => statusReply(asker, c.query),
  logs: (asker, c) => logsReply(asker, c.query, c.tail, c.capped),
  why: (asker, c) => whyReply(asker, c.query),
  maintenance: (asker) => maintenanceReply(asker.deps),
  mute: (asker, c) => muteReply(asker, c.target, c.forMs),
  unmute: (asker, c) => unmuteReply(asker, c.target),
  settings: (asker, c) => settingsReply(asker, c.change),
};

/** The reply to one `/runai` text; a failure becomes a polite message, never a stack trace. */
export async function answerCommand(asker: Asker, text: string): Promise<SlackMessage> {
  const command = parseCommand(text, asker.deps.clusterNames);
  try {
    return await answerWith(asker, command);
  } catch (err) {
    asker.deps.log.warn({ user: asker.userId, command: command.kind, err: describeKubeError(err) }, '/runai failed');
    return failureMessage(describeKubeError(err));
  }
}

/** Typed per kind (a correlated union): each answer gets exactly its own command. */
function answerWith<K extends Kind>(asker: Asker, command: CommandOf[K] & { kind: K }): Promise<SlackMessage> | SlackMessage {
  const answer: Answer<K> = ANSWERS[command.kind];
  return answer(asker, command);
}

export function register(app: App, deps: ListenerDeps): void {
  app.command(SLASH_COMMAND, async ({ command, ack, respond, client }) => {
    await ack();
    const asker = askerFor(deps, client, command.user_id);
    const reply = await answerCommand(asker, command.text ?? '');
    await respond({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks });
  });
}
