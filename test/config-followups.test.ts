/** followups.window: the resubmission window and how long threads are kept, validated with a clear error. */
import { ConfigError, parseConfig } from '../src/config.js';

describe('followups.window', () => {
  it('defaults to 7 days and takes a duration', () => {
    expect(parseConfig({}).followups.window).toBe(7 * 86_400_000);
    expect(parseConfig({ followups: { window: '36h' } }).followups.window).toBe(36 * 3_600_000);
  });

  it.each<[unknown, string]>([
    ['soon', 'followups.window: "soon" is not a duration; use e.g. 30s, 30m, 2h, 3d'],
    ['10s', 'followups.window: must be at least 1m (a resubmission is looked for within it)'],
  ])('refuses %j: %s', (window, problem) => {
    const parse = () => parseConfig({ followups: { window } });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(problem);
  });

  it('refuses an unknown key under followups', () => {
    expect(() => parseConfig({ followups: { windw: '7d' } })).toThrow('followups.windw: unknown key');
  });
});
