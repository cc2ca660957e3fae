/**
 * The live demo page in a real browser: headless Chromium (Debian's `chromium`) opens what
 * `demo` serves, sees each message arrive as Slack would render it, and takes a screenshot of
 * the DM. With UPDATE_SCREENSHOT=1 it replaces docs/demo-dm.png, the README's picture.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { GUIDE } from '../../src/lifecycle/states.js';
import { CLI, ROOT } from './cli.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
// Tests must not rewrite tracked files; the README's picture is refreshed on request only.
const SCREENSHOT = process.env.UPDATE_SCREENSHOT === '1' ? join(ROOT, 'docs', 'demo-dm.png') : join(mkdtempSync(join(tmpdir(), 'demo-page-')), 'demo-dm.png');
const haveChromium = existsSync(CHROMIUM);

if (!haveChromium) {
  // eslint-disable-next-line no-console
  console.warn(`skipping the demo page test: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`);
}
const describeWithChromium = haveChromium ? describe : describe.skip;

/** Starts `demo` on a free port and resolves with the URL it prints. */
function startDemoProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'demo', '--port', '0', '--step-delay-ms', '200'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Demo running at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`demo exited with ${code} before printing its URL:\n${stderr}`)));
  });
}

describeWithChromium('the demo page', () => {
  let demo: { child: ChildProcess; url: string };
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    demo = await startDemoProcess();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 });
    await page.goto(demo.url);
    // The page says so once the scenario is over and the bot has gone quiet.
    await page.waitForSelector('body[data-done="true"]', { timeout: 45_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (demo?.child.exitCode === null) {
      const exited = new Promise((resolve) => demo.child.once('exit', resolve));
      demo.child.kill('SIGTERM');
      await exited;
    }
  });

  it('prints its URL on 127.0.0.1 and serves the page there', () => {
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("shows the OOM job's DM with its header, fields, the error in a code block and disabled buttons", async () => {
    const dm = page.locator('[data-conversation="D0ALICE"]');
    await expect(dm.locator('.conversation-title').textContent()).resolves.toContain('Alice Martin');
    await expect(dm.locator('.header').first().textContent()).resolves.toBe('resnet-finetune failed');
    const code = await dm.locator('pre.code-block').allTextContents();
    expect(code.join('\n')).toContain('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.06 GiB');
    await expect(dm.locator('.fields').first().textContent()).resolves.toContain('runai-vision/resnet-finetune');
    await expect(dm.locator('.section-text b').first().textContent()).resolves.toBe('resnet-finetune');
    const buttons = dm.locator('button');
    await expect(buttons.allTextContents()).resolves.toEqual(expect.arrayContaining(['Show more of the log', 'Mute this workload']));
    expect(await dm.locator('button:not([disabled])').count()).toBe(0);
    await dm.screenshot({ path: SCREENSHOT });
  });

  it("shows the stopped notebook's DM, the over-quota warning and the distributed job's worker 1 error", async () => {
    const text = await page.locator('main').innerText();
    expect(text).toContain('sdxl-eval has been Pending for 45 minutes');
    expect(text).toContain('jupyter-bob was stopped');
    expect(text).toContain(GUIDE.Stopped.nextAction);
    expect(text).toContain('llama-ddp failed');
    expect(text).toContain("No such file or directory: '/data/shards/shard-17.parquet'");
  });

  it('renders emoji and Slack escapes as a reader sees them, never as markup', async () => {
    const text = await page.locator('main').innerText();
    expect(text).toContain('❌');
    expect(text).not.toMatch(/&lt;|&gt;|&amp;|:x:/);
    expect(await page.locator('main script, main iframe').count()).toBe(0);
  });

  it('says the scenario is finished in its status line', async () => {
    await expect(page.locator('#status').textContent()).resolves.toMatch(/^Scenario finished: \d+ messages posted/);
  });
});
