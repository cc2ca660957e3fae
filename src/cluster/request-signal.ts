/**
 * client-node's generated APIs (CoreV1Api, CustomObjectsApi, CoordinationV1Api, …) take no
 * AbortSignal argument; a request middleware puts the signal on the request instead, so a read
 * nobody waits for any more (lib/timeout.ts) is cancelled rather than left holding a connection.
 */
import { Observable, type ConfigurationOptions, type RequestContext, type ResponseContext } from '@kubernetes/client-node';

export function withSignal(signal: AbortSignal): ConfigurationOptions;
export function withSignal(signal: AbortSignal | undefined): ConfigurationOptions | undefined;
export function withSignal(signal: AbortSignal | undefined): ConfigurationOptions | undefined {
  if (!signal) return undefined;
  return {
    middleware: [
      {
        pre: (context: RequestContext) => {
          context.setSignal(signal);
          return new Observable(Promise.resolve(context));
        },
        post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}
