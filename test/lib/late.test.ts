import { Late } from '../../src/lib/late.js';

describe('Late', () => {
  it('names the part used before it was built, and refuses a second one', () => {
    const later = new Late<{ currentState(): string }>('the reconciler');
    expect(() => later.get()).toThrow('the reconciler used before it was built');
    const part = { currentState: () => 'Running' };
    expect(later.set(part)).toBe(part);
    expect(later.get().currentState()).toBe('Running');
    expect(() => later.set(part)).toThrow('the reconciler was already built');
  });
});
