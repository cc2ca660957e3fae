/**
 * The bot-token OAuth scopes the app needs, one per Slack Web API family it calls. `check`
 * compares auth.test's `x-oauth-scopes` header against this list, and a packaging test keeps
 * manifest.yml's `oauth_config.scopes.bot` equal to it, so the two cannot drift apart.
 * views.publish, auth.test and the app_home_opened event need no scope.
 */
export const REQUIRED_BOT_SCOPES: readonly string[] = [
  'chat:write', // chat.postMessage, chat.update, chat.postEphemeral
  'im:write', // the app's DM with a workload's owner (chat.postMessage to their user ID opens it)
  'users:read', // users.info; also a prerequisite of users:read.email
  'users:read.email', // users.lookupByEmail, to map a cluster owner to a Slack user
  'commands', // the /runai slash command
  'usergroups:read', // usergroups.users.list: project membership by user group
  'channels:read', // conversations.members on public channels: project membership by channel
  'groups:read', // conversations.members on private channels: project membership by channel
  'files:write', // files.getUploadURLExternal, files.completeUploadExternal: "Save the whole log" into the owner's DM
];
