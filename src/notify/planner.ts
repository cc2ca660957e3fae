/**
 * Reads the facts a delivery plan is made from (delivery/plan.ts): the owner's Slack user (the
 * directory's cache first), that person's mutes and settings, and the configured channels. The
 * decision itself is planDelivery's; this module only reads.
 */
import type { OutboxItem, OutboxTarget, PreferenceStore } from '../store/port.js';
import { planDelivery, type DeliveryFacts, type Owed, type Plan, type Preferences } from '../delivery/plan.js';
import type { OpenBurst } from '../delivery/burst-admission.js';
import { settingsOf } from './settings.js';
import type { OwnerDirectory } from './owners.js';

export interface PlannerOptions {
  owners: Pick<OwnerDirectory, 'slackUserFor'>;
  store: Pick<PreferenceStore, 'activeMutes' | 'getSettings'>;
  /** Channel for a project's workloads whose owner has no Slack user. */
  projectChannel(project: string): string | undefined;
  fallbackChannel?: string;
  opsChannel?: string;
  /** The burst window (0 or undefined: no bursts). */
  burstWindowMs?: number;
  now(): Date;
}

export class DeliveryPlanner {
  constructor(private readonly options: PlannerOptions) {}

  /** What a person wants, as planDelivery and the sender's re-check read it. */
  async preferences(userId: string): Promise<Preferences> {
    const { store, now } = this.options;
    const [mutes, settings] = await Promise.all([store.activeMutes(userId, now()), settingsOf(store, userId)]);
    return { muted: new Set(mutes.map((m) => m.scope)), settings };
  }

  /** The facts for one owed message. Throws when Slack could not be asked who the owner is. */
  async facts(owed: Owed): Promise<DeliveryFacts> {
    const { owners, now, burstWindowMs } = this.options;
    const user = await owners.slackUserFor(owed.owner);
    return {
      now: now(),
      user,
      preferences: user ? await this.preferences(user) : undefined,
      projectChannel: this.options.projectChannel(owed.project),
      fallbackChannel: this.options.fallbackChannel,
      opsChannel: this.options.opsChannel,
      ...(owed.burstable && burstWindowMs ? { burst: { windowMs: burstWindowMs } } : {}),
    };
  }

  async plan(owed: Owed): Promise<Plan> {
    return planDelivery(owed, await this.facts(owed));
  }
}

/** The same facts with the burst the store found open for the plan's destination (inside its transaction). */
export function withOpenBurst(facts: DeliveryFacts, open: OpenBurst | undefined, now: Date): DeliveryFacts {
  return facts.burst ? { ...facts, now, burst: { ...facts.burst, open } } : facts;
}

/** An owner's queued message as the plan sees it. */
export function owedOfItem(item: Pick<OutboxItem, 'key' | 'kind'> & { target: Extract<OutboxTarget, { type: 'owner' }> }): Owed {
  return { key: item.key, kind: item.kind, owner: item.target.owner || undefined, project: item.target.project, workload: item.target.workload };
}
