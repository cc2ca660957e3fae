/**
 * planDelivery row by row, like the lifecycle's decideChange: each row is one owed message and
 * the facts read for it, and the plan it must get.
 */
import { destinationsFor, planDelivery, wanted, type DeliveryFacts, type Owed, type Plan, type Preferences } from '../../src/delivery/plan.js';
import { DEFAULT_SETTINGS } from '../../src/delivery/preferences.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const failed: Owed = { key: 'wl:u1:Failed', kind: 'failed', owner: 'alice', project: 'vision', workload: 'runai-vision/resnet', burstable: true };
const completed: Owed = { ...failed, key: 'wl:u1:Completed', kind: 'completed', burstable: false };
const pending: Owed = { ...failed, key: 'wl:u1:stuck-Pending', kind: 'pending', burstable: false };
const ownerless: Owed = { ...failed, owner: undefined };
const stranger: Owed = { ...failed, owner: 'mallory' };

const prefs = (over: Partial<Preferences['settings']> = {}, muted: string[] = []): Preferences => ({ muted: new Set(muted), settings: { ...DEFAULT_SETTINGS, ...over } });
const channels = { projectChannel: 'C0VISION', fallbackChannel: 'C0FALLBACK', opsChannel: 'C0OPS' };
const dm = { channel: 'U0ALICE', via: 'dm' as const };
const noUser = (owner: string) => ({ kind: 'no-slack-user' as const, owner });
// 12:00 UTC is inside 11:00–13:00 in UTC; quiet hours end at 13:00.
const quiet = { quietHours: { from: '11:00', to: '13:00', timezone: 'UTC' } };

type Row = [string, Owed, Partial<DeliveryFacts>, Plan];

const rows: Row[] = [
  ['a failure goes to the owner\'s DM', failed, { user: 'U0ALICE', preferences: prefs() }, { action: 'send', destinations: [dm] }],
  ['a failure to an owner who muted the project is dropped', failed, { user: 'U0ALICE', preferences: prefs({}, ['project:vision']) }, { action: 'drop', reason: 'muted-project', why: 'project muted' }],
  ['a failure of a muted workload is dropped', failed, { user: 'U0ALICE', preferences: prefs({}, ['workload:runai-vision/resnet']) }, { action: 'drop', reason: 'muted-workload', why: 'workload muted' }],
  ['a mute of another workload changes nothing', failed, { user: 'U0ALICE', preferences: prefs({}, ['workload:runai-vision/other']) }, { action: 'send', destinations: [dm] }],
  ['Completed to an owner who never opted in is dropped', completed, { user: 'U0ALICE', preferences: prefs() }, { action: 'drop', reason: 'not-opted-in', why: 'completed messages turned off in settings' }],
  ['Completed to an owner who opted in is sent', completed, { user: 'U0ALICE', preferences: prefs({ completed: true }) }, { action: 'send', destinations: [dm] }],
  ['a stuck warning to an owner who turned them off is dropped', pending, { user: 'U0ALICE', preferences: prefs({ pending: false }) }, { action: 'drop', reason: 'not-opted-in', why: 'pending messages turned off in settings' }],
  ['a log-saving tip to an owner who turned tips off is dropped', { ...failed, key: 'tip:x', kind: 'log-tip', burstable: false }, { user: 'U0ALICE', preferences: prefs({ tips: false }) }, { action: 'drop', reason: 'not-opted-in', why: 'tips messages turned off in settings' }],
  ['a log-saving tip goes by default', { ...failed, key: 'tip:x', kind: 'log-tip', burstable: false }, { user: 'U0ALICE', preferences: prefs() }, { action: 'send', destinations: [dm] }],
  ['a failure inside quiet hours waits until they end', failed, { user: 'U0ALICE', preferences: prefs(quiet) }, { action: 'defer', until: '2026-12-01T13:00:00.000Z', destinations: [dm] }],
  ['a mute wins over quiet hours', failed, { user: 'U0ALICE', preferences: prefs(quiet, ['project:vision']) }, { action: 'drop', reason: 'muted-project', why: 'project muted' }],
  [
    'an owner without a Slack user: project channel, then fallback, then operators, each saying whose',
    stranger,
    { ...channels },
    { action: 'send', destinations: [{ channel: 'C0VISION', via: 'project', note: noUser('mallory') }, { channel: 'C0FALLBACK', via: 'fallback', note: noUser('mallory') }, { channel: 'C0OPS', via: 'ops', note: noUser('mallory') }] },
  ],
  [
    'a workload naming no owner says so',
    ownerless,
    { fallbackChannel: 'C0FALLBACK' },
    { action: 'send', destinations: [{ channel: 'C0FALLBACK', via: 'fallback', note: { kind: 'no-owner' } }] },
  ],
  [
    'a channel configured twice is tried once',
    stranger,
    { projectChannel: 'C0ALERTS', fallbackChannel: 'C0ALERTS', opsChannel: 'C0OPS' },
    { action: 'send', destinations: [{ channel: 'C0ALERTS', via: 'project', note: noUser('mallory') }, { channel: 'C0OPS', via: 'ops', note: noUser('mallory') }] },
  ],
  ['no user and no channel: dropped, with the reason', stranger, {}, { action: 'drop', reason: 'no-destination', why: 'no Slack user for the owner and no project, fallback or operators\' channel configured' }],
  ['nobody opted in to an ownerless Completed notice', { ...completed, owner: 'mallory' }, { ...channels }, { action: 'drop', reason: 'not-opted-in', why: 'completed messages turned off in settings' }],
  ['quiet hours are a person\'s: an ownerless alert is posted now', stranger, { fallbackChannel: 'C0FALLBACK', preferences: prefs(quiet) }, { action: 'send', destinations: [{ channel: 'C0FALLBACK', via: 'fallback', note: noUser('mallory') }] }],
  [
    'with no burst open, a failure opens one for the person',
    failed,
    { user: 'U0ALICE', preferences: prefs(), burst: { windowMs: 60_000 } },
    { action: 'send', destinations: [dm], burst: { key: 'user:U0ALICE', closesAt: NOW.getTime() + 60_000 } },
  ],
  [
    'with a burst open, a failure folds into it (rewritten after the debounce)',
    failed,
    { user: 'U0ALICE', preferences: prefs(), burst: { windowMs: 60_000, open: { anchorKey: 'wl:u0:Failed', openedAt: NOW.getTime() - 10_000 } } },
    { action: 'fold', destinations: [dm], burst: { key: 'user:U0ALICE', anchorKey: 'wl:u0:Failed', rewriteAt: NOW.getTime() + 1500 } },
  ],
  [
    'a burst past its window is not joined: a new one opens',
    failed,
    { user: 'U0ALICE', preferences: prefs(), burst: { windowMs: 60_000, open: { anchorKey: 'wl:u0:Failed', openedAt: NOW.getTime() - 60_000 } } },
    { action: 'send', destinations: [dm], burst: { key: 'user:U0ALICE', closesAt: NOW.getTime() + 60_000 } },
  ],
  [
    'an ownerless burst is keyed by its first channel and the project',
    stranger,
    { fallbackChannel: 'C0FALLBACK', burst: { windowMs: 60_000 } },
    { action: 'send', destinations: [{ channel: 'C0FALLBACK', via: 'fallback', note: noUser('mallory') }], burst: { key: 'channel:C0FALLBACK:vision', closesAt: NOW.getTime() + 60_000 } },
  ],
  ['Completed never joins a burst', completed, { user: 'U0ALICE', preferences: prefs({ completed: true }), burst: { windowMs: 60_000, open: { anchorKey: 'wl:u0:Failed', openedAt: NOW.getTime() } } }, { action: 'send', destinations: [dm] }],
  [
    'a muted failure never joins a burst',
    failed,
    { user: 'U0ALICE', preferences: prefs({}, ['project:vision']), burst: { windowMs: 60_000, open: { anchorKey: 'wl:u0:Failed', openedAt: NOW.getTime() } } },
    { action: 'drop', reason: 'muted-project', why: 'project muted' },
  ],
  [
    'a deferred failure still anchors a burst (the grouped message waits with it)',
    failed,
    { user: 'U0ALICE', preferences: prefs(quiet), burst: { windowMs: 60_000 } },
    { action: 'defer', until: '2026-12-01T13:00:00.000Z', destinations: [dm], burst: { key: 'user:U0ALICE', closesAt: NOW.getTime() + 60_000 } },
  ],
];

describe('planDelivery', () => {
  it.each(rows)('%s', (_name, owed, facts, plan) => {
    expect(planDelivery(owed, { now: NOW, ...facts })).toEqual(plan);
  });

  it('reads nothing it was not given: the same facts give the same plan', () => {
    const facts = { now: NOW, user: 'U0ALICE', preferences: prefs(), burst: { windowMs: 60_000 } };
    expect(planDelivery(failed, facts)).toEqual(planDelivery(failed, facts));
  });
});

describe('wanted (what the sender re-checks before a DM)', () => {
  it('applies a mute set after planning', () => {
    expect(wanted(failed, prefs({}, ['project:vision']), NOW)).toEqual({ action: 'drop', reason: 'muted-project', why: 'project muted' });
  });
  it('defers to the end of quiet hours', () => {
    expect(wanted(failed, prefs(quiet), NOW)).toEqual({ action: 'defer', until: new Date('2026-12-01T13:00:00Z') });
  });
  it('sends a cleanup nudge, which no setting turns off', () => {
    expect(wanted({ ...failed, kind: 'cleanup' }, prefs({ completed: false, pending: false }), NOW)).toEqual({ action: 'send' });
  });
});

describe('destinationsFor', () => {
  it('a known person is only ever DMd: their alert is not posted in a channel', () => {
    expect(destinationsFor(failed, { user: 'U0ALICE', ...channels })).toEqual([dm]);
  });
});
