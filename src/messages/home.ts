/**
 * The Home tab: my workloads by state, my recent alerts, the next maintenance window and my
 * settings. Pure: src/slack/home.ts gathers the input and publishes the view.
 */
import type { HomeView } from '@slack/types';
import { parseKey } from '../keys.js';
import type { MaintenanceWindow, UserSettings, Workload } from '../model.js';
import { STATE_ICON } from './alert.js';
import { context, divider, header, section, type Block } from './blocks.js';
import { ACTION } from './ids.js';
import { forMrkdwn, forInlineCode, plain, slackDate } from './mrkdwn.js';
import { onCluster } from './cluster.js';
import { groupedWorkloadBlocks, relative, settingsMessage, windowLine } from './replies.js';

export const RECENT_ALERTS_SHOWN = 10;
const WORKLOADS_PER_STATE = 10;
/** Slack's cap for a Home tab. */
const MAX_HOME_BLOCKS = 100;

/** A message the user was sent, as the ledger records it (its key names what was said). */
export interface SentRecord {
  key: string;
  sentAt: string;
}

export interface HomeInput {
  now: Date;
  workloads: Workload[];
  alerts: Array<{ entry: SentRecord; workload?: { name: string; project: string; cluster?: string } }>;
  /** Undefined: no maintenance calendar configured. */
  nextWindow: MaintenanceWindow | null | undefined;
  settings: UserSettings;
  mutes: { scope: string; until?: string }[];
}

export function buildHomeView(input: HomeInput): HomeView {
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

/** Ledger keys name what was said (src/keys.ts): a workload's alert is listed with its state. */
function alertLine({ entry, workload }: HomeInput['alerts'][number], now: Date): string {
  const when = `${slackDate(new Date(entry.sentAt), entry.sentAt)} (${relative(new Date(entry.sentAt), now)})`;
  const said = parseKey(entry.key);
  if (said?.kind === 'alert' && workload) {
    const { state } = said;
    return `${STATE_ICON[state] ?? ''} ${forInlineCode(workload.name, 120)} in ${forMrkdwn(workload.project)}${onCluster(workload)} was *${forMrkdwn(state)}*, ${when}`;
  }
  const what = said?.kind === 'maintenance' ? 'Maintenance reminder' : said?.kind === 'tip' ? 'Log-saving tip' : 'Message';
  return `${forMrkdwn(what)}, ${when}`;
}
