/**
 * Suites that need something from outside node_modules: the PostgreSQL server, kubectl,
 * Chromium. On a developer's machine a missing one skips its suites with one line saying what
 * is skipped and how to get it. Under CI (env CI set, as .ci/run sets it) a need marked
 * `requiredInCi` fails its suites instead, so a green CI run has always run them: the store's
 * PostgreSQL tests and the two-replica ones must not pass by being skipped.
 */

export interface Need {
  /** What is missing, e.g. "PostgreSQL at postgres://postgres@127.0.0.1:5432/test". */
  what: string;
  /** What does not run without it. */
  skipped: string;
  /** How to provide it. */
  fix: string;
  requiredInCi: boolean;
}

export type Fate = { run: true } | { skip: string } | { fail: string };

/** Whether the environment is a CI run (CI=true, or any value but "false" and "0"). */
export function inCi(env: Record<string, string | undefined>): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !!ci && ci !== 'false' && ci !== '0';
}

/** What a suite does about a need: `why` says why it is missing, undefined when it is there. */
export function fateOf(need: Need, why: string | undefined, env: Record<string, string | undefined>): Fate {
  if (why === undefined) return { run: true };
  const missing = `${need.what} is not available (${why})`;
  if (need.requiredInCi && inCi(env)) return { fail: `${missing}, and CI must not skip ${need.skipped}. ${need.fix}` };
  return { skip: `${missing}: ${need.skipped} are skipped. ${need.fix}` };
}

/** describe() for a suite with this need: runs, skips saying so, or (in CI) registers one failing test that says why. */
export function describeNeeding(need: Need, why: string | undefined, env: Record<string, string | undefined> = process.env): typeof describe {
  const fate = fateOf(need, why, env);
  if ('run' in fate) return describe;
  if ('skip' in fate) {
    console.warn(fate.skip);
    return describe.skip as unknown as typeof describe;
  }
  // The suite's own body (and its hooks) would only fail on the missing part: it is not run.
  return ((name: string) =>
    describe(name, () => {
      it(`needs ${need.what}`, () => {
        throw new Error(fate.fail);
      });
    })) as unknown as typeof describe;
}
