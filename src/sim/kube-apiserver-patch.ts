/**
 * PATCH bodies: JSON merge patch (RFC 7386), JSON patch (RFC 6902), and strategic merge patch
 * taken as a merge patch. That is exact for maps and scalars; a strategic patch of a list
 * replaces the list here where the real server merges by key (no client of this project relies
 * on the difference).
 */
import { ApiError, badRequest } from './kube-apiserver-status.js';

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mergePatch(target: Json, patch: Json): Json {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, Json> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

interface JsonPatchOp { op: string; path: string; value?: Json; from?: string }

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`invalid JSON pointer: ${path}`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: Json, tokens: string[]): { parent: Record<string, Json> | Json[]; key: string } {
  let node: Json = doc;
  for (const token of tokens.slice(0, -1)) {
    if (!isPlainObject(node) && !Array.isArray(node)) throw badRequest(`path not found: /${tokens.join('/')}`);
    node = (node as Record<string, Json>)[token];
  }
  if (!isPlainObject(node) && !Array.isArray(node)) throw badRequest(`path not found: /${tokens.join('/')}`);
  return { parent: node, key: tokens[tokens.length - 1] };
}

function read(doc: Json, path: string): Json {
  let node: Json = doc;
  for (const token of pointer(path)) node = (node as Record<string, Json> | undefined)?.[token];
  return node;
}

export function jsonPatch(doc: Json, ops: JsonPatchOp[]): Json {
  const out = structuredClone(doc);
  for (const op of ops) {
    const tokens = pointer(op.path);
    if (tokens.length === 0) throw badRequest('JSON patch on the whole document is not supported');
    const { parent, key } = parentOf(out, tokens);
    const value = op.op === 'copy' || op.op === 'move' ? structuredClone(read(out, op.from ?? '')) : op.value;
    if (op.op === 'move') {
      const from = parentOf(out, pointer(op.from ?? ''));
      if (Array.isArray(from.parent)) from.parent.splice(Number(from.key), 1);
      else delete from.parent[from.key];
    }
    switch (op.op) {
      case 'add': case 'copy': case 'move':
        if (Array.isArray(parent)) parent.splice(key === '-' ? parent.length : Number(key), 0, value);
        else parent[key] = value;
        break;
      case 'replace':
        if (Array.isArray(parent)) parent[Number(key)] = value;
        else parent[key] = value;
        break;
      case 'remove':
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
        break;
      case 'test':
        if (JSON.stringify(read(out, op.path)) !== JSON.stringify(op.value)) {
          throw new ApiError(422, `the test operation failed at ${op.path}`, 'Invalid');
        }
        break;
      default:
        throw badRequest(`unknown JSON patch operation: ${op.op}`);
    }
  }
  return out;
}

/** Applies a PATCH body by its Content-Type, or throws 415 for what is not supported. */
export function applyPatch(doc: Json, contentType: string | undefined, body: Json): Json {
  const type = (contentType ?? '').split(';')[0].trim();
  if (type === 'application/json-patch+json') {
    if (!Array.isArray(body)) throw badRequest('a JSON patch must be an array of operations');
    return jsonPatch(doc, body as JsonPatchOp[]);
  }
  if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
    return mergePatch(doc, body);
  }
  throw new ApiError(415, `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`, 'UnsupportedMediaType');
}
