/**
 * Summarises a V8 heap snapshot (.heapsnapshot, as written by v8.writeHeapSnapshot) into a small
 * JSON: totals by node type, the constructors with the most self size, and the objects that
 * retain the most (retained size from the dominator tree, weak edges ignored as DevTools does).
 * `node build/bench/heap-summary.js FILE.heapsnapshot > summary.json`
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapSummary {
  nodes: number;
  totalBytes: number;
  byType: Array<{ type: string; count: number; bytes: number }>;
  topConstructorsBySelf: Array<{ name: string; count: number; bytes: number }>;
  topRetainers: Array<{ type: string; name: string; retainedBytes: number; selfBytes: number; heldBy: string }>;
}

export function summariseHeap(file: string, top = 25): HeapSummary {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const nf = snap.snapshot.meta.node_fields;
  const ef = snap.snapshot.meta.edge_fields;
  const nodeTypes = snap.snapshot.meta.node_types[0];
  const edgeTypes = snap.snapshot.meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const [tOff, nOff, sOff, cOff] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [etOff, enOff, toOff] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');
  const count = snap.nodes.length / N;
  const self = new Float64Array(count);
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    self[i] = snap.nodes[i * N + sOff];
    firstEdge[i] = e;
    e += snap.nodes[i * N + cOff] * E;
    firstEdge[i + 1] = e;
  }
  const typeOf = (i: number) => nodeTypes[snap.nodes[i * N + tOff]];
  const nameOf = (i: number) => snap.strings[snap.nodes[i * N + nOff]];
  const strong = (e: number) => snap.edges[e + etOff] !== weak && snap.edges[e + etOff] !== shortcut;

  // Depth-first post order from the root (node 0) over strong edges.
  const order = new Int32Array(count).fill(-1);
  const post: number[] = [];
  const stack: number[] = [0];
  const cursor = new Uint32Array(count);
  order[0] = -2;
  cursor[0] = firstEdge[0];
  while (stack.length) {
    const n = stack[stack.length - 1];
    if (cursor[n] < firstEdge[n + 1]) {
      const e = cursor[n];
      cursor[n] += E;
      if (!strong(e)) continue;
      const to = snap.edges[e + toOff] / N;
      if (order[to] === -1) {
        order[to] = -2;
        cursor[to] = firstEdge[to];
        stack.push(to);
      }
    } else {
      stack.pop();
      order[n] = post.length;
      post.push(n);
    }
  }
  // Predecessors of reachable nodes.
  const predCount = new Uint32Array(count + 1);
  for (let n = 0; n < count; n++) {
    if (order[n] < 0) continue;
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += E) if (strong(e)) predCount[snap.edges[e + toOff] / N + 1]++;
  }
  for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i];
  const preds = new Uint32Array(predCount[count]);
  const fill = predCount.slice();
  for (let n = 0; n < count; n++) {
    if (order[n] < 0) continue;
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += E) if (strong(e)) preds[fill[snap.edges[e + toOff] / N]++] = n;
  }
  // Cooper, Harvey and Kennedy: iterate in reverse post order until the dominators settle.
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a] < order[b]) a = idom[a];
      while (order[b] < order[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = post.length - 1; k >= 0; k--) {
      const n = post[k];
      if (n === 0) continue;
      let d = -1;
      for (let p = predCount[n]; p < predCount[n + 1]; p++) {
        const q = preds[p];
        if (idom[q] === -1) continue;
        d = d === -1 ? q : intersect(q, d);
      }
      if (d !== -1 && idom[n] !== d) {
        idom[n] = d;
        changed = true;
      }
    }
  }
  const retained = Float64Array.from(self);
  for (const n of post) if (n !== 0 && idom[n] >= 0) retained[idom[n]] += retained[n];

  const byType = new Map<string, { count: number; bytes: number }>();
  const byCtor = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (order[n] < 0) continue;
    total += self[n];
    const t = typeOf(n);
    const bt = byType.get(t) ?? { count: 0, bytes: 0 };
    bt.count++;
    bt.bytes += self[n];
    byType.set(t, bt);
    const key = t === 'object' || t === 'closure' || t === 'native' ? nameOf(n) : `(${t})`;
    const bc = byCtor.get(key) ?? { count: 0, bytes: 0 };
    bc.count++;
    bc.bytes += self[n];
    byCtor.set(key, bc);
  }
  // The biggest retainers that are real objects (not V8's synthetic roots), with the edge that holds each.
  const heldBy = (n: number) => {
    const p = idom[n];
    for (let e = firstEdge[p]; e < firstEdge[p + 1]; e += E) {
      if (snap.edges[e + toOff] / N !== n) continue;
      const et = edgeTypes[snap.edges[e + etOff]];
      const name = et === 'element' || et === 'hidden' ? `[${snap.edges[e + enOff]}]` : snap.strings[snap.edges[e + enOff]];
      return `${nameOf(p).slice(0, 60)}.${name}`;
    }
    return nameOf(p).slice(0, 60);
  };
  const candidates = post.filter((n) => typeOf(n) !== 'synthetic' && retained[n] > 256 * 1024).sort((a, b) => retained[b] - retained[a]);
  // Skip an object whose dominator is already listed with nearly the same size (one chain, one entry).
  const listed: number[] = [];
  for (const n of candidates) {
    if (listed.length >= top) break;
    if (listed.some((m) => idom[n] === m && retained[n] > 0.9 * retained[m])) {
      listed[listed.indexOf(idom[n])] = n;
      continue;
    }
    listed.push(n);
  }
  const sorted = <T extends { bytes: number }>(m: Map<string, T>) => [...m].map(([k, v]) => ({ key: k, ...v })).sort((a, b) => b.bytes - a.bytes);
  return {
    nodes: post.length,
    totalBytes: total,
    byType: sorted(byType).map(({ key, ...v }) => ({ type: key, ...v })),
    topConstructorsBySelf: sorted(byCtor).slice(0, top).map(({ key, ...v }) => ({ name: key.slice(0, 80), ...v })),
    topRetainers: listed.map((n) => ({ type: typeOf(n), name: nameOf(n).slice(0, 80), retainedBytes: retained[n], selfBytes: self[n], heldBy: heldBy(n) })),
  };
}

if (process.argv[1]?.endsWith('heap-summary.js') && process.argv[2]) {
  console.log(JSON.stringify(summariseHeap(process.argv[2]), null, 1));
}
