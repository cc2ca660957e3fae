/**
 * `/runai …` text → what the person asked for. Pure: no Slack, no cluster, no clock. Anything
 * that is not a well-formed request becomes `{ kind: 'invalid' }` with the problem in words,
 * so the reply can be usage help instead of a guess.
 */
import parseDuration from 'parse-duration';

export interface WorkloadQuery {
  name: string;
  /** `-p PROJECT`: needed only when several projects have a workload of that name. */
  project?: string;
}

export type MuteTarget = { type: 'workload'; query: WorkloadQuery } | { type: 'project'; project: string };

export type SettingsChange =
  | { key: 'completed' | 'pending'; on: boolean }
  | { key: 'quiet'; from: string; to: string; timezone?: string }
  | { key: 'quiet off' };

export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'status'; query: WorkloadQuery }
  | { kind: 'logs'; query: WorkloadQuery; tail: number; capped: boolean }
  | { kind: 'why'; query: WorkloadQuery }
  | { kind: 'maintenance' }
  | { kind: 'mute'; target: MuteTarget; forMs?: number }
  | { kind: 'unmute'; target: MuteTarget }
  | { kind: 'settings'; change?: SettingsChange }
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

export function parseCommand(text: string): ParsedCommand {
  // Slack clients may turn "--" into an en or em dash; read them back as the flag they were.
  const words = text.replace(/[\u2013\u2014](?=\w)/g, '--').trim().split(/\s+/).filter(Boolean);
  const [verb, ...rest] = words;
  switch (verb?.toLowerCase()) {
    case undefined:
    case 'help':
      return { kind: 'help' };
    case 'list':
    case 'ls':
      return rest.length ? invalid('`list` takes no arguments') : { kind: 'list' };
    case 'status':
      return withQuery('status', rest, (query) => ({ kind: 'status', query }));
    case 'why':
      return withQuery('why', rest, (query) => ({ kind: 'why', query }));
    case 'logs':
    case 'log':
      return parseLogs(rest);
    case 'maintenance':
      return rest.length ? invalid('`maintenance` takes no arguments') : { kind: 'maintenance' };
    case 'mute':
      return parseMute(rest);
    case 'unmute':
      return parseUnmute(rest);
    case 'settings':
      return parseSettings(rest);
    default:
      return invalid(`I don't know the command \`${verb.slice(0, 40)}\``);
  }
}

interface Flags {
  positional: string[];
  project?: string;
  tail?: string;
  problem?: string;
}

/** Splits `-p PROJECT` and `--tail N` from the other words. */
function readFlags(words: string[], allowTail: boolean): Flags {
  const flags: Flags = { positional: [] };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '-p' || word === '--project') {
      if (!words[i + 1]) return { ...flags, problem: `\`${word}\` needs a project name` };
      flags.project = words[++i];
    } else if (allowTail && (word === '--tail' || word === '-n')) {
      if (!words[i + 1]) return { ...flags, problem: `\`${word}\` needs a number of lines` };
      flags.tail = words[++i];
    } else if (word.startsWith('-')) {
      return { ...flags, problem: `unknown option \`${word.slice(0, 40)}\`` };
    } else {
      flags.positional.push(word);
    }
  }
  return flags;
}

function queryFrom(verb: string, flags: Flags): WorkloadQuery | string {
  if (flags.problem) return flags.problem;
  if (flags.positional.length !== 1) return `\`${verb}\` needs exactly one workload name`;
  const name = flags.positional[0].toLowerCase();
  if (!NAME.test(name)) return `\`${flags.positional[0].slice(0, 60)}\` is not a workload name`;
  if (flags.project !== undefined && !NAME.test(flags.project.toLowerCase())) return `\`${flags.project.slice(0, 60)}\` is not a project name`;
  return { name, project: flags.project?.toLowerCase() };
}

function withQuery(verb: string, words: string[], build: (q: WorkloadQuery) => ParsedCommand): ParsedCommand {
  const query = queryFrom(verb, readFlags(words, false));
  return typeof query === 'string' ? invalid(query) : build(query);
}

function parseLogs(words: string[]): ParsedCommand {
  const flags = readFlags(words, true);
  const query = queryFrom('logs', flags);
  if (typeof query === 'string') return invalid(query);
  if (flags.tail === undefined) return { kind: 'logs', query, tail: DEFAULT_LOG_TAIL, capped: false };
  if (!/^\d+$/.test(flags.tail) || Number(flags.tail) < 1) return invalid('`--tail` takes a whole number of lines, e.g. `--tail 200`');
  const asked = Number(flags.tail);
  return { kind: 'logs', query, tail: Math.min(asked, MAX_LOG_TAIL), capped: asked > MAX_LOG_TAIL };
}

/** `NAME [-p PROJECT]` or `project PROJECT`. */
function muteTarget(verb: string, words: string[]): MuteTarget | string {
  if (words[0]?.toLowerCase() === 'project') {
    if (words.length !== 2) return `\`${verb} project\` needs exactly one project name`;
    const project = words[1].toLowerCase();
    return NAME.test(project) ? { type: 'project', project } : `\`${words[1].slice(0, 60)}\` is not a project name`;
  }
  const query = queryFrom(verb, readFlags(words, false));
  return typeof query === 'string' ? query : { type: 'workload', query };
}

function parseMute(words: string[]): ParsedCommand {
  const forAt = words.findIndex((w) => w.toLowerCase() === 'for');
  const targetWords = forAt === -1 ? words : words.slice(0, forAt);
  const target = muteTarget('mute', targetWords);
  if (typeof target === 'string') return invalid(target);
  if (forAt === -1) return { kind: 'mute', target };
  const forMs = durationMs(words.slice(forAt + 1).join(' '));
  if (forMs === undefined) return invalid('the duration after `for` should look like `2h`, `1d` or `1h30m`');
  return { kind: 'mute', target, forMs };
}

function parseUnmute(words: string[]): ParsedCommand {
  const target = muteTarget('unmute', words);
  return typeof target === 'string' ? invalid(target) : { kind: 'unmute', target };
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
  if (key === 'completed' || key === 'pending') {
    const on = values.length === 1 ? ON_OFF[values[0]] : undefined;
    return on === undefined ? invalid(`use \`settings ${key} on\` or \`settings ${key} off\``) : { kind: 'settings', change: { key, on } };
  }
  if (key === 'quiet') return parseQuiet(words.slice(1));
  return invalid(`there is no setting \`${words[0].slice(0, 40)}\`; settings are \`completed\`, \`pending\` and \`quiet\``);
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
