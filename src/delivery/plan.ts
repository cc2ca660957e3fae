/**
 * Who hears about an owed message, whether, where and when: decided once, here, from facts
 * read beforehand (the owner's Slack user, their mutes and settings, the configured channels,
 * the open burst). Pure, like lifecycle/transitions.ts: the notifier reads the facts, asks
 * planDelivery before it enriches anything (a dropped alert costs no pod list, no log read and
 * no ledger row), and stores the answer with the outbox row; the sender follows it.
 *
 * The one thing that may change between planning and sending is what the person wants (a mute
 * set, a setting turned off, quiet hours begun): `wanted` answers that, and is the same rule
 * planDelivery applies, so the sender re-checks it without deciding the destinations again.
 */
import { burstDestinationKey } from '../keys.js';
import type { Destination, Note, StoredPlan, UserSettings } from '../model.js';
import { admit, type OpenBurst } from './burst-admission.js';
import { DEFAULT_SETTINGS, quietUntil } from './preferences.js';

/** An owed message as the plan needs it (no blocks, no pods: those come after, if at all). */
export interface Owed {
  key: string;
  /** failed, stopped, completed, pending, initializing, cleanup, … (the outbox kind). */
  kind: string;
  /** The owner as the cluster names them; undefined or '' when it names none. */
  owner?: string;
  project: string;
  /** The workload as a mute names it (mutes.ts muteTarget), when the message is about one. */
  workload?: string;
  /** May open or join a burst (state alerts; Completed is opt-in per person and never does). */
  burstable?: boolean;
}

/** What one person wants: the scopes they muted (mutes.ts muteScope) and their settings. */
export interface Preferences {
  muted: ReadonlySet<string>;
  settings: UserSettings;
}

export interface DeliveryFacts {
  now: Date;
  /** The owner's Slack user; undefined when Slack has none (or the workload names no owner). */
  user?: string;
  /** The user's preferences (read only when there is a user). */
  preferences?: Preferences;
  projectChannel?: string;
  fallbackChannel?: string;
  opsChannel?: string;
  /** Bursts: the window, and the burst open for this message's first destination (read by the store in its transaction). */
  burst?: { windowMs: number; open?: OpenBurst };
}

export type { Destination, Note, StoredPlan } from '../model.js';

export type SkipReason = 'muted-workload' | 'muted-project' | 'not-opted-in' | 'no-destination';

export interface BurstSlot {
  /** The burst destination key (keys.ts burstDestinationKey). */
  key: string;
}

export type Plan =
  | { action: 'drop'; reason: SkipReason; why: string }
  | { action: 'send'; destinations: Destination[]; burst?: BurstSlot & { closesAt: number } }
  /** Quiet hours: queued now, sent at `until` (an ISO time). */
  | { action: 'defer'; until: string; destinations: Destination[]; burst?: BurstSlot & { closesAt: number } }
  /** Folded into the open burst anchored at `anchorKey`; its message is rewritten at `rewriteAt`. */
  | { action: 'fold'; destinations: Destination[]; burst: BurstSlot & { anchorKey: string; rewriteAt: number } };

/** What the person wants of this message now: yes, no (why), or not before a time. */
export type Wanted = { action: 'send' } | { action: 'drop'; reason: SkipReason; why: string } | { action: 'defer'; until: Date };

/** Kinds of owner message a person must opt in to (or may opt out of): the setting that decides. */
const OPT_IN: Record<string, keyof Pick<UserSettings, 'completed' | 'pending' | 'tips'>> = { completed: 'completed', pending: 'pending', initializing: 'pending', 'log-tip': 'tips' };

/**
 * Whether a person wants this message now. Mutes first (a project, then the workload), then the
 * opt-in settings, then quiet hours. Nobody (an owner without a Slack user) has the default
 * settings: no one could opt in to Completed notices for them, so those are not posted anywhere.
 */
export function wanted(owed: Owed, preferences: Preferences | undefined, now: Date): Wanted {
  const muted = preferences?.muted ?? new Set<string>();
  if (muted.has(`project:${owed.project}`)) return { action: 'drop', reason: 'muted-project', why: 'project muted' };
  if (owed.workload && muted.has(`workload:${owed.workload}`)) return { action: 'drop', reason: 'muted-workload', why: 'workload muted' };
  const settings = preferences?.settings ?? DEFAULT_SETTINGS;
  const optIn = OPT_IN[owed.kind];
  if (optIn && !settings[optIn]) return { action: 'drop', reason: 'not-opted-in', why: `${optIn} messages turned off in settings` };
  const until = preferences ? quietUntil(settings.quietHours, now) : undefined;
  return until ? { action: 'defer', until } : { action: 'send' };
}

/**
 * Where a message to the owner goes: their DM when Slack knows them; else the project's
 * channel, the fallback and the operators' channel, in that order (the sender moves on to the
 * next when Slack refuses one: the bot not invited there), each saying whose message it is.
 */
export function destinationsFor(owed: Owed, facts: Pick<DeliveryFacts, 'user' | 'projectChannel' | 'fallbackChannel' | 'opsChannel'>): Destination[] {
  if (facts.user) return [{ channel: facts.user, via: 'dm' }];
  const note: Note = owed.owner ? { kind: 'no-slack-user', owner: owed.owner } : { kind: 'no-owner' };
  const candidates: Array<[string | undefined, Destination['via']]> = [
    [facts.projectChannel, 'project'],
    [facts.fallbackChannel, 'fallback'],
    [facts.opsChannel, 'ops'],
  ];
  const seen = new Set<string>();
  const out: Destination[] = [];
  for (const [channel, via] of candidates) {
    if (!channel || seen.has(channel)) continue;
    seen.add(channel);
    out.push({ channel, via, note });
  }
  return out;
}

/** The decision: drop, defer, send (anchoring a burst, if it may) or fold into the open burst. */
export function planDelivery(owed: Owed, facts: DeliveryFacts): Plan {
  const verdict = wanted(owed, facts.user ? facts.preferences : undefined, facts.now);
  if (verdict.action === 'drop') return verdict;
  const destinations = destinationsFor(owed, facts);
  if (!destinations.length) return { action: 'drop', reason: 'no-destination', why: 'no Slack user for the owner and no project, fallback or operators\' channel configured' };
  const burst = owed.burstable && facts.burst ? burstOf(destinations[0], owed, facts.burst, facts.now.getTime()) : undefined;
  if (burst && 'anchorKey' in burst) return { action: 'fold', destinations, burst };
  if (verdict.action === 'defer') return { action: 'defer', until: verdict.until.toISOString(), destinations, ...(burst ? { burst } : {}) };
  return { action: 'send', destinations, ...(burst ? { burst } : {}) };
}

/**
 * The burst a message joins or opens: keyed by its first destination (a person; a channel per
 * project, since a channel's grouped message never mixes projects).
 */
function burstOf(first: Destination, owed: Owed, burst: NonNullable<DeliveryFacts['burst']>, now: number): (BurstSlot & { closesAt: number }) | (BurstSlot & { anchorKey: string; rewriteAt: number }) {
  const key = first.via === 'dm' ? burstDestinationKey({ kind: 'user', user: first.channel }) : burstDestinationKey({ kind: 'channel', channel: first.channel, project: owed.project });
  const admission = admit(burst.open, now, burst.windowMs);
  return admission.grouped ? { key, anchorKey: admission.anchorKey, rewriteAt: admission.rewriteAt } : { key, closesAt: admission.closesAt };
}

export function storedPlan(plan: Extract<Plan, { destinations: Destination[] }>, now: Date): StoredPlan {
  return { destinations: plan.destinations, at: now.toISOString() };
}
