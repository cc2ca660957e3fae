/**
 * Fresh simulators for each test (a Kubernetes API server and a Slack workspace on 127.0.0.1),
 * and everything stopped after it: the bot first, then Slack, then the cluster.
 */
import { startFakeKube, type FakeKube } from '../../src/sim/kube-apiserver.js';
import { startFakeSlack, type SlackSimulator } from '../fakes/slack.js';
import { startTestBot, type TestBot } from './bot.js';

export interface Simulators {
  kube: FakeKube;
  slack: SlackSimulator;
  /** The bot of the current test, if it started one. */
  bot: TestBot | undefined;
  /** Starts the real bot on the simulators (stopping one already running: a restart). */
  startBot(yaml?: Record<string, any>, options?: Parameters<typeof startTestBot>[3]): Promise<TestBot>;
}

export function useSimulators(prepare?: (kube: FakeKube, slack: SlackSimulator) => void): Simulators {
  const sims = { bot: undefined } as Simulators;
  sims.startBot = async (yaml = {}, options = {}) => {
    await sims.bot?.stop();
    sims.bot = await startTestBot(sims.kube, sims.slack, yaml, options);
    return sims.bot;
  };
  beforeEach(async () => {
    sims.kube = await startFakeKube();
    sims.slack = await startFakeSlack();
    prepare?.(sims.kube, sims.slack);
  });
  afterEach(async () => {
    await sims.bot?.stop();
    sims.bot = undefined;
    await sims.slack.close();
    await sims.kube.close();
  });
  return sims;
}
