/**
 * Reading a Web API request the way Slack does: form-encoded (the WebClient's format, with
 * objects as JSON strings inside fields) or JSON, the token from `Authorization: Bearer` or,
 * for form posts, a `token` field.
 */
import type { IncomingMessage } from 'node:http';
import type { Json } from './slack-methods.js';

/** Form fields the WebClient sends as JSON strings, and the error Slack gives when one is malformed. */
const JSON_FIELDS: Record<string, string> = {
  blocks: 'invalid_blocks_format',
  attachments: 'invalid_attachments',
  view: 'invalid_arguments',
  files: 'invalid_arguments',
};

export type ParsedArgs = { args: Json; token: string | undefined } | { error: string; token: string | undefined };

export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readRawBody(req)).toString('utf8');
}

/** The body's bytes as sent (a file's content is not text). */
export function readRawBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function parseApiArgs(raw: string, contentType: string | undefined, authorization: string | undefined): ParsedArgs {
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const isJson = (contentType ?? '').startsWith('application/json');
  let args: Json;
  if (isJson) {
    try {
      const parsed: unknown = raw.length > 0 ? JSON.parse(raw) : {};
      args = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
    } catch {
      return { error: 'invalid_json', token: bearer };
    }
  } else {
    args = Object.fromEntries(new URLSearchParams(raw));
    for (const [field, error] of Object.entries(JSON_FIELDS)) {
      if (typeof args[field] !== 'string') continue;
      try {
        args[field] = JSON.parse(args[field] as string);
      } catch {
        return { error, token: bearer ?? formToken(args) };
      }
    }
  }
  // Slack reads a token from the body of form posts only; JSON posts need the header.
  const token = bearer ?? (isJson ? undefined : formToken(args));
  delete args.token;
  return { args, token };
}

function formToken(args: Json): string | undefined {
  return typeof args.token === 'string' && args.token.length > 0 ? args.token : undefined;
}
