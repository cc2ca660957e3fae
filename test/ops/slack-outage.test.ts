/**
 * What happens during a Slack outage, through the real bot: Slack unreachable or refusing the
 * bot token at start does not stop the bot from watching and archiving; /readyz says why it is
 * not ready; what it owes is queued on disk and delivered once Slack is back.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { useSimulators } from '../helpers/sims.js';
import { allOutbox } from '../helpers/store.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

type Readiness = { ready: boolean; checks: Record<string, { ok: boolean; detail?: string }> };

describe('a Slack outage', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let bot: TestBot;
  beforeEach(() => ({ kube, slack } = sims));

  const readiness = async (): Promise<{ status: number; body: Readiness }> => {
    const res = await fetch(`http://127.0.0.1:${bot.port}/readyz`);
    return { status: res.status, body: (await res.json()) as Readiness };
  };

  function fail(name: string) {
    kube.apply(workloadCr({ name, project: 'vision', owner: 'alice' }));
    kube.appendLog(ns('vision'), `${name}-0-0`, name, 'ValueError: bad config\n');
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
  }

  it('at start: the bot watches and archives, says why it is not ready, and DMs the owner once Slack is back', async () => {
    const dir = join(tempDir('outage-'), 'logs');
    slack.down(true);
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' }, archive: { dir } });

    const during = await readiness();
    expect(during.status).toBe(503);
    expect(during.body.checks.cluster).toEqual({ ok: true });
    expect(during.body.checks.store).toEqual({ ok: true });
    expect(during.body.checks.slack.ok).toBe(false);
    expect(during.body.checks.slack.detail).toMatch(/HTTP 503/);

    fail('resnet');
    const uid = await eventually(() => kube.get({ kind: 'TrainingWorkload', namespace: ns('vision'), name: 'resnet' })?.metadata.uid, 'the uid');
    // Queued on disk, not tried while Slack has not even accepted the token (no try used up) …
    await eventually(async () => (await allOutbox(bot.store)).find((i) => i.key === `wl:${uid}:Failed`), 'the alert queued');
    await bot.settle();
    expect((await allOutbox(bot.store)).find((i) => i.key === `wl:${uid}:Failed`)?.attempts).toBe(0);
    // … and the logs saved while the pods are still there.
    await eventually(() => existsSync(join(dir, 'vision', 'resnet', uid, 'resnet-0-0.resnet.log')), 'the archived log');
    expect(slack.messagesTo(ALICE.id)).toHaveLength(0);

    slack.down(false);
    const [dm] = await eventually(() => slack.messagesTo(ALICE.id).length > 0 && slack.messagesTo(ALICE.id), 'the DM after Slack is back', 30_000);
    expect(dm.body.text).toContain('resnet');
    await eventually(async () => (await readiness()).status === 200, 'readiness after Slack is back', 30_000);
    expect(await bot.store.outboxDepth()).toBe(0);
  }, 60_000);

  it('refusing the bot token: logged once with the fix, readiness says so, and the bot keeps checking until it is accepted', async () => {
    slack.failNext('auth.test', 'invalid_auth', 1_000_000);
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' } });
    const { status, body } = await readiness();
    expect(status).toBe(503);
    expect(body.checks.slack.detail).toContain('Slack refused the bot token (SLACK_BOT_TOKEN): invalid_auth');
    expect(body.checks.slack.detail).toContain('OAuth & Permissions');
    expect(body.checks.cluster.ok).toBe(true);

    await eventually(() => slack.calls.filter((c) => c.method === 'auth.test').length >= 3, 'auth.test retried', 20_000);
    const errors = bot.captured.entries.filter((e) => e.level === 'error' && String(e.msg).includes('Slack refused the bot token'));
    expect(errors).toHaveLength(1);
    expect(bot.captured.text()).not.toContain(slack.botToken);

    slack.clearFailures('auth.test');
    await eventually(async () => (await readiness()).status === 200, 'readiness once the token is accepted', 90_000);
    // Connected for real: a slash command is answered.
    const result = await slack.sendSlashCommand({ command: '/runai', text: 'help', user_id: ALICE.id });
    expect(JSON.stringify((await result.nextResponse()).body)).toContain('/runai');
  }, 120_000);

  it('HTTP mode: serves health, readiness and /slack/events while Slack is unreachable, and is ready once it is back', async () => {
    slack.down(true);
    bot = await sims.startBot({ slack: { mode: 'http' } });
    expect((await fetch(`http://127.0.0.1:${bot.port}/healthz`)).status).toBe(200);
    const during = await readiness();
    expect(during.status).toBe(503);
    expect(during.body.checks.slack.detail).toMatch(/cannot reach Slack to check the bot token: Slack answered HTTP 503/);
    // Bolt answers Slack's requests (an unsigned one is refused, as always) from the start.
    expect((await fetch(`http://127.0.0.1:${bot.slackPort}/slack/events`, { method: 'POST', body: '{}' })).status).toBe(401);
    slack.down(false);
    await eventually(async () => (await readiness()).status === 200, 'readiness once Slack is back', 30_000);
  }, 60_000);

  it('Socket Mode: apps.connections.open failing with 5xx and ok:false during reconnects does not stop the bot; it reconnects', async () => {
    bot = await sims.startBot({ owners: { emailDomain: 'example.org' } });
    expect(slack.socketConnectionsOpened).toHaveLength(1);
    slack.failNextHttp('apps.connections.open', 503, 2);
    slack.disconnectSockets('refresh_requested');
    await slack.waitForSocketConnections(2, 30_000);
    slack.failNext('apps.connections.open', 'internal_error', 2);
    slack.disconnectSockets('refresh_requested');
    await slack.waitForSocketConnections(3, 30_000);
    // Every failure queued was answered to a reconnect attempt (a ping timeout may add a good one).
    const opens = slack.calls.filter((c) => c.method === 'apps.connections.open');
    expect(opens.filter((c) => c.status === 503)).toHaveLength(2);
    expect(opens.filter((c) => (c.response as { error?: string }).error === 'internal_error')).toHaveLength(2);
    await eventually(async () => (await readiness()).status === 200, 'readiness after reconnecting');
    const result = await slack.sendSlashCommand({ command: '/runai', text: 'help', user_id: ALICE.id });
    expect(JSON.stringify((await result.nextResponse()).body)).toContain('/runai');
  }, 60_000);
});
