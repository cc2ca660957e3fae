import { EXIT_CODES, REASONS, decideCategory } from '../../src/triage/classify.js';
import { CATEGORIES } from '../../src/triage/categories.js';
import { TIER, type Classification } from '../../src/triage/signatures.js';
import { triageText } from '../../src/triage/index.js';
import { SAFE_RECOVERY } from '../../src/lifecycle/states.js';

const generic: Classification = { tier: TIER.exception, category: 'other', summary: 'x' };
const recognised: Classification = { tier: TIER.recognised, category: 'gpu-oom', summary: 'oom' };
const cascade: Classification = { tier: TIER.secondary, category: 'nccl', summary: 'watchdog' };

describe('decideCategory', () => {
  const facts = Object.entries(REASONS).filter(([, row]) => !row.report);
  const reports = Object.entries(REASONS).filter(([, row]) => row.report);

  it.each(facts)('takes the termination reason %s as a fact', (reason, row) => {
    const d = decideCategory(recognised, [], { reason });
    expect(d).toMatchObject({ category: row.category, decidedBy: 'termination-reason', strength: 4 });
  });

  it.each(reports)('takes the reason %s as the pod\'s history: a recognised line decides over it, and it decides over none', (reason, row) => {
    expect(decideCategory(recognised, [], { reason })).toMatchObject({ category: 'gpu-oom', decidedBy: 'log' });
    expect(decideCategory(null, [], { reason })).toMatchObject({ category: row.category, decidedBy: 'event' });
  });

  it.each([
    [137, 'host-oom'],
    [139, 'crash'],
    [134, 'crash'],
  ])('lets exit code %i overrule an unrecognised exception', (exitCode, category) => {
    expect(decideCategory(generic, [], { exitCode })).toMatchObject({ category, decidedBy: 'exit-code' });
  });

  it('keeps a recognised log error over the exit code', () => {
    expect(decideCategory(recognised, [], { exitCode: 137 })).toMatchObject({ category: 'gpu-oom', decidedBy: 'log' });
  });

  it.each(Object.entries(EXIT_CODES))('maps exit code %s when the log says nothing', (code, row) => {
    expect(decideCategory(null, [], { exitCode: Number(code) }).category).toBe(row.category);
  });

  it('uses the newest event that says something when the log has only a cascade', () => {
    const d = decideCategory(cascade, [], { events: [{ reason: 'FailedScheduling' }, { reason: 'Scheduled' }, { reason: 'Preempting', message: 'preempted' }, { reason: 'Pulled' }] });
    expect(d).toMatchObject({ category: 'eviction', decidedBy: 'event', transient: true });
  });

  it('reads an event message when its reason is generic', () => {
    const d = decideCategory(null, [], { events: [{ reason: 'Failed', message: 'Failed to pull image "x:1": manifest unknown' }] });
    expect(d.category).toBe('image-pull');
  });

  it('ignores old events when the log has a real error', () => {
    expect(decideCategory(generic, [], { events: [{ reason: 'FailedScheduling' }] })).toMatchObject({ category: 'other', decidedBy: 'log' });
  });

  it('says nothing was found when there is neither log nor hint', () => {
    expect(decideCategory(null)).toMatchObject({ category: 'other', decidedBy: 'none', strength: -1 });
  });
});

describe('advice', () => {
  // Each category that a termination reason can state; the others are covered by the fixtures.
  const byReason = [...new Map(Object.entries(REASONS).map(([reason, row]) => [row.category, reason])).entries()];

  it.each(byReason)('quotes the guide for %s and names what to change for application errors', (category, reason) => {
    const info = CATEGORIES[category];
    const r = triageText('', { reason });
    expect(r.category).toBe(category);
    if (info.transient) {
      expect(r.advice.startsWith(SAFE_RECOVERY.retryTransient)).toBe(true);
    } else {
      expect(r.advice).toContain(SAFE_RECOVERY.fixApplication);
      expect(r.advice).toContain(info.change);
    }
  });

  it('gives only the general rule when no error was found', () => {
    expect(triageText('all good\n').advice).toBe(SAFE_RECOVERY.oneChange);
  });
});
