/**
 * A kubeconfig for the simulated API server: plain http on 127.0.0.1 with a bearer token.
 * `insecure-skip-tls-verify: true` is required: @kubernetes/client-node 1.4.0 refuses an http://
 * server without it (see DESIGN.md), and kubectl accepts it.
 */
import { stringify } from 'yaml';

export interface KubeconfigParams {
  server: string;
  token: string;
  /** Name of the cluster, user and context (default `runai-sim`). */
  name?: string;
  namespace?: string;
}

export function kubeconfigYaml({ server, token, name = 'runai-sim', namespace }: KubeconfigParams): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: { token } }],
    contexts: [{ name, context: { cluster: name, user: name, ...(namespace ? { namespace } : {}) } }],
    'current-context': name,
    preferences: {},
  });
}
