/**
 * Summarises a V8 CPU profile (.cpuprofile, from --cpu-prof or the inspector) into small JSON:
 * the functions with the most self time and the most total time (self + callees), each with
 * where it is, over the whole profile or over its first `--until-ms` milliseconds (start-up to
 * ready, say). `node build/bench/cpu-summary.js FILE.cpuprofile [--until-ms N] > summary.json`
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CpuSummary {
  windowMs: number;
  sampledMs: number;
  topSelf: Array<{ fn: string; where: string; ms: number }>;
  topTotal: Array<{ fn: string; where: string; ms: number }>;
}

export function summariseCpu(file: string, untilMs = Number.POSITIVE_INFINITY, top = 25): CpuSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}\u0000${n.callFrame.url.replace(/^.*\/(node_modules\/|src\/|bench\/|build\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let t = 0;
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] / 1000;
    t += dt;
    if (t > untilMs) break;
    sampled += dt;
    let node = byId.get(profile.samples[i])!;
    const key = label(node);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      node = byId.get(id)!;
      const k = label(node);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const rows = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => {
      const [fn, where] = k.split('\u0000');
      return { fn, where, ms: Math.round(ms) };
    });
  return { windowMs: Math.round(Math.min(untilMs, (profile.endTime - profile.startTime) / 1000)), sampledMs: Math.round(sampled), topSelf: rows(self), topTotal: rows(total).filter((r) => r.fn !== '(root)') };
}

if (process.argv[1]?.endsWith('cpu-summary.js') && process.argv[2]) {
  const i = process.argv.indexOf('--until-ms');
  console.log(JSON.stringify(summariseCpu(process.argv[2], i > 0 ? Number(process.argv[i + 1]) : undefined), null, 1));
}
