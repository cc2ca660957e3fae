/**
 * A Submission for a workload the bot holds as normalised (model.ts Workload: the CR's command,
 * arguments and image, not the CR itself) plus the pods an alert read anyway: their container
 * command, environment names and volumes fill in what the normalised workload does not keep
 * (Run:ai puts the workload's environment and storage into its pods). No API call of its own.
 */
import type { Workload } from '../model.js';
import { submissionOf, type Submission } from './submission.js';

export function submissionOfWorkload(workload: Pick<Workload, 'kind' | 'command' | 'arguments' | 'image'>, pods: readonly unknown[]): Submission {
  const spec: Record<string, unknown> = {};
  if (workload.command !== undefined) spec.command = workload.command;
  if (workload.arguments !== undefined) spec.arguments = workload.arguments;
  if (workload.image !== undefined) spec.image = workload.image;
  return submissionOf({ kind: workload.kind, spec }, pods);
}
