/**
 * Start-up failures an operator can fix, each as one line naming the setting and the fix: the
 * start command prints it and exits non-zero instead of leaving a half-started process.
 */
import { redactUrl } from '../store/url.js';

export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

function codeOf(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e?.code ?? e?.message ?? String(err);
}

/** A port the bot must listen on could not be taken. `key` is the setting that chose it. */
export function listenError(err: unknown, key: string, port: number): StartupError {
  const code = codeOf(err);
  if (code === 'EADDRINUSE') return new StartupError(`${key} ${port} is in use: set ${key} to a free port`, { cause: err });
  if (code === 'EACCES') return new StartupError(`${key} ${port} needs privileges the bot does not have: set ${key} to a port above 1023`, { cause: err });
  return new StartupError(`cannot listen on ${key} ${port} (${code}): set ${key} to a free port`, { cause: err });
}

export function storeError(err: unknown, where: { path: string } | { url: string }): StartupError {
  if ('url' in where) {
    return new StartupError(
      `store.url ${redactUrl(where.url)} cannot be opened for writing (${codeOf(err)}): check that PostgreSQL is reachable, the database exists and the user may create tables in it`,
      { cause: err },
    );
  }
  const { path } = where;
  return new StartupError(
    `store.path ${path} cannot be opened for writing (${codeOf(err)}): set store.path to a writable file on a persistent volume`,
    { cause: err },
  );
}

export function kubeconfigError(err: unknown, path: string | undefined): StartupError {
  const where = path ? `KUBECONFIG ${path}` : 'the default kubeconfig (~/.kube/config or in-cluster credentials)';
  return new StartupError(
    `${where} cannot be read (${codeOf(err).split('\n')[0]}): point KUBECONFIG at a readable kubeconfig, or run in-cluster with a service account`,
    { cause: err },
  );
}

/**
 * Error text safe to log: tokens, signing secrets and Socket Mode tickets (a websocket URL is
 * a one-use credential) are cut out. Messages from libraries may carry any of them.
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(/\bxox[a-z]-[A-Za-z0-9-]+/g, 'xox?-[REDACTED]')
    .replace(/\bxapp-[A-Za-z0-9-]+/g, 'xapp-[REDACTED]')
    .replace(/\b(?:wss?|https?):\/\/[^\s"'`]*[?&]ticket=[^\s"'`]*/gi, '<url with ticket>')
    .replace(/([?&]ticket=)[^\s&"'`]+/gi, '$1[REDACTED]');
}
