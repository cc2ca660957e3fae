import { ConfigError } from '../../src/config.js';

/** The problems a ConfigError lists; fails the test when `fn` throws anything else, or nothing. */
export function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}
