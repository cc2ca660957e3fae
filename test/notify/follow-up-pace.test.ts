/** The follow-ups' own pace for edits (notify/follow-up-delivery.ts FollowUpPace), row by row. */
import { FollowUpPace } from '../../src/notify/follow-up-delivery.js';

describe('FollowUpPace', () => {
  it('lets a small burst of edits through at once, then one every 1.5 s (40 a minute)', () => {
    const pace = new FollowUpPace();
    const t0 = 1_000_000;
    expect(Array.from({ length: 5 }, () => pace.takeEdit(t0))).toEqual([0, 0, 0, 0, 0]);
    expect(pace.takeEdit(t0)).toBe(1500);
    expect(pace.takeEdit(t0 + 1000)).toBe(500);
    expect(pace.takeEdit(t0 + 1500)).toBe(0);
    expect(pace.takeEdit(t0 + 1500)).toBe(1500);
  });

  it('never saves up more than its burst, however long the quiet', () => {
    const pace = new FollowUpPace();
    pace.takeEdit(0);
    const later = 3_600_000;
    expect(Array.from({ length: 5 }, () => pace.takeEdit(later))).toEqual([0, 0, 0, 0, 0]);
    expect(pace.takeEdit(later)).toBeGreaterThan(0);
  });

  it('keeps 40 a minute over a long run, under chat.update\'s Tier 3 (50 a minute)', () => {
    const pace = new FollowUpPace();
    let sent = 0;
    for (let t = 0; t < 10 * 60_000; t += 100) if (pace.takeEdit(t) === 0) sent++;
    expect(sent).toBeLessThanOrEqual(5 + 40 * 10);
    expect(sent).toBeGreaterThanOrEqual(40 * 10);
  });
});
