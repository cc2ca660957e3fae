/**
 * `runai-slack-bot demo [--headless --out FILE] [--port N]`: the bot at work within a minute of
 * cloning, with no cluster and no Slack workspace. It runs the real bot against a simulated
 * Run:ai cluster and Slack, plays a scripted scenario, and either serves a page that is a small
 * Slack client (act as any demo person, type /runai, click the buttons, open the Home tab,
 * play the next event now) or, headless, writes every Slack Web API call the bot made as JSON
 * lines and exits.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createLogger } from '../ops/logger.js';

/**
 * The demo and the simulators it runs (src/demo/, src/sim/, and `ws`, a dev dependency) load
 * only when `demo` runs: `start` must not carry them, and the production image leaves them out.
 */
async function loadDemo() {
  try {
    const [run, pageServer, pageState, visitor] = await Promise.all([
      import('../demo/run.js'),
      import('../demo/page-server.js'),
      import('../demo/page-state.js'),
      import('../demo/visitor.js'),
    ]);
    return { startDemo: run.startDemo, startDemoPage: pageServer.startDemoPage, pageStateOf: pageState.pageStateOf, visitorActions: visitor.visitorActions };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`the demo is not part of this installation (${(err as Error).message}); run it from a clone of the repository: npm ci && npm run demo`);
    }
    throw err;
  }
}
type Demo = Awaited<ReturnType<typeof loadDemo>>;

/** Long enough to look around between events; the page's button plays the next one at once. */
const PAGE_STEP_DELAY_MS = 20_000;
const SHUTDOWN_DEADLINE_MS = 10_000;

interface DemoFlags {
  headless?: boolean;
  out?: string;
  port: string;
  stepDelayMs: string;
  logLevel: string;
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('run the bot against a simulated cluster and Slack, and show what it posts')
    .option('--headless', 'play the scenario to the end without the page, write the Slack calls, exit')
    .option('--out <file>', 'with --headless: where to write the Slack Web API calls as JSON lines (default: stdout)')
    .option('--port <n>', 'port of the page on 127.0.0.1 (0: any free port)', '0')
    .option('--step-delay-ms <ms>', "page mode: pause before each scenario step (the page's ▶ button ends it at once)", String(PAGE_STEP_DELAY_MS))
    .option('--log-level <level>', "the bot's log level (logs go to stderr)", 'warn')
    .action(async (flags: DemoFlags) => {
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: "${flags.port}" is not a port number`);
      const stepDelayMs = Number(flags.stepDelayMs);
      if (!Number.isInteger(stepDelayMs) || stepDelayMs < 0) throw new Error(`--step-delay-ms: "${flags.stepDelayMs}" is not a number of milliseconds`);
      const log = createLogger(flags.logLevel, process.stderr);
      const demo = await loadDemo();
      if (flags.headless) await runHeadless(demo, log, flags.out);
      else await runPage(demo, log, port, stepDelayMs);
    });
}

async function runHeadless({ startDemo }: Demo, log: ReturnType<typeof createLogger>, out: string | undefined): Promise<void> {
  const demo = await startDemo({ log, stepDelayMs: 0 });
  const played = await demo.play().then(() => undefined, (err: unknown) => err);
  await stopWithin(demo.stop());
  // Written even when an alert never came: the calls show what did happen.
  const lines = demo.slack.calls.map((call) => `${JSON.stringify({ method: call.method, body: call.body })}\n`).join('');
  if (out) writeFileSync(out, lines);
  else process.stdout.write(lines);
  if (played) throw played;
  // Bolt and client-node may leave idle sockets behind; the run is over.
  process.exit(0);
}

async function runPage({ startDemo, startDemoPage, pageStateOf, visitorActions }: Demo, log: ReturnType<typeof createLogger>, port: number, stepDelayMs: number): Promise<void> {
  const demo = await startDemo({ log, stepDelayMs });
  const people = new Set(demo.slack.workspace.users.keys());
  const page = await startDemoPage(port, {
    ...pageStateOf(demo),
    act: visitorActions({ slack: demo.slack, people, playNext: () => demo.playNext() }),
  });
  process.stdout.write(`Demo running at ${page.url}\n`);
  const shutdown = () => {
    process.stdout.write('Stopping the demo…\n');
    void stopWithin(Promise.all([page.close(), demo.stop()])).then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await demo.play();
  process.stdout.write(`Scenario finished; the page stays up until Ctrl+C.\n`);
}

function stopWithin(stopping: Promise<unknown>): Promise<void> {
  return Promise.race([
    stopping.then(() => undefined),
    new Promise<void>((_, reject) => setTimeout(() => reject(new Error('the demo did not stop in time')), SHUTDOWN_DEADLINE_MS).unref()),
  ]);
}
