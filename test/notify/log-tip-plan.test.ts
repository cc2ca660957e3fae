/** nextTip row by row: at most one tip per person per kind of finding in any 7 days, one per start. */
import { tipKey, tipWeek } from '../../src/keys.js';
import { nextTip, TIP_INTERVAL_MS, type TipRecord } from '../../src/notify/log-tip-plan.js';
import type { LogFinding } from '../../src/recovery/log-advice.js';

const finding = (kind: LogFinding['kind']): LogFinding => ({ kind, problem: ['p'], guide: 'g', fix: ['f'] });
const masked = finding('masked-exit');
const buffered = finding('buffered-output');
// Two days into a week, so "last week" can be less or more than 7 days ago.
const now = new Date((tipWeek(new Date('2026-12-02T00:00:00Z')) * 7 + 2) * 86_400_000);
const week = tipWeek(now);
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

describe('nextTip', () => {
  const rows: Array<[string, LogFinding[], Array<[string, TipRecord]>, string | undefined]> = [
    ['nothing told yet: the first finding', [masked, buffered], [], tipKey('alice', 'masked-exit', week)],
    ['no findings: no tip', [], [], undefined],
    ['the first kind told this week: the next kind', [masked, buffered], [[tipKey('alice', 'masked-exit', week), { sentAt: ago(1) }]], tipKey('alice', 'buffered-output', week)],
    ['this week\'s key queued: not again', [masked], [[tipKey('alice', 'masked-exit', week), { queued: true }]], undefined],
    ['this week\'s key dropped at delivery: spent all the same', [masked], [[tipKey('alice', 'masked-exit', week), { sentAt: ago(0), dropped: true }]], undefined],
    ['told last week, 3 days ago: not yet', [masked], [[tipKey('alice', 'masked-exit', week - 1), { sentAt: ago(3) }]], undefined],
    ['told last week, 8 days ago: again', [masked], [[tipKey('alice', 'masked-exit', week - 1), { sentAt: ago(8) }]], tipKey('alice', 'masked-exit', week)],
    ['told exactly 7 days ago: again', [masked], [[tipKey('alice', 'masked-exit', week - 1), { sentAt: new Date(now.getTime() - TIP_INTERVAL_MS).toISOString() }]], tipKey('alice', 'masked-exit', week)],
    ['last week\'s tip never reached the person (muted): again', [masked], [[tipKey('alice', 'masked-exit', week - 1), { sentAt: ago(3), dropped: true }]], tipKey('alice', 'masked-exit', week)],
    ['last week\'s tip still queued: not again', [masked], [[tipKey('alice', 'masked-exit', week - 1), { queued: true }]], undefined],
    ['another person\'s tip does not count', [masked], [[tipKey('bob', 'masked-exit', week), { sentAt: ago(1) }]], tipKey('alice', 'masked-exit', week)],
  ];
  it.each(rows)('%s', (_, findings, records, key) => {
    expect(nextTip('alice', findings, new Map(records), now)?.key).toBe(key);
  });

  it('gives the finding it keys', () => {
    expect(nextTip('alice', [masked, buffered], new Map([[tipKey('alice', 'masked-exit', week), { sentAt: ago(1) }]]), now)?.finding).toBe(buffered);
  });
});
