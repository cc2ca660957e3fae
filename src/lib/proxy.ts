/**
 * The bot's HTTP(S) egress through a proxy, for sites where Slack and the calendar are reachable
 * only that way. undici's EnvHttpProxyAgent does the work (proxy choice per scheme, NO_PROXY
 * matching, CONNECT tunnels); it is given the values config.ts read from the environment, never
 * left to read process.env itself. One dispatcher serves the Slack Web API (and Bolt's
 * response_url posts), Socket Mode's WebSocket and apps.connections.open, and the maintenance
 * feed. The Kubernetes API has its own setting: the kubeconfig's proxy-url, which client-node
 * honours per cluster.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

export interface ProxySettings {
  /** For http:// (and ws://) URLs: HTTP_PROXY / http_proxy. */
  httpProxy?: string;
  /** For https:// (and wss://) URLs: HTTPS_PROXY / https_proxy; undici falls back to httpProxy. */
  httpsProxy?: string;
  /** NO_PROXY / no_proxy: comma- or space-separated hosts (and host:port) reached directly; `*` for all. */
  noProxy?: string;
}

/** The dispatcher to reach the outside through, or undefined when no proxy is set (Node's defaults, as before). */
export function proxyDispatcher(settings: ProxySettings): Dispatcher | undefined {
  if (!settings.httpProxy && !settings.httpsProxy) return undefined;
  // Empty strings, not undefined: undefined would make undici read process.env on its own.
  return new EnvHttpProxyAgent({ httpProxy: settings.httpProxy ?? '', httpsProxy: settings.httpsProxy ?? '', noProxy: settings.noProxy ?? '' });
}

/** A fetch that goes through `dispatcher`, for clients that take a fetch (the Web API client, the feed). */
export function fetchThrough(dispatcher: Dispatcher): typeof fetch {
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as unknown as typeof fetch;
}
