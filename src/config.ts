/**
 * The bot's configuration: one zod schema for the YAML file, plus the secrets that come only
 * from the environment. Validated once at start; every problem names its key.
 */
import { readFileSync } from 'node:fs';
import cron from 'node-cron';
import parseDurationMs from 'parse-duration';
import YAML from 'yaml';
import { z } from 'zod';
import type { ProxySettings } from './lib/proxy.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const DURATION_PATTERN = /^\s*(\d+(\.\d+)?\s*(ms|s|m|h|d|w)\s*)+$/;

/** "30m", "3d", "1h30m" → milliseconds. A bare number is refused: its unit would be a guess. */
const duration = z
  .union([z.string(), z.number()])
  .transform((value, ctx) => {
    const text = String(value);
    const ms = DURATION_PATTERN.test(text) ? parseDurationMs(text) : null;
    if (ms == null || !Number.isFinite(ms) || ms < 0) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration; use e.g. 30s, 30m, 2h, 3d` });
      return z.NEVER;
    }
    return ms;
  });

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** "100MB", "64MiB", 1048576 → bytes. */
const byteSize = z.union([z.string(), z.number()]).transform((value, ctx) => {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b|b)\s*$/i.exec(String(value));
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a size; use e.g. 100MB or 64MiB` });
    return z.NEVER;
  }
  return Math.round(Number(match[1]) * BYTE_UNITS[match[2].toLowerCase()]);
});

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'must be a Slack user ID such as U0123ABCD');
const slackChannelId = z.string().regex(/^[CGD][A-Z0-9]{2,}$/, 'must be a Slack channel ID such as C0123ABCD');
const slackUserGroupId = z.string().regex(/^S[A-Z0-9]{2,}$/, 'must be a Slack user group ID such as S0123ABCD');
const email = z.string().regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'must be an email address');

const projectSchema = z.strictObject({
  channel: slackChannelId.optional(),
  members: z.array(slackUserId).default([]),
  userGroup: slackUserGroupId.optional(),
  /**
   * Count the channel's members as the project's even when the channel is public or shared.
   * Off by default: anyone in the workspace may join a public channel. Guests and people from
   * other workspaces never count by channel, whatever this says.
   */
  membersFromChannel: z.boolean().optional(),
  pendingAfter: duration.optional(),
});

/**
 * One entry of `clusters:`: every field but the name falls back to the `cluster:` block (and
 * `runai.uiUrl`), so a site lists only what differs per cluster.
 */
const clusterEntrySchema = z.strictObject({
  /** How the bot names the cluster in messages, keys and metrics: a DNS label, unique. */
  name: z.string().regex(DNS_LABEL, 'must be a DNS label such as gpu-east (lower case letters, digits and -)'),
  /** A kubeconfig file for this cluster (its current context is used). */
  kubeconfig: z.string().min(1).optional(),
  /** A context of the kubeconfig in $KUBECONFIG (or the in-cluster default's). */
  context: z.string().min(1).optional(),
  mode: z.enum(['watch', 'poll']).optional(),
  pollIntervalSeconds: z.number().int().min(5).max(3600).optional(),
  namespaces: z.array(z.string().min(1)).optional(),
  lookbackHours: z.number().min(0).max(24 * 30).optional(),
  resyncMinutes: z.number().min(1).max(24 * 60).optional(),
  relistMinutes: z.number().min(1).max(7 * 24 * 60).optional(),
  uiUrl: z.url().optional(),
});

const fileSchema = z.strictObject({
  slack: z
    .strictObject({
      mode: z.enum(['socket', 'http']).default('socket'),
      port: z.number().int().min(0).max(65535).default(3000),
      fallbackChannel: slackChannelId.optional(),
      opsChannel: slackChannelId.optional(),
      /** How long an owed message waits through an outage or a rejected token before it is dropped. */
      outboxRetention: duration.default(7 * 86_400_000),
    })
    .default({ mode: 'socket', port: 3000, outboxRetention: 7 * 86_400_000 }),
  owners: z
    .strictObject({
      emailDomain: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be a domain such as example.org').optional(),
      map: z.record(z.string(), z.union([slackUserId, email])).default({}),
      /** Where the owner is read from, in order (runai-reference §3). */
      keys: z
        .array(z.string())
        .default(['spec.username.value', 'spec.userId.value', 'pod.annotations.user', 'pod.labels.user']),
      /**
       * Background users.lookupByEmail calls a minute at most, resolving owners as their workloads
       * are seen (Slack's Tier 3 is about 50 a minute per workspace; the rest is left for the
       * lookups of owners never seen before, at send time).
       */
      lookupsPerMinute: z.number().min(1).max(1000).default(30),
    })
    .default({ map: {}, keys: ['spec.username.value', 'spec.userId.value', 'pod.annotations.user', 'pod.labels.user'], lookupsPerMinute: 30 }),
  admins: z.array(slackUserId).default([]),
  projects: z.record(z.string(), projectSchema).default({}),
  cluster: z
    .strictObject({
      mode: z.enum(['watch', 'poll']).default('watch'),
      pollIntervalSeconds: z.number().int().min(5).max(3600).default(30),
      namespaces: z.array(z.string().min(1)).default([]),
      lookbackHours: z.number().min(0).max(24 * 30).default(24),
      /** Watch mode: replay the cache through the decision this often (no request to the cluster), so a decision that failed converges; namespace labels are re-read as often. */
      resyncMinutes: z.number().min(1).max(24 * 60).default(30),
      /** Watch mode: a full list this often besides the one at start and after 410 Gone; unset: never. */
      relistMinutes: z.number().min(1).max(7 * 24 * 60).optional(),
    })
    .default({ mode: 'watch', pollIntervalSeconds: 30, namespaces: [], lookbackHours: 24, resyncMinutes: 30 }),
  /** Several clusters served by one bot (one Slack app has one /runai and one Home tab); unset: the one cluster of `cluster:`. */
  clusters: z.array(clusterEntrySchema).min(1).optional(),
  store: z
    .strictObject({
      /** The embedded SQLite file (the default store). */
      path: z.string().min(1).default('./runai-slack-bot.db'),
      /** postgres://user@host:5432/db: the whole store in PostgreSQL instead (or env DATABASE_URL). */
      url: z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    })
    .default({ path: './runai-slack-bot.db' }),
  alerts: z
    .strictObject({
      pendingAfter: duration.default(30 * 60_000),
      initializingAfter: duration.default(15 * 60_000),
      burstWindow: duration.default(30_000),
      /** Alerts across the cluster within one burst window that earn the operators a summary. */
      opsBurstThreshold: z.number().int().min(2).default(10),
      logTailLines: z.number().int().min(1).max(1000).default(15),
      /** A Completed workload whose log ends in an error its `| tee` likely hid gets its owner a DM (unlike ordinary completions). */
      maskedFailures: z.boolean({ error: 'must be true or false' }).default(true),
    })
    .default({ pendingAfter: 30 * 60_000, initializingAfter: 15 * 60_000, burstWindow: 30_000, opsBurstThreshold: 10, logTailLines: 15, maskedFailures: true }),
  maintenance: z
    .strictObject({
      feed: z.string().min(1),
      channel: slackChannelId.optional(),
      refreshCron: z.string().default('*/15 * * * *'),
      remindBefore: z.array(duration).default([14 * 86_400_000, 7 * 86_400_000, 86_400_000, 2 * 3_600_000]),
      notifyOwnersBefore: duration.default(86_400_000),
      timezone: z.string().default('UTC'),
      match: z
        .strictObject({ summary: z.string().optional(), categories: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
  cleanup: z
    .strictObject({ after: duration.default(3 * 86_400_000), cron: z.string().default('0 9 * * 1') })
    .default({ after: 3 * 86_400_000, cron: '0 9 * * 1' }),
  /**
   * Follow-ups in the alert's thread (README, "Follow-ups"): a workload created under the same
   * name in the same cluster and project within `window` of a Failed or Stopped one is its
   * resubmission, and the thread (with the earlier submission it is compared to) is kept that long.
   */
  followups: z
    .strictObject({
      window: duration.default(7 * 86_400_000).refine((ms) => ms >= 60_000, { message: 'must be at least 1m (a resubmission is looked for within it)' }),
    })
    .default({ window: 7 * 86_400_000 }),
  archive: z
    .strictObject({
      dir: z.string().min(1),
      maxBytesPerContainer: byteSize.default(100_000_000),
      /** Archived logs older than this are deleted (oldest first). */
      retention: duration.default(30 * 86_400_000),
      /**
       * Archive total above which the oldest logs are deleted. No default: only the operator
       * knows the volume's size (deploy/ sets it to fit its volume).
       */
      maxTotalBytes: byteSize.optional(),
    })
    .optional(),
  runai: z.strictObject({ uiUrl: z.url().optional() }).default({}),
  /**
   * /healthz, /readyz and /metrics, on their own port in both modes, never on the public Slack
   * port. host unset: every interface (IPv4 and IPv6), so the kubelet's probes and Prometheus
   * reach the pod IP; the NetworkPolicy in deploy/ says who may.
   */
  ops: z
    .strictObject({ port: z.number().int().min(0).max(65535).default(9090), host: z.string().min(1).optional() })
    .default({ port: 9090 }),
  log: z
    .strictObject({
      level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).default('info'),
      /** Let Bolt's and the Slack SDK's debug lines through (still stripped of tokens and URLs). */
      slackDebug: z.boolean().default(false),
    })
    .default({ level: 'info', slackDebug: false }),
  /**
   * Two or more replicas, one sender: the replicas elect a leader on a coordination.k8s.io/v1
   * Lease (src/cluster/lease.ts) and only the leader sends to Slack and runs the schedules.
   */
  ha: z
    .strictObject({
      enabled: z.boolean().default(false),
      /** Namespace of the Lease; unset: POD_NAMESPACE (the downward API), i.e. the bot's own. */
      leaseNamespace: z.string().regex(DNS_LABEL, 'must be a namespace name such as runai-slack-bot').optional(),
      leaseName: z.string().regex(DNS_SUBDOMAIN, 'must be a Kubernetes object name such as runai-slack-bot-leader').default('runai-slack-bot-leader'),
      /** How long a silent leader keeps the lease; it stops leading after two thirds of it. */
      leaseDurationSeconds: z.number().int().min(3).max(300).default(15),
      /** Which cluster's API server holds the Lease (a name listed in `clusters:`); unset: the first listed. */
      cluster: z.string().min(1).optional(),
    })
    .default({ enabled: false, leaseName: 'runai-slack-bot-leader', leaseDurationSeconds: 15 }),
});

export type FileConfig = z.infer<typeof fileSchema>;
export type ProjectConfig = z.infer<typeof projectSchema>;
export type ClusterEntry = z.infer<typeof clusterEntrySchema>;

/**
 * One cluster the bot watches, with the `cluster:` defaults filled in. Without `clusters:` the
 * one entry has no name, and the bot behaves (keys, messages, metrics) exactly as before the key
 * existed.
 */
export interface ResolvedCluster {
  name?: string;
  /** Where the entry sits in the file, for messages that name the key (`clusters[1]`, or `cluster`). */
  key: string;
  kubeconfig?: string;
  context?: string;
  mode: 'watch' | 'poll';
  pollIntervalSeconds: number;
  namespaces: string[];
  lookbackHours: number;
  resyncMinutes: number;
  relistMinutes?: number;
  uiUrl?: string;
}

/** Secrets and endpoints: environment only, never the file (so they never sit in a ConfigMap). */
export interface Secrets {
  /** This replica's pod and namespace (downward API): its leader-election identity and default Lease namespace. */
  podName?: string;
  podNamespace?: string;
  slackBotToken?: string;
  slackAppToken?: string;
  slackSigningSecret?: string;
  slackApiUrl?: string;
  kubeconfig?: string;
  /** PostgreSQL URL for the store when `store.url` is not set (it may carry a password). */
  databaseUrl?: string;
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY (or lower-case): how Slack and the feed are reached (a proxy URL may carry a password). */
  proxy: ProxySettings;
}

export interface Config extends Omit<FileConfig, 'clusters'> {
  secrets: Secrets;
  /** Every cluster the bot watches, defaults resolved: always at least one (see ResolvedCluster). */
  clusters: ResolvedCluster[];
}

function formatIssuePath(path: PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : '(top level)';
}

/** Validates a parsed YAML document; throws ConfigError listing every problem with its key. */
export function parseConfig(raw: unknown, env: Record<string, string | undefined> = {}): Config {
  const result = fileSchema.safeParse(raw ?? {});
  const problems: string[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) problems.push(`${formatIssuePath([...issue.path, key])}: unknown key`);
      } else {
        problems.push(`${formatIssuePath(issue.path)}: ${issue.message}`);
      }
    }
    throw new ConfigError(problems);
  }
  const config: Config = { ...result.data, secrets: secretsFromEnv(env), clusters: resolveClusters(result.data) };
  problems.push(...crossChecks(config));
  if (problems.length) throw new ConfigError(problems);
  return config;
}

function resolveClusters(file: FileConfig): ResolvedCluster[] {
  const defaults = { ...file.cluster, uiUrl: file.runai.uiUrl };
  if (!file.clusters) return [{ key: 'cluster', ...defaults }];
  return file.clusters.map((entry, index) => ({
    key: `clusters[${index}]`,
    name: entry.name,
    kubeconfig: entry.kubeconfig,
    context: entry.context,
    mode: entry.mode ?? defaults.mode,
    pollIntervalSeconds: entry.pollIntervalSeconds ?? defaults.pollIntervalSeconds,
    namespaces: entry.namespaces ?? defaults.namespaces,
    lookbackHours: entry.lookbackHours ?? defaults.lookbackHours,
    resyncMinutes: entry.resyncMinutes ?? defaults.resyncMinutes,
    relistMinutes: entry.relistMinutes ?? defaults.relistMinutes,
    uiUrl: entry.uiUrl ?? defaults.uiUrl,
  }));
}

/** The names of the configured clusters: empty for the one unnamed cluster of an old config. */
export function clusterNames(config: Pick<Config, 'clusters'>): string[] {
  return config.clusters.flatMap((c) => (c.name ? [c.name] : []));
}

/** The cluster that holds the ha Lease: `ha.cluster`, else the first listed. */
export function leaseCluster(config: Pick<Config, 'clusters' | 'ha'>): ResolvedCluster {
  return config.clusters.find((c) => c.name !== undefined && c.name === config.ha.cluster) ?? config.clusters[0];
}

/** The Run:ai UI of a cluster (its own `uiUrl`, else `runai.uiUrl`). */
export function uiUrlFor(config: Pick<Config, 'clusters' | 'runai'>, cluster: string | undefined): string | undefined {
  const entry = config.clusters.find((c) => c.name === cluster);
  return entry ? entry.uiUrl : config.runai.uiUrl;
}

function secretsFromEnv(env: Record<string, string | undefined>): Secrets {
  const value = (key: string) => (env[key]?.trim() ? env[key]!.trim() : undefined);
  return {
    podName: value('POD_NAME'),
    podNamespace: value('POD_NAMESPACE'),
    slackBotToken: value('SLACK_BOT_TOKEN'),
    slackAppToken: value('SLACK_APP_TOKEN'),
    slackSigningSecret: value('SLACK_SIGNING_SECRET'),
    slackApiUrl: value('SLACK_API_URL'),
    kubeconfig: value('KUBECONFIG'),
    databaseUrl: value('DATABASE_URL'),
    proxy: proxySettingsFromEnv(env),
  };
}

/** The proxy variables as curl and undici read them: the lower-case name first, then the upper-case one. */
export function proxySettingsFromEnv(env: Record<string, string | undefined>): ProxySettings {
  const either = (name: string) => env[name.toLowerCase()]?.trim() || env[name]?.trim() || undefined;
  return { httpProxy: either('HTTP_PROXY'), httpsProxy: either('HTTPS_PROXY'), noProxy: either('NO_PROXY') };
}

/** A proxy URL the bot cannot use, named by its variable; never echoes the value (it may hold a password). */
export function proxyProblems(proxy: ProxySettings): string[] {
  const problems: string[] = [];
  for (const [name, url] of [['HTTPS_PROXY', proxy.httpsProxy], ['HTTP_PROXY', proxy.httpProxy]] as const) {
    if (url === undefined) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      problems.push(`${name}: must be the proxy's http:// or https:// URL, such as http://proxy.example.org:3128 (or ${name.toLowerCase()}; unset it to connect directly)`);
    }
  }
  return problems;
}

function crossChecks(config: Config): string[] {
  const problems: string[] = [...proxyProblems(config.secrets.proxy)];
  if (config.maintenance && !config.maintenance.channel) {
    problems.push('maintenance.channel: required when maintenance.feed is set (where reminders are posted)');
  }
  if (config.slack.mode === 'http' && config.ops.port !== 0 && config.ops.port === config.slack.port) {
    problems.push(`ops.port: ${config.ops.port} is also slack.port; in HTTP mode Slack's port is public, so /healthz, /readyz and /metrics need a port of their own (default 9090)`);
  }
  if (!config.store.url && config.secrets.databaseUrl && !/^postgres(ql)?:\/\//.test(config.secrets.databaseUrl)) {
    problems.push('DATABASE_URL: must be a postgres:// or postgresql:// URL (unset it to keep the store in store.path)');
  }
  if (!cron.validate(config.cleanup.cron)) problems.push(`cleanup.cron: "${config.cleanup.cron}" is not a cron expression such as "0 9 * * 1"`);
  if (config.maintenance && !cron.validate(config.maintenance.refreshCron)) {
    problems.push(`maintenance.refreshCron: "${config.maintenance.refreshCron}" is not a cron expression such as "*/15 * * * *"`);
  }
  if (config.maintenance) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: config.maintenance.timezone });
    } catch {
      problems.push(`maintenance.timezone: "${config.maintenance.timezone}" is not an IANA time zone such as Europe/Berlin`);
    }
  }
  problems.push(...clusterProblems(config));
  problems.push(...haProblems(config));
  return problems;
}

function clusterProblems(config: Config): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const c of config.clusters) {
    if (c.kubeconfig && c.context) {
      problems.push(`${c.key}.context: set either kubeconfig (a file for this cluster) or context (a context in $KUBECONFIG), not both`);
    }
    if (!c.name) continue;
    const first = seen.get(c.name);
    if (first) problems.push(`${c.key}.name: "${c.name}" is already the name of ${first}; each cluster needs its own name (it qualifies every key)`);
    else seen.set(c.name, c.key);
  }
  const names = clusterNames(config);
  // Without clusters: the key was accepted and meant nothing; an old config keeps working.
  if (config.ha.cluster && names.length && !names.includes(config.ha.cluster)) {
    problems.push(`ha.cluster: "${config.ha.cluster}" is not a cluster listed in clusters: (${[...new Set(names)].join(', ')})`);
  }
  return problems;
}

function haProblems(config: Config): string[] {
  if (!config.ha.enabled) return [];
  const problems: string[] = [];
  if (!config.store.url && !config.secrets.databaseUrl) {
    problems.push('ha.enabled: replicas must share one store, and SQLite (store.path) is one replica\'s file; set store.url (or env DATABASE_URL) to a postgres:// URL, or set ha.enabled to false to run one replica');
  }
  if (!config.ha.leaseNamespace && !config.secrets.podNamespace) {
    problems.push('ha.leaseNamespace: required when ha.enabled is true; set it to the bot\'s namespace, or set env POD_NAMESPACE from the downward API (deploy/ha does)');
  }
  return problems;
}

/** The Lease this replica elects on, when ha.enabled (validated: the namespace is known). */
export function haLease(config: Config): { namespace: string; name: string; leaseDurationMs: number; podName?: string } | undefined {
  if (!config.ha.enabled) return undefined;
  return {
    namespace: (config.ha.leaseNamespace ?? config.secrets.podNamespace)!,
    name: config.ha.leaseName,
    leaseDurationMs: config.ha.leaseDurationSeconds * 1000,
    podName: config.secrets.podName,
  };
}

/** Requirements that only matter when the bot actually connects to Slack (start, check). */
export function slackSecretProblems(config: Config): string[] {
  const problems: string[] = [];
  const { secrets } = config;
  if (!secrets.slackBotToken) problems.push('SLACK_BOT_TOKEN: not set (the bot token, xoxb-…, from OAuth & Permissions)');
  else if (!secrets.slackBotToken.startsWith('xoxb-')) problems.push('SLACK_BOT_TOKEN: must be a bot token starting with xoxb-');
  if (config.slack.mode === 'socket') {
    if (!secrets.slackAppToken) problems.push('SLACK_APP_TOKEN: not set; Socket Mode needs an app-level token (xapp-…) with connections:write, from Basic Information → App-Level Tokens');
    else if (!secrets.slackAppToken.startsWith('xapp-')) problems.push('SLACK_APP_TOKEN: must be an app-level token starting with xapp-');
  } else if (!secrets.slackSigningSecret) {
    problems.push('SLACK_SIGNING_SECRET: not set; HTTP mode verifies every request with it (Basic Information → Signing Secret)');
  }
  return problems;
}

/** Reads the YAML file named by --config or RUNAI_BOT_CONFIG (none: defaults only). */
export function loadConfig(path: string | undefined, env: Record<string, string | undefined>): Config {
  const file = path ?? env.RUNAI_BOT_CONFIG;
  if (!file) return parseConfig({}, env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError([`${file}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? String(err)})`]);
  }
  let raw: unknown;
  try {
    // Plain YAML only: no custom tags, so a config file cannot construct objects.
    raw = YAML.parse(text, { customTags: [], maxAliasCount: 100 });
  } catch (err) {
    throw new ConfigError([`${file}: not valid YAML: ${(err as Error).message.split('\n')[0]}`]);
  }
  if (raw !== null && raw !== undefined && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new ConfigError([`${file}: must be a YAML mapping of sections (slack:, owners:, cluster:, …)`]);
  }
  return parseConfig(raw, env);
}

/** The PostgreSQL URL the store uses (`store.url`, else DATABASE_URL), or undefined for SQLite at `store.path`. */
export function storeUrl(config: Config): string | undefined {
  return config.store.url ?? config.secrets.databaseUrl;
}

/** Pending threshold for a project: its own override, else the global one. */
export function pendingAfterMs(config: Pick<FileConfig, 'projects' | 'alerts'>, project: string): number {
  return config.projects[project]?.pendingAfter ?? config.alerts.pendingAfter;
}
