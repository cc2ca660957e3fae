/**
 * Block Kit for the warning about a workload stuck Pending or Initializing. Pure: values in, a
 * message out.
 */
import { GUIDE } from '../lifecycle/states.js';
import type { Workload } from '../model.js';
import { runaiUiLink, STATE_ICON, workloadRef } from './alert.js';
import { context, header, LIMITS, section, type Block, type Button, type SlackMessage } from './blocks.js';
import { ACTION } from './ids.js';
import { clusterNote, onCluster } from './cluster.js';
import { forMrkdwn, plain, truncate } from './mrkdwn.js';

export interface StuckAlert {
  workload: Workload;
  state: 'Pending' | 'Initializing';
  since: Date;
  reasons: Array<{ plain: string; detail?: string }>;
  uiUrl?: string;
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 90) return `${minutes} minutes`;
  const hours = Math.round(minutes / 6) / 10;
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

/** The DM for a workload stuck Pending (the scheduler's reasons) or Initializing (the kubelet's). */
export function buildStuckMessage(alert: StuckAlert, now: Date): SlackMessage {
  const { workload: w, state, reasons } = alert;
  const waited = formatDuration(now.getTime() - alert.since.getTime());
  const blocks: Block[] = [
    header(`${w.name} has been ${state} for ${waited}`),
    section(`${STATE_ICON[state]} Your ${forMrkdwn(w.kind)} *${forMrkdwn(w.name)}* in project *${forMrkdwn(w.project)}*${onCluster(w)} has been *${state}* for ${waited}: ${GUIDE[state].meaning}.`),
  ];
  if (reasons.length) {
    const lines = reasons.slice(0, 5).map((r) => `• ${r.plain}${r.detail ? `\n    _${forMrkdwn(truncate(r.detail.replace(/\s+/g, ' '), 400))}_` : ''}`);
    blocks.push(section(`*Why, according to the ${state === 'Pending' ? 'scheduler' : 'cluster'}:*\n${lines.join('\n')}`));
  } else {
    blocks.push(section(`*The ${state === 'Pending' ? 'scheduler' : 'cluster'} gives no reason yet.*`));
  }
  blocks.push(section(`*Next step* (cluster guide): ${GUIDE[state].nextAction}${state === 'Initializing' ? ` ${GUIDE.Pending.nextAction}` : ''}`));
  blocks.push(context("You get this once per workload. Turn these warnings off with `/runai settings pending off`."));
  const buttons: Button[] = [{ type: 'button', action_id: ACTION.muteWorkload, text: plain('Mute this workload', LIMITS.buttonText), value: workloadRef(w) }];
  const link = runaiUiLink(alert.uiUrl, w);
  if (link) buttons.push({ type: 'button', action_id: ACTION.openInRunai, text: plain('Open in Run:ai', LIMITS.buttonText), url: link });
  blocks.push({ type: 'actions', elements: buttons });
  const why = reasons[0] ? ` ${reasons[0].plain}` : '';
  return { text: forMrkdwn(`${w.kind} ${w.name} (project ${w.project}${clusterNote(w)}) has been ${state} for ${waited}.${why} Next: ${GUIDE[state].nextAction}`), blocks };
}
