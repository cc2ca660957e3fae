/**
 * How messages name the cluster a workload runs in. Only a workload of a named cluster carries
 * `cluster` (the bot watches several, `clusters:`); with one cluster configured the old way it
 * is absent and every message reads exactly as it did before clusters had names. Cluster names
 * come from the config, yet they are escaped like any other text the bot did not write itself.
 */
import { forInlineCode, forMrkdwn } from './mrkdwn.js';

/** A cluster name is shown whole up to a DNS label's length; longer ones are cut. */
export const CLUSTER_MAX = 63;

interface Placed {
  cluster?: string;
}

/** " on cluster *gpu-east*" after a sentence about the workload, or nothing. */
export function onCluster(w: Placed): string {
  return w.cluster ? ` on cluster *${forMrkdwn(w.cluster, CLUSTER_MAX)}*` : '';
}

/** ", cluster gpu-east" inside a parenthesis of plain text (fallback texts), not yet escaped. */
export function clusterNote(w: Placed): string {
  return w.cluster ? `, cluster ${w.cluster}` : '';
}

/** "gpu-east/train-1": what to type to name this workload; the bare name with one cluster. Not escaped. */
export function qualifiedName(w: Placed & { name: string }): string {
  return w.cluster ? `${w.cluster}/${w.name}` : w.name;
}

/** A message field naming the cluster, or nothing (the fields builder drops it). */
export function clusterField(w: Placed): [string, string | undefined] {
  return ['Cluster', w.cluster ? forMrkdwn(w.cluster, CLUSTER_MAX) : undefined];
}

/** The cluster as inline code, for lists of choices. */
export function clusterCode(cluster: string): string {
  return forInlineCode(cluster, CLUSTER_MAX);
}

/** The name as inline code, prefixed by its cluster when it has one; the bare name keeps its old limit. */
export function nameCode(w: Placed & { name: string }, max = 120): string {
  return forInlineCode(qualifiedName(w), w.cluster ? max + CLUSTER_MAX + 1 : max);
}
