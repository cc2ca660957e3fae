/**
 * `limit` / `continue` pagination with etcd's consistency: the first page takes a snapshot of the
 * (filtered, sorted) list, and continue tokens walk that snapshot. Snapshots are few and bounded;
 * a token whose snapshot was dropped continues from the live list after its last key, and a token
 * older than the compacted history gets 410 Expired, as on a real server.
 */
import type { StoredObject } from './kube-apiserver-store.js';
import { ApiError, EXPIRED_CONTINUE_MESSAGE, badRequest } from './kube-apiserver-status.js';

interface ContinueToken {
  v: 'meta.k8s.io/v1';
  rv: number;
  /** Key of the last object served. */
  start: string;
  snapshot: number;
  offset: number;
}

export interface Page {
  items: StoredObject[];
  /** resourceVersion the list is consistent with. */
  rv: number;
  continueToken?: string;
  remainingItemCount?: number;
}

interface Snapshot { rv: number; items: StoredObject[] }

const MAX_SNAPSHOTS = 16;

function encode(token: ContinueToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decode(text: string): ContinueToken {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as ContinueToken;
    if (token.v === 'meta.k8s.io/v1' && typeof token.rv === 'number' && typeof token.start === 'string') return token;
  } catch {
    // fall through to the error below
  }
  throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

export class Paginator {
  private readonly snapshots = new Map<number, Snapshot>();
  private nextId = 1;

  /**
   * One page. `list` gives the current filtered, sorted objects; it is called only when a
   * snapshot must be taken or rebuilt.
   */
  page(params: {
    list: () => StoredObject[];
    rv: number;
    oldestServable: number;
    limit?: number;
    continueToken?: string;
  }): Page {
    const { limit } = params;
    let snapshotId: number;
    let items: StoredObject[];
    let offset: number;
    let rv: number;
    if (params.continueToken) {
      const token = decode(params.continueToken);
      if (token.rv < params.oldestServable) throw new ApiError(410, EXPIRED_CONTINUE_MESSAGE, 'Expired');
      const snapshot = this.snapshots.get(token.snapshot);
      rv = token.rv;
      if (snapshot) {
        snapshotId = token.snapshot;
        items = snapshot.items;
        offset = token.offset;
      } else {
        items = params.list().filter((o) => o.key > token.start);
        snapshotId = this.remember({ rv, items });
        offset = 0;
      }
    } else {
      rv = params.rv;
      items = params.list();
      if (!limit || items.length <= limit) return { items, rv };
      snapshotId = this.remember({ rv, items });
      offset = 0;
    }
    const end = limit ? Math.min(items.length, offset + limit) : items.length;
    const pageItems = items.slice(offset, end);
    if (end >= items.length) {
      this.snapshots.delete(snapshotId);
      return { items: pageItems, rv };
    }
    const last = pageItems[pageItems.length - 1];
    return {
      items: pageItems,
      rv,
      continueToken: encode({ v: 'meta.k8s.io/v1', rv, start: last.key, snapshot: snapshotId, offset: end }),
      remainingItemCount: items.length - end,
    };
  }

  private remember(snapshot: Snapshot): number {
    const id = this.nextId++;
    this.snapshots.set(id, snapshot);
    if (this.snapshots.size > MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!);
    return id;
  }

  clear(): void {
    this.snapshots.clear();
  }
}
