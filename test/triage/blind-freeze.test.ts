import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { BLIND_HELD_OUT_SHARE, blindSplitOf, type BlindEntry } from '../../bench/triage-accuracy.js';
import { CATEGORIES } from '../../src/triage/categories.js';

/**
 * The blind set (test/fixtures/logs/blind) was labelled before the triage ran on it and its
 * held-out split is frozen: the held-out labels and files must hash to the digest recorded in
 * held-out.sha256. Changing one fails here until someone re-freezes on purpose (a new digest,
 * in a commit that says why; see the set's README).
 */
const dir = new URL('../fixtures/logs/blind/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as Record<string, BlindEntry>;
const recorded = readFileSync(new URL('held-out.sha256', dir), 'utf8').split(/\s/)[0];
const names = Object.keys(manifest);
const readLog = (name: string): Buffer => readFileSync(new URL(name, dir));

/** JSON with the keys of every object sorted, so reformatting the manifest keeps the digest. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * SHA-256 over the logs the split rule holds out (by name, not by their `split` field, so
 * relabelling a log as dev does not take it out): each name, its entry and its file's bytes.
 */
function heldOutDigest(entries: Record<string, BlindEntry>, read: (name: string) => Buffer): string {
  const digest = createHash('sha256');
  for (const name of Object.keys(entries).filter((n) => blindSplitOf(n) === 'held-out').sort()) {
    const file = createHash('sha256').update(read(name)).digest('hex');
    digest.update(`${name}\n${canonical(entries[name])}\n${file}\n`);
  }
  return digest.digest('hex');
}

describe('the blind triage set', () => {
  it('labels every log in the folder, each with its thread, a category and its expected line found in the log', () => {
    const logs = readdirSync(dir).filter((f) => f.endsWith('.log')).sort();
    expect(names.slice().sort()).toEqual(logs);
    expect(new Set(names.map((n) => manifest[n].source)).size).toBe(names.length);
    for (const name of names) {
      const e = manifest[name];
      expect([name, e.source]).toEqual([name, expect.stringMatching(/^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull)\/\d+$/)]);
      expect([name, e.category in CATEGORIES, typeof e.transient, typeof e.year, typeof e.framework]).toEqual([name, true, 'boolean', 'number', 'string']);
      const text = readLog(name).toString('utf8');
      for (const want of [e.line, ...(e.alternatives ?? [])]) if (want !== null) expect([name, want, text.includes(want)]).toEqual([name, want, true]);
    }
  });

  it('keeps each log in the split its name hashes to, about 70 % and at least 110 logs held out', () => {
    for (const name of names) expect([name, manifest[name].split]).toEqual([name, blindSplitOf(name)]);
    const heldOut = names.filter((n) => manifest[n].split === 'held-out').length;
    expect(heldOut).toBeGreaterThanOrEqual(110);
    expect(Math.abs(heldOut / names.length - BLIND_HELD_OUT_SHARE)).toBeLessThan(0.1);
  });

  it('matches the digest recorded when the held-out split was frozen', () => {
    expect(heldOutDigest(manifest, readLog)).toBe(recorded);
  });

  it('changes the digest when a held-out label or file changes, and not for the dev split', () => {
    const heldOut = names.find((n) => blindSplitOf(n) === 'held-out')!;
    const dev = names.find((n) => blindSplitOf(n) === 'dev')!;
    const base = heldOutDigest(manifest, readLog);
    const relabelled = { ...manifest, [heldOut]: { ...manifest[heldOut], category: 'other' as const, split: 'dev' as const } };
    expect(heldOutDigest(relabelled, readLog)).not.toBe(base);
    const edited = (name: string): Buffer => (name === heldOut ? Buffer.concat([readLog(name), Buffer.from('\n')]) : readLog(name));
    expect(heldOutDigest(manifest, edited)).not.toBe(base);
    const devRelabelled = { ...manifest, [dev]: { ...manifest[dev], transient: !manifest[dev].transient } };
    expect(heldOutDigest(devRelabelled, readLog)).toBe(base);
  });
});
