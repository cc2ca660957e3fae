/**
 * The Home tab: my workloads by state, my recent alerts, the next maintenance window and my
 * settings, published fresh each time the tab is opened (or its Refresh button clicked).
 */
import type { LifecycleState, Workload } from '../model.js';
import type { MaintenanceWindow } from '../maintenance/parse.js';
import { ownsWorkload } from '../notify/access.js';
import { settingsOf, type UserSettings } from '../notify/settings.js';
import type { LedgerEntry, StoredWorkload } from '../store/port.js';
import type { App } from './app.js';
import { context, header, section, type Block } from './blocks.js';
import { ACTION } from './ids.js';
import type { ListenerDeps } from './listeners.js';
import { STATE_ICON } from './messages.js';
import { forMrkdwn, forInlineCode, plain, slackDate } from './mrkdwn.js';
import { groupedWorkloadBlocks, relative, settingsMessage, windowLine } from './views.js';

export const RECENT_ALERTS_SHOWN = 10;
const WORKLOADS_PER_STATE = 10;
/** Slack's cap for a Home tab. */
const MAX_HOME_BLOCKS = 100;

export interface HomeInput {
  now: Date;
  workloads: Workload[];
  alerts: Array<{ entry: LedgerEntry; workload?: StoredWorkload }>;
  /** Undefined: no maintenance calendar configured. */
  nextWindow: MaintenanceWindow | null | undefined;
  settings: UserSettings;
  mutes: { scope: string; until?: string }[];
}

const divider: Block = { type: 'divider' };

export function buildHomeView(input: HomeInput): { type: 'home'; blocks: Block[] } {
  const { now } = input;
  const blocks: Block[] = [
    header('Your Run:ai workloads'),
    { type: 'actions', elements: [{ type: 'button', action_id: ACTION.homeRefresh, text: plain('Refresh', 75), value: 'refresh' }] },
  ];
  const grouped = groupedWorkloadBlocks(input.workloads, now, WORKLOADS_PER_STATE);
  blocks.push(...(grouped.length ? grouped : [section('You have no workloads on the cluster right now.')]));
  blocks.push(context(`Updated ${slackDate(now, now.toISOString(), '{date_short_pretty} {time}')}. \`/runai status NAME\` for details.`));

  blocks.push(divider, header('Recent alerts'));
  blocks.push(section(input.alerts.length ? input.alerts.map((a) => `• ${alertLine(a, now)}`).join('\n') : 'No alerts sent to you yet.'));

  blocks.push(divider, header('Next maintenance'));
  blocks.push(section(input.nextWindow === undefined ? 'No maintenance calendar configured.' : input.nextWindow ? windowLine(input.nextWindow, now) : 'No maintenance windows are planned.'));

  blocks.push(divider, header('Your settings'), ...settingsMessage(input.settings, input.mutes, now).blocks);
  return { type: 'home', blocks: blocks.slice(0, MAX_HOME_BLOCKS) };
}

/** Ledger keys name what was said: `wl:<uid>:<State>` for a workload alert. */
function alertLine({ entry, workload }: HomeInput['alerts'][number], now: Date): string {
  const when = `${slackDate(new Date(entry.sentAt), entry.sentAt)} (${relative(new Date(entry.sentAt), now)})`;
  const match = /^wl:[^:]+:(\w+)$/.exec(entry.key);
  if (match && workload) {
    const state = match[1] as LifecycleState;
    return `${STATE_ICON[state] ?? ''} ${forInlineCode(workload.name, 120)} in ${forMrkdwn(workload.project)} was *${forMrkdwn(state)}*, ${when}`;
  }
  return `${forMrkdwn(entry.key.startsWith('mw:') ? 'Maintenance reminder' : 'Message')}, ${when}`;
}

export async function homeInputFor(deps: ListenerDeps, userId: string, identities: ReadonlySet<string>): Promise<HomeInput> {
  const now = deps.now();
  const alerts = await Promise.all(
    (await deps.store.recentAlertsFor(userId, RECENT_ALERTS_SHOWN)).map(async (entry) => {
      const uid = /^wl:([^:]+):/.exec(entry.key)?.[1];
      return { entry, workload: uid ? await deps.store.getWorkload(uid) : undefined };
    }),
  );
  return {
    now,
    workloads: deps.reconciler.workloads().filter((w) => ownsWorkload(identities, w.owner)),
    alerts,
    nextWindow: deps.maintenance ? (deps.maintenance.upcoming(now, 1)[0] ?? null) : undefined,
    settings: await settingsOf(deps.store, userId),
    mutes: await deps.store.activeMutes(userId, now),
  };
}

export function register(app: App, deps: ListenerDeps): void {
  const publish = async (client: App['client'], userId: string) => {
    const identities = await deps.owners.clusterIdentitiesOf(userId);
    await client.views.publish({ user_id: userId, view: buildHomeView(await homeInputFor(deps, userId, identities)) as never });
  };
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await publish(client, event.user);
  });
  app.action(ACTION.homeRefresh, async ({ ack, body, client }) => {
    await ack();
    await publish(client, body.user.id);
  });
}
