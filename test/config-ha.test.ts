/** The `ha:` key: defaults, validation, and what it needs from `store` and the environment. */
import { haLease, parseConfig } from '../src/config.js';
import { problemsOf } from './helpers/config-problems.js';

const PG = 'postgres://bot@db:5432/bot';

describe('config: ha', () => {
  it('is off by default, with the documented lease defaults', () => {
    const config = parseConfig({});
    expect(config.ha).toEqual({ enabled: false, leaseName: 'runai-slack-bot-leader', leaseDurationSeconds: 15 });
    expect(haLease(config)).toBeUndefined();
  });

  it('refuses ha.enabled without a shared store, naming the key and the fix', () => {
    const problems = problemsOf(() => parseConfig({ ha: { enabled: true, leaseNamespace: 'runai-slack-bot' } }));
    expect(problems).toEqual([expect.stringMatching(/^ha\.enabled: .*set store\.url \(or env DATABASE_URL\) to a postgres:\/\/ URL/)]);
  });

  it('accepts ha.enabled with store.url or with DATABASE_URL from the environment', () => {
    expect(parseConfig({ ha: { enabled: true, leaseNamespace: 'bots' }, store: { url: PG } }).ha.enabled).toBe(true);
    expect(parseConfig({ ha: { enabled: true, leaseNamespace: 'bots' } }, { DATABASE_URL: PG }).ha.enabled).toBe(true);
  });

  it('takes the Lease namespace from POD_NAMESPACE when the file names none, and the identity from POD_NAME', () => {
    const config = parseConfig({ ha: { enabled: true, leaseDurationSeconds: 30 }, store: { url: PG } }, { POD_NAMESPACE: 'runai-slack-bot', POD_NAME: 'runai-slack-bot-5c7d-x2x9q' });
    expect(haLease(config)).toEqual({ namespace: 'runai-slack-bot', name: 'runai-slack-bot-leader', leaseDurationMs: 30_000, podName: 'runai-slack-bot-5c7d-x2x9q' });
    const explicit = parseConfig({ ha: { enabled: true, leaseNamespace: 'elsewhere' }, store: { url: PG } }, { POD_NAMESPACE: 'runai-slack-bot' });
    expect(haLease(explicit)?.namespace).toBe('elsewhere');
  });

  it('requires a Lease namespace when neither the file nor POD_NAMESPACE gives one', () => {
    const text = problemsOf(() => parseConfig({ ha: { enabled: true }, store: { url: PG } })).join('\n');
    expect(text).toMatch(/^ha\.leaseNamespace: required when ha\.enabled is true; .*POD_NAMESPACE/m);
  });

  it('validates names, durations and unknown keys', () => {
    const text = problemsOf(() => parseConfig({
      ha: { enabled: 'yes', leaseNamespace: 'Not_A_Namespace', leaseName: 'UPPER', leaseDurationSeconds: 1, holder: 'x' },
    })).join('\n');
    expect(text).toMatch(/^ha\.enabled: /m);
    expect(text).toMatch(/^ha\.leaseNamespace: must be a namespace name/m);
    expect(text).toMatch(/^ha\.leaseName: must be a Kubernetes object name/m);
    expect(text).toMatch(/^ha\.leaseDurationSeconds: /m);
    expect(text).toMatch(/^ha\.holder: unknown key/m);
  });

  it('refuses a store.url that is not PostgreSQL', () => {
    expect(problemsOf(() => parseConfig({ store: { url: 'mysql://db' } })).join('\n')).toMatch(/^store\.url: must be a postgres:\/\//m);
  });
});
