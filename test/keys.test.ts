import {
  alertKey,
  archiveProblemKey,
  archiveRecoveredKey,
  burstDestinationKey,
  burstRewriteKey,
  chainInCluster,
  followUpChain,
  followUpKey,
  rootEditKey,
  cleanupKey,
  keyInCluster,
  maintenanceKey,
  opsBurstKey,
  parseBurstDestination,
  parseKey,
  refusedChannelKey,
  prunableKeys,
  stuckKey,
  tipKey,
  tipWeek,
  workloadOfKey,
  type BurstDestination,
  type Key,
} from '../src/keys.js';

const UID = '3f2b9c1e-7d4a-4e8b-9a61-0c5d2e8f1a77';
const DAY = new Date('2026-11-30T23:59:59.999Z');

describe('keys: each kind built and read back', () => {
  const rows: Array<[string, string, Key]> = [
    ['an alert in the unnamed cluster', alertKey(UID, 'Failed'), { kind: 'alert', workload: UID, state: 'Failed' }],
    ['an alert in a named cluster', alertKey(`gpu-east/${UID}`, 'Completed'), { kind: 'alert', workload: `gpu-east/${UID}`, state: 'Completed' }],
    ['a stuck warning', stuckKey(`gpu-east/${UID}`, 'Pending'), { kind: 'stuck', workload: `gpu-east/${UID}`, state: 'Pending' }],
    ['a stuck warning while initializing', stuckKey(UID, 'Initializing'), { kind: 'stuck', workload: UID, state: 'Initializing' }],
    ['an id with odd but legal characters', alertKey('u.1_%x', 'Stopped'), { kind: 'alert', workload: 'u.1_%x', state: 'Stopped' }],
    ['a burst rewrite', burstRewriteKey(alertKey(`gpu-east/${UID}`, 'Failed')), { kind: 'burst', anchor: `wl:gpu-east/${UID}:Failed` }],
    ['an operators\' summary', opsBurstKey(new Date('2026-11-30T10:00:00.000Z')), { kind: 'ops-burst', openedAt: '2026-11-30T10:00:00.000Z' }],
    ['a cleanup nudge', cleanupKey('alice@example.org', DAY), { kind: 'cleanup', owner: 'alice@example.org', day: '2026-11-30' }],
    ['a cleanup nudge for an owner holding colons', cleanupKey('oidc:team:alice', DAY), { kind: 'cleanup', owner: 'oidc:team:alice', day: '2026-11-30' }],
    ['a log-saving tip', tipKey('alice@example.org', 'masked-exit', 2917), { kind: 'tip', finding: 'masked-exit', week: 2917, owner: 'alice@example.org' }],
    ['a tip for an owner holding colons', tipKey('oidc:team:alice', 'buffered-output', 0), { kind: 'tip', finding: 'buffered-output', week: 0, owner: 'oidc:team:alice' }],
    ['a maintenance reminder', maintenanceKey('uid-1|2026-12-01T08:00:00.000Z#advance:86400000'), { kind: 'maintenance', reminder: 'uid-1|2026-12-01T08:00:00.000Z#advance:86400000' }],
    ['a feed notice', maintenanceKey('feed:2026-11-30T10:00:00.000Z:failing'), { kind: 'maintenance', reminder: 'feed:2026-11-30T10:00:00.000Z:failing' }],
    ['an archive problem', archiveProblemKey('disk-full', 3), { kind: 'archive-problem', problem: 'disk-full', generation: 3 }],
    ['an archive recovery', archiveRecoveredKey(0), { kind: 'archive-recovered', generation: 0 }],
    ['a refused channel\'s daily notice', refusedChannelKey('C0FALLBACK', new Date('2026-11-30T23:59:00Z')), { kind: 'refused-channel', channel: 'C0FALLBACK', day: '2026-11-30' }],
  ];
  it.each(rows)('%s', (_, key, parsed) => {
    expect(parseKey(key)).toEqual(parsed);
  });

  it('spells the kinds as the ledgers of earlier releases hold them', () => {
    expect([alertKey('u1', 'Failed'), stuckKey('gpu-east/u1', 'Pending'), burstRewriteKey('wl:u1:Failed'), opsBurstKey(new Date(0)), cleanupKey('bob', DAY)]).toEqual([
      'wl:u1:Failed',
      'wl:gpu-east/u1:stuck-Pending',
      'burst:wl:u1:Failed',
      'ops-burst:1970-01-01T00:00:00.000Z',
      'cleanup:bob:2026-11-30',
    ]);
    expect([maintenanceKey('w#start'), archiveProblemKey('unwritable', 0), archiveRecoveredKey(2)]).toEqual(['mw:w#start', 'archive:problem:unwritable:0', 'archive:recovered:2']);
  });
});

describe('keys: strings that are not keys', () => {
  it.each([
    ['empty', ''],
    ['a prefix alone', 'wl:'],
    ['no state', 'wl:u1'],
    ['an empty id', 'wl::Failed'],
    ['a state the guide does not have', 'wl:u1:Exploded'],
    ['a state in the wrong case', 'wl:u1:failed'],
    ['a state with something after it', 'wl:u1:Failed:stuck'],
    ['an empty cluster name', 'wl:/u1:Failed'],
    ['an empty uid', 'wl:gpu-east/:Failed'],
    ['two slashes', 'wl:a/b/c:Failed'],
    ['a burst of nothing', 'burst:'],
    ['an operators\' summary of nothing', 'ops-burst:'],
    ['a cleanup nudge without a day', 'cleanup:alice'],
    ['a cleanup nudge with a bad day', 'cleanup:alice:monday'],
    ['a cleanup nudge without an owner', 'cleanup::2026-11-30'],
    ['a tip without a week', 'tip:masked-exit:alice'],
    ['a tip without an owner', 'tip:masked-exit:12:'],
    ['a tip without a finding', 'tip::12:alice'],
    ['an archive problem without a generation', 'archive:problem:disk-full'],
    ['an archive recovery that is not a number', 'archive:recovered:x'],
    ['a refused channel without a day', 'refused:C0FALLBACK'],
    ['a refused channel without a channel', 'refused::2026-11-30'],
    ['an unknown kind', 'upd:wl:u1:Failed'],
    ['a kind in the middle', 'x:wl:u1:Failed'],
  ])('%s', (_, text) => {
    expect(parseKey(text)).toBeUndefined();
  });
});

describe('keys: the workload a key is about', () => {
  it.each([
    [alertKey('u1', 'Failed'), 'u1'],
    [stuckKey('gpu-east/u1', 'Pending'), 'gpu-east/u1'],
    [burstRewriteKey(alertKey('gpu-west/u2', 'Failed')), 'gpu-west/u2'],
    [burstRewriteKey('mw:w1'), undefined],
    [opsBurstKey(new Date(0)), undefined],
    [cleanupKey('wl', DAY), undefined],
    [tipKey('wl:u1:Failed', 'masked-exit', 1), undefined],
    ['mw:x:wl:u1:Failed', undefined],
  ])('%s → %s', (key, workload) => {
    expect(workloadOfKey(key)).toBe(workload);
  });

  it('keeps a live workload\'s keys from retention and lets everything else prunable go', () => {
    const keys = [alertKey('gone', 'Failed'), alertKey('live', 'Failed'), burstRewriteKey(alertKey('gone', 'Failed')), burstRewriteKey(alertKey('live', 'Failed')), opsBurstKey(new Date(0)), cleanupKey('live', DAY)];
    expect(prunableKeys(keys, new Set(['live']))).toEqual(['wl:gone:Failed', 'burst:wl:gone:Failed', 'ops-burst:1970-01-01T00:00:00.000Z', 'cleanup:live:2026-11-30']);
  });

  it('counts tip weeks in whole UTC weeks since the epoch', () => {
    expect(tipWeek(new Date(0))).toBe(0);
    expect(tipWeek(new Date(7 * 86_400_000 - 1))).toBe(0);
    expect(tipWeek(new Date(7 * 86_400_000))).toBe(1);
    expect(tipKey('bob', 'masked-exit', tipWeek(DAY))).toBe(`tip:masked-exit:${Math.floor(DAY.getTime() / (7 * 86_400_000))}:bob`);
  });
});

describe('keys: the same key once the unnamed cluster is named', () => {
  it.each([
    ['an alert', alertKey(UID, 'Failed'), `wl:gpu-east/${UID}:Failed`],
    ['a stuck warning', stuckKey(UID, 'Pending'), `wl:gpu-east/${UID}:stuck-Pending`],
    ['a burst rewrite', burstRewriteKey(alertKey(UID, 'Failed')), `burst:wl:gpu-east/${UID}:Failed`],
    ['an alert already in a named cluster', alertKey(`gpu-west/${UID}`, 'Failed'), undefined],
    ['a rewrite already in a named cluster', burstRewriteKey(alertKey(`gpu-west/${UID}`, 'Failed')), undefined],
    ['a cleanup nudge (about a person)', cleanupKey('alice', DAY), undefined],
    ['a tip (about a person)', tipKey('alice', 'masked-exit', 3), undefined],
    ['a maintenance reminder', maintenanceKey('w1#start'), undefined],
    ['a follow-up in the thread of an alert', followUpKey(UID, 2, 'resubmitted'), `fu:gpu-east/${UID}:2-resubmitted`],
    ['the edit of an alert\'s first line', rootEditKey(alertKey(UID, 'Failed')), `fu-root:wl:gpu-east/${UID}:Failed`],
    ['a follow-up already in a named cluster', followUpKey(`gpu-west/${UID}`, 1, 'deleted'), undefined],
    ['a root edit already in a named cluster', rootEditKey(alertKey(`gpu-west/${UID}`, 'Stopped')), undefined],
    ['not a key', 'wl:u1:Exploded', undefined],
  ])('%s', (_, key, named) => {
    expect(keyInCluster(key, 'gpu-east')).toBe(named);
  });

  it('names a follow-up chain of the unnamed cluster, and leaves a named one alone', () => {
    expect(chainInCluster(followUpChain({ namespace: 'runai-vision', name: 'resnet' }), 'gpu-east')).toBe(followUpChain({ cluster: 'gpu-east', namespace: 'runai-vision', name: 'resnet' }));
    expect(chainInCluster(followUpChain({ cluster: 'gpu-west', namespace: 'runai-vision', name: 'resnet' }), 'gpu-east')).toBeUndefined();
  });
});

describe('keys: burst destinations', () => {
  it.each<[string, BurstDestination, string]>([
    ['an owner\'s Slack user', { kind: 'user', user: 'U012AB3CD' }, 'user:U012AB3CD'],
    ['a project\'s channel', { kind: 'channel', channel: 'C0PROJ', project: 'vision' }, 'channel:C0PROJ:vision'],
    ['a project name with a colon', { kind: 'channel', channel: 'C0PROJ', project: 'team:vision' }, 'channel:C0PROJ:team:vision'],
    ['the fallback channel for a workload of no project', { kind: 'channel', channel: 'C0FALL', project: '' }, 'channel:C0FALL:'],
  ])('%s', (_, destination, key) => {
    expect(burstDestinationKey(destination)).toBe(key);
    expect(parseBurstDestination(key)).toEqual(destination);
  });

  it.each(['', 'user:', 'channel:', 'channel::vision', 'channel:C1', 'U1'])('%j is none', (key) => {
    expect(parseBurstDestination(key)).toBeUndefined();
  });
});

describe('follow-up keys', () => {
  it('reads a follow-up key back into its workload, number and event, in a named cluster and the unnamed one', async () => {
    const { followUpKey, rootEditKey, followUpChain, parseKey: parse, workloadOfKey: of, prunableKeys: prunable } = await import('../src/keys.js');
    expect(parse(followUpKey('a/u1', 3, 'running'))).toEqual({ kind: 'follow-up', workload: 'a/u1', seq: 3, event: 'running' });
    expect(parse(followUpKey('u1', 1, 'resubmitted'))).toEqual({ kind: 'follow-up', workload: 'u1', seq: 1, event: 'resubmitted' });
    expect(parse(rootEditKey('wl:a/u1:Failed'))).toEqual({ kind: 'root-edit', root: 'wl:a/u1:Failed' });
    expect(of(followUpKey('a/u1', 2, 'failed'))).toBe('a/u1');
    expect(of(rootEditKey('wl:a/u1:Stopped'))).toBe('a/u1');
    // Retention keeps a live workload's follow-ups like its alerts.
    expect(prunable([followUpKey('a/u1', 1, 'running'), followUpKey('a/u2', 1, 'running')], new Set(['a/u1']))).toEqual([followUpKey('a/u2', 1, 'running')]);
    expect(followUpChain({ cluster: 'a', namespace: 'runai-vision', name: 'job' })).toBe('a/runai-vision/job');
    expect(followUpChain({ namespace: 'runai-vision', name: 'job' })).toBe('/runai-vision/job');
  });

  it.each(['fu:', 'fu:a/u1', 'fu:a/u1:x-running', 'fu:a/u1:1-', 'fu:/u1:1-running', 'fu:a/b/c:1-running'])('%j is none', async (key) => {
    const { parseKey: parse } = await import('../src/keys.js');
    expect(parse(key)).toBeUndefined();
  });
});
