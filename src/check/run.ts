/**
 * Everything `check` verifies before a real deployment, in the order an operator fixes
 * things: the config, the Slack tokens and scopes, the cluster connection and permissions,
 * the maintenance feed. Every problem is a row with its fix; nothing stops at the first one
 * unless what follows cannot be asked.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { discoverWorkloadKinds, RUNAI_GROUP, WORKLOAD_PLURALS } from '../cluster/kinds.js';
import { haLease, leaseCluster, slackSecretProblems, type Config, type ResolvedCluster } from '../config.js';
import { fetchThrough, proxyDispatcher } from '../lib/proxy.js';
import { REQUIRED_BOT_SCOPES } from '../slack/scopes.js';
import { channelRows } from './channels.js';
import { invitationRows, postingChannels } from './invitations.js';
import { maintenanceRow } from './maintenance.js';
import { leasePermissions, permissionRow, requiredPermissions } from './permissions.js';
import { AccessReviewError, accessReviewer, fetchFeed, slackAuthTest, slackChannelFacts, slackSocketModeOpen, type Reach } from './probes.js';
import { fail, pass, type CheckRow } from './report.js';
import { scopeRows } from './scopes.js';

export interface CheckOptions {
  /** Where the config came from, for the first row ("/etc/bot/config.yaml", "defaults"). */
  source: string;
  now: () => Date;
  loadKubeConfig(path: string | undefined): KubeConfig;
}

export async function runChecks(config: Config, options: CheckOptions): Promise<CheckRow[]> {
  const rows: CheckRow[] = [pass('config', `${options.source} is valid`)];
  // The way out the bot itself takes (HTTPS_PROXY…), so check sees what `start` will.
  const egress = proxyDispatcher(config.secrets.proxy);
  const reach: Reach = { apiUrl: config.secrets.slackApiUrl, ...(egress ? { fetch: fetchThrough(egress) } : {}) };
  rows.push(...(await slackRows(config, reach)));
  rows.push(...(await clusterRows(config, options)));
  const fetched = config.maintenance ? await fetchFeed(config.maintenance.feed, options.now, reach) : undefined;
  rows.push(maintenanceRow(config.maintenance, fetched, options.now()));
  return rows;
}

async function slackRows(config: Config, reach: Reach): Promise<CheckRow[]> {
  const rows = slackSecretProblems(config).map((problem) => fail('Slack credentials', problem));
  const { slackBotToken, slackAppToken } = config.secrets;
  if (slackBotToken?.startsWith('xoxb-')) {
    const auth = await slackAuthTest(slackBotToken, reach);
    if (auth.ok) {
      rows.push(pass('Slack bot token', `valid: workspace ${auth.team ?? '?'}, bot user @${auth.user ?? '?'}`));
      rows.push(...scopeRows(auth.scopes, REQUIRED_BOT_SCOPES));
      // Every channel the bot posts to includes every project channel, so one question each serves both checks.
      const channels = postingChannels(config);
      const answers = await slackChannelFacts(slackBotToken, reach, [...channels.keys()]);
      rows.push(...channelRows(config.projects, answers));
      rows.push(...invitationRows(channels, answers, { botName: auth.user ?? 'Run:ai Bot', postsToPublicChannels: auth.scopes?.includes('chat:write.public') ?? false }));
    } else {
      rows.push(fail('Slack bot token', `auth.test failed (${auth.error}): put the Bot User OAuth Token (xoxb-…) from OAuth & Permissions in SLACK_BOT_TOKEN; install the app to the workspace first`));
    }
  }
  if (config.slack.mode === 'socket' && slackAppToken?.startsWith('xapp-')) {
    const socket = await slackSocketModeOpen(slackAppToken, reach);
    rows.push(socket.ok
      ? pass('Slack app-level token', 'valid: Socket Mode can connect')
      : fail('Slack app-level token', `apps.connections.open failed (${socket.error}): enable Socket Mode, and put an app-level token with connections:write (Basic Information → App-Level Tokens) in SLACK_APP_TOKEN`));
  }
  return rows;
}

/**
 * One section per cluster (its rows prefixed `[name]` when `clusters:` names them): credentials,
 * the API server and its Run:ai kinds, then the permissions the bot needs there; the Lease's
 * permissions only in the cluster that holds it.
 */
async function clusterRows(config: Config, options: CheckOptions): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const holder = leaseCluster(config);
  for (const cluster of config.clusters) {
    const prefix = cluster.name ? `[${cluster.name}] ` : '';
    const section = await oneClusterRows(config, cluster, cluster === holder, options);
    rows.push(...section.map((row) => ({ ...row, check: `${prefix}${row.check}` })));
  }
  return rows;
}

function clusterKubeConfig(config: Config, cluster: ResolvedCluster, options: CheckOptions): KubeConfig {
  if (cluster.kubeconfig) return options.loadKubeConfig(cluster.kubeconfig);
  const kubeConfig = options.loadKubeConfig(config.secrets.kubeconfig);
  if (cluster.context) {
    const known = kubeConfig.getContexts().map((c) => c.name);
    if (!known.includes(cluster.context)) throw new Error(`${cluster.key}.context: "${cluster.context}" is not one of its contexts (${known.join(', ') || 'none'})`);
    kubeConfig.setCurrentContext(cluster.context);
  }
  return kubeConfig;
}

async function oneClusterRows(config: Config, cluster: ResolvedCluster, holdsLease: boolean, options: CheckOptions): Promise<CheckRow[]> {
  let kubeConfig: KubeConfig;
  try {
    kubeConfig = clusterKubeConfig(config, cluster, options);
  } catch (err) {
    const path = cluster.kubeconfig ?? config.secrets.kubeconfig;
    return [fail('Kubernetes credentials', `cannot load ${path ?? 'the in-cluster or default kubeconfig'}: ${(err as Error).message}`)];
  }
  const rows: CheckRow[] = [];
  let plurals: readonly string[] = WORKLOAD_PLURALS;
  try {
    const kinds = await discoverWorkloadKinds(kubeConfig);
    plurals = kinds.map((k) => k.plural);
    rows.push(pass('Run:ai workload kinds', `served: ${kinds.map((k) => `${k.plural} (${k.group}/${k.version})`).join(', ')}`));
  } catch (err) {
    rows.push(fail('Run:ai workload kinds', (err as Error).message));
  }
  const review = accessReviewer(kubeConfig);
  const lease = holdsLease ? haLease(config) : undefined;
  const permissions = [...requiredPermissions(plurals, RUNAI_GROUP, cluster.namespaces), ...(lease ? leasePermissions(lease) : [])];
  for (const permission of permissions) {
    try {
      rows.push(permissionRow(permission, await review(permission)));
    } catch (err) {
      if (!(err instanceof AccessReviewError)) throw err;
      // The API server cannot be asked at all: one row says why instead of one per permission.
      rows.push(fail('Kubernetes permissions', `cannot ask the API server (SelfSubjectAccessReview): ${err.message}`));
      break;
    }
  }
  return rows;
}
