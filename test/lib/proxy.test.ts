/**
 * The bot behind an HTTP(S) proxy, through a real local proxy that records what it is asked
 * for (helpers/recording-proxy.ts). Slack is reached as `slack.invalid`, a name only the proxy
 * can resolve, so a request that went around the proxy would fail rather than pass unseen:
 * the Web API, apps.connections.open and the Socket Mode WebSocket all go through HTTP_PROXY;
 * NO_PROXY hosts (the feed at 127.0.0.1) and the Kubernetes API (which takes its kubeconfig's
 * proxy-url instead) never touch it.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadKubeConfig } from '../../src/app.js';
import { runChecks } from '../../src/check/run.js';
import { parseConfig } from '../../src/config.js';
import { demoWindowStart, maintenanceCalendar } from '../../src/demo/maintenance-feed.js';
import { REQUIRED_BOT_SCOPES } from '../../src/slack/scopes.js';
import { ALICE } from '../fakes/slack.js';
import { eventually, tempDir, type TestBot } from '../helpers/bot.js';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

/** An HTTP server for the maintenance feed, counting the requests it answered. */
async function startFeedServer(): Promise<{ port: number; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const body = maintenanceCalendar(demoWindowStart(new Date()), 8, new Date());
  const server = http.createServer((_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'text/calendar' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const port = (url: string) => new URL(url).port;

describe('behind an HTTP proxy', () => {
  const sims = useSimulators((kube, slack) => {
    kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' });
    slack.setScopes([...REQUIRED_BOT_SCOPES]);
    slack.addChannel('C0MAINT', 'maintenance');
    slack.inviteBot('C0MAINT');
  });
  let proxy: RecordingProxy;
  let feed: Awaited<ReturnType<typeof startFeedServer>>;
  beforeEach(async () => {
    [proxy, feed] = await Promise.all([startRecordingProxy(), startFeedServer()]);
  });
  afterEach(async () => {
    await sims.bot?.stop();
    await Promise.all([proxy.close(), feed.close()]);
  });

  const slackByName = () => `http://slack.invalid:${port(sims.slack.url)}/api/`;

  it('reaches Slack (Web API, apps.connections.open, Socket Mode) only through HTTP_PROXY, and a NO_PROXY feed and the cluster directly', async () => {
    const { kube, slack } = sims;
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision' }));
    const bot: TestBot = await sims.startBot(
      { owners: { emailDomain: 'example.org' }, maintenance: { feed: `http://127.0.0.1:${feed.port}/maintenance.ics`, channel: 'C0MAINT' } },
      { env: { SLACK_API_URL: slackByName(), HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } },
    );
    await slack.waitForSocketConnections(1, 15_000);
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    await eventually(() => slack.messagesTo(ALICE.id).length > 0, 'the DM, sent through the proxy', 15_000);
    await eventually(() => feed.requests() > 0, 'the feed fetched');
    await bot.settle();

    const slackHost = `slack.invalid:${port(sims.slack.url)}`;
    expect(proxy.hosts()).toEqual([slackHost]);
    expect(slack.callsTo('auth.test').length).toBeGreaterThan(0);
    expect(slack.callsTo('apps.connections.open').length).toBeGreaterThan(0);
    // The feed (NO_PROXY) and the API server (no proxy-url) were reached without the proxy.
    expect(proxy.seen.some((s) => s.includes(String(feed.port)) || s.includes(port(kube.url)))).toBe(false);
  });

  it('check reaches Slack and the feed through the lower-case http_proxy, as start does', async () => {
    const { slack } = sims;
    const dir = tempDir('proxy-check-');
    const env = {
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slackByName(),
      KUBECONFIG: sims.kube.writeKubeconfig(dir),
      http_proxy: proxy.url,
    };
    const feedByName = `http://feed.invalid:${feed.port}/maintenance.ics`;
    const rows = await runChecks(parseConfig({ maintenance: { feed: feedByName, channel: 'C0MAINT' } }, env), { source: 'test', now: () => new Date(), loadKubeConfig });
    expect(rows.filter((r) => !r.ok)).toEqual([]);
    expect(rows.map((r) => r.check)).toEqual(expect.arrayContaining(['Slack bot token', 'Slack app-level token', 'maintenance feed']));
    expect(proxy.hosts()).toEqual(expect.arrayContaining([`slack.invalid:${port(slack.url)}`, `feed.invalid:${feed.port}`]));
    expect(feed.requests()).toBe(1);
  });

  it("reaches the Kubernetes API through the kubeconfig's proxy-url", async () => {
    const { kube, slack } = sims;
    const dir = tempDir('proxy-kube-');
    const kubeconfig = join(dir, 'kubeconfig');
    const server = `http://kube.invalid:${port(kube.url)}`;
    writeFileSync(kubeconfig, kube.kubeconfigYaml().replace(/^( *)server: .*$/m, (_line, indent: string) => `${indent}server: ${server}\n${indent}proxy-url: ${proxy.url}`));
    kube.apply(workloadCr({ name: 'resnet', project: 'vision', owner: 'alice' }));
    kube.apply(pod({ workload: 'resnet', project: 'vision' }));
    await sims.startBot({ owners: { emailDomain: 'example.org' } }, { kubeConfig: loadKubeConfig(kubeconfig), dir });
    kube.setPhase('TrainingWorkload', ns('vision'), 'resnet', 'Failed');
    await eventually(() => slack.messagesTo(ALICE.id).length > 0, 'the DM of a failure seen through the proxy', 15_000);
    // client-node tunnels (CONNECT) even to an http:// server; the API server's own log says what
    // came through: it is reached only by a name the proxy alone resolves.
    expect(proxy.seen.length).toBeGreaterThan(0);
    const workloads = kube.requests.filter((r) => r.path.endsWith('/trainingworkloads'));
    expect(workloads.some((r) => r.query.watch !== 'true')).toBe(true);
    expect(workloads.some((r) => r.query.watch === 'true')).toBe(true);
    expect(kube.requests.some((r) => r.path.endsWith('/pods'))).toBe(true);
    expect(proxy.hosts()).toEqual([`kube.invalid:${port(kube.url)}`]);
  });
});
