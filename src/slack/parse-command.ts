/**
 * `/runai …` text → what the person asked for. Pure: no Slack, no cluster, no clock. Anything
 * that is not a well-formed request becomes `{ kind: 'invalid' }` with the problem in words,
 * so the reply can be usage help instead of a guess.
 */
import parseDuration from 'parse-duration';

export interface WorkloadQuery {
  name: string;
  /**
   * `-p PROJECT`, or `PROJECT/NAME`: needed only when several projects have a workload of that
   * name. Matches the project or the namespace, so `runai-vision/resnet` works too.
   */
  project?: string;
  /**
   * `CLUSTER/NAME`, `CLUSTER/PROJECT/NAME` or `--cluster CLUSTER`: one of the configured
   * cluster names, as the config spells it. Only ever set to a name that is configured.
   */
  cluster?: string;
}

export type MuteTarget = { type: 'workload'; query: WorkloadQuery } | { type: 'project'; project: string };

export type SettingsChange =
  | { key: 'completed' | 'pending' | 'tips'; on: boolean }
  | { key: 'quiet'; from: string; to: string; timezone?: string }
  | { key: 'quiet off' };

/** States `/runai list --state` takes: the ones someone who looks after others asks about. */
export const LIST_STATES = ['failed', 'pending', 'running'] as const;
export type ListState = (typeof LIST_STATES)[number];

/**
 * `/runai list` narrowed: by project (`-p`), cluster (`--cluster`) or state (`--state`). With no
 * filter, list is the asker's own workloads as it always was; with one, it is every workload the
 * asker may see (owner, project member, admin) that passes them.
 */
export interface ListFilter {
  project?: string;
  cluster?: string;
  state?: ListState;
}

export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'list'; filter?: ListFilter }
  | { kind: 'status'; query: WorkloadQuery }
  | { kind: 'logs'; query: WorkloadQuery; tail: number; capped: boolean }
  | { kind: 'why'; query: WorkloadQuery }
  | { kind: 'maintenance' }
  | { kind: 'mute'; target: MuteTarget; forMs?: number }
  | { kind: 'unmute'; target: MuteTarget }
  | { kind: 'settings'; change?: SettingsChange }
  /** A cluster the config does not name: the answer lists the ones it does. */
  | { kind: 'unknownCluster'; cluster: string }
  | { kind: 'invalid'; problem: string };

export const DEFAULT_LOG_TAIL = 50;
export const MAX_LOG_TAIL = 1000;
/** Longer than this is not a mute, it is unsubscribing; "forever" (no duration) says so honestly. */
const MAX_MUTE_MS = 365 * 86_400_000;

// Kubernetes object names (RFC 1123 subdomain) and Run:ai project names.
const NAME = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/;
// "22:00-07:00" with a hyphen, an en dash or an em dash (escaped: a literal one would make V8 keep
// the production bundle's whole source two bytes a character; scripts/bundle.mjs).
const QUIET_RANGE = /^(\d{1,2}:\d{2})\s*[-\u2013\u2014]\s*(\d{1,2}:\d{2})$/;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ON_OFF: Record<string, boolean> = { on: true, off: false, yes: true, no: false, true: true, false: false };

const invalid = (problem: string): ParsedCommand => ({ kind: 'invalid', problem });

/** Why a workload could not be named: a problem in words, or a cluster the config lacks. */
type QueryProblem = string | { unknownCluster: string };

function problemCommand(problem: QueryProblem): ParsedCommand {
  return typeof problem === 'string' ? invalid(problem) : { kind: 'unknownCluster', cluster: problem.unknownCluster };
}

const isQuery = (q: WorkloadQuery | QueryProblem): q is WorkloadQuery => typeof q === 'object' && 'name' in q;

/**
 * `clusters`: the configured cluster names (none or one: the bot watches one cluster). They
 * decide what `A/NAME` means: the workload NAME in cluster A when A is one of them, else in
 * project (or namespace) A, as before clusters had names.
 */
export function parseCommand(text: string, clusters: readonly string[] = []): ParsedCommand {
  // Slack clients may turn "--" into an en or em dash; read them back as the flag they were.
  const words = text.replace(/[\u2013\u2014](?=\w)/g, '--').trim().split(/\s+/).filter(Boolean);
  const [verb, ...rest] = words;
  switch (verb?.toLowerCase()) {
    case undefined:
    case 'help':
      return { kind: 'help' };
    case 'list':
    case 'ls':
      return parseList(rest, clusters);
    case 'status':
      return withQuery('status', rest, clusters, (query) => ({ kind: 'status', query }));
    case 'why':
      return withQuery('why', rest, clusters, (query) => ({ kind: 'why', query }));
    case 'logs':
    case 'log':
      return parseLogs(rest, clusters);
    case 'maintenance':
      return rest.length ? invalid('`maintenance` takes no arguments') : { kind: 'maintenance' };
    case 'mute':
      return parseMute(rest, clusters);
    case 'unmute':
      return parseUnmute(rest, clusters);
    case 'settings':
      return parseSettings(rest);
    default:
      return invalid(`I don't know the command \`${verb.slice(0, 40)}\``);
  }
}

interface Flags {
  positional: string[];
  project?: string;
  cluster?: string;
  tail?: string;
  state?: string;
  problem?: string;
}

/** Splits `-p PROJECT`, `--cluster CLUSTER`, `--tail N` (logs) and `--state S` (list) from the other words. */
function readFlags(words: string[], allowTail: boolean, allowState = false): Flags {
  const flags: Flags = { positional: [] };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '-p' || word === '--project') {
      if (!words[i + 1]) return { ...flags, problem: `\`${word}\` needs a project name` };
      flags.project = words[++i];
    } else if (word === '--cluster') {
      if (!words[i + 1]) return { ...flags, problem: '`--cluster` needs a cluster name' };
      flags.cluster = words[++i];
    } else if (allowTail && (word === '--tail' || word === '-n')) {
      if (!words[i + 1]) return { ...flags, problem: `\`${word}\` needs a number of lines` };
      flags.tail = words[++i];
    } else if (allowState && (word === '--state' || word === '-s')) {
      if (!words[i + 1]) return { ...flags, problem: `\`${word}\` needs a state: ${LIST_STATES.join(', ')}` };
      flags.state = words[++i];
    } else if (word.startsWith('-')) {
      return { ...flags, problem: `unknown option \`${word.slice(0, 40)}\`` };
    } else {
      flags.positional.push(word);
    }
  }
  return flags;
}

/** The configured spelling of a cluster name typed in any case, or undefined when none matches. */
function configuredCluster(typed: string, clusters: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  return clusters.find((c) => c.toLowerCase() === lower);
}

/**
 * `NAME`, `A/NAME` (cluster A when A is configured, else project or namespace A) or
 * `CLUSTER/PROJECT/NAME`, with `-p` and `--cluster` as flags that must agree with the path.
 */
function queryFrom(verb: string, flags: Flags, clusters: readonly string[]): WorkloadQuery | QueryProblem {
  if (flags.problem) return flags.problem;
  if (flags.positional.length !== 1) return `\`${verb}\` needs exactly one workload name`;
  const typed = flags.positional[0];
  const parts = typed.split('/');
  if (parts.length > 3 || parts.some((p) => !p)) return `\`${typed.slice(0, 60)}\` is not a workload name`;
  let cluster: string | undefined;
  let project: string | undefined;
  if (parts.length === 3) {
    cluster = configuredCluster(parts[0], clusters);
    if (!cluster) return { unknownCluster: parts[0].slice(0, 63) };
    project = parts[1];
  } else if (parts.length === 2) {
    cluster = configuredCluster(parts[0], clusters);
    if (!cluster) project = parts[0];
  }
  if (flags.cluster !== undefined) {
    const flagged = configuredCluster(flags.cluster, clusters);
    if (!flagged) return { unknownCluster: flags.cluster.slice(0, 63) };
    if (cluster && cluster !== flagged) return `\`${typed.slice(0, 60)}\` and \`--cluster ${flags.cluster.slice(0, 40)}\` name two different clusters`;
    cluster = flagged;
  }
  if (project !== undefined && flags.project !== undefined && project.toLowerCase() !== flags.project.toLowerCase()) {
    return `\`${typed.slice(0, 60)}\` and \`-p ${flags.project.slice(0, 40)}\` name two different projects`;
  }
  project = (project ?? flags.project)?.toLowerCase();
  const name = parts[parts.length - 1].toLowerCase();
  if (!NAME.test(name)) return `\`${typed.slice(0, 60)}\` is not a workload name`;
  if (project !== undefined && !NAME.test(project)) return `\`${project.slice(0, 60)}\` is not a project name`;
  return cluster ? { name, project, cluster } : { name, project };
}

function parseList(words: string[], clusters: readonly string[]): ParsedCommand {
  if (!words.length) return { kind: 'list' };
  const flags = readFlags(words, false, true);
  if (flags.problem) return invalid(flags.problem);
  if (flags.positional.length) return invalid('`list` takes only `-p PROJECT`, `--cluster CLUSTER` and `--state failed|pending|running`');
  const filter: ListFilter = {};
  if (flags.project !== undefined) {
    const project = flags.project.toLowerCase();
    if (!NAME.test(project)) return invalid(`\`${flags.project.slice(0, 60)}\` is not a project name`);
    filter.project = project;
  }
  if (flags.cluster !== undefined) {
    const cluster = configuredCluster(flags.cluster, clusters);
    if (!cluster) return { kind: 'unknownCluster', cluster: flags.cluster.slice(0, 63) };
    filter.cluster = cluster;
  }
  if (flags.state !== undefined) {
    const state = LIST_STATES.find((s) => s === flags.state!.toLowerCase());
    if (!state) return invalid(`\`--state\` takes ${LIST_STATES.join(', ')}, not \`${flags.state.slice(0, 40)}\``);
    filter.state = state;
  }
  return { kind: 'list', filter };
}

function withQuery(verb: string, words: string[], clusters: readonly string[], build: (q: WorkloadQuery) => ParsedCommand): ParsedCommand {
  const query = queryFrom(verb, readFlags(words, false), clusters);
  return isQuery(query) ? build(query) : problemCommand(query);
}

function parseLogs(words: string[], clusters: readonly string[]): ParsedCommand {
  const flags = readFlags(words, true);
  const query = queryFrom('logs', flags, clusters);
  if (!isQuery(query)) return problemCommand(query);
  if (flags.tail === undefined) return { kind: 'logs', query, tail: DEFAULT_LOG_TAIL, capped: false };
  if (!/^\d+$/.test(flags.tail) || Number(flags.tail) < 1) return invalid('`--tail` takes a whole number of lines, e.g. `--tail 200`');
  const asked = Number(flags.tail);
  return { kind: 'logs', query, tail: Math.min(asked, MAX_LOG_TAIL), capped: asked > MAX_LOG_TAIL };
}

/** `NAME [-p PROJECT]` or `project PROJECT`. */
function muteTarget(verb: string, words: string[], clusters: readonly string[]): MuteTarget | QueryProblem {
  if (words[0]?.toLowerCase() === 'project') {
    if (words.length !== 2) return `\`${verb} project\` needs exactly one project name`;
    const project = words[1].toLowerCase();
    return NAME.test(project) ? { type: 'project', project } : `\`${words[1].slice(0, 60)}\` is not a project name`;
  }
  const query = queryFrom(verb, readFlags(words, false), clusters);
  return isQuery(query) ? { type: 'workload', query } : query;
}

const isTarget = (t: MuteTarget | QueryProblem): t is MuteTarget => typeof t === 'object' && 'type' in t;

function parseMute(words: string[], clusters: readonly string[]): ParsedCommand {
  const forAt = words.findIndex((w) => w.toLowerCase() === 'for');
  const targetWords = forAt === -1 ? words : words.slice(0, forAt);
  const target = muteTarget('mute', targetWords, clusters);
  if (!isTarget(target)) return problemCommand(target);
  if (forAt === -1) return { kind: 'mute', target };
  const forMs = durationMs(words.slice(forAt + 1).join(' '));
  if (forMs === undefined) return invalid('the duration after `for` should look like `2h`, `1d` or `1h30m`');
  return { kind: 'mute', target, forMs };
}

function parseUnmute(words: string[], clusters: readonly string[]): ParsedCommand {
  const target = muteTarget('unmute', words, clusters);
  return isTarget(target) ? { kind: 'unmute', target } : problemCommand(target);
}

/** "2h", "1d", "1h30m", "90 minutes" → ms; a bare number is refused (its unit would be a guess). */
function durationMs(text: string): number | undefined {
  if (!text || !/[a-z]/i.test(text) || /^\s*-/.test(text)) return undefined;
  const ms = parseDuration(text);
  if (ms == null || !Number.isFinite(ms) || ms <= 0 || ms > MAX_MUTE_MS) return undefined;
  return ms;
}

function parseSettings(words: string[]): ParsedCommand {
  if (!words.length) return { kind: 'settings' };
  const [key, ...values] = words.map((w) => w.toLowerCase());
  if (key === 'completed' || key === 'pending' || key === 'tips') {
    const on = values.length === 1 ? ON_OFF[values[0]] : undefined;
    return on === undefined ? invalid(`use \`settings ${key} on\` or \`settings ${key} off\``) : { kind: 'settings', change: { key, on } };
  }
  if (key === 'quiet') return parseQuiet(words.slice(1));
  return invalid(`there is no setting \`${words[0].slice(0, 40)}\`; settings are \`completed\`, \`pending\`, \`tips\` and \`quiet\``);
}

function parseQuiet(words: string[]): ParsedCommand {
  if (words.length === 1 && words[0].toLowerCase() === 'off') return { kind: 'settings', change: { key: 'quiet off' } };
  // "22:00-07:00 Europe/Berlin", "22:00 - 07:00", "22:00-07:00"
  const zoneAt = words.findIndex((w) => /[a-z]/i.test(w));
  const rangeText = (zoneAt === -1 ? words : words.slice(0, zoneAt)).join(' ');
  const zoneWords = zoneAt === -1 ? [] : words.slice(zoneAt);
  const range = QUIET_RANGE.exec(rangeText);
  const from = range && padHour(range[1]);
  const to = range && padHour(range[2]);
  if (!from || !to || !HHMM.test(from) || !HHMM.test(to) || from === to || zoneWords.length > 1) {
    return invalid('use `settings quiet 22:00-07:00` (optionally followed by a time zone such as `Europe/Berlin`) or `settings quiet off`');
  }
  const timezone = zoneWords[0];
  if (timezone !== undefined && !isTimeZone(timezone)) return invalid(`\`${timezone.slice(0, 60)}\` is not a time zone; use one like \`Europe/Berlin\` or \`UTC\``);
  return { kind: 'settings', change: { key: 'quiet', from, to, ...(timezone ? { timezone: canonicalZone(timezone) } : {}) } };
}

function padHour(hhmm: string): string {
  return hhmm.length === 4 ? `0${hhmm}` : hhmm;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** "europe/berlin" → "Europe/Berlin", as Intl spells it. */
function canonicalZone(name: string): string {
  return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
}
