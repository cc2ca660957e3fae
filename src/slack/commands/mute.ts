/**
 * `/runai mute` and `unmute`: a person silences messages about one workload or a whole
 * project, for a while or until they unmute. Muting a workload needs the right to see it
 * (else the answer would confirm it exists); muting a project only ever affects the asker.
 */
import type { Workload } from '../../model.js';
import { muteScope, parseWorkloadScope } from '../../notify/mutes.js';
import type { SlackMessage } from '../../messages/blocks.js';
import { forInlineCode, slackDate } from '../../messages/mrkdwn.js';
import type { MuteTarget } from '../parse-command.js';
import { confirmationMessage, relative } from '../../messages/replies.js';
import { findVisibleWorkload, type Asker } from './context.js';

export async function muteReply(asker: Asker, target: MuteTarget, forMs: number | undefined): Promise<SlackMessage> {
  const until = forMs === undefined ? undefined : new Date(asker.deps.now().getTime() + forMs);
  if (target.type === 'project') return muteProject(asker, target.project, until);
  const lookup = await findVisibleWorkload(asker, target.query, 'mute');
  if ('reply' in lookup) return lookup.reply;
  const w = lookup.found.workload;
  return muteWorkload(asker, w, until);
}

export async function muteWorkload(asker: Asker, workload: Pick<Workload, 'namespace' | 'name' | 'project' | 'cluster'>, until: Date | undefined): Promise<SlackMessage> {
  const { namespace, name, project, cluster } = workload;
  await asker.deps.store.mute(asker.userId, muteScope.workload(namespace, name, cluster), until);
  return confirmationMessage(`Muted ${forInlineCode(name, 120)} in project ${forInlineCode(project, 100)} ${howLong(until, asker.deps.now())}. \`/runai unmute ${name} -p ${project}\` undoes it.`);
}

export async function muteProject(asker: Asker, project: string, until: Date | undefined): Promise<SlackMessage> {
  await asker.deps.store.mute(asker.userId, muteScope.project(project), until);
  return confirmationMessage(`Muted project ${forInlineCode(project, 100)} ${howLong(until, asker.deps.now())}. \`/runai unmute project ${project}\` undoes it.`);
}

function howLong(until: Date | undefined, now: Date): string {
  return until ? `until ${slackDate(until, until.toISOString())} (${relative(until, now)})` : 'until you unmute it';
}

/**
 * Unmuting looks only at the asker's own mutes, so it works for a workload that is gone
 * and says nothing about workloads the asker cannot see.
 */
export async function unmuteReply(asker: Asker, target: MuteTarget): Promise<SlackMessage> {
  const { store, now } = asker.deps;
  if (target.type === 'project') {
    const removed = await store.unmute(asker.userId, muteScope.project(target.project));
    return confirmationMessage(removed ? `Unmuted project ${forInlineCode(target.project, 100)}.` : `Project ${forInlineCode(target.project, 100)} was not muted.`);
  }
  const { name, project, cluster } = target.query;
  const scopes = (await store.activeMutes(asker.userId, now()))
    .map((m) => m.scope)
    .filter((scope) => {
      const muted = parseWorkloadScope(scope);
      return (
        !!muted &&
        muted.name === name &&
        (!project || muted.namespace === project || muted.namespace === `runai-${project}`) &&
        (!cluster || muted.cluster === cluster)
      );
    });
  for (const scope of scopes) await store.unmute(asker.userId, scope);
  return confirmationMessage(scopes.length ? `Unmuted ${forInlineCode(name, 120)}.` : `${forInlineCode(name, 120)} was not muted.`);
}
