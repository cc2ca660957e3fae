import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, parseConfig, pendingAfterMs, slackSecretProblems, storeUrl } from '../src/config.js';
import { problemsOf } from './helpers/config-problems.js';

describe('config', () => {
  it('fills every default from an empty file', () => {
    const config = parseConfig({});
    expect(config.slack).toEqual({ mode: 'socket', port: 3000, outboxRetention: 7 * 86_400_000 });
    expect(config.cluster).toMatchObject({ mode: 'watch', pollIntervalSeconds: 30, namespaces: [], lookbackHours: 24 });
    expect(config.store.path).toBe('./runai-slack-bot.db');
    expect(config.alerts.pendingAfter).toBe(30 * 60_000);
    expect(config.alerts.maskedFailures).toBe(true);
    expect(config.cleanup).toEqual({ after: 3 * 86_400_000, cron: '0 9 * * 1' });
  });

  it('turns masked-failure DMs off with alerts.maskedFailures: false, and refuses what is not a boolean', () => {
    expect(parseConfig({ alerts: { maskedFailures: false } }).alerts.maskedFailures).toBe(false);
    expect(problemsOf(() => parseConfig({ alerts: { maskedFailures: 'no' } })).join('\n')).toMatch(/alerts\.maskedFailures.*true or false/);
  });

  it('puts the store in PostgreSQL with store.url or DATABASE_URL, the file winning, and refuses other URLs', () => {
    expect(storeUrl(parseConfig({}))).toBeUndefined();
    expect(storeUrl(parseConfig({ store: { url: 'postgres://bot@db:5432/bot' } }))).toBe('postgres://bot@db:5432/bot');
    expect(storeUrl(parseConfig({}, { DATABASE_URL: 'postgresql://bot:pw@db/bot' }))).toBe('postgresql://bot:pw@db/bot');
    expect(storeUrl(parseConfig({ store: { url: 'postgres://a@x/a' } }, { DATABASE_URL: 'postgres://b@y/b' }))).toBe('postgres://a@x/a');
    expect(problemsOf(() => parseConfig({ store: { url: 'mysql://db/bot' } })).join('\n')).toMatch(/store\.url.*postgres:\/\//);
    expect(problemsOf(() => parseConfig({}, { DATABASE_URL: 'sqlite:///x.db' })).join('\n')).toMatch(/DATABASE_URL: must be a postgres/);
  });

  it('reads the proxy variables as curl and undici do, lower-case first, and refuses one that is not an http(s) URL without echoing it', () => {
    expect(parseConfig({}, {}).secrets.proxy).toEqual({ httpProxy: undefined, httpsProxy: undefined, noProxy: undefined });
    const env = { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'http://plain:3128', NO_PROXY: '127.0.0.1, .svc' };
    expect(parseConfig({}, env).secrets.proxy).toEqual({ httpsProxy: 'http://lower:3128', httpProxy: 'http://plain:3128', noProxy: '127.0.0.1, .svc' });
    const problems = problemsOf(() => parseConfig({}, { HTTPS_PROXY: 'socks5://u:secret@proxy:1080', http_proxy: 'proxy.example.org:3128' }));
    expect(problems).toEqual([
      expect.stringMatching(/^HTTPS_PROXY: must be the proxy's http:\/\/ or https:\/\/ URL/),
      expect.stringMatching(/^HTTP_PROXY: must be the proxy's http:\/\/ or https:\/\/ URL/),
    ]);
    expect(problems.join('\n')).not.toContain('secret');
  });

  it('accepts the example of the foundation issue and converts durations and sizes', () => {
    const config = parseConfig({
      slack: { mode: 'http', port: 3100, fallbackChannel: 'C0123' },
      owners: { emailDomain: 'example.org', map: { alice: 'U0ALICE', bob: 'bob@other.org' } },
      projects: { nlp: { channel: 'C0NLP', pendingAfter: '1h' } },
      cluster: { mode: 'poll', pollIntervalSeconds: 30, namespaces: ['runai-nlp'], lookbackHours: 24 },
      store: { path: '/tmp/x.db' },
      alerts: { burstWindow: '45s' },
      archive: { dir: '/data/logs', maxBytesPerContainer: '10MB' },
      maintenance: { feed: 'file:///tmp/m.ics', channel: 'C0MAINT', remindBefore: ['7d', '2h'], timezone: 'Europe/Berlin' },
    });
    expect(config.owners.map.bob).toBe('bob@other.org');
    expect(pendingAfterMs(config, 'nlp')).toBe(3_600_000);
    expect(pendingAfterMs(config, 'vision')).toBe(30 * 60_000);
    expect(config.alerts.burstWindow).toBe(45_000);
    expect(config.archive?.maxBytesPerContainer).toBe(10_000_000);
    expect(config.maintenance?.remindBefore).toEqual([7 * 86_400_000, 2 * 3_600_000]);
  });

  it('names the key of every problem, including unknown and misspelt keys', () => {
    const problems = problemsOf(() =>
      parseConfig({
        slack: { mode: 'websocket', fallbackChanel: 'C1' },
        owners: { map: { alice: 'not-a-user' } },
        cluster: { pollIntervalSeconds: 'often' },
        alerts: { pendingAfter: '30' },
        typo: true,
      }),
    );
    const text = problems.join('\n');
    expect(text).toMatch(/^slack\.mode: /m);
    expect(text).toMatch(/^slack\.fallbackChanel: unknown key/m);
    expect(text).toMatch(/^owners\.map\.alice: /m);
    expect(text).toMatch(/^cluster\.pollIntervalSeconds: /m);
    expect(text).toMatch(/^alerts\.pendingAfter: "30" is not a duration/m);
    expect(text).toMatch(/^typo: unknown key/m);
  });

  it('refuses a schedule that is not a cron expression, naming its key', () => {
    const text = problemsOf(() => parseConfig({ cleanup: { cron: 'every monday' }, maintenance: { feed: 'x.ics', channel: 'C0MAINT', refreshCron: '61 * * * *' } })).join('\n');
    expect(text).toMatch(/^cleanup\.cron: "every monday" is not a cron expression/m);
    expect(text).toMatch(/^maintenance\.refreshCron: "61 \* \* \* \*" is not a cron expression/m);
  });

  it('requires a maintenance channel and a real time zone when a feed is configured', () => {
    const text = problemsOf(() => parseConfig({ maintenance: { feed: 'x.ics', timezone: 'Mars/Olympus' } })).join('\n');
    expect(text).toContain('maintenance.channel: required');
    expect(text).toContain('maintenance.timezone: "Mars/Olympus"');
  });

  it('takes secrets only from the environment and says which token is missing', () => {
    const config = parseConfig({}, { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_API_URL: 'http://127.0.0.1:1/api/' });
    expect(config.secrets.slackBotToken).toBe('xoxb-1');
    expect(slackSecretProblems(config).join('\n')).toContain('SLACK_APP_TOKEN: not set');
    const http = parseConfig({ slack: { mode: 'http' } }, { SLACK_BOT_TOKEN: 'xoxp-user' });
    const text = slackSecretProblems(http).join('\n');
    expect(text).toContain('SLACK_BOT_TOKEN: must be a bot token');
    expect(text).toContain('SLACK_SIGNING_SECRET: not set');
    expect(() => parseConfig({ secrets: { token: 'x' } })).toThrow(/secrets: unknown key/);
  });

  it('reports an unreadable or malformed file by name, and refuses YAML tags', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    expect(problemsOf(() => loadConfig(join(dir, 'missing.yml'), {}))[0]).toContain('cannot read the config file (ENOENT)');
    writeFileSync(join(dir, 'bad.yml'), 'slack: [unclosed');
    expect(problemsOf(() => loadConfig(join(dir, 'bad.yml'), {}))[0]).toContain('not valid YAML');
    writeFileSync(join(dir, 'list.yml'), '- a\n- b\n');
    expect(problemsOf(() => loadConfig(join(dir, 'list.yml'), {}))[0]).toContain('must be a YAML mapping');
    writeFileSync(join(dir, 'ok.yml'), 'cluster:\n  mode: poll\n');
    expect(loadConfig(undefined, { RUNAI_BOT_CONFIG: join(dir, 'ok.yml') }).cluster.mode).toBe('poll');
  });
});
