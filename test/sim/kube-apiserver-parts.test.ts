/**
 * The simulated API server's pure parts, row by row: selectors, the AGE column, log cutting,
 * patches and the watch history bound.
 */
import { parseFieldSelector, parseLabelSelector } from '../../src/sim/kube-apiserver-selectors.js';
import { humanDuration } from '../../src/sim/kube-apiserver-table.js';
import { limitBytes, tailLines } from '../../src/sim/kube-apiserver-logs.js';
import { jsonPatch, mergePatch } from '../../src/sim/kube-apiserver-patch.js';
import { ObjectStore } from '../../src/sim/kube-apiserver-store.js';
import { findByName } from '../../src/sim/kube-apiserver-resources.js';
import { ApiError } from '../../src/sim/kube-apiserver-status.js';

const labelled = (labels: Record<string, string>) => ({ metadata: { labels } });

describe('label selectors', () => {
  const obj = labelled({ app: 'train', tier: 'gpu' });
  it.each([
    ['app=train', true],
    ['app==train', true],
    ['app=eval', false],
    ['app!=eval', true],
    ['missing!=x', true],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app in (eval, train)', true],
    ['app notin (eval,train)', false],
    ['missing notin (x)', true],
    ['app=train,tier=cpu', false],
    ['', true],
  ])('%s matches {app: train, tier: gpu}: %s', (selector, expected) => {
    expect(parseLabelSelector(selector)(obj)).toBe(expected);
  });

  it('refuses an unparsable requirement with 400', () => {
    expect(() => parseLabelSelector('a in (b')).toThrow(ApiError);
  });
});

describe('field selectors', () => {
  const event = { metadata: { name: 'e1', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'p-0' }, reason: 'BackOff' };
  it.each([
    ['involvedObject.name=p-0,involvedObject.kind=Pod', true],
    ['involvedObject.kind==PodGroup', false],
    ['reason!=BackOff', false],
    ['metadata.namespace=ns', true],
    ['spec.nodeName=', true],
  ])('%s on a BackOff event of pod p-0: %s', (selector, expected) => {
    expect(parseFieldSelector(selector)(event)).toBe(expected);
  });
});

describe('AGE column', () => {
  it.each([
    [0, '0s'], [59_000, '59s'], [119_000, '119s'], [125_000, '2m5s'], [600_000, '10m'], [3_600_000, '60m'],
    [3 * 3_600_000 + 60_000, '3h1m'], [10 * 3_600_000, '10h'], [50 * 3_600_000, '2d2h'], [30 * 86_400_000, '30d'],
    [3 * 365 * 86_400_000, '3y'], [-5_000, '<invalid>'],
  ])('%d ms prints as %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('log cutting', () => {
  it.each([
    ['a\nb\nc\n', 2, 'b\nc\n'],
    ['a\nb\nc', 2, 'b\nc'],
    ['a\nb\n', 5, 'a\nb\n'],
    ['a\nb\n', 0, ''],
  ])('tailLines(%j, %d) = %j', (text, n, expected) => {
    expect(tailLines(text, n)).toBe(expected);
  });

  it('limits by bytes, not characters', () => {
    expect(limitBytes('héllo', 3)).toBe('hé');
  });
});

describe('patches', () => {
  it('merge patch sets, replaces and deletes (null) keys', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: null, e: 4 }, f: [1] })).toEqual({ a: 1, b: { d: 3, e: 4 }, f: [1] });
  });

  it('JSON patch adds, replaces, removes and tests', () => {
    const doc = { metadata: { labels: { a: '1' } }, spec: { items: [1, 2] } };
    expect(jsonPatch(doc, [
      { op: 'test', path: '/metadata/labels/a', value: '1' },
      { op: 'add', path: '/metadata/labels/runai~1queue', value: 'nlp' },
      { op: 'replace', path: '/spec/items/0', value: 9 },
      { op: 'add', path: '/spec/items/-', value: 3 },
      { op: 'remove', path: '/metadata/labels/a' },
    ])).toEqual({ metadata: { labels: { 'runai/queue': 'nlp' } }, spec: { items: [9, 2, 3] } });
    expect(() => jsonPatch(doc, [{ op: 'test', path: '/metadata/labels/a', value: '2' }])).toThrow(ApiError);
  });
});

describe('watch history', () => {
  const pods = findByName('pods')!;
  const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' } });

  it('keeps the last historyLimit changes and calls anything older too old (410)', () => {
    const store = new ObjectStore({ historyLimit: 3, now: () => new Date(0) });
    const start = store.resourceVersion;
    for (const name of ['a', 'b', 'c', 'd', 'e']) store.put(pods, pod(name));
    expect(store.changesAfter(start + 2).map((c) => c.stored.obj.metadata.name)).toEqual(['c', 'd', 'e']);
    expect(() => store.changesAfter(start + 1)).toThrow(expect.objectContaining({ code: 410 }));
  });

  it('gives every write a new, increasing resourceVersion, deletes included', () => {
    const store = new ObjectStore({ historyLimit: 10, now: () => new Date(0) });
    const a = store.put(pods, pod('a'));
    const b = store.put(pods, pod('a'));
    const gone = store.remove(pods, 'ns', 'a')!;
    const versions = [a, b, gone].map((s) => Number(s.obj.metadata.resourceVersion));
    expect(versions).toEqual([versions[0], versions[0] + 1, versions[0] + 2]);
    expect(b.obj.metadata.uid).toBe(a.obj.metadata.uid);
  });
});
