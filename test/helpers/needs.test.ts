/**
 * What a suite that needs PostgreSQL, kubectl or Chromium does without it: skip, saying so, on a
 * developer's machine; fail under CI when the need is required (the store's server), so a
 * green CI run cannot hide untested PostgreSQL and two-replica suites.
 */
import { fateOf, inCi, type Need } from './needs.js';
import { postgresUnavailable, START_POSTGRES } from './postgres.js';

const POSTGRES: Need = { what: 'PostgreSQL at postgres://postgres@127.0.0.1:1/test', skipped: 'the PostgreSQL store tests', fix: START_POSTGRES, requiredInCi: true };
const KUBECTL: Need = { what: 'kubectl', skipped: 'the kubectl tests', fix: 'Put kubectl on PATH to run them.', requiredInCi: false };

describe('a suite that needs something from outside node_modules', () => {
  it.each([
    ['PostgreSQL answers, in CI', POSTGRES, undefined, { CI: 'true' }, 'run'],
    ['PostgreSQL is down, locally', POSTGRES, 'ECONNREFUSED', {}, 'skip'],
    ['PostgreSQL is down, CI=false', POSTGRES, 'ECONNREFUSED', { CI: 'false' }, 'skip'],
    ['PostgreSQL is down, in CI', POSTGRES, 'ECONNREFUSED', { CI: 'true' }, 'fail'],
    ['PostgreSQL is down, CI=1', POSTGRES, 'ECONNREFUSED', { CI: '1' }, 'fail'],
    ['kubectl is missing, in CI', KUBECTL, 'not on PATH', { CI: 'true' }, 'skip'],
    ['kubectl is there, locally', KUBECTL, undefined, {}, 'run'],
  ] as const)('%s', (_case, need, why, env, expected) => {
    expect(Object.keys(fateOf(need, why, env))).toEqual([expected]);
  });

  it('says what is skipped and how to get it, and in CI how to start the server as .ci/run does', () => {
    const skip = fateOf(POSTGRES, 'ECONNREFUSED', {});
    expect(skip).toEqual({ skip: expect.stringContaining('PostgreSQL at postgres://postgres@127.0.0.1:1/test is not available (ECONNREFUSED): the PostgreSQL store tests are skipped.') });
    const fail = fateOf(POSTGRES, 'ECONNREFUSED', { CI: 'true' });
    expect(fail).toEqual({ fail: expect.stringContaining('CI must not skip the PostgreSQL store tests') });
    expect('fail' in fail && fail.fail).toContain('pg_ctlcluster --skip-systemctl-redirect');
    expect(inCi({ CI: ' TRUE ' })).toBe(true);
    expect(inCi({ CI: '' })).toBe(false);
  });

  it('finds no server where none listens, with the reason the note gives', async () => {
    expect(await postgresUnavailable('postgres://postgres@127.0.0.1:1/test')).toBe('ECONNREFUSED');
  });
});
