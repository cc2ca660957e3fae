/**
 * `check` against the simulated Slack and Kubernetes API server: the table it prints, its exit
 * code, and the fix it names for each problem. The pure parts are tested directly; the whole
 * command runs as an operator would run it, as the built CLI with the environment pointing
 * at the simulations.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeConfig } from '../../src/app.js';
import { invitationRows, postingChannels } from '../../src/check/invitations.js';
import { maintenanceRow } from '../../src/check/maintenance.js';
import { leasePermissions, permissionLabel, permissionRow, requiredPermissions } from '../../src/check/permissions.js';
import { allOk, fail, formatTable, pass } from '../../src/check/report.js';
import { runChecks } from '../../src/check/run.js';
import { scopeRows } from '../../src/check/scopes.js';
import { parseConfig, type Config } from '../../src/config.js';
import { demoWindowStart, maintenanceCalendar } from '../../src/demo/maintenance-feed.js';
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { SlackSimulator } from '../../src/sim/slack.js';
import { REQUIRED_BOT_SCOPES } from '../../src/slack/scopes.js';
import { CLI, ROOT } from '../demo/cli.js';

const NOW = new Date('2026-11-29T10:00:00Z');
const SCOPE_FIX = 'add users:read.email under OAuth & Permissions → Scopes (Bot Token Scopes), then reinstall the app';

describe('the check table', () => {
  it('prints one aligned row per check and a verdict, and is all ok only when every row is', () => {
    const rows = [pass('config', 'config.yaml is valid'), fail('Slack scope commands', 'missing: add commands')];
    const text = formatTable(rows);
    expect(text.split('\n').slice(0, 3)).toEqual([
      'CHECK                 STATUS  DETAIL / FIX',
      'config                ok      config.yaml is valid',
      'Slack scope commands  FAIL    missing: add commands',
    ]);
    expect(text).toContain('1 of 2 checks failed');
    expect(allOk(rows)).toBe(false);
    expect(allOk([rows[0]])).toBe(true);
    expect(allOk([])).toBe(false);
  });

  it('names each missing Slack scope with where to add it, and fails when Slack reports no scopes', () => {
    const rows = scopeRows(['chat:write', 'im:write'], ['chat:write', 'users:read.email']);
    expect(rows).toEqual([
      pass('Slack scope chat:write', 'granted'),
      fail('Slack scope users:read.email', expect.stringContaining(SCOPE_FIX)),
    ]);
    expect(scopeRows(undefined, REQUIRED_BOT_SCOPES)).toEqual([fail('Slack scopes', expect.stringContaining('x-oauth-scopes'))]);
  });

  it("asks for list and watch on each discovered workload kind, the pods' logs and owners, events, PodGroups and namespaces", () => {
    const labels = requiredPermissions(['trainingworkloads'], 'run.ai', []).map(permissionLabel);
    expect(labels).toEqual([
      'list trainingworkloads.run.ai',
      'watch trainingworkloads.run.ai',
      'list pods',
      'get pods/log',
      'list events',
      'list podgroups.scheduling.run.ai',
      'get runaijobs.run.ai',
      'get pytorchjobs.kubeflow.org',
      'get mpijobs.kubeflow.org',
      'get tfjobs.kubeflow.org',
      'get xgboostjobs.kubeflow.org',
      'get jobs.batch',
      'get replicasets.apps',
      'get deployments.apps',
      'get revisions.serving.knative.dev',
      'get configurations.serving.knative.dev',
      'get services.serving.knative.dev',
      'list namespaces',
    ]);
    const scoped = requiredPermissions(['trainingworkloads'], 'run.ai', ['runai-a', 'runai-b']).map(permissionLabel);
    expect(scoped).toContain('get pods/log in runai-b');
    expect(scoped.filter((l) => l.startsWith('list namespaces'))).toEqual(['list namespaces']);
  });

  it('explains a denied permission with the reason and the ClusterRole that grants it', () => {
    const [logs] = requiredPermissions([], 'run.ai', []).filter((p) => p.subresource === 'log');
    const row = permissionRow(logs, { allowed: false, reason: 'no RBAC policy matched' });
    expect(row.ok).toBe(false);
    expect(row.detail).toContain('denied (no RBAC policy matched)');
    expect(row.detail).toContain('deploy/base/clusterrole.yaml');
  });

  it("warns, not fails, when the pods' owners may not be read, and says what the bot does without them", () => {
    const [runaiJobs] = requiredPermissions([], 'run.ai', []).filter((p) => p.resource === 'runaijobs');
    const row = permissionRow(runaiJobs, { allowed: false });
    expect(row).toMatchObject({ ok: true, warn: true });
    expect(row.detail).toContain('matched by label and creation time');
    expect(row.detail).toContain('deploy/base/clusterrole.yaml');
  });

  it('with ha.enabled, asks for get and update on the one Lease and create on Leases, and names the Role that grants them', () => {
    const lease = leasePermissions({ namespace: 'runai-slack-bot', name: 'runai-slack-bot-leader' });
    expect(lease.map(permissionLabel)).toEqual([
      'get leases.coordination.k8s.io/runai-slack-bot-leader in runai-slack-bot',
      'update leases.coordination.k8s.io/runai-slack-bot-leader in runai-slack-bot',
      'create leases.coordination.k8s.io in runai-slack-bot',
    ]);
    const row = permissionRow(lease[1], { allowed: false });
    expect(row.ok).toBe(false);
    expect(row.detail).toContain('deploy/ha/');
    expect(row.detail).not.toContain('clusterrole');
  });

  it('lists every channel the bot posts to once, with each config key that names it', () => {
    const config = parseConfig({
      slack: { fallbackChannel: 'C0ALERTS', opsChannel: 'C0OPS' },
      maintenance: { feed: 'https://cal.example.org/m.ics', channel: 'C0OPS' },
      projects: { vision: { channel: 'C0VISION' }, llm: {}, nlp: { channel: 'C0ALERTS' } },
    });
    expect([...postingChannels(config)]).toEqual([
      ['C0ALERTS', ['slack.fallbackChannel', 'projects.nlp.channel']],
      ['C0OPS', ['slack.opsChannel', 'maintenance.channel']],
      ['C0VISION', ['projects.vision.channel']],
    ]);
    expect(postingChannels(parseConfig({})).size).toBe(0);
  });

  it('fails each channel the bot is not in with the /invite that fixes it, in the channel Slack names', () => {
    const channels = new Map([['C0IN', ['slack.opsChannel']], ['C0OUT', ['slack.fallbackChannel']], ['C0HID', ['projects.audio.channel']], ['C0ERR', ['maintenance.channel']]]);
    const publicChannel = { private: false, shared: false };
    const answers = new Map([
      ['C0IN', { facts: publicChannel, name: 'runai-ops', isMember: true }],
      ['C0OUT', { facts: publicChannel, name: 'runai-alerts', isMember: false }],
      ['C0HID', { error: 'channel_not_found' }],
      ['C0ERR', { error: 'missing_scope' }],
    ]);
    const rows = invitationRows(channels, answers, { botName: 'runai-bot', postsToPublicChannels: false });
    expect(rows.map((r) => [r.check, r.ok])).toEqual([
      ['bot posts in C0IN (slack.opsChannel)', true],
      ['bot posts in C0OUT (slack.fallbackChannel)', false],
      ['bot posts in C0HID (projects.audio.channel)', false],
      ['bot posts in C0ERR (maintenance.channel)', false],
    ]);
    expect(rows[1].detail).toBe('the bot is not a member of #runai-alerts, so Slack refuses its posts there (not_in_channel): type /invite @runai-bot in #runai-alerts');
    expect(rows[2].detail).toContain('if it is a private channel, type /invite @runai-bot in it');
    expect(rows[3].detail).toContain('missing_scope');
    // chat:write.public lets the bot post in a public channel it is not in, never in a private one.
    const withPublic = invitationRows(channels, answers, { botName: 'runai-bot', postsToPublicChannels: true });
    expect(withPublic.map((r) => r.ok)).toEqual([true, true, false, false]);
  });

  it('counts the upcoming windows of a readable feed and refuses one that is not a calendar', () => {
    const maintenance = parseConfig({ maintenance: { feed: 'https://cal.example.org/m.ics', channel: 'C0MAINT' } }).maintenance;
    const feed = maintenanceCalendar(demoWindowStart(NOW), 8, NOW);
    const good = maintenanceRow(maintenance, { body: feed }, NOW);
    expect(good).toEqual(pass('maintenance feed', expect.stringContaining('1 window in the next 90 days; next: "GPU cluster maintenance: NVIDIA driver and firmware upgrade" at 2026-12-01T10:00:00.000Z')));
    const html = maintenanceRow(maintenance, { body: '<!doctype html><html>Sign in</html>' }, NOW);
    expect(html.ok).toBe(false);
    expect(html.detail).toContain('not a usable calendar');
    expect(maintenanceRow(maintenance, { error: 'HTTP 404 Not Found' }, NOW)).toEqual(fail('maintenance feed', expect.stringContaining('HTTP 404 Not Found')));
    expect(maintenanceRow(undefined, undefined, NOW).ok).toBe(true);
  });
});

describe('check against the simulated Slack and cluster', () => {
  let kube: FakeKube;
  let slack: SlackSimulator;
  let dir: string;
  let configPath: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    kube = await startFakeKube();
    slack = await SlackSimulator.start({ scopes: [...REQUIRED_BOT_SCOPES] });
    // The channels the config below posts to, the bot invited as the README's setup says.
    for (const [id, name] of [['C0ALERTS', 'runai-alerts'], ['C0MAINT', 'maintenance']]) {
      slack.addChannel(id, name);
      slack.inviteBot(id);
    }
    dir = mkdtempSync(join(tmpdir(), 'check-'));
    const feed = join(dir, 'maintenance.ics');
    writeFileSync(feed, maintenanceCalendar(demoWindowStart(new Date()), 8, new Date()));
    configPath = join(dir, 'config.yaml');
    writeFileSync(configPath, `slack:\n  fallbackChannel: C0ALERTS\nmaintenance:\n  feed: ${feed}\n  channel: C0MAINT\n`);
    env = { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, KUBECONFIG: kube.writeKubeconfig(dir) };
  });

  afterEach(async () => {
    await slack.close();
    await kube.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (): Config => parseConfig({ maintenance: { feed: join(dir, 'maintenance.ics'), channel: 'C0MAINT' } }, env);
  const check = () => runChecks(config(), { source: 'test', now: () => new Date(), loadKubeConfig });

  /** The CLI as an operator runs it; resolves with its exit code and output whatever the code. */
  function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, 'check', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  it('passes every row when the tokens, scopes, permissions and feed are right', async () => {
    const rows = await check();
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    expect(rows.map((r) => r.check)).toEqual(expect.arrayContaining([
      'config', 'Slack bot token', 'Slack app-level token', 'Slack scope users:read.email', 'Run:ai workload kinds',
      'watch trainingworkloads.run.ai', 'get pods/log', 'list namespaces', 'maintenance feed',
    ]));
    // Every question went to the cluster as a SelfSubjectAccessReview, not as a trial request.
    expect(kube.requests.filter((r) => r.path.includes('selfsubjectaccessreviews')).length).toBeGreaterThanOrEqual(10);
  });

  it('fails a missing scope and a denied permission, each with its fix', async () => {
    slack.setScopes(REQUIRED_BOT_SCOPES.filter((s) => s !== 'users:read.email'));
    kube.deny({ verb: 'get', resource: 'pods', subresource: 'log' });
    const failed = (await check()).filter((r) => !r.ok);
    expect(failed.map((r) => r.check)).toEqual(['Slack scope users:read.email', 'get pods/log']);
    expect(failed[0].detail).toContain(SCOPE_FIX);
    expect(failed[1].detail).toContain('deploy/base/clusterrole.yaml');
  });

  it('warns about project channels whose members do not count: public, shared or unreadable (one the bot cannot see also fails: it cannot post there)', async () => {
    const bot = 'USIMBOT';
    slack.addChannel('C0PRIV', 'vision', [bot], { is_private: true });
    slack.addChannel('C0PUB', 'llm', [bot]);
    slack.addChannel('C0SHARED', 'genai', [bot], { is_private: true, is_ext_shared: true, is_shared: true });
    slack.addChannel('C0HIDDEN', 'audio', [], { is_private: true });
    const projects = {
      vision: { channel: 'C0PRIV' },
      llm: { channel: 'C0PUB' },
      genai: { channel: 'C0SHARED' },
      audio: { channel: 'C0HIDDEN' },
      optin: { channel: 'C0PUB', membersFromChannel: true },
    };
    const rows = await runChecks(parseConfig({ projects, maintenance: { feed: join(dir, 'maintenance.ics'), channel: 'C0MAINT' } }, env), { source: 'test', now: () => new Date(), loadKubeConfig });
    const channelRows = rows.filter((r) => r.check.startsWith('project '));
    expect(channelRows.map((r) => [r.check, r.ok, !!r.warn])).toEqual([
      ['project vision channel C0PRIV', true, false],
      ['project llm channel C0PUB', true, true],
      ['project genai channel C0SHARED', true, true],
      ['project audio channel C0HIDDEN', true, true],
      ['project optin channel C0PUB', true, true],
    ]);
    expect(channelRows[1].detail).toMatch(/^public: its members do not count.*membersFromChannel: true/);
    expect(channelRows[2].detail).toMatch(/^shared outside the workspace: /);
    expect(channelRows[3].detail).toContain('channel_not_found');
    expect(channelRows[4].detail).toContain('whoever joins it');
    expect(rows.filter((r) => !r.ok).map((r) => r.check)).toEqual(['bot posts in C0HIDDEN (projects.audio.channel)']);
    expect(formatTable(rows)).toMatch(/^project llm channel C0PUB +WARN +public/m);
    expect(formatTable(rows)).toMatch(/1 of \d+ checks failed/);
  });

  it('fails each channel the bot posts to but was not invited to, with the /invite line, until someone invites it (the CLI)', async () => {
    slack.addChannel('C0OPS', 'runai-ops');
    slack.addChannel('C0NLP', 'nlp-team', [], { is_private: true });
    writeFileSync(configPath, `slack:\n  fallbackChannel: C0ALERTS\n  opsChannel: C0OPS\nmaintenance:\n  feed: ${join(dir, 'maintenance.ics')}\n  channel: C0MAINT\nprojects:\n  nlp:\n    channel: C0NLP\n`);
    const before = await runCli(['--config', configPath]);
    expect(before.stdout).toMatch(/^bot posts in C0ALERTS \(slack\.fallbackChannel\) +ok +the bot is a member of #runai-alerts$/m);
    expect(before.stdout).toMatch(/^bot posts in C0OPS \(slack\.opsChannel\) +FAIL +the bot is not a member of #runai-ops, so Slack refuses its posts there \(not_in_channel\): type \/invite @runai-bot in #runai-ops$/m);
    expect(before.stdout).toMatch(/^bot posts in C0NLP \(projects\.nlp\.channel\) +FAIL +Slack shows the bot no such channel \(channel_not_found\): if it is a private channel, type \/invite @runai-bot in it/m);
    expect(before.code).toBe(1);

    slack.inviteBot('C0OPS');
    slack.inviteBot('C0NLP');
    const after = await runCli(['--config', configPath]);
    expect(after.stdout).toMatch(/^bot posts in C0OPS \(slack\.opsChannel\) +ok +the bot is a member of #runai-ops$/m);
    expect(after.stdout).toMatch(/^bot posts in C0NLP \(projects\.nlp\.channel\) +ok +the bot is a member of #nlp-team$/m);
    expect(after.stdout).not.toMatch(/FAIL/);
  });

  it('says once that the cluster cannot be asked when the API server refuses the credentials', async () => {
    const broken = loadKubeConfig(env.KUBECONFIG);
    broken.users[0] = { ...broken.users[0], token: 'wrong-token' } as never;
    const rows = await runChecks(config(), { source: 'test', now: () => new Date(), loadKubeConfig: () => broken });
    const cluster = rows.filter((r) => !r.ok);
    expect(cluster.map((r) => r.check)).toEqual(['Run:ai workload kinds', 'Kubernetes permissions']);
    expect(cluster[1].detail).toContain('401');
  });

  it('checks each cluster of clusters: in its own section: a denied permission in one, an unreachable other, the Lease only where it lives', async () => {
    const second = await startFakeKube();
    try {
      second.deny({ verb: 'list', resource: 'events' });
      const down = join(dir, 'down.kubeconfig');
      writeFileSync(down, kube.kubeconfigYaml().replace(kube.url, 'http://127.0.0.1:1'));
      const multi = parseConfig({
        clusters: [
          { name: 'gpu-east', kubeconfig: env.KUBECONFIG },
          { name: 'gpu-west', kubeconfig: second.writeKubeconfig(join(dir, 'west')) },
          { name: 'gpu-north', kubeconfig: down },
        ],
        ha: { enabled: true, cluster: 'gpu-west', leaseNamespace: 'runai-slack-bot' },
        store: { url: 'postgres://bot@db/bot' },
        maintenance: { feed: join(dir, 'maintenance.ics'), channel: 'C0MAINT' },
      }, env);
      const rows = await runChecks(multi, { source: 'test', now: () => new Date(), loadKubeConfig });
      const of = (name: string) => rows.filter((r) => r.check.startsWith(`[${name}] `));
      expect(of('gpu-east').every((r) => r.ok)).toBe(true);
      expect(of('gpu-east').map((r) => r.check)).toEqual(expect.arrayContaining(['[gpu-east] Run:ai workload kinds', '[gpu-east] get pods/log']));
      expect(of('gpu-west').filter((r) => !r.ok).map((r) => r.check)).toEqual(['[gpu-west] list events']);
      expect(of('gpu-north').filter((r) => !r.ok).map((r) => r.check)).toEqual(['[gpu-north] Run:ai workload kinds', '[gpu-north] Kubernetes permissions']);
      // The Lease is asked about in the cluster that holds it, and only there.
      expect(of('gpu-west').some((r) => /lease/i.test(r.check))).toBe(true);
      expect([...of('gpu-east'), ...of('gpu-north')].some((r) => /lease/i.test(r.check))).toBe(false);
      expect(second.requests.some((r) => r.path.includes('selfsubjectaccessreviews'))).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('exits 0 and prints an all-ok table when everything is fine (the CLI)', async () => {
    const { code, stdout } = await runCli(['--config', configPath]);
    expect(stdout).toMatch(/^CHECK +STATUS +DETAIL \/ FIX$/m);
    expect(stdout).toMatch(/^maintenance feed +ok +.*1 window in the next 90 days/m);
    expect(stdout).toMatch(/All \d+ checks passed\./);
    expect(code).toBe(0);
  });

  it('exits 1 and prints each problem with its fix for a missing scope and a missing permission (the CLI)', async () => {
    slack.setScopes(REQUIRED_BOT_SCOPES.filter((s) => s !== 'users:read.email'));
    kube.deny({ verb: 'list', resource: 'pods' });
    const { code, stdout } = await runCli(['--config', configPath]);
    expect(stdout).toMatch(new RegExp(`^Slack scope users:read\\.email +FAIL +missing: ${SCOPE_FIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
    expect(stdout).toMatch(/^list pods +FAIL +denied .*deploy\/base\/clusterrole\.yaml/m);
    expect(stdout).toContain('2 of ');
    expect(code).toBe(1);
  });

  it('exits 1 naming the key when the config file is invalid, and the token when it is missing (the CLI)', async () => {
    writeFileSync(configPath, 'slack:\n  fallbackChannel: alerts\n');
    delete env.SLACK_BOT_TOKEN;
    const invalid = await runCli(['--config', configPath]);
    expect(invalid.stdout).toMatch(/^config +FAIL +slack\.fallbackChannel: must be a Slack channel ID/m);
    expect(invalid.code).toBe(1);

    writeFileSync(configPath, '{}\n');
    const missing = await runCli(['--config', configPath]);
    expect(missing.stdout).toMatch(/^Slack credentials +FAIL +SLACK_BOT_TOKEN: not set/m);
    expect(missing.code).toBe(1);
  });
});
