/**
 * Kubernetes `Status` objects: what the API server answers on failure, and what a watch sends as
 * an ERROR event. Reasons are the real server's `metav1.StatusReason` values.
 */

export const REASON_BY_CODE: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export interface StatusDetails { name?: string; group?: string; kind?: string }

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: StatusDetails;
  code: number;
}

export function failureStatus(code: number, message: string, reason?: string, details?: StatusDetails): KubeStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: reason ?? REASON_BY_CODE[code] ?? 'Unknown',
    ...(details ? { details } : {}),
    code,
  };
}

/** An error that the HTTP layer turns into a Status response with its code. */
export class ApiError extends Error {
  readonly status: KubeStatus;

  constructor(code: number, message: string, reason?: string, details?: StatusDetails) {
    super(message);
    this.name = 'ApiError';
    this.status = failureStatus(code, message, reason, details);
  }

  get code(): number {
    return this.status.code;
  }
}

export function notFound(plural: string, name: string, group = ''): ApiError {
  const what = group ? `${plural}.${group}` : plural;
  return new ApiError(404, `${what} "${name}" not found`, 'NotFound', { name, group: group || undefined, kind: plural });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, message, 'BadRequest');
}

/** The message the real server gives for a watch or list from a compacted resourceVersion. */
export function tooOldResourceVersion(requested: string | number, oldest: number): ApiError {
  return new ApiError(410, `too old resource version: ${requested} (${oldest})`, 'Expired');
}

export const EXPIRED_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new ' +
  'list without the continue parameter, or use the continue token in this response to retrieve the ' +
  'remainder of the results. Continuing with the provided token results in an inconsistent list - objects ' +
  'that were created, modified, or deleted between the time the first chunk was returned and now may show ' +
  'up in the list.';
